// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInkStore
import Testing

/// Administrators among the users, retired document versions, and a forgotten passcode reset by onboarding again, in
/// the store, each test once on SQLite and once on PostgreSQL.
@Suite struct RetirementStoreTests {
    static let policy = AccountStoreTests.policy
    static let start = AccountStoreTests.start
    static let digest = String(repeating: "ab", count: 32)

    @Test(arguments: Backend.allCases) func anAdministratorIsAUserWhoseProfileSaysSo(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let (grace, _) = try await store.createUser(UserProfile(id: "", displayName: "Grace Hopper", isAdministrator: true), policy: Self.policy)
        let (ada, _) = try await store.createUser(UserProfile(id: "", displayName: "Ada Lovelace"), policy: Self.policy)
        #expect(grace.isAdministrator && !ada.isAdministrator)
        #expect(try await store.user(id: grace.id).isAdministrator)
        #expect(try await !store.user(id: ada.id).isAdministrator)
        #expect(try await store.users().users.map(\.isAdministrator) == [true, false])
        // Only an administrator's content says so: a user's content is what it was before administrators were users.
        let contents = try await store.events().map { String(decoding: $0.content, as: UTF8.self) }
        #expect(contents[0].contains(#""administrator":true"#))
        #expect(!contents[1].contains("administrator"))
        #expect(try await store.verify().failure == nil)
        await store.close()
    }

    @Test(arguments: Backend.allCases) func aDocumentVersionIsRetiredOnce(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        // Another process on the same store.
        let other = try await ConsentStore.open(place.location)
        let (grace, _) = try await store.createUser(UserProfile(id: "", displayName: "Grace Hopper", isAdministrator: true), policy: Self.policy)
        #expect(try await other.retirement(ofDocument: Self.digest) == nil)
        let provenance = Provenance(client: "127.0.0.1", user: grace.id, device: "device-1")
        let (retired, isNew) = try await store.retire(document: Self.digest, reason: "a typo in the dosage", provenance: provenance, at: Self.start)
        #expect(isNew)
        #expect(retired == StoredRetirement(document: Self.digest, reason: "a typo in the dosage", recordedAt: "2026-11-25T13:30:00.000Z",
                                            provenance: provenance))
        #expect(try await store.retirement(ofDocument: Self.digest) == retired)
        #expect(try await other.retirement(ofDocument: Self.digest) == retired)
        #expect(try await store.retirement(ofDocument: String(repeating: "cd", count: 32)) == nil)
        // Again, from the other process and for another reason: the first retirement stands, nothing is appended.
        let (again, isNewAgain) = try await other.retire(document: Self.digest, reason: "another reason", provenance: Provenance(client: "10.0.0.2"))
        #expect(!isNewAgain)
        #expect(again == retired)
        let events = try await store.events()
        #expect(events.map(\.kind) == [.user, .retirement])
        #expect(events[1].id == "retirement-" + Self.digest)
        #expect(String(decoding: events[1].exportLine, as: UTF8.self).contains(#""reason":"a typo in the dosage""#))
        #expect(try await store.verify().failure == nil)
        await other.close()
        await store.close()
    }

    @Test(arguments: Backend.allCases) func aRetirementNamesItsFieldAtFault(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let digestMessage = "must be a document's SHA-256, 64 lower-case hexadecimal digits"
        for (document, reason, error) in [
            ("abc", "why", StoreError.invalid(field: "document", message: digestMessage)),
            (Self.digest.uppercased(), "why", .invalid(field: "document", message: digestMessage)),
            (Self.digest, "  ", .invalid(field: "reason", message: "must not be empty")),
            (Self.digest, String(repeating: "é", count: 501), .invalid(field: "reason", message: "has 501 characters; at most 500")),
            (Self.digest, "line\nbreak", .invalid(field: "reason", message: "must not contain control characters")),
        ] {
            await #expect(throws: error) { _ = try await store.retire(document: document, reason: reason) }
        }
        #expect(try await store.events().isEmpty)
        _ = try await store.retire(document: Self.digest, reason: String(repeating: "é", count: 500))
        #expect(try await store.events().count == 1)
        await store.close()
    }

    @Test(arguments: Backend.allCases) func aForgedRetirementIsNamedByVerification(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        _ = try await store.retire(document: Self.digest, reason: "replaced by version 2")
        #expect(try await store.verify().failure == nil)
        // The retirement made to name another version, its digests and its column changed to match, as a careful forger
        // would: its identifier still names the version retired.
        try await place.dropTriggers()
        let another = String(repeating: "cd", count: 32)
        #expect(try await place.forge(event: 1, Self.digest, with: another) == 1)
        #expect(try await place.execute("UPDATE event SET document_digest = '\(another)' WHERE sequence = 1") == 1)
        let failure = try #require(try await store.verify().failure)
        #expect(failure.sequence == 1)
        #expect(failure.message.contains("a retirement's identifier must be retirement-\(another)"), "\(failure)")
        await store.close()
    }

    @Test(arguments: Backend.allCases) func aNewCodeOnTheSameDeviceResetsAForgottenPasscode(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let user = try await AccountStoreTests.onboarded(store)
        let now = Self.start
        for _ in 1...4 { _ = try await AccountStoreTests.signIn(store, user.id, "forgotten", at: now) }
        #expect(try await AccountStoreTests.signIn(store, user.id, "forgotten", at: now) == .waiting(retryAfter: 300))
        // The administrator issues a new code; onboarding again on the same device sets a new passcode, and lifts the wait.
        let code = try await store.issueCode(for: user.id, policy: Self.policy, at: now)
        _ = try await store.onboard(code: code.code, device: "device-1", passcode: "a new passcode", policy: Self.policy, at: now)
        #expect(try await store.users(onDevice: "device-1") == [user])
        #expect(try await AccountStoreTests.signIn(store, user.id, "a new passcode", at: now) == .signedIn(user))
        // The old passcode no longer works, and the count of wrong ones started again at 0.
        #expect(try await AccountStoreTests.signIn(store, user.id, AccountStoreTests.passcode, at: now) == .wrongPasscode(remaining: 4))
        // A revoked enrolment is lifted the same way.
        #expect(try await store.revoke(user: user.id, device: "device-1", reason: "lost the device"))
        #expect(try await AccountStoreTests.signIn(store, user.id, "a new passcode", at: now) == .notOnboarded)
        let another = try await store.issueCode(for: user.id, policy: Self.policy, at: now)
        _ = try await store.onboard(code: another.code, device: "device-1", passcode: "a third passcode", policy: Self.policy, at: now)
        #expect(try await AccountStoreTests.signIn(store, user.id, "a third passcode", at: now) == .signedIn(user))
        #expect(try await store.events().map(\.kind) == [.user, .enrolment, .enrolment, .revocation, .enrolment])
        #expect(try await store.verify().failure == nil)
        await store.close()
    }
}
