// SPDX-License-Identifier: Apache-2.0
import Foundation
import GRDB
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkStore
import Testing

/// The store on SQLite, in a new folder for each test.
@Suite struct ConsentStoreTests {
    /// A new, empty store folder under the system's temporary folder.
    static func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("signature-ink-store-\(UUID().uuidString)")
        return url.path
    }

    /// The sample study consent, signed by two signers with the given names.
    static func signed(participant: String = "Ada Lovelace", investigator: String = "Charles Babbage") throws -> ConsentSubmission.Signed {
        let document = try ConsentDocument(json: Array(try Data(contentsOf: TestData.sampleStrokes.appendingPathComponent("consent/study-consent.json"))))
        func ink(_ name: String) throws -> Signature {
            try InkDecoder().decode(try Data(contentsOf: TestData.sampleStrokes.appendingPathComponent(name))).signature
        }
        return try ConsentSubmission(
            document: document, decisions: [.init(form: "study", decision: .allowed), .init(form: "newsletter", decision: .denied)],
            sharing: .investigatorOnly,
            signers: [.init(slot: "participant", name: participant, ink: try ink("long-name.json")),
                      .init(slot: "investigator", name: investigator, ink: try ink("short-name.json"))]
        ).sign(now: 1_795_613_400_000)
    }

    /// The database file of a store folder, opened directly, as a person with `sqlite3` would.
    static func raw(_ folder: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: folder + "/consents.sqlite")
    }

    @Test func aKeptConsentReadsBackAsItWasSigned() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(folder)
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: 3, provenance: Provenance(client: "192.0.2.1"))
        let again = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        #expect(kept.id != again.id)
        let read = try await store.consent(id: kept.id)
        #expect(read.record.json == signed.record.json)
        #expect(read.provenance == Provenance(client: "192.0.2.1"))
        #expect(read.withdrawal == nil)
        #expect(try await store.pdf(ofConsent: kept.id) == signed.pdf)
        // The document once, then each consent.
        let events = try await store.events()
        #expect(events.map(\.kind) == [.document, .consent, .consent])
        #expect(events[0].id == signed.record.documentDigest)
        let verification = try await store.verify()
        #expect(verification.failure == nil)
        #expect(verification.events == 3)
        #expect(verification.head == events[2].sha256)
        await store.close()

        // Everything is there after the store is opened again.
        let reopened = try await ConsentStore.open(folder)
        #expect(try await reopened.consent(id: again.id).record.json == signed.record.json)
        #expect(try await reopened.verify() == verification)
        await reopened.close()
    }

    @Test func aWithdrawalIsAnEventAndHappensOnce() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(folder)
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        let other = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        let withdrawal = try await store.withdraw(consent: kept.id, reason: "asked by phone")
        let read = try await store.consent(id: kept.id)
        #expect(read.withdrawal == withdrawal)
        #expect(read.record.json == signed.record.json)
        await #expect(throws: StoreError.alreadyWithdrawn(consent: kept.id, withdrawal: withdrawal.id, at: withdrawal.recordedAt)) {
            try await store.withdraw(consent: kept.id, reason: "again")
        }
        await #expect(throws: StoreError.unknownConsent("nope")) { try await store.withdraw(consent: "nope", reason: "why") }
        // A document or a signature is no consent.
        await #expect(throws: StoreError.unknownConsent(signed.record.documentDigest)) {
            try await store.withdraw(consent: signed.record.documentDigest, reason: "why")
        }
        await #expect(throws: StoreError.invalid(field: "reason", message: "must not be empty")) {
            try await store.withdraw(consent: other.id, reason: "  ")
        }
        #expect(try await store.consents(ConsentQuery(withdrawn: true)).consents.map(\.id) == [kept.id])
        #expect(try await store.consents(ConsentQuery(withdrawn: false)).consents.map(\.id) == [other.id])
        #expect(try await store.events().map(\.kind) == [.document, .consent, .consent, .withdrawal])
        #expect(try await store.verify().failure == nil)
        await store.close()
    }

    @Test func consentsAreFoundByDocumentSignerAndTimeAPageAtATime() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await ConsentStore.open(folder)
        let names = ["Ada Lovelace", "Émilie du Châtelet", "Grace Hopper", "ada king", "Mary Somerville"]
        var ids: [String] = []
        for (i, name) in names.enumerated() {
            let signed = try Self.signed(participant: name)
            ids.append(try await store.keep(signed.record, pdf: signed.pdf, pages: 3, at: Date(timeIntervalSince1970: 1_800_000_000 + Double(i) * 3600)).id)
        }
        func found(_ query: ConsentQuery) async throws -> [String] { try await store.consents(query).consents.map(\.id) }
        #expect(try await found(ConsentQuery(signerName: "ADA")) == [ids[0], ids[3]])
        #expect(try await found(ConsentQuery(signerName: "émilie")) == [ids[1]])
        // The investigator signs every one.
        #expect(try await found(ConsentQuery(signerName: "babbage")) == ids)
        #expect(try await found(ConsentQuery(signerName: "Turing")) == [])
        let digest = try Self.signed().record.documentDigest
        #expect(try await found(ConsentQuery(documentDigest: digest.uppercased())) == ids)
        #expect(try await found(ConsentQuery(documentDigest: String(repeating: "0", count: 64))) == [])
        #expect(try await found(ConsentQuery(from: Date(timeIntervalSince1970: 1_800_003_600),
                                             to: Date(timeIntervalSince1970: 1_800_010_800))) == [ids[1], ids[2]])
        // Pages of two: the cursor of each page starts the next.
        var pages: [[String]] = []
        var after: Int64 = 0
        while true {
            let page = try await store.consents(ConsentQuery(after: after, limit: 2))
            pages.append(page.consents.map(\.id))
            guard let next = page.next else { break }
            after = next
        }
        #expect(pages == [[ids[0], ids[1]], [ids[2], ids[3]], [ids[4]]])
        await #expect(throws: StoreError.invalid(field: "limit", message: "must be in 1...500")) {
            try await store.consents(ConsentQuery(limit: 501))
        }
        await store.close()
    }

    @Test func aSubmissionSentTwiceIsKeptOnce() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(folder)
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: 3, id: "7c1e-submission")
        #expect(kept.id == "7c1e-submission")
        await #expect(throws: StoreError.alreadyKept("7c1e-submission")) {
            try await store.keep(signed.record, pdf: signed.pdf, pages: 3, id: "7c1e-submission")
        }
        await #expect(throws: StoreError.invalid(field: "id", message: "must be 1 to 64 lower-case letters, digits and '-'")) {
            try await store.keep(signed.record, pdf: signed.pdf, pages: 3, id: "Not/An Id")
        }
        #expect(try await store.events().map(\.kind) == [.document, .consent])
        #expect(try await store.consent(id: "7c1e-submission").pages == 3)
        await store.close()
    }

    @Test func aPDFThatIsNotTheRecordsIsRefusedAndNothingIsKept() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(folder)
        var pdf = signed.pdf
        pdf[pdf.count / 2] ^= 1
        await #expect(throws: StoreError.self) { try await store.keep(signed.record, pdf: pdf, pages: 3) }
        var record = signed.record
        record.document += " "
        await #expect(throws: StoreError.self) { try await store.keep(record, pdf: signed.pdf, pages: 3) }
        #expect(try await store.events().isEmpty)
        await store.close()
    }

    @Test func savedSignaturesAreKeptInOrder() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await ConsentStore.open(folder)
        let first = try await store.keep(signature: #"{"strokes":[]}"#, digest: "a", savedAt: 1, provenance: Provenance(user: "u1", device: "d1"))
        let second = try await store.keep(signature: #"{"strokes":[[]]}"#, digest: "b", savedAt: 2)
        #expect(try await store.signatures().signatures == [first, second])
        #expect(try await store.signatures().next == nil)
        let page = try await store.signatures(limit: 1)
        #expect(page.signatures == [first])
        #expect(page.next == first.sequence)
        #expect(try await store.signatures(after: first.sequence).signatures == [second])
        await store.close()
    }

    @Test func theExportIsOneJSONLinePerEvent() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(folder)
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        try await store.withdraw(consent: kept.id, reason: "a \"quoted\"\nreason")
        for event in try await store.events() {
            let line = event.exportLine
            #expect(line.last == 10)
            #expect(!line.dropLast().contains(10))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect(object["sha256"] as? String == event.sha256)
            #expect(object["kind"] as? String == event.kind.rawValue)
            #expect(object["content"] is [String: Any])
        }
        await store.close()
    }

    @Test func writersInTwoConnectionsKeepOneChain() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let one = try await ConsentStore.open(folder)
        let two = try await ConsentStore.open(folder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<40 {
                let store = i % 2 == 0 ? one : two
                group.addTask { _ = try await store.keep(signature: "{}", digest: "\(i)", savedAt: Double(i)) }
            }
            try await group.waitForAll()
        }
        let verification = try await one.verify()
        #expect(verification.failure == nil)
        #expect(verification.events == 40)
        #expect(Set(try await two.signatures().signatures.map(\.digest)) == Set((0..<40).map(String.init)))
        await one.close()
        await two.close()
    }

    @Test func theDatabaseRefusesToChangeOrDeleteAnEvent() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await ConsentStore.open(folder)
        _ = try await store.keep(signature: "{}", digest: "a", savedAt: 1)
        let raw = try Self.raw(folder)
        #expect(throws: DatabaseError.self) { try raw.write { try $0.execute(sql: "UPDATE event SET recorded_at = 'x'") } }
        #expect(throws: DatabaseError.self) { try raw.write { try $0.execute(sql: "DELETE FROM event") } }
        #expect(try await store.verify().failure == nil)
        await store.close()
    }

    /// Changes made by hand, as `sqlite3` would, after dropping the triggers that refuse them, and the event that
    /// verification must name (by its position among: 1 the document, 2 and 3 consents, 4 a withdrawal of 2, 5 a
    /// signature).
    static let tamperings: [(what: String, sql: String, sequence: Int64, message: String)] = [
        ("a consent's content", "UPDATE event SET content = CAST(replace(CAST(content AS TEXT), 'Ada', 'Eve') AS BLOB) WHERE sequence = 2",
         2, "its content's SHA-256"),
        ("a withdrawal's reason and its digests, recomputed", "", 5, "links to"),
        ("the time of an event", "UPDATE event SET recorded_at = '2020-01-01T00:00:00.000Z' WHERE sequence = 3", 3, "its SHA-256 is"),
        ("an event removed", "DELETE FROM signer WHERE event_sequence = 3; DELETE FROM event WHERE sequence = 3", 4, "missing before it"),
        ("a signed PDF", "UPDATE file SET bytes = CAST(replace(CAST(bytes AS TEXT), 'Page', 'Pagf') AS BLOB)", 2, "pdfSHA256"),
        ("a consent's document column", "UPDATE event SET document_digest = 'x' WHERE sequence = 3", 3, "columns kept beside it"),
        ("a signer's name in the index", "UPDATE signer SET name = 'Eve' WHERE event_sequence = 2 AND position = 0", 2, "columns kept beside it"),
        ("the document", "UPDATE event SET content = CAST(replace(CAST(content AS TEXT), 'study', 'stud') AS BLOB) WHERE sequence = 1",
         1, "its content's SHA-256"),
    ]

    @Test(arguments: 0..<tamperings.count)
    func aChangeByHandIsNamedByVerification(_ k: Int) async throws {
        let tampering = Self.tamperings[k]
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(folder)
        let first = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        _ = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        try await store.withdraw(consent: first.id, reason: "by phone")
        _ = try await store.keep(signature: "{}", digest: "a", savedAt: 1)
        #expect(try await store.verify().failure == nil)
        let raw = try Self.raw(folder)
        try await raw.write { db in
            for trigger in ["event_unchanged", "event_kept", "file_unchanged", "file_kept"] { try db.execute(sql: "DROP TRIGGER \(trigger)") }
            if tampering.sql.isEmpty {
                // The withdrawal's reason changed and its own digests recomputed, as a careful forger would: the next
                // event's link no longer matches.
                let row = try #require(try Row.fetchOne(db, sql: "SELECT sequence, kind, id, recorded_at, content, previous_sha256 FROM event WHERE sequence = 4"))
                let content = Array(String(decoding: row["content"] as Data, as: UTF8.self).replacingOccurrences(of: "by phone", with: "by post").utf8)
                let contentDigest = HexDigest.sha256(content)
                let header = "signature-ink-event/1\n4\nwithdrawal\n\(row["id"] as String)\n\(row["recorded_at"] as String)\n\(contentDigest)\n\(row["previous_sha256"] as String)\n"
                try db.execute(sql: "UPDATE event SET content = ?, content_sha256 = ?, sha256 = ? WHERE sequence = 4",
                               arguments: [Data(content), contentDigest, HexDigest.sha256(Array(header.utf8))])
            } else {
                try db.execute(sql: tampering.sql)
                #expect(db.changesCount > 0, "\(tampering.what): the change changed nothing")
            }
        }
        let failure = try #require(try await store.verify().failure, "\(tampering.what) was not found")
        #expect(failure.sequence == tampering.sequence, "\(tampering.what): \(failure)")
        #expect(failure.message.contains(tampering.message), "\(tampering.what): \(failure)")
        await store.close()
    }

    @Test func aStoreThatCannotBeOpenedSaysWhereWithoutAPassword() async throws {
        let file = try Self.folder()
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try await ConsentStore.open(file + "/inside")
            Issue.record("opened a store inside a file")
        } catch {
            #expect("\(error)".contains(file + "/inside"))
        }
        do {
            _ = try await ConsentStore.open("postgres://ink:s3cret@db.example:5432/consents")
            Issue.record("opened a PostgreSQL store")
        } catch {
            #expect("\(error)".contains("postgres://db.example:5432/consents"))
            #expect(!"\(error)".contains("s3cret"))
        }
    }
}
