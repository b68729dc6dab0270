// SPDX-License-Identifier: Apache-2.0

/// An event to append, before the store seals it onto the chain.
struct EventDraft: Sendable {
    var kind: StoreEvent.Kind
    var id: String
    var content: [UInt8]
    var index: EventIndex
    /// Whether it is left out, without an error, when an event with its identifier is kept already (a document is
    /// kept once per digest).
    var skipIfKept = false
}

/// What must hold, checked inside the appending transaction, for an append to go ahead.
enum AppendCondition: Sendable {
    case none
    /// The consent exists and has not been withdrawn.
    case standingConsent(String)
}

/// An event as a database gives it back, with the index columns kept beside it and, for a consent, its withdrawal.
struct StoredRow: Sendable {
    var event: StoreEvent
    var index: EventIndex
    var withdrawal: StoreEvent?
}

/// A database that keeps the store's log: the one part that differs between SQLite and PostgreSQL. Everything
/// else (what goes into an event, the chain's digests, verification) is ``ConsentStore``'s, the same for both.
protocol StoreDatabase: Sendable {
    /// Seals `drafts` onto the chain, in order, and keeps them with `blobs`, in one transaction that holds the
    /// chain's lock (so that concurrent writers, in this process or another, keep one line), after checking
    /// `condition` inside it. Either all of it is committed, durably, or nothing is.
    /// - Returns: the events appended (without the drafts left out because they were kept already).
    func append(_ drafts: [EventDraft], blobs: [(sha256: String, bytes: [UInt8])], condition: AppendCondition,
                recordedAt: String) async throws(StoreError) -> [StoreEvent]
    /// The event with this identifier, with its withdrawal when it is a consent.
    func row(id: String) async throws(StoreError) -> StoredRow?
    /// The consent events `query` selects, with their withdrawals, oldest first, at most `query.limit + 1` (one
    /// more tells whether there is a next page).
    func consents(_ query: ConsentQuery) async throws(StoreError) -> [StoredRow]
    /// Events after position `after`, of one kind or all, of one user (``EventIndex/user``) or any, oldest first, at
    /// most `limit`.
    func rows(kind: StoreEvent.Kind?, user: String?, after: Int64, limit: Int) async throws(StoreError) -> [StoredRow]
    /// The withdrawal of the consent `id`, if it was withdrawn.
    func withdrawal(of id: String) async throws(StoreError) -> StoreEvent?
    /// A kept file (a signed PDF) by its SHA-256.
    func blob(sha256: String) async throws(StoreError) -> [UInt8]?
    /// Closes the connections.
    func close() async

    // The state of users on devices: plain tables, not events (see `ConsentStore+Accounts.swift`).

    /// Keeps the SHA-256 of a user's new enrolment code, valid until `expiresAt` (milliseconds since 1970), in place of
    /// any code the user had.
    func replaceCode(sha256: String, user: String, expiresAt: Int64) async throws(StoreError)
    /// The user of the code with this SHA-256, if it has not expired by `now`; the code stays.
    func codeUser(sha256: String, now: Int64) async throws(StoreError) -> String?
    /// Removes the code with this SHA-256 and gives its user, if it has not expired by `now` (milliseconds since 1970);
    /// `nil` for an unknown or expired code. Two callers with one code: one gets the user.
    func takeCode(sha256: String, now: Int64) async throws(StoreError) -> String?
    /// Keeps a user's passcode on a device, in place of any, with no wrong attempts counted.
    func setPasscode(user: String, device: String, hash: PasscodeRow) async throws(StoreError)
    /// A user's passcode on a device, with the count of wrong attempts.
    func passcode(user: String, device: String) async throws(StoreError) -> PasscodeRow?
    /// Counts one more wrong passcode, atomically, and gives the new count; `nil` when there is no passcode.
    func countFailure(user: String, device: String) async throws(StoreError) -> Int?
    /// Sets the count of wrong passcodes and the end of the wait (milliseconds since 1970, 0 for none).
    func setFailures(user: String, device: String, failures: Int, lockedUntil: Int64) async throws(StoreError)
    /// Removes a user's passcode on a device; says whether there was one.
    func removePasscode(user: String, device: String) async throws(StoreError) -> Bool
    /// The users with a passcode on a device, in the order they were onboarded on it.
    func users(device: String) async throws(StoreError) -> [String]
}

extension StoreDatabase {
    /// Events after position `after`, of one kind or all, oldest first, at most `limit`.
    func rows(kind: StoreEvent.Kind?, after: Int64, limit: Int) async throws(StoreError) -> [StoredRow] {
        try await rows(kind: kind, user: nil, after: after, limit: limit)
    }
}

/// A user's passcode on a device as a database keeps it: scrypt's cost, salt and output, and the wrong attempts.
struct PasscodeRow: Sendable, Hashable {
    /// ``PasscodeHash/Cost``'s description, `scrypt:N=...,r=...,p=...`.
    var kdf: String
    /// The salt, hexadecimal.
    var salt: String
    /// scrypt's output, hexadecimal.
    var hash: String
    /// Consecutive wrong passcodes.
    var failures: Int = 0
    /// The end of the wait, milliseconds since 1970; 0 for none.
    var lockedUntil: Int64 = 0
}
