// SPDX-License-Identifier: Apache-2.0

/// Typed reads of a format's fields, with the errors Foundation's `JSONDecoder` gave for them, so every
/// decoder on ``JSONReader`` words a wrong type, a `null` or a missing field the same way.
extension JSONReader {
    /// A scalar value read where it stands, to be checked later in the order a format checks its fields.
    enum Scalar {
        case number(Number)
        case null
        /// A string, a boolean, an array or an object (skipped).
        case other(Kind)
    }

    /// Reads any value as a ``Scalar``, skipping it when it is neither a number nor `null`.
    @inline(__always)
    mutating func scalar() throws(Stop) -> Scalar {
        switch try peekKind() {
        case .number: return .number(try number())
        case .null:
            _ = consumeNull()
            return .null
        case let other:
            try skipValue()
            return .other(other)
        }
    }

    /// A required number: missing, `null` or another type is a field error at `path`; a number beyond
    /// `Double`'s range is a syntax error, as in Foundation's parser.
    func double(_ value: Scalar?, path: @autoclosure () -> String) throws(Stop) -> Double {
        switch value {
        case let .number(n)?: return try finiteDouble(n)
        case .null?: throw Self.typeMismatch(path(), expected: .number, found: .null)
        case let .other(kind)?: throw Self.typeMismatch(path(), expected: .number, found: kind)
        case nil: throw .field(.field(path: path(), message: "missing"))
        }
    }

    /// An optional number: `nil` when missing or `null`; another type is a field error at `path`.
    func optionalDouble(_ value: Scalar?, path: @autoclosure () -> String) throws(Stop) -> Double? {
        switch value {
        case let .number(n)?: return try finiteDouble(n)
        case .null?, nil: return nil
        case let .other(kind)?: throw Self.typeMismatch(path(), expected: .number, found: kind)
        }
    }

    /// The value of a number read by ``number()``; beyond `Double`'s range it is a syntax error at the number.
    func finiteDouble(_ n: Number) throws(Stop) -> Double {
        let v = double(of: n)
        guard v.isFinite else { throw .syntax(offset: n.start) }
        return v
    }

    /// Reads a number at `path`, or stops with a field error naming the type found.
    mutating func double(path: @autoclosure () -> String) throws(Stop) -> Double {
        let kind = try peekKind()
        guard kind == .number else { throw Self.typeMismatch(path(), expected: .number, found: kind) }
        return try finiteDouble(try number())
    }

    /// Reads a string at `path`, or stops with a field error naming the type found.
    mutating func string(path: @autoclosure () -> String) throws(Stop) -> String {
        let kind = try peekKind()
        guard kind == .string else { throw Self.typeMismatch(path(), expected: .string, found: kind) }
        return try string()
    }

    /// Reads a whole number at `path`; a fraction or a value beyond `Int` is a field error.
    mutating func integer(path: @autoclosure () -> String) throws(Stop) -> Int {
        let kind = try peekKind()
        guard kind == .number else { throw Self.typeMismatch(path(), expected: .number, found: kind) }
        let n = try number()
        if n.isInteger, let v = Int(text(of: n)) { return v }
        let v = double(of: n)
        guard v == v.rounded(), let i = Int(exactly: v) else {
            throw unrepresentable(n, path: path(), type: "Int")
        }
        return i
    }

    /// Stops with a field error unless the next value is of `kind`.
    mutating func expectKind(_ kind: Kind, path: @autoclosure () -> String) throws(Stop) {
        let found = try peekKind()
        guard found == kind else { throw Self.typeMismatch(path(), expected: kind, found: found) }
    }

    /// The error for a value of the wrong type, worded as Foundation's decoder worded it.
    static func typeMismatch(_ path: String, expected: Kind, found: Kind) -> Stop {
        .field(.field(path: path, message: found == .null ? "expected \(expected.phrase), found null"
                                                          : "expected \(expected.phrase)"))
    }

    /// The error for a number that does not fit in `type` (`Float`, `Int`), naming the field.
    func unrepresentable(_ n: Number, path: String, type: String) -> Stop {
        .field(.field(path: path, message: "Parsed JSON number <\(text(of: n))> does not fit in \(type)."))
    }

    /// Runs a check that throws a ``FormatError`` (``InkAssembler``'s), as a field error.
    static func checking<T>(_ body: () throws(FormatError) -> T) throws(Stop) -> T {
        do {
            return try body()
        } catch {
            throw .field(error)
        }
    }

    /// Whether a string read by ``stringRange()`` is exactly `word`.
    func matches(_ s: StringRange, name word: String) -> Bool {
        if s.escaped { return text(of: s) == word }
        guard s.end - s.start == word.utf8.count else { return false }
        return UnsafeBufferPointer(rebasing: bytes[s.start..<s.end]).elementsEqual(word.utf8)
    }
}

extension JSONReader {
    /// A field of an object read by ``members(_:path:_:)``: its key, and whether it must be there.
    struct Field {
        var key: StaticString
        var required = true
    }

    /// Reads the object at the reader's position, handing the value of each key in `fields` (the first time
    /// it appears) to `read` with the field's index; other members are skipped.
    ///
    /// Errors come in the order Foundation's decoder checked a type's fields, whatever the order of the
    /// keys: a field error in a value waits until the whole object is read, and then the first error or
    /// missing required field, in the order of `fields`, is thrown. At most 64 fields.
    /// - Throws: a field error naming `path` when the value is not an object; a syntax error at once.
    mutating func members(_ fields: [Field], path: @autoclosure () -> String,
                          _ read: (inout JSONReader, Int) throws(Stop) -> Void) throws(Stop) {
        try expectKind(.object, path: path())
        var found: UInt64 = 0
        var firstError: (field: Int, error: FormatError)?
        if try enterObject() {
            repeat {
                let key = try self.key()
                guard let k = fields.firstIndex(where: { matches(key, $0.key) }), found & 1 << k == 0 else {
                    try skipValue()
                    continue
                }
                found |= 1 << k
                _ = peek()
                let start = self
                do {
                    try read(&self, k)
                } catch {
                    guard case let .field(error) = error else { throw error }
                    if k < firstError?.field ?? fields.count { firstError = (k, error) }
                    self = start
                    try skipValue()
                }
            } while try nextInObject()
        }
        for (k, field) in fields.enumerated() {
            if let firstError, firstError.field == k { throw .field(firstError.error) }
            if field.required && found & 1 << k == 0 {
                let base = path()
                throw .field(.field(path: base.isEmpty ? "\(field.key)" : "\(base).\(field.key)", message: "missing"))
            }
        }
    }

    /// Reads the array at the reader's position, handing each element to `read` with its index.
    /// - Throws: a field error naming `path` when the value is not an array; the first error of an element.
    mutating func elements(path: @autoclosure () -> String,
                           _ read: (inout JSONReader, Int) throws(Stop) -> Void) throws(Stop) {
        try expectKind(.array, path: path())
        guard try enterArray() else { return }
        var i = 0
        repeat {
            try read(&self, i)
            i += 1
        } while try nextInArray()
    }

    /// Reads an optional whole number at `path`: `nil` for `null`; otherwise as ``integer(path:)``.
    mutating func optionalInteger(path: @autoclosure () -> String) throws(Stop) -> Int? {
        consumeNull() ? nil : try integer(path: path())
    }

    /// Reads an optional number at `path`: `nil` for `null`; another type is a field error.
    mutating func optionalDouble(path: @autoclosure () -> String) throws(Stop) -> Double? {
        try optionalDouble(try scalar(), path: path())
    }
}
