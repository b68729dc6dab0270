// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkRender
import Testing

/// A signer who cannot draw types their name instead: the walk-through takes it, the PDF writes it in the handwriting
/// face with that face embedded, the record says it is typed and keeps the text, and a slot may refuse it.
@Suite struct ConsentTypedSignatureTests {
    /// The sample document, the participant typing "A. Lovelace", the investigator drawing.
    static func submission(document: ConsentDocument? = nil, typed: String = "A. Lovelace") throws -> ConsentSubmission {
        try ConsentSubmission(document: document ?? ConsentSubmissionTests.sample().document, decisions: [], undecided: .allowed,
                              sharing: .investigatorOnly,
                              signers: [.init(slot: "participant", name: "Ada Lovelace", typed: typed),
                                        .init(slot: "investigator", name: "Charles Babbage", ink: try ConsentFixtures.ink())])
    }

    @Test func aTypedSignatureGoesAllTheWayToThePDFAndTheRecord() throws {
        let signed = try Self.submission().sign(now: ConsentSubmissionTests.now)
        #expect(try PDFCheck.qpdfProblems(signed.pdf) == nil)
        let text = ConsentPDFTests.flat(try PDFCheck.text(signed.pdf))
        #expect(text.contains("A. Lovelace"))
        let fonts = try PDFCheck.fonts(signed.pdf)
        #expect(fonts.contains { $0.name.contains("Ecolier") && $0.embedded && $0.subset }, "\(fonts.map(\.name))")
        // The typed name is drawn in the participant's block, in ink's place: nothing but text in that block.
        let participant = try #require(signed.record.signers.first { $0.slot == "participant" })
        #expect(participant.kind == .typed && participant.typedSignature == "A. Lovelace")
        #expect(participant.signature == nil && participant.signatureDigest == nil)
        let investigator = try #require(signed.record.signers.first { $0.slot == "investigator" })
        #expect(investigator.kind == nil && investigator.typedSignature == nil && investigator.signature != nil)
        #expect(signed.document.appliedSignature(for: "participant")?.kind == .typed)
        #expect(signed.record.verify(pdf: signed.pdf).isEmpty)
        let json = String(decoding: signed.record.json, as: UTF8.self)
        #expect(json.contains(#""kind" : "typed""#) && json.contains(#""typedSignature" : "A. Lovelace""#))
        #expect(try ConsentRecord(json: signed.record.json) == signed.record)
        // A drawn signature's entry says nothing of kinds: records written before typed signatures read the same.
        let drawn = try ConsentSubmissionTests.sample().sign(now: ConsentSubmissionTests.now)
        #expect(!String(decoding: drawn.record.json, as: UTF8.self).contains("\"kind\""))
    }

    @Test func theTypedNameChangesThePDFAndNothingElseDoes() throws {
        let a = try Self.submission().sign(now: ConsentSubmissionTests.now).pdf
        #expect(try Self.submission().sign(now: ConsentSubmissionTests.now).pdf == a)
        #expect(try Self.submission(typed: "Ada L.").sign(now: ConsentSubmissionTests.now).pdf != a)
    }

    @Test func aSealedConsentsAuditTrailSaysTheSignatureWasTyped() throws {
        let signed = try Self.submission().sign(now: ConsentSubmissionTests.now, seal: try ConsentSealTests.seal())
        let last = try PDFCheck.pages(signed.pdf)
        #expect(ConsentPDFTests.flat(try PDFCheck.text(signed.pdf, page: last)).contains("typed signature “A. Lovelace”"))
    }

    @Test func aSlotThatRequiresADrawnSignatureRefusesATypedOne() throws {
        var document = try ConsentSubmissionTests.sample().document
        let k = try #require(document.slots.firstIndex { $0.identifier == "participant" })
        document.slots[k].requiresDrawnSignature = true
        let error = try #require(throws: ConsentError.self) { _ = try Self.submission(document: document) }
        #expect(error == .invalidSubmission(.ink(slot: "participant"), message: "signature slot 'participant' requires a drawn signature"))
        // The walk-through offers no typing there, and refuses it.
        var flow = ConsentFlow(document: document)
        while flow.step != .name(signer: 0) {
            let next = try #require(flow.offeredEvents.first { [.next, .allow, .share(.investigatorOnly), .agree, .confirmAgreement(true)].contains($0) })
            try flow.send(next)
        }
        try flow.send(.enterName("Ada Lovelace"))
        #expect(flow.step == .signature(signer: 0))
        #expect(!flow.offeredEvents.contains(.typeSignature("")))
        #expect(throws: ConsentFlow.Refusal.self) { try flow.send(.typeSignature("A. Lovelace")) }
        #expect(flow.step == .signature(signer: 0))
        // The document says so in its JSON, and reads it back.
        let json = String(decoding: document.canonicalJSON, as: UTF8.self)
        #expect(json.contains(#""requiresDrawnSignature":true"#))
        #expect(try ConsentDocument(json: document.canonicalJSON) == document)
        // A document that never mentions it has the digest it had before the field existed.
        #expect(!String(decoding: try ConsentSubmissionTests.sample().document.canonicalJSON, as: UTF8.self).contains("requiresDrawnSignature"))
    }

    @Test(arguments: [("", "is empty"), ("A\u{7}B", "control character")])
    func anEmptyOrBadTypedSignatureIsRefused(typed: String, message: String) throws {
        let error = try #require(throws: ConsentError.self) { _ = try Self.submission(typed: typed) }
        #expect("\(error)".contains(message), "\(error)")
    }

    @Test func aSignatureBothDrawnAndTypedIsRefused() throws {
        let error = try #require(throws: ConsentError.self) {
            _ = try ConsentSubmission(document: try ConsentSubmissionTests.sample().document, decisions: [], undecided: .allowed,
                                      sharing: .investigatorOnly,
                                      signers: [.init(slot: "participant", name: "Ada", ink: try ConsentFixtures.ink(), typed: "Ada"),
                                                .init(slot: "investigator", name: "Charles", ink: try ConsentFixtures.ink())])
        }
        #expect(error == .invalidSubmission(.ink(slot: "participant"), message: "the signature of 'participant' is either drawn or typed, not both"))
        // The document refuses the same when signed directly.
        let both = ConsentSignature(slot: "participant", name: "Ada", signature: try ConsentFixtures.ink(), typedSignature: "Ada",
                                    date: ConsentFixtures.date)
        #expect(throws: ConsentError.self) { _ = try ConsentFixtures.sample().signing(both) }
    }
}
