// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkForms
import SignatureInkServer
import Testing

/// `POST /consent/sign` against the library's `ConsentSubmission` and the command line's `consent sign`: the same
/// submission is refused with the same message, dated the same and signed to the same bytes.
@Suite struct ConsentRouteTests {
    static func sample(_ name: String) -> URL { TestData.sampleStrokes.appendingPathComponent(name) }
    static var document: URL { sample("consent/study-consent.json") }
    static func text(_ name: String) throws -> String { try String(contentsOf: sample(name), encoding: .utf8) }

    static let decisions: [[String: String]] = [["form": "study", "decision": "allowed"], ["form": "newsletter", "decision": "notNow"]]

    /// The sample's two signers: the participant's ink `participant`, the investigator's `short-name.json`.
    static func signers(participant: String = "long-name.json") throws -> [[String: Any]] {
        [["slot": "participant", "name": "Ada Lovelace", "ink": try text(participant)],
         ["slot": "investigator", "name": "Charles Babbage", "ink": try text("short-name.json")]]
    }

    static func body(decisions: [[String: String]] = decisions, sharing: Any? = "investigatorOnly",
                     signers: [[String: Any]]? = nil, extra: [String: Any] = [:]) throws -> [String: Any] {
        var body: [String: Any] = ["decisions": decisions, "signers": try signers ?? Self.signers()]
        if let sharing { body["sharing"] = sharing }
        return body.merging(extra) { $1 }
    }

    /// Posts a body (a JSON object, or bytes as they are) to the route of a server for `document`.
    static func post(_ body: Any, document: ConsentDocument? = nil) async throws -> (status: HTTPResponse.Status, answer: [String: Any]) {
        var raw = body as? [UInt8] ?? []
        if !(body is [UInt8]) { raw = Array(try JSONSerialization.data(withJSONObject: body)) }
        let bytes = raw
        let app = Application(router: try SignatureInkServer.router(consentDocument: document))
        let (status, answer): (HTTPResponse.Status, [UInt8]) = try await app.withRouterClient { client in
            try await client.execute(uri: "/consent/sign", method: .post, body: ByteBuffer(bytes: bytes)) { response in
                (response.status, Array(response.body.readableBytesView))
            }
        }
        return (status, (try? JSONSerialization.jsonObject(with: Data(answer))) as? [String: Any] ?? [:])
    }

    /// The command line's `consent sign` with the sample's options and `arguments`, writing into a new folder.
    static func commandLine(_ arguments: [String]) throws -> (status: Int32, stderr: String, pdf: Data?, record: Data?) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consent-route-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("signed.pdf"), record = folder.appendingPathComponent("signed.json")
        let process = Process()
        process.executableURL = signatureInk
        process.arguments = ["consent", document.path] + arguments + ["-o", pdf.path, "--record", record.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self), try? Data(contentsOf: pdf), try? Data(contentsOf: record))
    }

    /// The `signature-ink` binary SwiftPM built beside the test bundle.
    static let signatureInk: URL = {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("signature-ink")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "signature-ink")
    }()

    static func signerArguments(participant: String = "long-name.json") -> [String] {
        ["--sign", "participant=\(sample(participant).path)", "--name", "participant=Ada Lovelace",
         "--sign", "investigator=\(sample("short-name.json").path)", "--name", "investigator=Charles Babbage"]
    }

    @Test func theSingleDotIsRefusedWithOneMessageByTheLibraryTheRouteAndTheCommandLine() async throws {
        let consent = try ConsentDocument(json: Array(try Data(contentsOf: Self.document)))
        let dot = try InkDecoder().decode(try Data(contentsOf: Self.sample("single-dot.json"))).signature
        let submission = try ConsentSubmission(
            document: consent, decisions: [.init(form: "study", decision: .allowed), .init(form: "newsletter", decision: .notNow)],
            sharing: .investigatorOnly,
            signers: [.init(slot: "participant", name: "Ada Lovelace", ink: dot),
                      .init(slot: "investigator", name: "Charles Babbage",
                            ink: try InkDecoder().decode(try Data(contentsOf: Self.sample("short-name.json"))).signature)])
        var message = ""
        do {
            _ = try submission.sign()
            Issue.record("the single dot was signed")
        } catch {
            guard case let .invalidSubmission(field, text) = error else { throw error }
            #expect(field == .ink(slot: "participant"))
            message = text
        }
        #expect(message.contains("not a signature yet"), "\(message)")

        let (status, answer) = try await Self.post(try Self.body(signers: try Self.signers(participant: "single-dot.json")))
        #expect(status == .unprocessableContent)
        #expect(answer["error"] as? String == "signers[0].ink: \(message)")

        let cli = try Self.commandLine(Self.signerArguments(participant: "single-dot.json")
                                       + ["--not-now", "newsletter", "--sharing", "investigatorOnly"])
        #expect(cli.status == 1)
        #expect(cli.stderr.contains("--sign: \(message)\n"), "\(cli.stderr)")
        #expect(cli.pdf == nil && cli.record == nil)
    }

    @Test func theSameSubmissionIsDatedAndSignedTheSameByTheRouteAndTheCommandLine() async throws {
        let (status, answer) = try await Self.post(try Self.body())
        #expect(status == .ok, "\(answer)")
        let pdf = try #require(Data(base64Encoded: answer["pdf"] as? String ?? ""))
        let record = try ConsentRecord(json: Array((answer["record"] as? String ?? "").utf8))
        #expect(answer["pages"] as? Int == (try PDFCheck.pages(Array(pdf))))
        // No --date and no offset: each signature is dated by its ink's capture time, in UTC.
        var starts: [String] = []
        for name in ["long-name.json", "short-name.json"] {
            let ink = try InkDecoder().decode(try Data(contentsOf: Self.sample(name))).signature
            let start = try #require(ink.startTime)
            starts.append(try #require(ConsentDate(millisecondsSince1970: start)).iso8601)
        }
        #expect(record.signers.map(\.date) == starts)

        let cli = try Self.commandLine(Self.signerArguments() + ["--not-now", "newsletter", "--sharing", "investigatorOnly"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let written = try ConsentRecord(json: Array(try #require(cli.record)))
        #expect(written.signers.map(\.date) == starts)
        #expect(cli.pdf == pdf)
        #expect(cli.record.map { String(decoding: $0, as: UTF8.self) } == answer["record"] as? String)
    }

    /// A signer may type their name in place of ink (`typed`): the record says so and keeps it; with ink too, or
    /// where the document's slot requires a drawn signature, the route answers 422 naming the member.
    @Test func aTypedSignatureIsSignedAndRefusedWhereTheSlotRequiresDrawing() async throws {
        var signers = try Self.signers()
        signers[0]["ink"] = nil
        signers[0]["typed"] = "A. Lovelace"
        let (status, answer) = try await Self.post(try Self.body(signers: signers))
        #expect(status == .ok, "\(answer)")
        let record = try ConsentRecord(json: Array((answer["record"] as? String ?? "").utf8))
        #expect(record.signers[0].kind == .typed && record.signers[0].typedSignature == "A. Lovelace" && record.signers[0].signature == nil)
        let pdf = try #require(Data(base64Encoded: answer["pdf"] as? String ?? ""))
        #expect(try PDFCheck.text(Array(pdf)).contains("A. Lovelace"))

        signers[0]["ink"] = try Self.text("long-name.json")
        let both = try await Self.post(try Self.body(signers: signers))
        #expect(both.status == .unprocessableContent)
        #expect(both.answer["error"] as? String == "signers[0].ink: the signature of 'participant' is either drawn or typed, not both")

        var drawnOnly = try ConsentDocument(json: Array(try Data(contentsOf: Self.document)))
        drawnOnly.slots[0].requiresDrawnSignature = true
        signers[0]["ink"] = nil
        let refused = try await Self.post(try Self.body(signers: signers), document: drawnOnly)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.answer["error"] as? String == "signers[0].ink: signature slot 'participant' requires a drawn signature")
    }

    @Test func aServerWithASealSealsEachConsentAndNamesTheUserAgentInItsAuditTrail() async throws {
        var configuration = ServerConfiguration()
        configuration.seal = try PDFSigningIdentity(keyPEM: TestPKI.p256.keyPEM, certificatePEM: TestPKI.p256.certificatePEM,
                                                    chainPEM: TestPKI.intermediate.certificatePEM)
        let app = Application(router: try SignatureInkServer.router(configuration: configuration))
        let body = Array(try JSONSerialization.data(withJSONObject: try Self.body()))
        let (status, answer): (HTTPResponse.Status, [String: Any]) = try await app.withRouterClient { client in
            try await client.execute(uri: "/consent/sign", method: .post, headers: [.userAgent: "Clinic-Tablet/2.1"],
                                     body: ByteBuffer(bytes: body)) { response in
                (response.status, (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:])
            }
        }
        #expect(status == .ok, "\(answer)")
        let pdf = Array(try #require(Data(base64Encoded: answer["pdf"] as? String ?? "")))
        let record = try ConsentRecord(json: Array((answer["record"] as? String ?? "").utf8))
        #expect(record.verify(pdf: pdf) == [])
        let report = try await PDFSeal.verify(pdf, trustedRootsPEM: TestPKI.root.certificatePEM)
        #expect(report.problems == [])
        #expect(report.attachments.map(\.fileName) == [ConsentSeal.recordFileName])
        let pages = try PDFCheck.pages(pdf)
        #expect(answer["pages"] as? Int == pages)
        #expect(try PDFCheck.text(pdf, page: pages).contains("with the user agent Clinic-Tablet/2.1"))
    }

    /// A document with one participant who signs without a printed name, and no sharing question.
    static func inkOnly() throws -> ConsentDocument {
        try ConsentDocument(json: Array("""
            {"title": "Delivery", "sections": [{"identifier": "terms", "kind": "custom", "title": "Terms", "content": "Received."}],
             "slots": [{"identifier": "participant", "title": "Recipient", "requiresName": false}]}
            """.utf8))
    }

    /// Each mistake: the body, the document (default the sample), and how the answer's message must start.
    static let mistakes: [(String, @Sendable () throws -> [String: Any], Bool, String)] = [
        ("a slot signed twice", { try body(signers: try signers() + [["slot": "participant", "name": "Ada", "ink": try text("short-name.json")]]) },
         false, "signers[2]: signature slot 'participant' is given twice"),
        ("an unknown slot", { try body(signers: try signers() + [["slot": "witness", "name": "Eve"]]) },
         false, "signers[2]: no signature slot is named 'witness'; the document has 'participant', 'investigator'"),
        ("an unknown form", { try body(decisions: decisions + [["form": "survey", "decision": "allowed"]]) },
         false, "decisions[2]: no form is named 'survey'; the forms are 'study', 'newsletter'"),
        ("a form both allowed and denied", {
            try body(decisions: [["form": "study", "decision": "allowed"], ["form": "newsletter", "decision": "allowed"],
                                 ["form": "newsletter", "decision": "denied"]])
        }, false, "decisions[2]: form 'newsletter' is both allowed and denied"),
        ("a mandatory form denied", { try body(decisions: [["form": "study", "decision": "denied"], ["form": "newsletter", "decision": "allowed"]]) },
         false, "decisions[0]: form 'study' is mandatory: consent is required to sign"),
        ("a form without a decision", { try body(decisions: [["form": "study", "decision": "allowed"]]) },
         false, "decisions: form 'newsletter' has no decision"),
        ("no sharing answer", { try body(sharing: nil) }, false, "sharing: the document asks the sharing question and it has no answer"),
        ("a sharing answer when none is asked", {
            try body(decisions: [["form": "consent", "decision": "allowed"]], sharing: "broadly",
                     signers: [["slot": "participant", "ink": try text("long-name.json")]])
        }, true, "sharing: the document asks no sharing question"),
        ("a name for a slot that asks none", {
            try body(decisions: [["form": "consent", "decision": "allowed"]], sharing: nil,
                     signers: [["slot": "participant", "name": "Ada", "ink": try text("long-name.json")]])
        }, true, "signers[0].name: signature slot 'participant' asks for no printed name"),
        ("a missing signature", { try body(signers: [try signers()[0], ["slot": "investigator", "name": "Charles"]]) },
         false, "signers[1].ink: signature slot 'investigator' requires a signature"),
        ("a missing signer", { try body(signers: [try signers()[0]]) },
         false, "signers: signature slot 'investigator' requires the signer's name"),
        ("an offset past 18 hours", { try body(extra: ["utcOffsetMinutes": 1081]) },
         false, "utcOffsetMinutes: the UTC offset of 1081 minutes is outside -1080...1080"),
    ]

    @Test(arguments: mistakes.indices)
    func eachMistakeIsRefusedWith422NamingItsField(_ index: Int) async throws {
        let (name, body, inkOnly, message) = Self.mistakes[index]
        let (status, answer) = try await Self.post(try body(), document: inkOnly ? try Self.inkOnly() : nil)
        #expect(status == .unprocessableContent, "\(name): \(status)")
        let error = answer["error"] as? String ?? ""
        #expect(error.hasPrefix(message), "\(name): \(error)")
    }

    /// Bodies that are not a submission at all, and how the message must name the field.
    static let badBodies: [(String, @Sendable () throws -> Any, String)] = [
        ("decisions not an array", { ["decisions": 5, "signers": []] }, "decisions: expected an array"),
        ("an unknown field", { try body(extra: ["date": "2026-11-25"]) },
         "body: unknown field 'date'; expected one of submission, document, decisions, sharing, utcOffsetMinutes, pageSize, signers"),
        ("an unknown signer field", { try body(signers: [["slot": "participant", "nmae": "Ada"]]) },
         "signers[0]: unknown field 'nmae'; expected one of slot, name, ink, typed"),
        ("an unknown decision", { try body(decisions: [["form": "study", "decision": "maybe"]]) },
         "decisions[0].decision: 'maybe' is not one of allowed, denied, notNow"),
        ("an unknown sharing answer", { try body(sharing: "everyone") }, "sharing: 'everyone' is not one of broadly, investigatorOnly"),
        ("an unknown page size", { try body(extra: ["pageSize": "legal"]) }, "pageSize: 'legal' is not one of a4, letter"),
        ("an offset as text", { try body(extra: ["utcOffsetMinutes": "60"]) }, "utcOffsetMinutes: expected a number"),
        ("an offset with a fraction", { try body(extra: ["utcOffsetMinutes": 60.5]) }, "utcOffsetMinutes: expected a whole number, found 60.5"),
        ("no signers", { ["decisions": decisions] }, "signers: required field is missing"),
        ("a slot that is null", { try body(signers: [["slot": NSNull()]]) }, "signers[0].slot: expected a string, found null"),
        ("not JSON", { Array("{decisions".utf8) }, "the body is not JSON"),
    ]

    @Test(arguments: badBodies.indices)
    func aBodyThatIsNoSubmissionIsRefusedWith400InJSONsWords(_ index: Int) async throws {
        let (name, body, message) = Self.badBodies[index]
        let (status, answer) = try await Self.post(try body())
        #expect(status == .badRequest, "\(name): \(status)")
        let error = answer["error"] as? String ?? ""
        #expect(error == "the submission is not valid: \(message)", "\(name): \(error)")
        for word in ["CodingKeys", "Swift", "Body", "Decision", "PageSize", "SharingChoice", "Int", "String", "Optional"] {
            #expect(!error.contains(word), "\(name): \(error)")
        }
    }

    @Test func theConsentPagesBodyIsSignedOnTheRequestedPaper() async throws {
        // As consent.js posts it: every field present, null where the document asks nothing.
        let page: [String: Any] = ["decisions": [["form": "consent", "decision": "allowed"]], "sharing": NSNull(),
                                   "utcOffsetMinutes": -300, "pageSize": "letter",
                                   "signers": [["slot": "participant", "name": NSNull(), "ink": try Self.text("long-name.json")]]]
        let (status, answer) = try await Self.post(page, document: try Self.inkOnly())
        #expect(status == .ok, "\(answer)")
        let pdf = Array(try #require(Data(base64Encoded: answer["pdf"] as? String ?? "")))
        #expect(String(decoding: pdf, as: UTF8.self).contains("/MediaBox [ 0 0 612 792 ]"))
        #expect(answer["pages"] as? Int == (try PDFCheck.pages(pdf)))
        let record = try ConsentRecord(json: Array((answer["record"] as? String ?? "").utf8))
        #expect(record.pageSize == .letter)
        #expect(record.sharing == nil && record.signers.map(\.name) == [""])
        #expect(record.signers.first?.date.hasSuffix("-05:00") == true)
        #expect(record.verify(pdf: pdf).isEmpty)
    }
}
