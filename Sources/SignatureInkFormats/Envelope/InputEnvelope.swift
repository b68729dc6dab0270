// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials

/// A signature with the id of the record it belongs to, as one line of a stream carries it:
/// `{"id": ID, "signature": SIGNATURE}`.
///
/// A job that sends many signatures through one process (`signature-ink render --ndjson`, a Spark partition) needs
/// each result tied back to its record; line numbers restart in every process, so the id travels with the signature
/// and the result repeats it.
///
/// ```json
/// {"id": "order-1187", "signature": {"format": "signature-ink", "version": 1, "channels": ["x", "y", "t"], "strokes": [[[10, 20, 0]]]}}
/// {"id": 1188, "signature": [{"penColor": "black", "points": [{"x": 10, "y": 20, "time": 1523730548448}]}]}
/// {"id": 1189, "signature": "<ink xmlns=\"http://www.w3.org/2003/InkML\"><trace>10 20, 12 21</trace></ink>"}
/// ```
///
/// - `id` is a JSON string or a JSON integer (no fraction, no exponent), of any length. It is kept as the line wrote
///   it (``ID/json``), so a result can give it back digit for digit, escape for escape.
/// - `signature` is either the signature itself in a JSON stroke format (native, signature_pad, stroke list, UIM: an
///   object or an array), or a JSON string holding the whole text of a stroke file in any format, InkML and
///   SVC2004 included, which is then read exactly as the file would be.
///
/// ## Telling an envelope from a stroke file
///
/// A line is an envelope when its value is an object with a member named `id` and a member named `signature`, in
/// either order; it may hold nothing else. The rule is unambiguous because no format read here has either name at
/// its top level: a native document's members are `format`, `version`, `canvas`, `startTime`, `metadata`, `pens`,
/// `channels` and `strokes`, a UIM document's `inputData` and `inkData`, signature_pad and stroke lists are arrays,
/// InkML is XML and SVC2004 plain text. So a line without both names is read as a stroke file exactly as before
/// envelopes existed, and a line with both cannot be a stroke file with an id added to it by accident: its
/// other members, whatever they are, are refused by name rather than dropped. Data in a line is thus either read
/// or named in an error, never ignored:
///
/// | line | result |
/// |---|---|
/// | no `id` member, or no `signature` member | not an envelope: `nil`, read the line as a stroke file |
/// | a member besides `id` and `signature`, or either of them twice | ``FormatError/field(path:message:)`` naming it, with the id |
/// | `id` neither a string nor an integer (`null`, `1.5`, `true`, an object) | ``FormatError/field(path:message:)`` at `id`, without an id |
/// | `signature` neither an object, an array nor a string | ``FormatError/field(path:message:)`` at `signature`, with the id |
/// | a syntax error after both names were read | ``FormatError/syntax(line:column:message:)``, with the id when it was read |
/// | a syntax error before both names were read | `nil`: the line cannot be told from a damaged stroke file, which reports it |
///
/// The signature's own syntax is checked by its decoder, not here: reading an envelope finds where the signature
/// ends by its brackets and quotes alone, so its bytes are parsed once, by the decoder that needs them. An error the
/// decoder finds in it is placed in the line by ``located(_:)``.
public struct InputEnvelope: Sendable {
    /// A record's id, as the envelope wrote it.
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        /// The JSON type of an id.
        public enum Kind: Sendable, Hashable {
            /// A JSON string.
            case string
            /// A JSON number with no fraction and no exponent.
            case integer
        }

        /// Whether the id is a string or an integer.
        public var kind: Kind
        /// The id as JSON text, exactly as the line wrote it: a string with its quotes and escapes, or an integer's
        /// digits (with a leading `-` when negative). Written into JSON output as it is, it reads back as the same value.
        public var json: String

        /// The id as JSON text (``json``).
        public var description: String { json }
    }

    /// The record's id.
    public var id: ID
    /// The signature's bytes, to decode as a stroke file: the JSON text of the `signature` value when it is an object
    /// or an array, or the decoded text of a string value.
    public var signature: Data
    /// Whether the signature was given as a string holding a file's text, rather than as JSON in the line.
    public var signatureIsText: Bool
    /// How many characters of the line stand before the signature's first one (JSON signatures only).
    var signatureColumnOffset: Int

    /// Reads `line` as an envelope when it is one.
    ///
    /// Costs a byte search on a line that is not an envelope (for the text `"signature"`, or a backslash escape that
    /// could spell it), sixteen bytes at a time: a 5 KB native line pays 13 K instructions, 0.3 % of its render to
    /// PNG. An envelope's members are read once; its signature is copied out, and unescaped when it is a string.
    /// - Parameter line: one line of input, without its newline.
    /// - Returns: the envelope, or `nil` when the line is not one (see the table above): read it as a stroke file.
    /// - Throws: ``InputEnvelope/Failure`` with the error and, whenever it could be read, the id.
    public static func read(_ line: Data) throws(Failure) -> InputEnvelope? {
        guard mayBeEnvelope(line) else { return nil }
        let outcome: Result<InputEnvelope?, Failure> = line.withUnsafeBytes { raw in
            var scan = EnvelopeScan(JSONReader(raw))
            do throws(Failure) {
                return .success(try scan.run())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// An error the decoder found in ``signature``, placed in the line: a syntax error's column counted from the
    /// line's start, a field path under `signature` (such as `signature.strokes[2][5][1]`), and for a signature given
    /// as text, its own line and column after `signature: `.
    /// - Parameter error: what the decoder threw for ``signature``.
    /// - Returns: the same error, worded for the whole line.
    public func located(_ error: FormatError) -> FormatError {
        switch error {
        case let .syntax(line, column, message) where !signatureIsText && line == 1:
            return .syntax(line: 1, column: column + signatureColumnOffset, message: message)
        case let .field(path, message):
            let under = path.isEmpty ? "signature" : path.hasPrefix("[") ? "signature" + path : "signature." + path
            return .field(path: under, message: message)
        default:
            return .field(path: "signature", message: error.description)
        }
    }

    /// Why an envelope could not be read, with the id when it could be.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The record's id, when the line's id is valid and could be read (a syntax error before it hides it).
        public var id: ID?
        /// What is wrong, and where.
        public var error: FormatError

        /// The error's message (``FormatError/description``).
        public var description: String { error.description }
    }

    /// Whether `line` could hold a member named `signature`: its text spelled out, or a backslash, with which a key
    /// could spell it in escapes. Anything else cannot be an envelope, whatever its shape.
    static func mayBeEnvelope(_ line: Data) -> Bool {
        line.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            let count = raw.count
            let word: StaticString = "\"signature\""
            let pattern = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            var i = 0
            // An envelope is an object: after a byte-order mark and white space, its first byte is `{`.
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            while i < count, raw[i] == 0x20 || raw[i] == 0x09 || raw[i] == 0x0D || raw[i] == 0x0A { i += 1 }
            guard i < count, raw[i] == UInt8(ascii: "{") else { return false }
            let last = count - pattern.count
            while i <= last {
                // Sixteen bytes at a time up to the next quote or backslash: most of a stroke file has neither.
                while i &+ 16 <= count,
                      JSONReader.hasNoQuoteOrBackslash(base.loadUnaligned(fromByteOffset: i, as: UInt64.self),
                                                       base.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)) {
                    i &+= 16
                }
                guard i <= last else { break }
                let b = raw[i]
                if b == UInt8(ascii: "\\") { return true }
                if b == UInt8(ascii: "\""), UnsafeRawBufferPointer(rebasing: raw[i..<i + pattern.count]).elementsEqual(pattern) {
                    return true
                }
                i += 1
            }
            return false
        }
    }
}

/// One pass over an envelope's members, noting what each is; the verdict comes at the end, when it is known whether
/// both names were there.
private struct EnvelopeScan {
    var reader: JSONReader
    var id: InputEnvelope.ID?
    var idError: FormatError?
    var sawID = false
    var sawSignature = false
    var signature: (start: Int, end: Int, text: JSONReader.StringRange?)?
    var signatureError: FormatError?
    /// The first member that an envelope may not hold: an unknown one, or `id` or `signature` again.
    var stray: FormatError?

    init(_ reader: JSONReader) {
        self.reader = reader
    }

    mutating func run() throws(InputEnvelope.Failure) -> InputEnvelope? {
        do throws(JSONReader.Stop) {
            try readMembers()
        } catch {
            guard sawID && sawSignature else { return nil }
            // The scan steps over the signature by its brackets alone: a syntax error there is placed by a full check.
            let offset: Int
            if case let .syntax(at) = error { offset = at } else { offset = reader.position }
            throw fail(with: id, syntaxErrorAt: offset)
        }
        guard sawID && sawSignature else { return nil }
        // A damaged line is reported as damaged before anything in it is called wrong, as the decoders do.
        if stray != nil || idError != nil || signatureError != nil, let offset = firstSyntaxError() {
            throw fail(with: id, syntaxErrorAt: offset)
        }
        // `id` is set only when it was valid.
        if let stray { throw InputEnvelope.Failure(id: id, error: stray) }
        if let idError { throw InputEnvelope.Failure(id: nil, error: idError) }
        if let signatureError { throw InputEnvelope.Failure(id: id, error: signatureError) }
        guard let id, let signature else { return nil }
        let bytes: Data
        if let text = signature.text {
            bytes = Data(reader.unescapedBytes(of: text))
        } else {
            bytes = Data(UnsafeBufferPointer(rebasing: reader.bytes[signature.start..<signature.end]))
        }
        var column = 0
        if signature.text == nil {
            for b in reader.bytes[0..<signature.start] where b & 0xC0 != 0x80 { column += 1 }
        }
        return InputEnvelope(id: id, signature: bytes, signatureIsText: signature.text != nil, signatureColumnOffset: column)
    }

    private mutating func readMembers() throws(JSONReader.Stop) {
        guard try reader.enterObject() else { return try reader.expectEnd() }
        repeat {
            let key = try reader.key()
            if reader.matches(key, "id") {
                guard !sawID else {
                    stray = stray ?? .field(path: "id", message: "given twice; an envelope holds one \"id\" and one \"signature\"")
                    try reader.skipValue()
                    continue
                }
                sawID = true
                try readID()
            } else if reader.matches(key, "signature") {
                guard !sawSignature else {
                    stray = stray ?? .field(path: "signature", message: "given twice; an envelope holds one \"id\" and one \"signature\"")
                    try reader.skipValue()
                    continue
                }
                sawSignature = true
                try readSignature()
            } else {
                stray = stray ?? .field(path: reader.text(of: key),
                                        message: "not an envelope member; an envelope holds only \"id\" and \"signature\"")
                try reader.skipValue()
            }
        } while try reader.nextInObject()
        try reader.expectEnd()
    }

    private mutating func readID() throws(JSONReader.Stop) {
        let kind = try reader.peekKind()
        switch kind {
        case .string:
            let start = reader.position
            _ = try reader.stringRange()
            id = InputEnvelope.ID(kind: .string, json: reader.text(from: start, to: reader.position))
        case .number:
            let n = try reader.number()
            guard n.isInteger else {
                idError = .field(path: "id", message: "expected a string or an integer, found the number \(reader.text(of: n))")
                return
            }
            id = InputEnvelope.ID(kind: .integer, json: reader.text(of: n))
        default:
            idError = .field(path: "id", message: "expected a string or an integer, found \(kind.phrase)")
            try reader.skipValue()
        }
    }

    private mutating func readSignature() throws(JSONReader.Stop) {
        let kind = try reader.peekKind()
        switch kind {
        case .string:
            let start = reader.position
            let text = try reader.stringRange()
            signature = (start, reader.position, text)
        case .object, .array:
            let start = reader.position
            try reader.skipBrackets()
            signature = (start, reader.position, nil)
        default:
            signatureError = .field(path: "signature", message: "expected a stroke document (an object or an array) "
                                    + "or a stroke file's text (a string), found \(kind.phrase)")
            try reader.skipValue()
        }
    }

    /// The first syntax error anywhere in the line, found by a full check.
    private func firstSyntaxError() -> Int? {
        JSONInput.firstSyntaxError(in: UnsafeRawBufferPointer(reader.bytes))
    }

    private func fail(with id: InputEnvelope.ID?, syntaxErrorAt offset: Int) -> InputEnvelope.Failure {
        let line = Data(UnsafeRawBufferPointer(reader.bytes))
        return InputEnvelope.Failure(id: id, error: JSONInput.syntaxError(in: line, at: firstSyntaxError() ?? offset))
    }
}

extension JSONReader {
    /// Steps over an object or an array by its brackets and string quotes alone, without checking what is between:
    /// for a value that a decoder will read in full afterwards.
    /// - Throws: a syntax error at the end of the text when the brackets do not close.
    mutating func skipBrackets() throws(Stop) {
        var depth = 0
        let count = bytes.count
        var i = position
        while i < count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < count, bytes[i] != UInt8(ascii: "\"") {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    position = i + 1
                    return
                }
            default:
                break
            }
            i += 1
        }
        position = count
        throw .syntax(offset: count)
    }

    /// The text of the bytes from `start` up to `end`, as they stand (for JSON text already checked).
    func text(from start: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
