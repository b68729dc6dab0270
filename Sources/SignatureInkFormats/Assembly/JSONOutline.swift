// SPDX-License-Identifier: Apache-2.0

/// The shape of a JSON text: each object's keys and each array's elements, down to the strings, numbers and
/// literals, which are checked and left out. A reader of a schema refuses with it the fields it does not know before
/// it reads the values.
///
/// Read with the decoders' ``JSONReader``: Foundation's `JSONDecoder` took 1.4 M instructions to decode a 3.6 KB
/// consent document into a tree of `Decodable` values (callgrind), most of them in its containers.
package indirect enum JSONOutline: Sendable, Equatable {
    /// An object, by key. Of a key given twice (or in two canonically equivalent spellings), the first value, as
    /// `JSONDecoder` keeps it.
    case object([String: JSONOutline])
    /// An array's elements, in order.
    case array([JSONOutline])
    /// A string, number, `true`, `false` or `null`.
    case scalar

    /// The outline of `json`, or `nil` when it is not one JSON value (RFC 8259, nesting at most
    /// ``JSONReader/maxDepth``), with nothing but white space around it.
    package init?(json: [UInt8]) {
        let outline: JSONOutline? = json.withUnsafeBytes { raw in
            var reader = JSONReader(raw)
            guard let value = try? Self.read(&reader), (try? reader.expectEnd()) != nil else { return nil }
            return value
        }
        guard let outline else { return nil }
        self = outline
    }

    private static func read(_ reader: inout JSONReader) throws(JSONReader.Stop) -> JSONOutline {
        switch try reader.peekKind() {
        case .object:
            var members: [String: JSONOutline] = [:]
            guard try reader.enterObject() else { return .object(members) }
            repeat {
                let key = reader.text(of: try reader.key())
                let value = try read(&reader)
                if members[key] == nil { members[key] = value }
            } while try reader.nextInObject()
            return .object(members)
        case .array:
            var elements: [JSONOutline] = []
            guard try reader.enterArray() else { return .array(elements) }
            repeat { elements.append(try read(&reader)) } while try reader.nextInArray()
            return .array(elements)
        case .string, .number, .bool, .null:
            try reader.skipValue()
            return .scalar
        }
    }
}
