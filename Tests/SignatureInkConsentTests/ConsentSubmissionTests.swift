// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender
import Synchronization
import Testing

@Suite struct ConsentSubmissionTests {
    typealias Signer = ConsentSubmission.Signer

    /// The time of signing the tests pass: 2026-11-25T13:30:00Z.
    static let now = 1_795_613_400_000.0

    /// A file of `SampleStrokes/` (each has a canvas, a capture start time and metadata).
    static func sampleInk(_ name: String) throws -> Signature {
        try InkDecoder().decode(try Data(contentsOf: TestData.sampleStrokes.appendingPathComponent(name))).signature
    }

    static let allowedAndNotNow: [ConsentFlowResult.FormDecision] = [.init(form: "study", decision: .allowed),
                                                                     .init(form: "newsletter", decision: .notNow)]

    /// Both signers of the sample: the participant in a sample file's ink, the investigator in blue real ink.
    static func signers() throws -> [Signer] {
        [Signer(slot: "participant", name: "Ada Lovelace", ink: try sampleInk("long-name.json")),
         Signer(slot: "investigator", name: " Charles Babbage ", ink: try ConsentFixtures.ink("hwrt/293035.json"))]
    }

    static func sample(decisions: [ConsentFlowResult.FormDecision] = allowedAndNotNow, sharing: SharingChoice? = .investigatorOnly,
                       signers: [Signer]? = nil, utcOffsetMinutes: Int = 60,
                       pageSize: PageSize = .a4) throws -> ConsentSubmission {
        try ConsentSubmission(document: try ConsentFixtures.sample(), decisions: decisions, sharing: sharing,
                              signers: try signers ?? Self.signers(), utcOffsetMinutes: utcOffsetMinutes, pageSize: pageSize)
    }

    @Test func aSubmissionSignsTheSameBytesAsTheInkAppliedAsGiven() throws {
        let signed = try Self.sample().sign(now: Self.now)
        // The same signatures applied directly, each dated by its ink's capture time in the signers' offset.
        var expected = try ConsentFixtures.sample()
        for signer in try Self.signers() {
            let ink = try #require(signer.ink)
            let date = try #require(ConsentDate.signing(given: nil, inkStartTime: ink.startTime, now: Self.now, utcOffsetMinutes: 60))
            expected = try expected.signing(ConsentSignature(slot: signer.slot, name: signer.name ?? "", signature: ink, date: date))
        }
        let pdf = try expected.pdf(setup: .a4)
        #expect(signed.pdf == pdf)
        #expect(signed.document == expected)
        let record = try ConsentRecord(signed: expected, decisions: Self.allowedAndNotNow, sharing: .investigatorOnly,
                                       pageSize: .a4, pdf: pdf)
        #expect(signed.record.json == record.json)
        #expect(signed.record.verify(pdf: signed.pdf).isEmpty)
        #expect(signed.pageCount == (try PDFCheck.pages(signed.pdf)))
        // The replayed ink keeps its canvas, start time, metadata and pens.
        let investigator = try #require(signed.document.appliedSignature(for: "investigator")?.signature)
        #expect(investigator.pens == (try ConsentFixtures.ink("hwrt/293035.json")).pens && !investigator.pens.isEmpty)
        let participant = try #require(signed.document.appliedSignature(for: "participant")?.signature)
        #expect(participant == (try Self.sampleInk("long-name.json")))
        #expect(signed.document.appliedSignature(for: "investigator")?.name == "Charles Babbage")
        // The same submission and time give the same bytes again.
        #expect(try Self.sample().sign(now: Self.now).pdf == signed.pdf)
    }

    /// Text on several threads is laid out at once, each thread with a font map of its own, and a consent's
    /// paragraphs may be set by different ones: the PDF is the same bytes whichever thread signs it and whatever the
    /// others do meanwhile (a font embedded twice, or subset differently, would change them).
    @Test func consentsSignedOnFourThreadsAtOnceAreTheSameBytesAsOneAlone() throws {
        let alone = try Self.sample().sign(now: Self.now).pdf
        let results = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<3 {
                let pdf = (try? Self.sample().sign(now: Self.now).pdf) ?? []
                results.withLock { $0.append(pdf) }
            }
        }
        let pdfs = results.withLock { $0 }
        #expect(pdfs.count == 12)
        #expect(pdfs.allSatisfy { $0 == alone }, "\(pdfs.filter { $0 != alone }.count) of 12 differ")
    }

    /// Consents in eight scripts (more faces than Cairo keeps open), signed on eight threads at once, as the server
    /// signs them after ``ProjectFonts/openEveryFace()``: every one is signed, and each is the same bytes as signed
    /// alone. Cairo opening and closing FreeType faces on several threads crashed this (or failed it with "error
    /// occurred in libfreetype") before the faces were opened once for good.
    @Test func consentsInEightScriptsOnEightThreadsAtOnce() throws {
        let titles = [("ar", "موافقة على المشاركة"), ("he", "הסכמה להשתתפות"), ("ja", "研究参加への同意"), ("ko", "연구 참여 동의"),
                      ("zh-Hant", "研究參與同意書"), ("zh-Hans", "研究参与同意书"), ("hi", "अध्ययन सहमति"), ("en", "Study consent")]
        let documents = try titles.map { language, title in
            try ConsentFixtures.document(ConsentFixtures.json { object in
                object["language"] = language
                object["title"] = title
                object["sections"] = [["identifier": "a", "kind": "custom", "title": title, "content": "\(title) *\(title)* **\(title)**"]]
            }).signing(ConsentSignature(slot: "participant", name: "Ada", signature: try ConsentFixtures.ink(), date: ConsentFixtures.date))
        }
        let alone = try documents.map { try $0.pdf() }
        try ProjectFonts.openEveryFace()
        let results = Mutex<[(Int, Result<[UInt8], ConsentError>)]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<24 {
                let k = (thread + round) % documents.count
                let pdf = Result { () throws(ConsentError) in try documents[k].pdf() }
                results.withLock { $0.append((k, pdf)) }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 192)
        for (k, result) in all {
            switch result {
            case let .success(pdf): #expect(pdf == alone[k], "\(titles[k].0) differs from the PDF signed alone")
            case let .failure(error): Issue.record("\(titles[k].0): \(error)")
            }
        }
    }

    @Test func letterIsLaidOutOnLetterAndRecordedAsLetter() throws {
        let signed = try Self.sample(pageSize: .letter).sign(now: Self.now)
        #expect(String(decoding: signed.pdf, as: UTF8.self).contains("/MediaBox [ 0 0 612 792 ]"))
        #expect(signed.pageCount == (try PDFCheck.pages(signed.pdf)))
        #expect(signed.record.pageSize == .letter)
        #expect(String(decoding: signed.record.json, as: UTF8.self).contains("\"pageSize\" : \"letter\""))
        #expect(try ConsentRecord(json: signed.record.json) == signed.record)
    }

    @Test func theSingleDotIsRefusedByTheCaptureSessionsMinimums() throws {
        let dot = try Self.sampleInk("single-dot.json")
        var signers = try Self.signers()
        signers[0].ink = dot
        let submission = try Self.sample(signers: signers)
        let shortfall = try #require(SignatureMinimums.default.shortfall(of: dot))
        let expected = "the signature of 'participant': \(CaptureSession.Refusal.tooSmall(shortfall))"
        #expect(throws: ConsentError.invalidSubmission(.ink(slot: "participant"), message: expected)) {
            _ = try submission.sign(now: Self.now)
        }
        #expect(expected.contains("not a signature yet"))
    }

    // MARK: Strictness

    /// A document with one slot of each kind: name and signature, signature only, name only, on paper.
    static func slots() throws -> ConsentDocument {
        try ConsentFixtures.document(ConsentFixtures.json { object in
            object["slots"] = [["identifier": "both", "title": "Both"],
                               ["identifier": "ink", "title": "Ink only", "requiresName": false],
                               ["identifier": "name", "title": "Name only", "requiresSignature": false],
                               ["identifier": "paper", "title": "On paper", "requiresName": false, "requiresSignature": false]]
        })
    }

    static func slotSigners() throws -> [Signer] {
        let ink = try sampleInk("long-name.json")
        return [Signer(slot: "both", name: "Ada", ink: ink), Signer(slot: "ink", ink: ink), Signer(slot: "name", name: "Charles")]
    }

    /// Each mistake: the submission built, the field that must be named and part of the message.
    static let mistakes: [(String, @Sendable () throws -> ConsentSubmission, ConsentSubmission.Field, String)] = [
        ("a slot signed twice", { try sample(signers: try signers() + [Signer(slot: "participant", name: "Ada", ink: try sampleInk("short-name.json"))]) },
         .signer(slot: "participant"), "signature slot 'participant' is given twice"),
        ("an unknown slot", { try sample(signers: try signers() + [Signer(slot: "witness", name: "Eve")]) },
         .signer(slot: "witness"), "no signature slot is named 'witness'; the document has 'participant', 'investigator'"),
        ("an unknown form", { try sample(decisions: allowedAndNotNow + [.init(form: "survey", decision: .allowed)]) },
         .decision(form: "survey"), "no form is named 'survey'; the forms are 'study', 'newsletter'"),
        ("a form both allowed and denied", {
            try sample(decisions: [.init(form: "study", decision: .allowed), .init(form: "newsletter", decision: .allowed),
                                   .init(form: "newsletter", decision: .denied)])
        }, .decision(form: "newsletter"), "form 'newsletter' is both allowed and denied"),
        ("a form given twice", { try sample(decisions: allowedAndNotNow + [.init(form: "study", decision: .allowed)]) },
         .decision(form: "study"), "form 'study' is given twice"),
        ("a mandatory form denied", { try sample(decisions: [.init(form: "study", decision: .denied), .init(form: "newsletter", decision: .allowed)]) },
         .decision(form: "study"), "form 'study' is mandatory: consent is required to sign"),
        ("a mandatory form not now", { try sample(decisions: [.init(form: "newsletter", decision: .allowed), .init(form: "study", decision: .notNow)]) },
         .decision(form: "study"), "form 'study' is mandatory"),
        ("a form without a decision", { try sample(decisions: [.init(form: "study", decision: .allowed)]) },
         .decision(form: "newsletter"), "form 'newsletter' has no decision"),
        ("a mandatory form left to a decline", {
            try ConsentSubmission(document: try ConsentFixtures.sample(), decisions: [], undecided: .notNow, sharing: .broadly, signers: try signers())
        }, .decision(form: "study"), "form 'study' is mandatory"),
        ("no sharing answer", { try sample(sharing: nil) },
         .sharing, "the document asks the sharing question and it has no answer"),
        ("a sharing answer when none is asked", {
            try ConsentSubmission(document: try slots(), decisions: [.init(form: "consent", decision: .allowed)], sharing: .broadly, signers: try slotSigners())
        }, .sharing, "the document asks no sharing question"),
        ("a missing signature", { try sample(signers: [try signers()[0], Signer(slot: "investigator", name: "Charles")]) },
         .ink(slot: "investigator"), "signature slot 'investigator' requires a signature"),
        ("an empty signature", { try sample(signers: [try signers()[0], Signer(slot: "investigator", name: "Charles", ink: Signature())]) },
         .ink(slot: "investigator"), "signature slot 'investigator' requires a signature"),
        ("a missing name", { try sample(signers: [Signer(slot: "participant", name: "  ", ink: try sampleInk("long-name.json")), try signers()[1]]) },
         .name(slot: "participant"), "signature slot 'participant' requires the signer's name"),
        ("a missing signer", { try sample(signers: [try signers()[0]]) },
         .name(slot: "investigator"), "signature slot 'investigator' requires the signer's name"),
        ("a name for a slot that asks none", {
            var signers = try slotSigners()
            signers[1].name = "Eve"
            return try ConsentSubmission(document: try slots(), decisions: [.init(form: "consent", decision: .allowed)], sharing: nil, signers: signers)
        }, .name(slot: "ink"), "signature slot 'ink' asks for no printed name"),
        ("ink for a slot that takes none", {
            var signers = try slotSigners()
            signers[2].ink = try sampleInk("short-name.json")
            return try ConsentSubmission(document: try slots(), decisions: [.init(form: "consent", decision: .allowed)], sharing: nil, signers: signers)
        }, .ink(slot: "name"), "signature slot 'name' takes no signature"),
        ("a slot signed on paper", {
            try ConsentSubmission(document: try slots(), decisions: [.init(form: "consent", decision: .allowed)], sharing: nil,
                                  signers: try slotSigners() + [Signer(slot: "paper", name: "Eve")])
        }, .signer(slot: "paper"), "signature slot 'paper' asks for no name and no signature"),
        ("a name with a control character", { try sample(signers: [Signer(slot: "participant", name: "Ada\u{7}", ink: try sampleInk("long-name.json")), try signers()[1]]) },
         .name(slot: "participant"), "the name of 'participant': control character U+7"),
        ("a name too long", { try sample(signers: [Signer(slot: "participant", name: String(repeating: "a", count: 201), ink: try sampleInk("long-name.json")), try signers()[1]]) },
         .name(slot: "participant"), "the name of 'participant' has 201 characters; at most 200"),
        ("an offset past 18 hours", { try sample(utcOffsetMinutes: 1081) }, .utcOffset, "1081 minutes is outside -1080...1080"),
    ]

    @Test(arguments: mistakes.indices)
    func eachMistakeIsRefusedNamingItsField(_ index: Int) throws {
        let (name, build, field, message) = Self.mistakes[index]
        do {
            _ = try build()
            Issue.record("\(name): the submission was accepted")
        } catch let ConsentError.invalidSubmission(refused, text) {
            #expect(refused == field, "\(name)")
            #expect(text.contains(message), "\(name): \(text)")
            // Words for people: no type, case or coding-key name.
            for word in ["Submission", "Field", "CodingKey", "Optional", "FormDecision", "Decision", "Signer("] {
                #expect(!text.contains(word), "\(name): \(text)")
            }
            #expect("\(ConsentError.invalidSubmission(refused, message: text))" == text)
        }
    }

    @Test func aValidSubmissionKeepsEveryPartInTheDocumentsOrder() throws {
        let signers = try Self.signers()
        let submission = try ConsentSubmission(document: try ConsentFixtures.sample(),
                                               decisions: [.init(form: "newsletter", decision: .denied)], undecided: .allowed,
                                               sharing: .broadly, signers: signers.reversed())
        #expect(submission.decisions == [.init(form: "study", decision: .allowed), .init(form: "newsletter", decision: .denied)])
        #expect(submission.signers.map(\.slot) == ["participant", "investigator"])
        #expect(submission.signers.map(\.name) == ["Ada Lovelace", "Charles Babbage"])
        #expect(submission.pageSize == .a4 && submission.utcOffsetMinutes == 0)
        let slots = try ConsentSubmission(document: try Self.slots(), decisions: [.init(form: "consent", decision: .allowed)],
                                          sharing: nil, signers: try Self.slotSigners())
        let signed = try slots.sign(now: Self.now)
        #expect(signed.record.signers.map(\.slot) == ["both", "ink", "name"])
        #expect(signed.record.signers.map(\.name) == ["Ada", "", "Charles"])
        #expect(signed.record.signers[2].signature == nil)
    }

    // MARK: The date rule

    @Test func theDateRuleTakesTheStatedDateThenTheInksStartThenNow() throws {
        let stated = try #require(ConsentDate(iso8601: "2026-11-24T09:00:00-05:00"))
        let start = 1_763_700_002_000.0
        #expect(ConsentDate.signing(given: stated, inkStartTime: start, now: Self.now, utcOffsetMinutes: 60) == stated)
        #expect(ConsentDate.signing(given: nil, inkStartTime: start, now: Self.now, utcOffsetMinutes: 60)
                == ConsentDate(millisecondsSince1970: start, utcOffsetMinutes: 60))
        #expect(ConsentDate.signing(given: nil, inkStartTime: nil, now: Self.now, utcOffsetMinutes: -300)
                == ConsentDate(millisecondsSince1970: Self.now, utcOffsetMinutes: -300))
        // A start time no date can hold gives way to the time of signing.
        #expect(ConsentDate.signing(given: nil, inkStartTime: 1e300, now: Self.now, utcOffsetMinutes: 0)
                == ConsentDate(millisecondsSince1970: Self.now))
        #expect(ConsentDate.signing(given: nil, inkStartTime: nil, now: .nan, utcOffsetMinutes: 0) == nil)
        #expect(ConsentDate.signing(given: nil, inkStartTime: nil, now: Self.now, utcOffsetMinutes: 1081) == nil)
    }

    @Test func aSubmissionDatesEachSignerByTheRule() throws {
        let stated = try #require(ConsentDate(iso8601: "2026-11-24"))
        var unknownStart = try Self.sampleInk("short-name.json")
        unknownStart.startTime = nil
        let ink = try Self.sampleInk("long-name.json")
        let submission = try ConsentSubmission(
            document: try Self.slots(), decisions: [.init(form: "consent", decision: .allowed)], sharing: nil,
            signers: [Signer(slot: "both", name: "Ada", ink: ink, date: stated), Signer(slot: "ink", ink: unknownStart),
                      Signer(slot: "name", name: "Charles")], utcOffsetMinutes: 60)
        let signed = try submission.sign(now: Self.now)
        let atNow = try #require(ConsentDate(millisecondsSince1970: Self.now, utcOffsetMinutes: 60))
        #expect(signed.record.signers.map(\.date) == [stated.iso8601, atNow.iso8601, atNow.iso8601])
        let started = try Self.sample(utcOffsetMinutes: -300).sign(now: Self.now)
        let inkStart = try #require(ink.startTime)
        let start = try #require(ConsentDate(millisecondsSince1970: inkStart, utcOffsetMinutes: -300))
        #expect(started.record.signers.first?.date == start.iso8601)
    }

    @Test func theFlowDatesByTheSameRuleAndAReplayRefusedChangesNothing() throws {
        var flow = ConsentFlow(document: try Self.slots(), utcOffsetMinutes: 60, clock: { Self.now + 5 })
        try flow.send(.allow)
        try flow.send(.agree)
        try flow.send(.confirmAgreement(true))
        try flow.send(.enterName("Ada"))
        #expect(flow.offeredEvents.contains(.enterDate(.unixEpoch)))
        #expect(throws: ConsentFlow.Refusal.self) { try flow.replay(try Self.sampleInk("single-dot.json"), savedAt: Self.now) }
        #expect(flow.captureSession?.state == .inactive)
        let ink = try Self.sampleInk("long-name.json")
        try flow.replay(ink, savedAt: Self.now)
        try flow.send(.acceptSignature)
        var stripped = ink
        stripped.startTime = nil
        try flow.replay(stripped, savedAt: Self.now)       // "ink", no name asked
        try flow.send(.acceptSignature)
        let stated = try #require(ConsentDate(iso8601: "2026-11-20T08:00:00Z"))
        try flow.send(.enterDate(stated))
        try flow.send(.enterName("Charles"))             // "name", no ink
        #expect(flow.step == .completed)
        let started = try #require(ConsentDate.signing(given: nil, inkStartTime: ink.startTime, now: Self.now, utcOffsetMinutes: 60))
        let saved = try #require(ConsentDate.signing(given: nil, inkStartTime: nil, now: Self.now, utcOffsetMinutes: 60))
        #expect(started.millisecondsSince1970 == ink.startTime && saved.millisecondsSince1970 == Self.now)
        #expect(flow.result.signatures.map(\.date) == [started, saved, stated])
        #expect(flow.result.signatures[0].signature == ink)
    }

    @Test func aSlotWithoutInkIsDatedByTheFlowsClock() throws {
        let document = try ConsentFixtures.document(ConsentFixtures.json { object in
            object["slots"] = [["identifier": "name", "title": "Name only", "requiresSignature": false]]
        })
        var flow = ConsentFlow(document: document, utcOffsetMinutes: -60, clock: { Self.now + 7000 })
        try flow.send(.allow)
        try flow.send(.agree)
        try flow.send(.confirmAgreement(true))
        try flow.send(.enterName("Ada"))
        #expect(flow.result.signatures.first?.date == ConsentDate(millisecondsSince1970: Self.now + 7000, utcOffsetMinutes: -60))
    }

    @Test func aPageSizeIsReadByItsNameOnly() throws {
        #expect(PageSize.allCases.map(\.setup) == [PageSetup.a4, PageSetup.letter])
        let encoded = try JSONEncoder().encode([PageSize.a4, .letter])
        #expect(String(decoding: encoded, as: UTF8.self) == "[\"a4\",\"letter\"]")
        let signed = try Self.sample().sign(now: Self.now)
        let text = String(decoding: signed.record.json, as: UTF8.self).replacingOccurrences(of: "\"pageSize\" : \"a4\"", with: "\"pageSize\" : \"legal\"")
        #expect(text != String(decoding: signed.record.json, as: UTF8.self))
        do {
            _ = try ConsentRecord(json: Array(text.utf8))
            Issue.record("a record on legal paper was read")
        } catch {
            #expect("\(error)" == "pageSize: 'legal' is not a page size; expected a4 or letter")
        }
    }
}
