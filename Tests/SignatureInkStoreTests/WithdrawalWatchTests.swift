// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkConsent
@testable import SignatureInkStore
import Testing

/// Two servers on one PostgreSQL database, each answering from memory whether a consent it read stands: a withdrawal
/// written through one reaches the other by the database's notification, and a lost notification connection leaves
/// nothing remembered.
@Suite struct WithdrawalWatchTests {
    /// The watch of a store on PostgreSQL.
    private static func watch(_ store: ConsentStore) throws -> WithdrawalWatch {
        try #require(store.database as? PostgreSQLDatabase).watch
    }

    /// Waits, up to ten seconds, until `condition` holds.
    private static func eventually(_ what: Comment, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("not within ten seconds: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aWithdrawalThroughAnotherServerIsHeardAndALostConnectionForgets() async throws {
        let place = try await TestStore.new(.postgresql)
        let signed = try ConsentStoreTests.signed()
        let one = try await ConsentStore.open(place.location)
        let two = try await ConsentStore.open(place.location)
        let first = try await one.keep(signed.record, pdf: signed.pdf, pages: 3)
        let second = try await one.keep(signed.record, pdf: signed.pdf, pages: 3)
        let watch = try Self.watch(two)

        // Read through the second server until it remembers both as standing (it listens a moment after it opens).
        try await Self.eventually("the second server remembers the consents it read") {
            let standing = try await two.consent(id: first.id).withdrawal == nil
            let alsoStanding = try await two.withdrawal(ofConsent: second.id) == nil
            return standing && alsoStanding && watch.remembered == 2
        }
        #expect(watch.mark(first.id) == .stands)

        // Withdrawn through the first server: the second hears of it and reads it withdrawn.
        let withdrawal = try await one.withdraw(consent: first.id, reason: "asked by phone")
        try await Self.eventually("the second server hears of the withdrawal") {
            try await two.withdrawal(ofConsent: first.id) == withdrawal
        }
        #expect(try await two.consent(id: first.id).withdrawal == withdrawal)
        #expect(watch.mark(first.id) != .stands)
        #expect(watch.mark(second.id) == .stands)

        // The connections that listen are cut: the second server forgets everything, so that a withdrawal it could not
        // hear is read from the database.
        _ = try await place.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND (query LIKE 'LISTEN%' OR query LIKE 'SELECT pg_notify%')
            """)
        try await Self.eventually("the second server forgets what it remembered") { watch.remembered == 0 }
        let later = try await one.withdraw(consent: second.id, reason: "changed their mind")
        #expect(try await two.withdrawal(ofConsent: second.id) == later)

        // It listens again and remembers again.
        let third = try await one.keep(signed.record, pdf: signed.pdf, pages: 3)
        try await Self.eventually("the second server listens again") {
            let standing = try await two.withdrawal(ofConsent: third.id) == nil
            return standing && watch.mark(third.id) == .stands
        }
        // Its own withdrawal is read at once, before its notification comes back.
        let own = try await two.withdraw(consent: third.id, reason: "by letter")
        #expect(try await two.withdrawal(ofConsent: third.id) == own)
        #expect(try await two.verify().failure == nil)
        await one.close()
        await two.close()
    }
}

extension WithdrawalWatchTests {
    @Test func aStoreHearsItsOwnProbesAndGoesOnListening() async throws {
        let place = try await TestStore.new(.postgresql)
        let signed = try ConsentStoreTests.signed()
        let store = try await ConsentStore.open(place.location)
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: 3)
        let watch = try Self.watch(store)
        try await Self.eventually("the store remembers the consent it read") {
            let standing = try await store.withdrawal(ofConsent: kept.id) == nil
            return standing && watch.mark(kept.id) == .stands
        }
        // Past a heartbeat and its patience: a connection that did not hear its probes come back would have been
        // closed by now, and what the store remembered forgotten.
        try await Task.sleep(for: WithdrawalWatch.heartbeat + WithdrawalWatch.patience + .seconds(1))
        #expect(watch.mark(kept.id) == .stands)
        await store.close()
    }
}
