// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
@testable import SignatureInkFormats
import Testing

/// `JSONOutline` sees the keys and elements Foundation's `JSONDecoder` sees, and refuses what it refuses.
@Suite struct JSONOutlineTests {
    /// Any JSON value as `JSONDecoder` reads it, as an outline.
    private struct Tree: Decodable {
        var outline: JSONOutline
        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Key.self) {
                var members: [String: JSONOutline] = [:]
                for key in object.allKeys { members[key.stringValue] = try object.decode(Tree.self, forKey: key).outline }
                outline = .object(members)
            } else if var array = try? decoder.unkeyedContainer() {
                var elements: [JSONOutline] = []
                while !array.isAtEnd { elements.append(try array.decode(Tree.self).outline) }
                outline = .array(elements)
            } else {
                outline = .scalar
            }
        }
    }

    private static func value(_ random: inout SeededRandom, depth: Int) -> String {
        let keys = ["title", "sections", "\\u0074itle", "é", "e\\u0301", "\\\"q\\\"", "", "slots", "日本"]
        let scalars = ["1", "-0.5e3", "\"text\"", "true", "false", "null", "\"\\n\\u00e9\"", "12345678901234567890"]
        switch depth > 3 ? 2 : Int.random(in: 0...2, using: &random) {
        case 0:
            let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                "\"\(keys[Int.random(in: 0..<keys.count, using: &random)])\" : " + value(&random, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + "}"
        case 1:
            return "[ " + (0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) }.joined(separator: ", ") + "]"
        default:
            return scalars[Int.random(in: 0..<scalars.count, using: &random)]
        }
    }

    @Test func outlinesAreWhatJSONDecoderReads() throws {
        var random = SeededRandom(seed: 31)
        var objects = 0
        for _ in 0..<2_000 {
            let text = " " + Self.value(&random, depth: 0) + "\n"
            let decoded = try JSONDecoder().decode(Tree.self, from: Data(text.utf8)).outline
            #expect(JSONOutline(json: Array(text.utf8)) == decoded, "\(text)")
            if case .object = decoded { objects += 1 }
        }
        #expect(objects > 300)
    }

    @Test(arguments: ["", "{", "{\"a\" 1}", "// note\n{}", "{} {}", "[NaN]", "{'a':1}",
                      String(repeating: "[", count: 600) + String(repeating: "]", count: 600)])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(JSONOutline(json: Array(text.utf8)) == nil)
        #expect((try? JSONDecoder().decode(Tree.self, from: Data(text.utf8))) == nil)
    }

    /// Texts `JSONDecoder` takes although RFC 8259 does not: the outline refuses them, and a reader falls back on
    /// `JSONDecoder` (as `ConsentDocument(json:)` does).
    @Test(arguments: ["{\"a\":1,}", "[1,]", "{\"a\":01}", "\"\u{1}\""])
    func refusesWhatOnlyJSONDecoderTakes(_ text: String) {
        #expect(JSONOutline(json: Array(text.utf8)) == nil)
        #expect((try? JSONDecoder().decode(Tree.self, from: Data(text.utf8))) != nil)
    }
}
