// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInkStore
import Testing

/// The backups the README gives: `sqlite3 .backup` of a live SQLite store and `pg_dump` of a PostgreSQL one, restored
/// elsewhere, read back and verify as the original.
@Suite struct BackupTests {
    @Test(arguments: Backend.allCases) func aBackupRestoredElsewhereVerifiesAsTheOriginal(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        let copy = try await TestStore.new(backend)
        defer {
            place.remove()
            copy.remove()
        }
        let signed = try ConsentStoreTests.signed()
        let store = try await ConsentStore.open(place.location)
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        let other = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        let withdrawal = try await store.withdraw(consent: other.id, reason: "asked by phone")
        _ = try await store.keep(signature: "{}", digest: "d", savedAt: 1)

        // Copied while the store is open, as an operator backs up a running server.
        switch backend {
        case .sqlite:
            try FileManager.default.createDirectory(atPath: copy.location, withIntermediateDirectories: true)
            _ = try ExternalTool.run("sqlite3", [place.location + "/consents.sqlite", ".backup '\(copy.location)/consents.sqlite'"])
        case .postgresql:
            let dump = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sql").path
            defer { try? FileManager.default.removeItem(atPath: dump) }
            _ = try ExternalTool.run("pg_dump", ["--dbname=" + place.location, "--file=" + dump])
            _ = try ExternalTool.run("psql", [copy.location, "-q", "-v", "ON_ERROR_STOP=1", "-f", dump])
        }
        let original = try await store.verify()
        await store.close()

        let restored = try await ConsentStore.open(copy.location)
        #expect(try await restored.verify() == original)
        #expect(original.events == 5)
        #expect(try await restored.consent(id: kept.id).recordJSON == signed.record.json)
        #expect(try await restored.pdf(ofConsent: kept.id) == signed.pdf)
        #expect(try await restored.consent(id: other.id).withdrawal == withdrawal)
        // The copy keeps refusing changes, and goes on as one chain.
        await #expect(throws: (any Error).self) { try await copy.execute("DELETE FROM event WHERE id = '\(kept.id)'") }
        _ = try await restored.withdraw(consent: kept.id, reason: "by letter")
        let after = try await restored.verify()
        #expect(after.failure == nil)
        #expect(after.events == 6)
        await restored.close()
    }
}
