// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInkStore
import Testing

/// Users on shared devices in the store, each test once on SQLite and once on PostgreSQL.
@Suite struct AccountStoreTests {
    /// A cheap scrypt cost, so that the tests do not spend 128 MiB and 0.3 s on every passcode.
    static let cost = PasscodeHash.Cost(rounds: 16, blockSize: 1, parallelism: 1)!
    static let policy = AccountPolicy(passcodeCost: cost)
    static let passcode = "correct horse 42"
    static let start = Date(timeIntervalSince1970: 1_795_613_400)

    static func onboarded(_ store: ConsentStore, name: String = "Ada Lovelace", device: String = "device-1",
                          at date: Date = start) async throws -> UserProfile {
        let (user, code) = try await store.createUser(UserProfile(id: "", displayName: name, title: "Study nurse", subtitle: "Ward 3"),
                                                      policy: policy, at: date)
        let onboarded = try await store.onboard(code: code.code, device: device, passcode: passcode, policy: policy, at: date)
        #expect(onboarded == user)
        return user
    }

    static func signIn(_ store: ConsentStore, _ user: String, _ passcode: String, device: String = "device-1",
                       at date: Date) async throws -> SignInOutcome {
        try await store.signIn(user: user, device: device, policy: policy, at: date) { $0.matches(passcode) }
    }

    @Test(arguments: Backend.allCases) func aCodeOnboardsOnceAndOnlyOnItsDevice(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let (user, code) = try await store.createUser(UserProfile(id: "", displayName: "  Ada King Lovelace ", title: "Study nurse"),
                                                      policy: Self.policy, at: Self.start)
        #expect(user.displayName == "Ada King Lovelace")
        #expect(user.initials == "AL")
        #expect(user.subtitle == nil)
        #expect(code.expiresAt == Int64(Self.start.timeIntervalSince1970 * 1000) + 86_400_000)
        #expect(code.code.count == 24)
        let hash = Self.passcode
        // The passcode's rules are checked first.
        await #expect(throws: StoreError.invalid(field: "passcode", message: "must have at least 8 characters")) {
            _ = try await store.onboard(code: code.code, device: "device-1", passcode: "1234567", policy: Self.policy, at: Self.start)
        }
        // Case and dashes do not matter; the code is used up.
        let onboarded = try await store.onboard(code: code.code.uppercased().replacingOccurrences(of: "-", with: " "), device: "device-1",
                                                passcode: hash, policy: Self.policy, at: Self.start)
        #expect(onboarded == user)
        await #expect(throws: StoreError.invalid(field: "code", message: "is not a valid enrolment code: unknown, used already or expired; ask an administrator for a new one")) {
            _ = try await store.onboard(code: code.code, device: "device-2", passcode: hash, policy: Self.policy, at: Self.start) { _, _ in
                Issue.record("a wrong code must be refused before the passcode is hashed")
                return try PasscodeHash(passcode: Self.passcode, cost: Self.cost)
            }
        }
        #expect(try await store.users(onDevice: "device-1") == [user])
        #expect(try await store.users(onDevice: "device-2") == [])
        // A second user on the same device, listed after the first.
        let other = try await Self.onboarded(store, name: "Charles Babbage")
        #expect(try await store.users(onDevice: "device-1").map(\.id) == [user.id, other.id])
        #expect(try await Self.signIn(store, user.id, Self.passcode, device: "device-2", at: Self.start) == .notOnboarded)
        #expect(try await Self.signIn(store, user.id, Self.passcode, at: Self.start) == .signedIn(user))
        // Created, onboarded: events on the chain, which verifies; no secret in them.
        let events = try await store.events()
        #expect(events.map(\.kind) == [.user, .enrolment, .user, .enrolment])
        #expect(try await store.verify().failure == nil)
        let export = events.map { String(decoding: $0.exportLine, as: UTF8.self) }.joined()
        #expect(!export.contains(Self.passcode))
        #expect(!export.contains(code.code))
        await store.close()
    }

    @Test(arguments: Backend.allCases) func anExpiredCodeIsRefusedAndANewCodeReplacesTheOld(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let (user, first) = try await store.createUser(UserProfile(id: "", displayName: "Ada"), policy: Self.policy, at: Self.start)
        let hash = Self.passcode
        await #expect(throws: StoreError.self) {
            _ = try await store.onboard(code: first.code, device: "d", passcode: hash, policy: Self.policy, at: Self.start.addingTimeInterval(86_400))
        }
        let second = try await store.issueCode(for: user.id, policy: Self.policy, at: Self.start)
        let third = try await store.issueCode(for: user.id, policy: Self.policy, at: Self.start)
        await #expect(throws: StoreError.self) {
            _ = try await store.onboard(code: second.code, device: "d", passcode: hash, policy: Self.policy, at: Self.start)
        }
        #expect(try await store.onboard(code: third.code, device: "d", passcode: hash, policy: Self.policy,
                                        at: Self.start.addingTimeInterval(86_399)) == user)
        await #expect(throws: StoreError.unknownUser("no-such-user")) { _ = try await store.issueCode(for: "no-such-user") }
        await store.close()
    }

    @Test(arguments: Backend.allCases) func passcodesAreKeptAsScryptWithASaltOfTheirOwn(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        _ = try await Self.onboarded(store, name: "Ada")
        _ = try await Self.onboarded(store, name: "Charles")
        await store.close()
        let rows = try await place.texts("SELECT kdf || ' ' || salt || ' ' || hash FROM passcode")
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.hasPrefix("scrypt:N=16,r=1,p=1 ") && !$0.contains(Self.passcode) })
        // The same passcode, two salts, two hashes.
        #expect(Set(rows.map { $0.split(separator: " ")[1] }).count == 2)
        #expect(Set(rows.map { $0.split(separator: " ")[2] }).count == 2)
        let codes = try await place.texts("SELECT code_sha256 FROM enrolment_code")
        #expect(codes.isEmpty)
    }

    @Test func aNewPasscodeIsChecked() throws {
        #expect(throws: StoreError.invalid(field: "passcode", message: "must have at least 8 characters")) {
            _ = try PasscodeHash(passcode: "1234567", cost: Self.cost)
        }
        #expect(throws: StoreError.invalid(field: "passcode", message: "must not contain control characters")) {
            _ = try PasscodeHash(passcode: "12345678\n", cost: Self.cost)
        }
        let hash = try PasscodeHash(passcode: "12345678", cost: Self.cost)
        #expect(hash.matches("12345678"))
        #expect(!hash.matches("12345679"))
        #expect(PasscodeHash.Cost(rounds: 1000, blockSize: 8, parallelism: 1) == nil)
        // Eight characters are eight code points, as JSON Schema counts them: "e" and a combining accent are two.
        #expect(throws: Never.self) { _ = try PasscodeHash(passcode: String(repeating: "e\u{301}", count: 4), cost: Self.cost) }
    }

    /// The standard cost, once: BoringSSL refuses scrypt parameters whose memory passes the limit swift-crypto gives it.
    @Test func theStandardCostHashes() throws {
        #expect(PasscodeHash.Cost.standard.description == "scrypt:N=131072,r=8,p=1")
        let hash = try PasscodeHash(passcode: "12345678")
        #expect(hash.cost == .standard)
        #expect(hash.matches("12345678"))
    }

    @Test(arguments: Backend.allCases) func aProfileNamesItsFieldAtFault(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        await #expect(throws: StoreError.invalid(field: "displayName", message: "must not be empty")) {
            _ = try await store.createUser(UserProfile(id: "", displayName: "  "))
        }
        await #expect(throws: StoreError.invalid(field: "subtitle", message: "has 101 characters; at most 100")) {
            _ = try await store.createUser(UserProfile(id: "", displayName: "Ada", subtitle: String(repeating: "x", count: 101)))
        }
        #expect(try await store.events().isEmpty)
        await store.close()
    }

    @Test(arguments: Backend.allCases) func wrongPasscodesLeadToAWaitThenToRevocation(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let user = try await Self.onboarded(store)
        var now = Self.start
        for remaining in [4, 3, 2, 1] {
            #expect(try await Self.signIn(store, user.id, "wrong passcode", at: now) == .wrongPasscode(remaining: remaining))
        }
        #expect(try await Self.signIn(store, user.id, "wrong passcode", at: now) == .waiting(retryAfter: 300))
        // While the user waits, even the right passcode is not looked at, and nothing is counted.
        now += 299.5
        #expect(try await Self.signIn(store, user.id, Self.passcode, at: now) == .waiting(retryAfter: 1))
        now += 0.5
        // A right passcode starts the count again.
        #expect(try await Self.signIn(store, user.id, Self.passcode, at: now) == .signedIn(user))
        for remaining in [4, 3, 2, 1] {
            #expect(try await Self.signIn(store, user.id, "wrong passcode", at: now) == .wrongPasscode(remaining: remaining))
        }
        #expect(try await Self.signIn(store, user.id, "wrong passcode", at: now) == .waiting(retryAfter: 300))
        now += 300
        for remaining in [4, 3, 2, 1] {
            #expect(try await Self.signIn(store, user.id, "wrong passcode", at: now) == .wrongPasscode(remaining: remaining))
        }
        #expect(try await Self.signIn(store, user.id, "wrong passcode", at: now) == .revoked)
        #expect(try await Self.signIn(store, user.id, Self.passcode, at: now) == .notOnboarded)
        #expect(try await store.users(onDevice: "device-1") == [])
        #expect(try await store.events().map(\.kind) == [.user, .enrolment, .revocation])
        #expect(try await store.verify().failure == nil)
        // Onboarded again with a new code, the user signs in.
        let code = try await store.issueCode(for: user.id, policy: Self.policy, at: now)
        _ = try await store.onboard(code: code.code, device: "device-1", passcode: "a new passcode", policy: Self.policy, at: now)
        #expect(try await Self.signIn(store, user.id, "a new passcode", at: now) == .signedIn(user))
        await store.close()
    }

    @Test(arguments: Backend.allCases) func anEnrolmentOfNoUserIsNamedByVerification(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        _ = try await Self.onboarded(store, name: "Ada")
        let charles = try await Self.onboarded(store, name: "Charles")
        #expect(try await store.verify().failure == nil)
        // The last enrolment made to name someone else, its digests and its column changed to match, as a careful
        // forger would: only the chain's order shows that no such user was created.
        try await place.dropTriggers()
        let someone = "00000000-0000-0000-0000-000000000000"
        #expect(try await place.forge(event: 4, charles.id, with: someone) == 1)
        #expect(try await place.execute("UPDATE event SET user_id = '\(someone)' WHERE sequence = 4") == 1)
        let failure = try #require(try await store.verify().failure)
        #expect(failure.sequence == 4)
        #expect(failure.message.contains("is no earlier user"), "\(failure)")
        await store.close()
    }

    @Test(arguments: Backend.allCases) func aUsersSignaturesAndConsentsAreFoundByOwner(_ backend: Backend) async throws {
        let place = try await TestStore.new(backend)
        defer { place.remove() }
        let store = try await ConsentStore.open(place.location)
        let digest = String(repeating: "a", count: 64)
        let ada = try await store.keep(typedSignature: "Ada", digest: digest, savedAt: 1, provenance: Provenance(user: "ada", device: "d"))
        _ = try await store.keep(typedSignature: "Charles", digest: digest, savedAt: 2, provenance: Provenance(user: "charles", device: "d"))
        _ = try await store.keep(typedSignature: "Nobody", digest: digest, savedAt: 3)
        #expect(try await store.signatures(of: "ada").signatures.map(\.id) == [ada.id])
        #expect(try await store.signature(id: ada.id)?.provenance.user == "ada")
        let signed = try ConsentStoreTests.signed()
        let consent = try await store.keep(signed.record, pdf: signed.pdf, pages: 3, provenance: Provenance(user: "ada", device: "d"))
        _ = try await store.keep(signed.record, pdf: signed.pdf, pages: 3, provenance: Provenance(user: "charles", device: "d"))
        #expect(try await store.consents(ConsentQuery(collector: "ada")).consents.map(\.id) == [consent.id])
        #expect(try await store.consents(ConsentQuery()).consents.count == 2)
        await store.close()
    }
}
