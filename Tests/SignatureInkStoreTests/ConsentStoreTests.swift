// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkStore
import Testing

/// The store, each test once on SQLite (in a new folder) and once on PostgreSQL (in a new database).
@Suite struct ConsentStoreTests {
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

    @Test(arguments: Backend.allCases) func aKeptConsentReadsBackAsItWasSigned(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(place.location)
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: 3, provenance: Provenance(client: "192.0.2.1"))
        let again = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        #expect(kept.id != again.id)
        let read = try await store.consent(id: kept.id)
        #expect(read.record.json == signed.record.json)
        #expect(kept.recordJSON == signed.record.json)
        #expect(read.recordJSON == signed.record.json)
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
        let reopened = try await ConsentStore.open(place.location)
        #expect(try await reopened.consent(id: again.id).record.json == signed.record.json)
        #expect(try await reopened.verify() == verification)
        await reopened.close()
    }

    @Test(arguments: Backend.allCases) func aWithdrawalIsAnEventAndHappensOnce(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(place.location)
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

    @Test(arguments: Backend.allCases) func consentsAreFoundByDocumentSignerAndTimeAPageAtATime(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
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

    @Test(arguments: Backend.allCases) func aSubmissionSentTwiceIsKeptOnce(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(place.location)
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

    @Test(arguments: Backend.allCases) func aPDFThatIsNotTheRecordsIsRefusedAndNothingIsKept(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(place.location)
        var pdf = signed.pdf
        pdf[pdf.count / 2] ^= 1
        await #expect(throws: StoreError.self) { try await store.keep(signed.record, pdf: pdf, pages: 3) }
        var record = signed.record
        record.document += " "
        await #expect(throws: StoreError.self) { try await store.keep(record, pdf: signed.pdf, pages: 3) }
        #expect(try await store.events().isEmpty)
        await store.close()
    }

    @Test(arguments: Backend.allCases) func savedSignaturesAreKeptInOrder(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
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

    @Test(arguments: Backend.allCases) func theExportIsOneJSONLinePerEvent(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(place.location)
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

    @Test(arguments: Backend.allCases) func writersInTwoConnectionsKeepOneChain(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let one = try await ConsentStore.open(place.location)
        let two = try await ConsentStore.open(place.location)
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

    @Test(arguments: Backend.allCases) func theDatabaseRefusesToChangeOrDeleteAnEvent(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let signed = try Self.signed()
        _ = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        for sql in ["UPDATE event SET recorded_at = 'x'", "DELETE FROM event", "UPDATE file SET sha256 = 'x'", "DELETE FROM file"] {
            await #expect(throws: (any Error).self, "\(sql) was not refused") { try await place.execute(sql) }
        }
        #expect(try await store.verify().failure == nil)
        await store.close()
    }

    /// A change made by hand, as a person with `sqlite3` or `psql` would after dropping the triggers that refuse it.
    struct Tampering: Sendable, CustomTestStringConvertible {
        var what: String
        var change: @Sendable (TestStore) async throws -> Int
        /// The event verification must name, by its position among: 1 the document, 2 and 3 consents, 4 a withdrawal
        /// of 2, 5 a signature; and words of its message.
        var sequence: Int64
        var message: String
        var testDescription: String { what }
    }

    static let tamperings: [Tampering] = [
        Tampering(what: "a consent's content", change: { try await $0.replace(in: "event", column: "content", "Ada", with: "Eve", where: "sequence = 2") },
                  sequence: 2, message: "its content's SHA-256"),
        // The withdrawal's reason changed and its own digests recomputed: the next event's link no longer matches.
        Tampering(what: "a withdrawal's reason and its digests, recomputed", change: { try await $0.forge(event: 4, "by phone", with: "by post") },
                  sequence: 5, message: "links to"),
        Tampering(what: "the time of an event", change: { try await $0.execute("UPDATE event SET recorded_at = '2020-01-01T00:00:00.000Z' WHERE sequence = 3") },
                  sequence: 3, message: "its SHA-256 is"),
        Tampering(what: "an event removed", change: {
            try await $0.execute("DELETE FROM signer WHERE event_sequence = 3") + (try await $0.execute("DELETE FROM event WHERE sequence = 3"))
        }, sequence: 4, message: "missing before it"),
        Tampering(what: "a signed PDF", change: { try await $0.replace(in: "file", column: "bytes", "Page", with: "Pagf", where: "true") },
                  sequence: 2, message: "pdfSHA256"),
        Tampering(what: "a consent's document column", change: { try await $0.execute("UPDATE event SET document_digest = 'x' WHERE sequence = 3") },
                  sequence: 3, message: "columns kept beside it"),
        Tampering(what: "a signer's name in the index",
                  change: { try await $0.execute("UPDATE signer SET name = 'Eve' WHERE event_sequence = 2 AND position = 0") },
                  sequence: 2, message: "columns kept beside it"),
        Tampering(what: "the record text returned at signing",
                  change: { try await $0.replace(in: "file", column: "bytes", "\"Ada Lovelace\"", with: "\"Eve Lovelace\"", where: "true") },
                  sequence: 2, message: "record text"),
        Tampering(what: "the document", change: { try await $0.replace(in: "event", column: "content", "study", with: "stud", where: "sequence = 1") },
                  sequence: 1, message: "its content's SHA-256"),
    ]

    @Test(arguments: Backend.allCases, tamperings)
    func aChangeByHandIsNamedByVerification(_ backend: Backend, _ tampering: Tampering) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let signed = try Self.signed()
        let store = try await ConsentStore.open(place.location)
        let first = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        _ = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        try await store.withdraw(consent: first.id, reason: "by phone")
        _ = try await store.keep(signature: "{}", digest: "a", savedAt: 1)
        #expect(try await store.verify().failure == nil)
        try await place.dropTriggers()
        #expect(try await tampering.change(place) > 0, "\(tampering.what): the change changed nothing")
        let failure = try #require(try await store.verify().failure, "\(tampering.what) was not found")
        #expect(failure.sequence == tampering.sequence, "\(tampering.what): \(failure)")
        #expect(failure.message.contains(tampering.message), "\(tampering.what): \(failure)")
        await store.close()
    }

    @Test func aStoreThatCannotBeOpenedSaysWhereWithoutAPassword() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("signature-ink-\(UUID().uuidString)").path
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try await ConsentStore.open(file + "/inside")
            Issue.record("opened a store inside a file")
        } catch {
            #expect("\(error)".contains(file + "/inside"))
        }
        // Nothing listens on port 1 of the loopback address.
        for url in ["postgres://ink:s3cret@127.0.0.1:1/consents", "postgresql://ink:s3cret@127.0.0.1:1/consents?sslmode=disable"] {
            do {
                _ = try await ConsentStore.open(url)
                Issue.record("opened \(url)")
            } catch {
                #expect("\(error)".contains(url.replacingOccurrences(of: ":s3cret", with: "")), "\(error)")
                #expect(!"\(error)".contains("s3cret"))
                #expect("\(error)".contains("refused"), "\(error)")
            }
        }
        for (url, words) in [("postgres://127.0.0.1/consents", "names no user"), ("postgres://ink@127.0.0.1", "names no database"),
                             ("postgres://ink:pw@127.0.0.1/db?sslmode=maybe", "sslmode must be"),
                             ("postgres://ink@127.0.0.1/db?timeout=3", "'timeout' is not understood")] {
            await #expect(throws: StoreError.self) { _ = try await ConsentStore.open(url) }
            do { _ = try await ConsentStore.open(url) } catch { #expect("\(error)".contains(words), "\(error)") }
        }
    }

    /// The test cluster asks for a password over TCP (`Scripts/with-postgres`): a URL without one fails, naming what is
    /// missing, and opens with the password in `PGPASSWORD`, which no process list shows.
    @Test func aPasswordMayComeFromPGPASSWORD() async throws {
        var components = try #require(URLComponents(string: try TestStore.serverURL()))
        let password = try #require(components.password, "the test cluster's URL carries its password")
        components.password = nil
        let bare = try #require(components.string)
        unsetenv("PGPASSWORD")
        do {
            _ = try await ConsentStore.open(bare)
            Issue.record("opened \(bare) without a password")
        } catch {
            #expect("\(error)".contains("asks for a password"), "\(error)")
        }
        setenv("PGPASSWORD", password, 1)
        defer { unsetenv("PGPASSWORD") }
        let store = try await ConsentStore.open(bare)
        #expect(store.location == bare)
        _ = try await store.verify()
        await store.close()
    }

    @Test func aPostgreSQLServerThatRefusesTheDatabaseIsNamed() async throws {
        var components = try #require(URLComponents(string: try TestStore.serverURL()))
        components.path = "/no_such_database"
        let password = try #require(components.password, "the test cluster's URL carries its password")
        do {
            _ = try await ConsentStore.open(try #require(components.string))
            Issue.record("opened a database that does not exist")
        } catch {
            #expect("\(error)".contains("no_such_database"), "\(error)")
            #expect("\(error)".contains("does not exist"), "\(error)")
            #expect(!"\(error)".contains(password))
        }
    }
}
