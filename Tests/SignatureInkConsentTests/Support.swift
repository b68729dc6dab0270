// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats

/// Documents, signatures and PDF checks shared by the consent tests.
enum ConsentFixtures {
    /// The sample document in `SampleStrokes/consent/`.
    static func sample() throws -> ConsentDocument {
        let url = TestData.sampleStrokes.appendingPathComponent("consent/study-consent.json")
        return try ConsentDocument(json: Array(try Data(contentsOf: url)))
    }

    /// Real ink from `Tests/Fixtures/realink/`, drawn with a blue pen so that a page image tells it from text.
    static func ink(_ name: String = "hwrt/292934.json") throws -> Signature {
        var signature = try InkDecoder().decode(try Data(contentsOf: TestData.realInk.appendingPathComponent(name))).signature
        signature.pens = Array(repeating: Pen(color: blue), count: signature.strokeCount)
        return signature
    }

    static let blue = Color(red: 0x10, green: 0x30, blue: 0xe0)

    static let date = ConsentDate(iso8601: "2026-11-25T14:30:00+01:00")!

    /// The sample document signed by both of its slots.
    static func signedSample(participant: String = "Ada Lovelace", investigator: String = "Charles Babbage") throws -> ConsentDocument {
        try sample()
            .signing(ConsentSignature(slot: "participant", name: participant, signature: try ink(), date: date))
            .signing(ConsentSignature(slot: "investigator", name: investigator, signature: try ink("hwrt/293035.json"), date: date))
    }

    /// A document from JSON text, failing the test's expectations through the thrown error.
    static func document(_ json: String) throws(ConsentError) -> ConsentDocument {
        try ConsentDocument(json: Array(json.utf8))
    }

    /// A small valid document as JSON, with `patch` applied to its object.
    static func json(_ patch: (inout [String: Any]) -> Void = { _ in }) -> String {
        var object: [String: Any] = [
            "title": "Study consent",
            "sections": [["identifier": "overview", "kind": "overview", "content": "Hello."]],
            "slots": [["identifier": "participant", "title": "Participant"]],
        ]
        patch(&object)
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
