// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
import SignatureInkConsent

/// Users on shared devices: an administrator creates a user and hands out a one-time enrolment code; a device (a
/// browser, known by the SHA-256 of its cookie) is onboarded with the code and a passcode of the user's; the user
/// then signs in on that device with the passcode.
///
/// What is an event and what is not. That a user was created, onboarded on a device, or revoked from one is evidence
/// (who could collect consents where, and since when), so each is an event on the hash chain, exported and verified
/// with the consents: ``StoreEvent/Kind/user``, ``StoreEvent/Kind/enrolment``, ``StoreEvent/Kind/revocation``. The
/// enrolment codes and the passcodes are secrets that must be replaced (a code is used once; a forgotten passcode is
/// reset) and the count of wrong passcodes changes at every attempt: none of it is evidence, none of it may be in the
/// export, and an append-only log could not forget it. They are plain tables beside the log (`enrolment_code`,
/// `passcode`) in both databases, holding only SHA-256 of the codes and scrypt of the passcodes (``PasscodeHash``).
extension ConsentStore {
    /// Creates a user and issues the first enrolment code.
    /// - Parameters:
    ///   - profile: the display name, title, subtitle and whether the user is an administrator (its `id` is ignored: a
    ///     new UUID is chosen).
    ///   - policy: how long the code lasts.
    ///   - provenance: who asked (the administrator's client).
    ///   - date: when; default now.
    /// - Returns: the user and the code, which is shown this once.
    /// - Throws: ``StoreError/invalid(field:message:)`` naming the profile's field at fault; a database error.
    public func createUser(_ profile: UserProfile, policy: AccountPolicy = AccountPolicy(), provenance: Provenance = Provenance(),
                           at date: Date = Date()) async throws(StoreError) -> (user: UserProfile, code: EnrolmentCode) {
        var user = profile
        user.id = UUID().uuidString.lowercased()
        user.displayName = profile.displayName.trimmingCharacters(in: .whitespaces)
        user.title = profile.title.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        user.subtitle = profile.subtitle.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        try user.check()
        let content = UserContent(user, provenance: provenance)
        _ = try await database.append([EventDraft(kind: .user, id: user.id, content: try CanonicalJSON.encode(content), index: EventIndex(user: user.id))],
                                      blobs: [], condition: .none, recordedAt: StoreEvent.timestamp(date))
        return (user, try await issueCode(for: user.id, policy: policy, at: date))
    }

    /// Issues a new enrolment code for a user, in place of any code not yet used: for a new device, or to reset a
    /// forgotten passcode (onboarding again on the same device replaces the passcode there, and lifts a wait or a
    /// revocation).
    /// - Throws: ``StoreError/unknownUser(_:)``; a database error.
    public func issueCode(for user: String, policy: AccountPolicy = AccountPolicy(), at date: Date = Date()) async throws(StoreError) -> EnrolmentCode {
        _ = try await self.user(id: user)
        let code = Self.newCode()
        let expiresAt = Self.milliseconds(date) + Int64(policy.codeLifetime) * 1000
        try await database.replaceCode(sha256: Self.codeDigest(code), user: user, expiresAt: expiresAt)
        return EnrolmentCode(code: code, user: user, expiresAt: expiresAt)
    }

    /// Onboards the user of an enrolment code on a device, with the user's passcode for that device; the code is used up.
    ///
    /// A user onboarded on the device already, or revoked from it, is onboarded again: the new passcode replaces the old
    /// one there, the count of wrong passcodes and any wait start again at 0, and a revocation is lifted (the "forgot
    /// passcode" reset an administrator approves by issuing a new code). Each onboarding is an
    /// ``StoreEvent/Kind/enrolment`` event.
    ///
    /// The passcode's rules and the code are checked before the passcode is hashed, so that a request with a wrong
    /// code costs a database read, not a hash; the code is used up once the hash is made.
    /// - Parameters:
    ///   - code: the code as the user typed it (case, spaces and `-` do not matter).
    ///   - device: the device's identifier as the store keeps it (the server's is the SHA-256 of its cookie).
    ///   - passcode: the new passcode (``PasscodeHash/minimumLength`` to ``PasscodeHash/maximumLength`` characters).
    ///   - policy: the passcode's hashing cost.
    ///   - provenance: where the request came from.
    ///   - date: when; default now.
    ///   - hash: hashes the passcode with a cost (``PasscodeHash/init(passcode:cost:)``, the default): the caller runs
    ///     it where a few hundred milliseconds of one core and 128 MiB may be spent, such as a server's worker threads.
    /// - Returns: the user onboarded.
    /// - Throws: ``StoreError/invalid(field:message:)`` naming `passcode` for one that breaks the rules, or `code` for
    ///   an unknown, used or expired code; a database error; what `hash` throws.
    public func onboard(code: String, device: String, passcode: String, policy: AccountPolicy = AccountPolicy(),
                        provenance: Provenance = Provenance(), at date: Date = Date(),
                        hash: (String, PasscodeHash.Cost) async throws -> PasscodeHash = { try PasscodeHash(passcode: $0, cost: $1) })
        async throws -> UserProfile {
        try PasscodeHash.check(passcode)
        let digest = Self.codeDigest(code), now = Self.milliseconds(date)
        let invalid = StoreError.invalid(field: "code", message: "is not a valid enrolment code: unknown, used already or expired; ask an administrator for a new one")
        guard try await database.codeUser(sha256: digest, now: now) != nil else { throw invalid }
        let passcode = try await hash(passcode, policy.passcodeCost)
        guard let user = try await database.takeCode(sha256: digest, now: now) else { throw invalid }
        let profile = try await self.user(id: user)
        try await database.setPasscode(user: user, device: device,
                                       hash: PasscodeRow(kdf: passcode.cost.description, salt: HexDigest.hex(passcode.salt),
                                                         hash: HexDigest.hex(passcode.key)))
        let content = EnrolmentContent(user: user, device: device, provenance: provenance)
        _ = try await database.append([EventDraft(kind: .enrolment, id: UUID().uuidString.lowercased(), content: try CanonicalJSON.encode(content),
                                                  index: EventIndex(user: user, device: device))],
                                      blobs: [], condition: .none, recordedAt: StoreEvent.timestamp(date))
        return profile
    }

    /// The users onboarded on a device, in the order they were onboarded: profiles only.
    public func users(onDevice device: String) async throws(StoreError) -> [UserProfile] {
        var users: [UserProfile] = []
        for id in try await database.users(device: device) { users.append(try await user(id: id)) }
        return users
    }

    /// The profile of a user.
    /// - Throws: ``StoreError/unknownUser(_:)``.
    public func user(id: String) async throws(StoreError) -> UserProfile {
        guard Self.isIdentifier(id), let row = try await database.row(id: id), row.event.kind == .user else { throw .unknownUser(id) }
        return UserProfile(id: id, content: try CanonicalJSON.decode(UserContent.self, row.event.content, event: id))
    }

    /// Every user, oldest first, for an administrator.
    public func users(after: Int64 = 0, limit: Int = 100) async throws(StoreError) -> (users: [UserProfile], next: Int64?) {
        guard (1...ConsentQuery.maxLimit).contains(limit) else {
            throw .invalid(field: "limit", message: "must be in 1...\(ConsentQuery.maxLimit)")
        }
        let rows = try await database.rows(kind: .user, after: after, limit: limit + 1)
        var users: [UserProfile] = []
        for row in rows.prefix(limit) {
            users.append(UserProfile(id: row.event.id, content: try CanonicalJSON.decode(UserContent.self, row.event.content, event: row.event.id)))
        }
        return (users, rows.count > limit ? rows.prefix(limit).last?.event.sequence : nil)
    }

    /// One attempt to sign in with a passcode, counted: after `policy.failuresBeforeWait` consecutive wrong ones the
    /// user waits `policy.wait` seconds (and again after each as many more), after `policy.failuresBeforeRevocation`
    /// the enrolment on the device is revoked (a ``StoreEvent/Kind/revocation`` event) and the user must be onboarded
    /// again with a new code. A right passcode starts the count again at 0. While the user waits, the passcode is not
    /// looked at and the attempt is not counted. Attempts made at the same time are each counted (the count goes up in
    /// the database, atomically), though those already past the check of the wait when it begins are still looked at.
    /// - Parameters:
    ///   - user: the user's identifier.
    ///   - device: the device's identifier as the store keeps it.
    ///   - policy: the limits.
    ///   - provenance: where the request came from (kept with a revocation).
    ///   - date: when; default now.
    ///   - check: whether the passcode the user gave matches the kept hash (``PasscodeHash/matches(_:)``): the caller
    ///     runs it where a few hundred milliseconds of one core may be spent, such as a server's worker threads.
    /// - Throws: a database error; what `check` throws.
    public func signIn(user: String, device: String, policy: AccountPolicy = AccountPolicy(), provenance: Provenance = Provenance(),
                       at date: Date = Date(), check: (PasscodeHash) async throws -> Bool) async throws -> SignInOutcome {
        guard Self.isIdentifier(user), let row = try await database.passcode(user: user, device: device) else { return .notOnboarded }
        let now = Self.milliseconds(date)
        if row.lockedUntil > now { return .waiting(retryAfter: Int((row.lockedUntil - now + 999) / 1000)) }
        guard let cost = PasscodeHash.Cost(text: row.kdf), let salt = Self.bytes(hex: row.salt), let key = Self.bytes(hex: row.hash) else {
            throw StoreError.corrupt("the passcode of user '\(user)' on a device is not one the store wrote")
        }
        if try await check(PasscodeHash(cost: cost, salt: salt, key: key)) {
            if row.failures != 0 || row.lockedUntil != 0 {
                try await database.setFailures(user: user, device: device, failures: 0, lockedUntil: 0)
            }
            return .signedIn(try await self.user(id: user))
        }
        guard let failures = try await database.countFailure(user: user, device: device) else { return .notOnboarded }
        if failures >= policy.failuresBeforeRevocation {
            try await revoke(user: user, device: device, reason: "\(failures) wrong passcodes in a row", provenance: provenance, at: date)
            return .revoked
        }
        if failures % policy.failuresBeforeWait == 0 {
            try await database.setFailures(user: user, device: device, failures: failures, lockedUntil: now + Int64(policy.wait) * 1000)
            return .waiting(retryAfter: policy.wait)
        }
        return .wrongPasscode(remaining: policy.failuresBeforeWait - failures % policy.failuresBeforeWait)
    }

    /// Revokes a user's enrolment on a device: the passcode is removed and a ``StoreEvent/Kind/revocation`` event says
    /// why; the user must be onboarded again with a new code.
    /// - Returns: whether the user was onboarded on the device.
    @discardableResult
    public func revoke(user: String, device: String, reason: String, provenance: Provenance = Provenance(),
                       at date: Date = Date()) async throws(StoreError) -> Bool {
        guard try await database.removePasscode(user: user, device: device) else { return false }
        let content = RevocationContent(user: user, device: device, reason: reason, provenance: provenance)
        _ = try await database.append([EventDraft(kind: .revocation, id: UUID().uuidString.lowercased(), content: try CanonicalJSON.encode(content),
                                                  index: EventIndex(user: user, device: device))],
                                      blobs: [], condition: .none, recordedAt: StoreEvent.timestamp(date))
        return true
    }

    // MARK: What a user owns

    /// The signatures a user saved, oldest first.
    /// - Parameters:
    ///   - owner: the user's identifier (``Provenance/user``).
    ///   - after: the page starts after this position; 0 for the first.
    ///   - limit: most signatures: 1...``ConsentQuery/maxLimit``.
    public func signatures(of owner: String, after: Int64 = 0, limit: Int = 100) async throws(StoreError) -> (signatures: [StoredSignature], next: Int64?) {
        guard (1...ConsentQuery.maxLimit).contains(limit) else {
            throw .invalid(field: "limit", message: "must be in 1...\(ConsentQuery.maxLimit)")
        }
        let rows = try await database.rows(kind: .signature, user: owner, after: after, limit: limit + 1)
        var signatures: [StoredSignature] = []
        for row in rows.prefix(limit) {
            let content = try CanonicalJSON.decode(SignatureContent.self, row.event.content, event: row.event.id)
            signatures.append(StoredSignature(id: row.event.id, sequence: row.event.sequence, recordedAt: row.event.recordedAt, content: content))
        }
        return (signatures, rows.count > limit ? signatures.last?.sequence : nil)
    }

    /// The saved signature with this identifier, or `nil` when there is none.
    public func signature(id: String) async throws(StoreError) -> StoredSignature? {
        guard Self.isIdentifier(id), let row = try await database.row(id: id), row.event.kind == .signature else { return nil }
        let content = try CanonicalJSON.decode(SignatureContent.self, row.event.content, event: id)
        return StoredSignature(id: id, sequence: row.event.sequence, recordedAt: row.event.recordedAt, content: content)
    }

    // MARK: Codes

    /// The 32 characters of a code: Crockford's base 32 in lower case, digits and letters but i, l, o and u, which
    /// are easily confused with 1, 0 or v.
    static let codeLetters = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// A new code: 20 characters, 5 random bits each (100 bits), in groups of 4 (`7k2m-...`).
    static func newCode() -> String {
        var text: [UInt8] = []
        for (i, byte) in PasscodeHash.randomBytes(20).enumerated() {
            if i > 0, i % 4 == 0 { text.append(UInt8(ascii: "-")) }
            text.append(codeLetters[Int(byte & 31)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 a code is kept as: of its letters and digits in lower case, without spaces or `-`.
    static func codeDigest(_ code: String) -> String {
        HexDigest.sha256(Array(code.lowercased().utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: " ") }))
    }

    /// Milliseconds since 1970.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Bytes from hexadecimal text; `nil` for anything else.
    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
