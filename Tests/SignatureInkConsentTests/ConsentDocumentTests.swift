// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import Testing

@Suite struct ConsentDocumentTests {
    @Test func aControlCharacterIsExactlyUnicodesCategoryCc() {
        // Documents and names are checked for control characters by code point ranges, not Unicode's tables.
        let differ = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter { $0.isControl != ($0.properties.generalCategory == .control) }
        #expect(differ.isEmpty, "\(differ.prefix(5).map { String($0.value, radix: 16) })")
        #expect(Unicode.Scalar(0x85)!.isControl && !Unicode.Scalar(0xA0)!.isControl && !Unicode.Scalar(0x2028)!.isControl)
        // The audit trail's one-line texts compare with U+2028 and U+2029: the only line and paragraph separators.
        let separators = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter {
            [.lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }
        #expect(separators.map(\.value) == [0x2028, 0x2029])
    }

    @Test func theSampleReadsWithItsFormsSlotsAndDefaults() throws {
        let document = try ConsentFixtures.sample()
        #expect(document.sections.count == 7)
        #expect(document.sections[0].title == "Welcome")  // the overview kind's default title
        #expect(document.sections[3].title == "Time Commitment")
        #expect(document.slots.map(\.identifier) == ["participant", "investigator"])
        #expect(document.slots[0].dateFormat == "yyyy-MM-dd")
        #expect(document.walkThroughForms.map(\.sections.count) == [5, 1])
        #expect(document.walkThroughForms[1].isMandatory == false)
        #expect(document.sharing?.investigatorOnlyOption == "Only share my data with the Signing on Screens team")
    }

    @Test func withoutFormsTheWalkThroughIsOneMandatoryFormOfTheVisibleSections() throws {
        let document = try ConsentFixtures.document(ConsentFixtures.json { object in
            object["sections"] = [
                ["identifier": "a", "kind": "overview"], ["identifier": "b", "kind": "onlyInDocument", "title": "Annex"],
                ["identifier": "c", "kind": "privacy"],
            ]
        })
        #expect(document.walkThroughForms == [ConsentForm(identifier: "consent", title: "Study consent", sections: ["a", "c"])])
    }

    /// Each bad document, and the field its error must name.
    static let badDocuments: [(String, @Sendable (inout [String: Any]) -> Void)] = [
        ("title: required field is missing", { $0["title"] = nil }),
        ("sections[0].kind", { $0["sections"] = [["identifier": "a", "kind": "biography"]] }),
        ("sections[0].title: a custom section needs a title", { $0["sections"] = [["identifier": "a", "kind": "custom"]] }),
        ("forms[0]: unknown field 'mandatry'", {
            $0["forms"] = [["identifier": "f", "title": "F", "sections": ["overview"], "mandatry": false]]
        }),
        ("forms[0].sections[1]: no section is named 'privacy'", {
            $0["forms"] = [["identifier": "f", "title": "F", "sections": ["overview", "privacy"]]]
        }),
        ("slots[0].dateFormat", { $0["slots"] = [["identifier": "p", "title": "P", "dateFormat": "YYYY-MM-dd"]] }),
        ("slots[1].identifier: 'p' is used twice", {
            $0["slots"] = [["identifier": "p", "title": "P"], ["identifier": "p", "title": "Q"]]
        }),
        ("slots: a consent document needs at least one signature slot", { $0["slots"] = [[String: Any]]() }),
        ("sections[0].learnMore: must be an https:, http: or mailto: address", {
            $0["sections"] = [["identifier": "a", "kind": "overview", "learnMore": "javascript:alert(1)"]]
        }),
        ("title: control character U+7", { $0["title"] = "Study\u{7}" }),
        ("language", { $0["language"] = "english please" }),
        ("slots[0].requiresName: expected true or false", { $0["slots"] = [["identifier": "p", "title": "P", "requiresName": "yes"]] }),
        ("sections[0].identifier", { $0["sections"] = [["identifier": "a b", "kind": "overview"]] }),
        ("slots[1].signedByCollector: only one slot may be signed by the collector; slots[0] is already", {
            $0["slots"] = [["identifier": "p", "title": "P", "signedByCollector": true], ["identifier": "q", "title": "Q", "signedByCollector": true]]
        }),
        ("slots[0].signedByCollector: expected true or false", { $0["slots"] = [["identifier": "p", "title": "P", "signedByCollector": "yes"]] }),
    ]

    @Test(arguments: badDocuments.indices)
    func aBadDocumentIsRefusedNamingTheField(_ index: Int) throws {
        let (expected, patch) = Self.badDocuments[index]
        #expect {
            _ = try ConsentFixtures.document(ConsentFixtures.json(patch))
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    @Test func theCollectorsSlotIsReadWrittenOnlyWhenSetAndKeepsOtherDigests() throws {
        let sample = try ConsentFixtures.sample()
        #expect(sample.slots.map(\.signedByCollector) == [false, true])
        #expect(try ConsentDocument(json: sample.canonicalJSON) == sample)
        let json = String(decoding: sample.canonicalJSON, as: UTF8.self)
        #expect(json.components(separatedBy: #""signedByCollector":true"#).count == 2)
        #expect(!json.contains(#""signedByCollector":false"#))
        // Without it, a document is written as it was before the field existed: its digest does not change.
        var plain = sample
        plain.slots[1].signedByCollector = false
        #expect(!String(decoding: plain.canonicalJSON, as: UTF8.self).contains("signedByCollector"))
        // Set, it is part of what the digest covers.
        #expect(plain.digest != sample.digest)
    }

    @Test func theWeekBasedYearIsRefusedWithAReason() throws {
        let json = ConsentFixtures.json { $0["slots"] = [["identifier": "p", "title": "P", "dateFormat": "dd.MM.YYYY"]] }
        #expect(throws: ConsentError.self) { _ = try ConsentFixtures.document(json) }
        do { _ = try ConsentFixtures.document(json) } catch { #expect("\(error)".contains("week-based year")) }
    }

    @Test func sizesPastTheLimitsAreRefusedBeforeLayout() throws {
        let json = ConsentFixtures.json()
        #expect(throws: ConsentError.limitExceeded(field: "document size in bytes", limit: 100, actual: json.utf8.count)) {
            _ = try ConsentDocument(json: Array(json.utf8), limits: ConsentLimits(maxBytes: 100))
        }
        let long = ConsentFixtures.json { $0["sections"] = [["identifier": "a", "kind": "overview", "content": String(repeating: "x", count: 30)]] }
        #expect(throws: ConsentError.limitExceeded(field: "sections[0].content", limit: 20, actual: 30)) {
            _ = try ConsentDocument(json: Array(long.utf8), limits: ConsentLimits(maxFieldLength: 20))
        }
        let many = ConsentFixtures.json { $0["sections"] = (0..<3).map { ["identifier": "s\($0)", "kind": "privacy"] } }
        #expect(throws: ConsentError.limitExceeded(field: "sections", limit: 2, actual: 3)) {
            _ = try ConsentDocument(json: Array(many.utf8), limits: ConsentLimits(maxSections: 2))
        }
        #expect(throws: ConsentError.self) { _ = try ConsentDocument(json: Array("{\"title\": ".utf8)) }
        #expect(throws: ConsentError.invalidDocument(field: "document", message: "expected an object")) {
            _ = try ConsentDocument(json: Array("[1, 2]".utf8))
        }
    }

    @Test func signingReturnsACopyAndLeavesTheOriginalAsItWas() throws {
        let original = try ConsentFixtures.sample()
        let ink = try ConsentFixtures.ink()
        let once = try original.signing(ConsentSignature(slot: "participant", name: "  Ada Lovelace ", signature: ink, date: ConsentFixtures.date))
        #expect(original.appliedSignatures.isEmpty)
        #expect(once.appliedSignature(for: "participant")?.name == "Ada Lovelace")
        #expect(once.unsignedSlots.map(\.identifier) == ["investigator"])
        let twice = try once.signing(ConsentSignature(slot: "investigator", name: "Charles Babbage", signature: ink, date: ConsentFixtures.date))
        #expect(once.appliedSignatures.count == 1)
        #expect(twice.appliedSignatures.map(\.slot) == ["participant", "investigator"])
        // The document's identity is its text, not its signatures.
        #expect(original.digest == twice.digest)
    }

    @Test func signingChecksTheSlot() throws {
        let document = try ConsentFixtures.sample()
        let ink = try ConsentFixtures.ink(), date = ConsentFixtures.date
        #expect(throws: ConsentError.unknownSlot("witness", known: ["participant", "investigator"])) {
            _ = try document.signing(ConsentSignature(slot: "witness", name: "W", signature: ink, date: date))
        }
        #expect(throws: ConsentError.missingName(slot: "participant")) {
            _ = try document.signing(ConsentSignature(slot: "participant", name: " ", signature: ink, date: date))
        }
        #expect(throws: ConsentError.missingSignature(slot: "participant")) {
            _ = try document.signing(ConsentSignature(slot: "participant", name: "Ada", signature: Signature(), date: date))
        }
        let signed = try document.signing(ConsentSignature(slot: "participant", name: "Ada", signature: ink, date: date))
        #expect(throws: ConsentError.alreadySigned(slot: "participant")) {
            _ = try signed.signing(ConsentSignature(slot: "participant", name: "Ada", signature: ink, date: date))
        }
        #expect(throws: ConsentError.self) {
            _ = try document.signing(ConsentSignature(slot: "participant", name: "Ada\u{1b}[31m", signature: ink, date: date))
        }
    }

    @Test func theDigestFollowsTheTextAndOnlyTheText() throws {
        let a = try ConsentFixtures.sample()
        var b = a
        #expect(a.digest == b.digest)
        #expect(a.digest.count == 64)
        b.sections[2].content += " "
        #expect(a.digest != b.digest)
        // The same document read again gives the same canonical bytes.
        let again = try ConsentDocument(json: a.canonicalJSON)
        #expect(again.canonicalJSON == a.canonicalJSON)
        #expect(again == a)
    }
}

@Suite struct ConsentDateTests {
    @Test func datesAndTimesWithOffsetsRead() throws {
        let d = try #require(ConsentDate(iso8601: "2026-11-25T00:30:00+01:00"))
        #expect(d.millisecondsSince1970 == 1_795_563_000_000)  // 2026-11-24T23:30:00Z
        #expect(d.utcOffsetMinutes == 60)
        #expect(d.iso8601 == "2026-11-25T00:30:00+01:00")
        #expect(ConsentDate(iso8601: "2026-11-25")?.iso8601 == "2026-11-25T00:00:00Z")
        #expect(ConsentDate(iso8601: "2026-11-25T10:00Z")?.iso8601 == "2026-11-25T10:00:00Z")
        #expect(ConsentDate(iso8601: "2026-11-25T10:00:00.250-0530")?.iso8601 == "2026-11-25T10:00:00.250-05:30")
        #expect(ConsentDate(iso8601: "2024-02-29")?.iso8601 == "2024-02-29T00:00:00Z")
    }

    @Test(arguments: ["2026-02-30", "2025-02-29", "2026-13-01", "2026-11-25T10:00:00", "2026-11-25T24:00Z", "26-11-25",
                      "2026-11-25T10:00:00+19:00", "2026-11-25 10:00Z", "", "2026-11-25T10:00:00Zjunk"])
    func impossibleOrAmbiguousDatesAreRefused(_ text: String) {
        #expect(ConsentDate(iso8601: text) == nil)
    }
}
