// SPDX-License-Identifier: Apache-2.0
import Foundation
@testable import SignatureInkStore
import Testing

/// What the SQLite store promises about its files: each commit synced to disk before it is answered, and the
/// write-ahead log copied into the database file by the background checkpoints, not by an append.
@Suite struct SQLiteDurabilityTests {
    @Test func theWriterSyncsEveryCommitAndLeavesCheckpointsToTheBackground() async throws {
        let place = try await TestStore.new(.sqlite)
        defer { place.remove() }
        for _ in 0..<2 {  // once on a new folder, once on the same folder opened again
            let store = try await ConsentStore.open(place.location)
            let database = try #require(store.database as? SQLiteDatabase)
            let settings = try await database.writerSettings()
            #expect(settings.synchronous == 2, "synchronous = FULL (2) on the connection that commits")
            #expect(settings.autocheckpoint == 4096)
            await store.close()
        }
    }

    @Test func theBackgroundCheckpointCopiesTheLogIntoTheDatabaseFile() async throws {
        let place = try await TestStore.new(.sqlite)
        defer { place.remove() }
        let signed = try ConsentStoreTests.signed()
        // A checkpoint after each append: the first consent's PDF must reach the database file.
        let store = ConsentStore(database: try SQLiteDatabase(folder: place.location, checkpointBytes: 1), location: place.location)
        let database = try #require(store.database as? SQLiteDatabase)
        let file = place.location + "/consents.sqlite"
        let before = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        _ = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        var waited = 0
        while database.checkpoints == 0 && waited < 600 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(database.checkpoints >= 1)
        let after = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(after >= before + signed.pdf.count, "the database file grew by the PDF: \(before) -> \(after) bytes")
        #expect(try await store.verify().events == 2)
        await store.close()
    }
}
