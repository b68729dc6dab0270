// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import Testing

@Suite struct ConsentFlowTests {
    /// Replays real ink into the flow's capture session and saves it.
    static func draw(_ flow: inout ConsentFlow, at time: Double = 1_795_613_400_000) throws {
        let ink = try ConsentFixtures.ink()
        try flow.capture { (session) throws(CaptureSession.Refusal) in
            try session.activate()
            try session.replay(ink)
            _ = try session.save(at: time)
        }
    }

    @Test func aSequentialFormShowsItsActionsOnlyOnItsLastPage() throws {
        var flow = ConsentFlow(document: try ConsentFixtures.sample(), utcOffsetMinutes: 60)
        #expect(flow.step == .form(0, page: 0))
        #expect(flow.pageInfo?.page == 1 && flow.pageInfo?.count == 5 && flow.pageInfo?.title == "Taking part")
        #expect(flow.offeredEvents == [.next, .cancel])
        #expect(throws: ConsentFlow.Refusal.notOffered(.allow, at: .form(0, page: 0))) { try flow.send(.allow) }
        #expect(throws: ConsentFlow.Refusal.notOffered(.back, at: .form(0, page: 0))) { try flow.send(.back) }
        try flow.send(.next)
        try flow.send(.back)
        #expect(flow.step == .form(0, page: 0))
        for _ in 0..<4 { try flow.send(.next) }
        #expect(flow.pageInfo?.section?.identifier == "withdrawing")
        #expect(flow.offeredEvents == [.back, .allow, .deny, .cancel])  // mandatory: no Not Now
        #expect(throws: ConsentFlow.Refusal.self) { try flow.send(.next) }
        #expect(throws: ConsentFlow.Refusal.self) { try flow.send(.notNow) }
    }

    @Test func denyingAMandatoryFormRaisesTheAlertAndStays() throws {
        var flow = ConsentFlow(document: try ConsentFixtures.sample())
        for _ in 0..<4 { try flow.send(.next) }
        try flow.send(.deny)
        #expect(flow.step == .consentRequired(form: 0))
        #expect(throws: ConsentFlow.Refusal.self) { try flow.send(.allow) }
        try flow.send(.dismissAlert)
        #expect(flow.step == .form(0, page: 4))
        #expect(flow.decisions.isEmpty)
    }

    @Test func cancelAsksAndNoGoesOnWhileYesAbandonsEverything() throws {
        var flow = ConsentFlow(document: try ConsentFixtures.sample())
        try flow.send(.next)
        try flow.send(.cancel)
        #expect(flow.step == .confirmingCancel(returnTo: .form(0, page: 1)))
        try flow.send(.confirmQuit(false))
        #expect(flow.step == .form(0, page: 1))
        try flow.send(.cancel)
        try flow.send(.confirmQuit(true))
        #expect(flow.step == .abandoned)
        #expect(flow.offeredEvents.isEmpty)
        #expect(throws: ConsentFlow.Refusal.self) { try flow.send(.next) }
        #expect(!flow.result.consented)
        #expect(throws: ConsentError.self) { _ = try flow.result.signedDocument() }
    }

    @Test func aWholeWalkThroughSignsACopyWithEveryDecision() throws {
        let document = try ConsentFixtures.sample()
        var flow = ConsentFlow(document: document, utcOffsetMinutes: 60)
        for _ in 0..<4 { try flow.send(.next) }
        try flow.send(.allow)
        #expect(flow.step == .form(1, page: 0))
        #expect(flow.offeredEvents == [.allow, .deny, .notNow, .cancel])  // optional single form
        try flow.send(.notNow)
        #expect(flow.step == .sharing)
        try flow.send(.share(.investigatorOnly))
        #expect(flow.step == .review)
        try flow.send(.agree)
        try flow.send(.confirmAgreement(false))
        #expect(flow.step == .review)
        try flow.send(.agree)
        try flow.send(.confirmAgreement(true))
        #expect(flow.step == .name(signer: 0))
        #expect(throws: ConsentFlow.Refusal.self) { try flow.send(.enterName("   ")) }
        try flow.send(.enterName("Ada Lovelace"))
        #expect(flow.step == .signature(signer: 0))
        #expect(flow.captureSession?.state == .inactive)
        #expect(throws: ConsentFlow.Refusal.signatureNotSaved(.inactive)) { try flow.send(.acceptSignature) }
        try Self.draw(&flow)
        try flow.send(.acceptSignature)
        #expect(flow.step == .name(signer: 1))
        try flow.send(.enterName("Charles Babbage"))
        try Self.draw(&flow, at: 1_795_617_000_000)
        try flow.send(.acceptSignature)
        #expect(flow.step == .completed)

        let result = flow.result
        #expect(result.consented)
        #expect(result.decisions == [.init(form: "study", decision: .allowed), .init(form: "newsletter", decision: .notNow)])
        #expect(result.sharingChoice == .investigatorOnly)
        let signed = try result.signedDocument()
        #expect(signed.appliedSignatures.map(\.name) == ["Ada Lovelace", "Charles Babbage"])
        #expect(signed.appliedSignature(for: "participant")?.date.iso8601 == "2026-11-25T14:30:00+01:00")
        #expect(signed.appliedSignature(for: "participant")?.signature?.strokeCount == (try ConsentFixtures.ink()).strokeCount)
        #expect(document.appliedSignatures.isEmpty)
    }

    @Test func disagreeingEndsDeclinedAndCaptureIsOnlyOfferedWhileSigning() throws {
        var flow = ConsentFlow(document: try ConsentFixtures.sample())
        #expect(throws: ConsentFlow.Refusal.self) { try Self.draw(&flow) }
        for _ in 0..<4 { try flow.send(.next) }
        try flow.send(.allow)
        try flow.send(.deny)  // the optional newsletter
        try flow.send(.share(.broadly))
        try flow.send(.disagree)
        #expect(flow.step == .declined)
        #expect(flow.result.decisions.last == .init(form: "newsletter", decision: .denied))
        #expect(!flow.result.consented)
    }

    @Test func aDocumentWithoutFormsOrSharingGoesStraightToItsForm() throws {
        let document = try ConsentFixtures.document(ConsentFixtures.json { object in
            object["slots"] = [["identifier": "p", "title": "P", "requiresName": false]]
        })
        var flow = ConsentFlow(document: document)
        try flow.send(.allow)
        #expect(flow.step == .review)
        try flow.send(.agree)
        try flow.send(.confirmAgreement(true))
        #expect(flow.step == .signature(signer: 0))  // no name asked
        try Self.draw(&flow)
        try flow.send(.acceptSignature)
        #expect(flow.step == .completed)
        #expect(try flow.result.signedDocument().appliedSignature(for: "p")?.name == "")
    }
}
