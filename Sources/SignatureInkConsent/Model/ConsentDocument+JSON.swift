// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInkFormats
import SignatureInkRender

extension ConsentDocument {
    /// Reads and checks a document from JSON.
    ///
    /// The bytes are checked against `limits.maxBytes` before they are parsed; then every field is checked (see
    /// ``validate(limits:)``), and a field the schema does not have is refused too, so that a misspelt
    /// `"mandatry": false` cannot pass unnoticed.
    /// - Parameters:
    ///   - json: the document, UTF-8 JSON.
    ///   - limits: the largest document accepted; default ``ConsentLimits/default``.
    /// - Throws: ``ConsentError`` naming the field at fault.
    public init(json: [UInt8], limits: ConsentLimits = .default) throws(ConsentError) {
        guard json.count <= limits.maxBytes else {
            throw .limitExceeded(field: "document size in bytes", limit: limits.maxBytes, actual: json.count)
        }
        let data = Data(json)
        // The fields are checked on the outline the decoders' reader makes; where it refuses the text, Foundation's
        // decoder reads it, so that its error names what is wrong as before (or, should it take the text, its tree
        // is checked).
        let tree: JSONOutline
        if let outline = JSONOutline(json: json) {
            tree = outline
        } else {
            do {
                tree = try JSONDecoder().decode(JSONTree.self, from: data).outline
            } catch {
                throw Self.describe(error)
            }
        }
        try Self.checkFields(tree)
        do {
            self = try JSONDecoder().decode(ConsentDocument.self, from: data)
        } catch {
            throw Self.describe(error)
        }
        try validate(limits: limits)
    }

    /// The document as JSON with sorted keys and no insignificant space: the same document always gives the same
    /// bytes. ``appliedSignatures`` are not part of it.
    public var canonicalJSON: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and booleans cannot fail.
        return (try? Array(encoder.encode(self))) ?? []
    }

    /// The SHA-256 of ``canonicalJSON`` as 64 lower-case hexadecimal digits: what a consent record identifies the
    /// document by. Signing a copy does not change it.
    public var digest: String { HexDigest.sha256(canonicalJSON) }

    // MARK: Errors

    /// A decoding error as a field path and a message.
    static func describe(_ error: any Error) -> ConsentError {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "document" : text
        }
        switch error as? DecodingError {
        case let .keyNotFound(key, context)?:
            return .invalidDocument(field: path(context.codingPath + [key]), message: "required field is missing")
        case let .typeMismatch(type, context)?:
            return .invalidDocument(field: path(context.codingPath), message: "expected \(describe(type))")
        case let .valueNotFound(type, context)?:
            return .invalidDocument(field: path(context.codingPath), message: "expected \(describe(type)), found null")
        case let .dataCorrupted(context)?:
            if context.codingPath.isEmpty {
                let reason = context.underlyingError.map { "\($0)" } ?? context.debugDescription
                return .invalidDocument(field: "document", message: "not valid JSON: \(reason)")
            }
            return .invalidDocument(field: path(context.codingPath), message: context.debugDescription)
        default:
            return .invalidDocument(field: "document", message: "\(error)")
        }
    }

    /// A JSON kind of value, in words: never the name of a Swift type.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Array<Any>.Type: "an array"
        case is Int.Type, is Double.Type: "a number"
        default: type == [String].self ? "an array of strings" : type == [String: Any].self ? "an object" : "a value of another kind"
        }
    }

    // MARK: Unknown fields

    /// The fields each object of the schema may have.
    private static let fields: [String: Set<String>] = [
        "document": ["title", "language", "direction", "sections", "reviewContent", "signaturePageTitle",
                     "signaturePageContent", "slots", "sharing", "forms", "reasonForConsent", "words"],
        "sections": ["identifier", "kind", "title", "summary", "content", "learnMore"],
        "slots": ["identifier", "title", "requiresName", "requiresSignature", "requiresDrawnSignature", "dateFormat", "signedByCollector"],
        "forms": ["identifier", "title", "sections", "mandatory"],
        "sharing": ["investigator", "learnMore"],
        "words": ConsentWords.fields,
    ]

    /// Refuses a field the schema does not have, naming it.
    private static func checkFields(_ tree: JSONOutline) throws(ConsentError) {
        guard case let .object(document) = tree else {
            throw .invalidDocument(field: "document", message: "expected an object")
        }
        func check(_ object: [String: JSONOutline], kind: String, at path: String) throws(ConsentError) {
            let allowed = fields[kind] ?? []
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw .invalidDocument(field: path, message: "unknown field '\(unknown)'; expected one of \(allowed.sorted().joined(separator: ", "))")
            }
        }
        try check(document, kind: "document", at: "document")
        for kind in ["sections", "slots", "forms"] {
            guard case let .array(items)? = document[kind] else { continue }
            for (index, item) in items.enumerated() {
                if case let .object(object) = item { try check(object, kind: kind, at: "\(kind)[\(index)]") }
            }
        }
        if case let .object(sharing)? = document["sharing"] { try check(sharing, kind: "sharing", at: "sharing") }
        if case let .object(words)? = document["words"] { try check(words, kind: "words", at: "words") }
    }
}

/// Any JSON value, to see which fields an object has before it is read as a document.
private enum JSONTree: Decodable {
    case object([String: JSONTree])
    case array([JSONTree])
    case scalar

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var values: [String: JSONTree] = [:]
            for key in object.allKeys { values[key.stringValue] = try object.decode(JSONTree.self, forKey: key) }
            self = .object(values)
        } else if var array = try? decoder.unkeyedContainer() {
            var values: [JSONTree] = []
            while !array.isAtEnd { values.append(try array.decode(JSONTree.self)) }
            self = .array(values)
        } else {
            self = .scalar
        }
    }

    /// The same shape as the decoders' outline.
    var outline: JSONOutline {
        switch self {
        case let .object(members): .object(members.mapValues(\.outline))
        case let .array(elements): .array(elements.map(\.outline))
        case .scalar: .scalar
        }
    }
}
