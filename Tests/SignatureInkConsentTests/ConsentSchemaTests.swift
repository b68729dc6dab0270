// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInkConsent
import Testing

/// The published JSON schema (`docs/consent-document.schema.json`) and the reader agree: every required field is
/// required, every optional one optional, and nothing else is accepted.
@Suite struct ConsentSchemaTests {
    static func schema() throws -> [String: Any] {
        let url = TestData.repositoryRoot.appendingPathComponent("docs/consent-document.schema.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func sample() throws -> [String: Any] {
        let url = TestData.sampleStrokes.appendingPathComponent("consent/study-consent.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The schema object of each kind, and how to reach that kind's first object in the sample.
    static func objects(_ schema: [String: Any]) -> [(name: String, schema: [String: Any], path: [String])] {
        let defs = schema["$defs"] as? [String: Any] ?? [:]
        return [("document", schema, []), ("section", defs["section"] as? [String: Any] ?? [:], ["sections"]),
                ("slot", defs["slot"] as? [String: Any] ?? [:], ["slots"]), ("form", defs["form"] as? [String: Any] ?? [:], ["forms"]),
                ("sharing", defs["sharing"] as? [String: Any] ?? [:], ["sharing"])]
    }

    /// The sample with `change` applied to the object at `path` (the first element of an array).
    static func edit(_ sample: [String: Any], at path: [String], _ change: (inout [String: Any]) -> Void) -> [UInt8] {
        var document = sample
        if let key = path.first {
            if var items = document[key] as? [[String: Any]] {
                change(&items[0]); document[key] = items
            } else if var object = document[key] as? [String: Any] {
                change(&object); document[key] = object
            }
        } else {
            change(&document)
        }
        return Array(try! JSONSerialization.data(withJSONObject: document))
    }

    @Test func requiredFieldsAreRequiredAndOptionalOnesAreNot() throws {
        let sample = try Self.sample()
        for (name, object, path) in Self.objects(try Self.schema()) {
            let properties = (object["properties"] as? [String: Any] ?? [:]).keys.sorted()
            let required = Set(object["required"] as? [String] ?? [])
            #expect(!properties.isEmpty, "\(name)")
            #expect(object["additionalProperties"] as? Bool == false, "\(name)")
            for property in properties {
                let json = Self.edit(sample, at: path) { $0[property] = nil }
                if required.contains(property) {
                    #expect(throws: ConsentError.self, "\(name).\(property) is required") { _ = try ConsentDocument(json: json) }
                } else {
                    // An optional field may go, unless the sample's forms refer to it (a section's identifier).
                    #expect(throws: Never.self, "\(name).\(property) is optional") { _ = try ConsentDocument(json: json) }
                }
            }
            let extra = Self.edit(sample, at: path) { $0["notInTheSchema"] = true }
            #expect(throws: ConsentError.self, "\(name) refuses unknown fields") { _ = try ConsentDocument(json: extra) }
        }
    }

    @Test func theSectionKindsAreTheSchemasEnum() throws {
        let defs = try #require(try Self.schema()["$defs"] as? [String: Any])
        let section = try #require(defs["section"] as? [String: Any])
        let kind = try #require((section["properties"] as? [String: Any])?["kind"] as? [String: Any])
        #expect(Set(kind["enum"] as? [String] ?? []) == Set(ConsentSection.Kind.allCases.map(\.rawValue)))
    }
}
