// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import SignatureInkStore
import Testing

@Suite struct ConsentCommandTests {
    static var document: String { TestData.sampleStrokes.appendingPathComponent("consent/study-consent.json").path }
    static var participantInk: String { TestData.sampleStrokes.appendingPathComponent("long-name.json").path }

    /// The arguments that sign the sample, writing into `dir`.
    static func signing(_ dir: TemporaryDirectory, extra: [String] = []) -> [String] {
        ["consent", document, "--sign", "participant=\(participantInk)",
         "--sign", "Investigator=\(TestData.sampleStrokes.appendingPathComponent("short-name.json").path)",
         "--name", "participant=Ada Lovelace", "--name", "investigator=Charles Babbage", "--date", "2026-11-25T14:30:00+01:00",
         "--sharing", "investigatorOnly", "-o", dir.path("signed.pdf"), "--record", dir.path("signed.json")] + extra
    }

    @Test func signsThenVerifiesAndTheOutputIsTheSameEachTime() throws {
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(Self.signing(dir))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try dir.files() == ["signed.json", "signed.pdf"])
        let pdf = try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf")))
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("signed.json")))) as? [String: Any]
        #expect((record?["signers"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Ada Lovelace", "Charles Babbage"])
        #expect((record?["decisions"] as? [[String: Any]])?.compactMap { $0["decision"] as? String } == ["allowed", "allowed"])
        #expect(record?["sharing"] as? String == "investigatorOnly")

        let verified = try CLIRunner.run(["consent", "verify", dir.path("signed.json"), dir.path("signed.pdf")])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.hasPrefix("ok:"))

        let again = try CLIRunner.run(Self.signing(dir, extra: ["--not-now", "newsletter"]))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf"))) == pdf)
        let letter = try CLIRunner.run(Self.signing(dir, extra: ["--page-size", "letter"]))
        #expect(letter.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf"))) != pdf)
    }

    /// `--type` signs with a typed name in place of `--sign`: the record says so and keeps the text, and a slot that
    /// requires a drawn signature refuses it, naming `--type`.
    @Test func aTypedSignatureSignsAndASlotThatRequiresDrawingRefusesIt() throws {
        let dir = try TemporaryDirectory()
        let arguments = ["consent", Self.document, "--type", "participant=A. Lovelace", "--name", "participant=Ada Lovelace",
                         "--sign", "investigator=\(TestData.sampleStrokes.appendingPathComponent("short-name.json").path)",
                         "--name", "investigator=Charles Babbage", "--sharing", "investigatorOnly",
                         "-o", dir.path("typed.pdf"), "--record", dir.path("typed.json")]
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("typed.json")))) as? [String: Any]
        let participant = (record?["signers"] as? [[String: Any]])?.first { $0["slot"] as? String == "participant" }
        #expect(participant?["kind"] as? String == "typed" && participant?["typedSignature"] as? String == "A. Lovelace")
        #expect(participant?["signature"] == nil)
        let verified = try CLIRunner.run(["consent", "verify", dir.path("typed.json"), dir.path("typed.pdf")])
        #expect(verified.status == 0, "\(verified.stderr)")

        // The same with a document whose participant must draw: refused, nothing written.
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.document))) as? [String: Any])
        var slots = try #require(document["slots"] as? [[String: Any]])
        slots[0]["requiresDrawnSignature"] = true
        document["slots"] = slots
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: dir.path("drawn-only.json")))
        var refused = arguments
        refused[1] = dir.path("drawn-only.json")
        refused[refused.count - 3] = dir.path("refused.pdf")
        let no = try CLIRunner.run(refused)
        #expect(no.status == 1)
        #expect(no.stderr.contains("--type") && no.stderr.contains("requires a drawn signature"), "\(no.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("refused.pdf")))
    }

    @Test func aConsentSignedWithStoreIsKeptThereAsWritten() async throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        let first = try CLIRunner.run(Self.signing(dir, extra: ["--store", store]))
        #expect(first.status == 0, "\(first.stderr)")
        let id = try #require(first.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(first.stdout.contains("kept in \(store) as \(id)"))
        let opened = try await ConsentStore.open(store)
        let kept = try await opened.consent(id: id)
        #expect(kept.record.json == Array(try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.json")))))
        #expect(try await opened.pdf(ofConsent: id) == Array(try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf")))))
        #expect(try await opened.verify().failure == nil)
        await opened.close()
        // A store that cannot be opened: nothing is written.
        let blocked = try TemporaryDirectory()
        try Data().write(to: URL(fileURLWithPath: blocked.path("file")))
        let refused = try CLIRunner.run(Self.signing(blocked, extra: ["--store", blocked.path("file") + "/store"]))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Not a directory; nothing was written"), "\(refused.stderr)")
        #expect(try blocked.files() == ["file"])
    }

    @Test func withoutSignatureInkStoreAConsentForAStoreIsRefusedAndNothingIsWritten() throws {
        // The tool alone in a folder, with a PATH that has no signature-ink-store either.
        let dir = try TemporaryDirectory()
        let alone = URL(fileURLWithPath: dir.path("signature-ink"))
        do { try FileManager.default.linkItem(at: CLIRunner.binary, to: alone) } catch {
            try FileManager.default.copyItem(at: CLIRunner.binary, to: alone)
        }
        let r = try CLIRunner.run(Self.signing(dir, extra: ["--store", dir.path("store")]),
                                  environment: ["PATH": "/usr/bin:/bin"], executable: alone)
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(dir.path("store")): keeping a consent needs signature-ink-store, which is neither beside "
                                  + "\(alone.path) nor on PATH; nothing was written"), "\(r.stderr)")
        #expect(try dir.files() == ["signature-ink"])
    }

    @Test func signatureInkStoreKeepsOnlyARecordAndPDFThatMatch() async throws {
        let dir = try TemporaryDirectory()
        #expect(try CLIRunner.run(Self.signing(dir)).status == 0)
        let store = dir.path("store")
        func keep(record: String, pdf: String, pages: String = "3") throws -> CLIRunner.Result {
            try CLIRunner.run(["keep", "--store", store, "--record", record, "--pdf", pdf, "--pages", pages],
                              executable: CLIRunner.keeper)
        }
        // A PDF that is not the record's: refused, naming the store and the PDF's digest.
        var pdf = try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf")))
        pdf[pdf.count / 2] ^= 0x20
        try pdf.write(to: URL(fileURLWithPath: dir.path("changed.pdf")))
        let changed = try keep(record: dir.path("signed.json"), pdf: dir.path("changed.pdf"))
        #expect(changed.status == 1)
        #expect(changed.stderr.hasPrefix("error: \(store): ") && changed.stderr.contains("its SHA-256 is"), "\(changed.stderr)")
        // A record that is no record, and a file that is not there: refused, naming the file.
        let notARecord = try dir.write("not-a-record.json", "{\"version\": 1}")
        let bad = try keep(record: notARecord, pdf: dir.path("signed.pdf"))
        #expect(bad.status == 1 && bad.stderr.hasPrefix("error: \(notARecord): "), "\(bad.stderr)")
        let missing = try keep(record: dir.path("signed.json"), pdf: dir.path("missing.pdf"))
        #expect(missing.status == 1 && missing.stderr == "error: \(dir.path("missing.pdf")): cannot be read\n", "\(missing.stderr)")
        // No pages: refused by the store.
        let noPages = try keep(record: dir.path("signed.json"), pdf: dir.path("signed.pdf"), pages: "0")
        #expect(noPages.status == 1 && noPages.stderr.contains("pages"), "\(noPages.stderr)")
        // The signed pair: kept, its identifier printed, nothing else kept before it.
        let kept = try keep(record: dir.path("signed.json"), pdf: dir.path("signed.pdf"))
        #expect(kept.status == 0, "\(kept.stderr)")
        let id = kept.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let opened = try await ConsentStore.open(store)
        #expect(try await opened.pdf(ofConsent: id) == Array(try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf")))))
        #expect(try await opened.events(after: 0, limit: 10).count == 2)
        #expect(try await opened.verify().failure == nil)
        await opened.close()
    }

    @Test func verifyNamesWhatNoLongerMatches() throws {
        let dir = try TemporaryDirectory()
        #expect(try CLIRunner.run(Self.signing(dir)).status == 0)
        var pdf = try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf")))
        pdf[pdf.count / 2] ^= 0x20
        try pdf.write(to: URL(fileURLWithPath: dir.path("changed.pdf")))
        let r = try CLIRunner.run(["consent", "verify", dir.path("signed.json"), dir.path("changed.pdf")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("signed.json: pdfSHA256: the PDF's SHA-256 is"))

        let record = try String(contentsOfFile: dir.path("signed.json"), encoding: .utf8)
        _ = try dir.write("edited.json", record.replacingOccurrences(of: "about twenty minutes", with: "about two minutes"))
        let edited = try CLIRunner.run(["consent", "verify", dir.path("edited.json"), dir.path("signed.pdf")])
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("documentDigest"))
    }

    /// Each mistake, and what the error must say; nothing may be written.
    static let mistakes: [([String], [String], Int32, String)] = [
        (["--sign"], ["participant=PARTICIPANT_INK"], 1, "--sign: signature slot 'investigator' requires a signature"),
        (["--sign"], ["witness=PARTICIPANT_INK"], 1, "--sign: no signature slot is named 'witness'"),
        (["--date"], ["25.11.2026"], 2, "--date: '25.11.2026' is not an ISO 8601 date"),
        (["--deny"], ["study"], 1, "--deny: form 'study' is mandatory"),
        (["--sharing"], ["nobody"], 2, "--sharing"),
        (["--name"], ["participant"], 2, "'participant' must be ROLE=VALUE"),
        (["--sign"], ["participant=PARTICIPANT_INK", "participant=PARTICIPANT_INK", "investigator=PARTICIPANT_INK"], 1,
         "--sign: signature slot 'participant' is given twice"),
        (["--name"], ["participant=Ada", "Participant=Ada", "investigator=Charles"], 1,
         "--name: signature slot 'participant' is given twice"),
        (["--deny"], ["survey"], 1, "--deny: no form is named 'survey'; the forms are 'study', 'newsletter'"),
        (["--not-now"], ["study"], 1, "--not-now: form 'study' is mandatory: consent is required to sign"),
        (["--sharing"], [], 1, "--sharing: the document asks the sharing question and it has no answer"),
    ]

    @Test(arguments: mistakes.indices)
    func mistakesAreNamedAndLeaveNoFile(_ index: Int) throws {
        let (option, values, status, message) = Self.mistakes[index]
        let dir = try TemporaryDirectory()
        var arguments = Self.signing(dir)
        // Replace every occurrence of the option with the wrong values.
        var cleaned: [String] = []
        var k = 0
        while k < arguments.count {
            if arguments[k] == option[0] { k += 2; continue }
            cleaned.append(arguments[k]); k += 1
        }
        arguments = cleaned
        for value in values {
            arguments += [option[0], value.replacingOccurrences(of: "PARTICIPANT_INK", with: Self.participantInk)]
        }
        let r = try CLIRunner.run(arguments)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(try dir.files().isEmpty)
    }

    @Test func aSingleDotIsRefusedByTheSignatureMinimums() throws {
        let dir = try TemporaryDirectory()
        let dot = TestData.sampleStrokes.appendingPathComponent("single-dot.json")
        var arguments = Self.signing(dir)
        arguments[arguments.firstIndex(of: "participant=\(Self.participantInk)")!] = "participant=\(dot.path)"
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 1)
        // The capture session's own refusal, as the server words it too.
        let ink = try InkDecoder().decode(try Data(contentsOf: dot)).signature
        let shortfall = try #require(SignatureMinimums.default.shortfall(of: ink))
        #expect(r.stderr.contains("--sign: the signature of 'participant': \(CaptureSession.Refusal.tooSmall(shortfall))\n"), "\(r.stderr)")
        #expect(try dir.files().isEmpty)
    }

    @Test func withoutADateEachSignatureIsDatedByItsInksCaptureTime() throws {
        let dir = try TemporaryDirectory()
        var arguments = Self.signing(dir)
        arguments.removeSubrange(arguments.firstIndex(of: "--date")!...arguments.firstIndex(of: "--date")! + 1)
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("signed.json")))) as? [String: Any]
        let format = ISO8601DateFormatter()
        format.timeZone = TimeZone(secondsFromGMT: 0)
        var expected: [String] = []
        for ink in [Self.participantInk, TestData.sampleStrokes.appendingPathComponent("short-name.json").path] {
            let start = try #require(try InkDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: ink))).signature.startTime)
            expected.append(format.string(from: Date(timeIntervalSince1970: start / 1000)))
        }
        #expect((record?["signers"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == expected)
    }

    @Test func contradictoryOrUnaskedAnswersAreRefused() throws {
        let dir = try TemporaryDirectory()
        let both = try CLIRunner.run(Self.signing(dir, extra: ["--deny", "newsletter", "--not-now", "newsletter"]))
        #expect(both.status == 1)
        #expect(both.stderr.contains("--not-now: form 'newsletter' is both denied and not now"), "\(both.stderr)")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.document))) as? [String: Any])
        object["sharing"] = nil
        let unasked = try dir.write("no-sharing.json", String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        var arguments = Self.signing(dir)
        arguments[1] = unasked
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 1)
        #expect(r.stderr.contains("--sharing: the document asks no sharing question"), "\(r.stderr)")
        #expect(try dir.files() == ["no-sharing.json"])
    }

    @Test func aBadDocumentIsNamedWithItsField() throws {
        let dir = try TemporaryDirectory()
        let source = try String(contentsOfFile: Self.document, encoding: .utf8)
        let bad = try dir.write("bad.json", source.replacingOccurrences(of: "\"dateFormat\": \"d MMM yyyy\"", with: "\"dateFormat\": \"d MMM YYYY\""))
        var arguments = Self.signing(dir)
        arguments[1] = bad
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 1)
        #expect(r.stderr.contains("bad.json: slots[1].dateFormat: timestamp pattern: 'YYYY' is the week-based year"), "\(r.stderr)")
        #expect(try dir.files() == ["bad.json"])
    }

    @Test func previewWritesAPageAsPNG() throws {
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(["consent", "preview", Self.document, "--page", "2", "--dpi", "36", "-o", dir.path("page.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try DecodedPNG(Array(Data(contentsOf: URL(fileURLWithPath: dir.path("page.png")))))
        #expect(png.width == 298 && png.height == 421)  // A4 at 36 dpi
        let missing = try CLIRunner.run(["consent", "preview", Self.document, "--page", "9", "-o", dir.path("nine.png")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("9 is not one of the 2 pages"), "\(missing.stderr)")
    }
}
