// SPDX-License-Identifier: Apache-2.0

/// A body that is not what the route reads: where (a path into the JSON, `signers[0].slot`) and what is wrong, in
/// words that name JSON's kinds of value rather than the server's types.
struct BodyError: Error, CustomStringConvertible {
    var path: [any CodingKey]
    var message: String

    var description: String { "\(Self.text(path)): \(message)" }

    /// A path as `signers[0].ink`; `body` for the whole.
    static func text(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "body" : text
    }

    /// Any error of decoding a body, in those words.
    static func describe(_ error: any Error) -> String {
        if let error = error as? BodyError { return error.description }
        func kind(_ type: Any.Type) -> String {
            if type == String.self { return "a string" }
            if type == Bool.self { return "true or false" }
            if type == [Any].self { return "an array" }
            if type == [String: Any].self { return "an object" }
            return "a number"
        }
        switch error as? DecodingError {
        case let .keyNotFound(key, context)?: return "\(text(context.codingPath + [key])): required field is missing"
        case let .typeMismatch(type, context)?: return "\(text(context.codingPath)): expected \(kind(type))"
        case let .valueNotFound(type, context)?: return "\(text(context.codingPath)): expected \(kind(type)), found null"
        case let .dataCorrupted(context)?:
            return context.codingPath.isEmpty ? "the body is not JSON" : "\(text(context.codingPath)): not a value this field takes"
        default: return "the body cannot be read"
        }
    }
}

/// The fields of one JSON object of the body, refusing a field not in the list.
struct StrictFields {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let container: KeyedDecodingContainer<Key>

    init(_ decoder: any Decoder, _ names: [String]) throws {
        container = try decoder.container(keyedBy: Key.self)
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !names.contains($0) }) {
            throw BodyError(path: decoder.codingPath, message: "unknown field '\(unknown)'; expected one of \(names.joined(separator: ", "))")
        }
    }

    func value<T: Decodable>(_ name: String) throws -> T { try container.decode(T.self, forKey: Key(stringValue: name)) }

    func optional<T: Decodable>(_ name: String) throws -> T? { try container.decodeIfPresent(T.self, forKey: Key(stringValue: name)) }

    /// A whole number, refused with that reason when it has a fraction or is too large.
    func wholeNumber(_ name: String) throws -> Int? {
        guard let number: Double = try optional(name) else { return nil }
        guard let whole = Int(exactly: number) else {
            throw BodyError(path: container.codingPath + [Key(stringValue: name)], message: "expected a whole number, found \(number)")
        }
        return whole
    }

    /// One of a closed list of names, refused with the list.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String) throws -> T where T.RawValue == String {
        try named(try value(name), name)
    }

    func optionalChoice<T: RawRepresentable & CaseIterable>(_ name: String) throws -> T? where T.RawValue == String {
        guard let text: String = try optional(name) else { return nil }
        return try named(text, name)
    }

    private func named<T: RawRepresentable & CaseIterable>(_ text: String, _ name: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            throw BodyError(path: container.codingPath + [Key(stringValue: name)],
                            message: "'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
