// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Foundation
import GRDB
import Synchronization

/// The store in SQLite, through GRDB: `consents.sqlite` in a folder, in WAL mode with `synchronous = FULL`, so that a
/// committed transaction survives a crash or a power cut (WAL with `NORMAL` may lose the last ones on power loss).
///
/// The write-ahead log is copied into the database file (checkpointed) on a connection of its own, in the background,
/// each time about ``checkpointBytes`` have been appended, rather than by the append that happens to cross SQLite's
/// threshold of 1,000 pages: a checkpoint writes megabytes and waits for two `fdatasync`s (10 to 20 ms here), which
/// would fall on one signing in twenty-five. SQLite's own checkpoint on commit stays as a backstop, at 16 MiB of log.
///
/// Appends run in `BEGIN IMMEDIATE` transactions: SQLite lets one writer at a time hold the database, in this process
/// or another, so the chain stays one line; a writer waits up to 30 s for another (`busy_timeout`). Triggers refuse
/// to change or delete an event, so that no code path can by accident; a person with the file can drop them, which is
/// what ``ConsentStore/verify()`` is for.
final class SQLiteDatabase: StoreDatabase {
    private let pool: DatabasePool
    private let checkpointer: Checkpointer

    /// Bytes appended (contents and files) after which the log is checkpointed in the background: 2 MiB.
    static let checkpointBytes = 2 << 20

    /// Opens or creates `consents.sqlite` in `folder`, creating the folder when missing, and brings its tables up to
    /// date.
    /// - Parameter checkpointBytes: bytes appended between background checkpoints (a test sets a small one).
    /// - Throws: ``StoreError/unreachable(location:reason:)``.
    init(folder: String, checkpointBytes: Int = SQLiteDatabase.checkpointBytes) throws(StoreError) {
        let path = folder + "/consents.sqlite"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            pool = try DatabasePool(path: path, configuration: configuration)
            // GRDB opens the pool's writer in WAL mode with `synchronous = NORMAL`, after any `prepareDatabase`: the
            // writer, the one connection that commits, is set to FULL here, once it is open.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 4096")
            }
            try Self.migrator.migrate(pool)
            checkpointer = try Checkpointer(path: path, every: checkpointBytes)
        } catch {
            throw .unreachable(location: folder, reason: Self.words(error))
        }
    }

    /// The writer connection's `synchronous` and `wal_autocheckpoint` settings, as SQLite reports them.
    func writerSettings() async throws -> (synchronous: Int, autocheckpoint: Int) {
        try await pool.writeWithoutTransaction { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1, try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? -1)
        }
    }

    /// Background checkpoints that have ended, with or without an error.
    var checkpoints: Int { checkpointer.done }

    /// The tables, one migration per version of the schema.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1") { db in
            try db.execute(sql: """
                CREATE TABLE event (
                    sequence INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL,
                    id TEXT NOT NULL UNIQUE,
                    recorded_at TEXT NOT NULL,
                    content BLOB NOT NULL,
                    content_sha256 TEXT NOT NULL,
                    previous_sha256 TEXT NOT NULL,
                    sha256 TEXT NOT NULL,
                    subject TEXT,
                    document_digest TEXT,
                    user_id TEXT,
                    device_id TEXT
                );
                CREATE UNIQUE INDEX event_withdrawal ON event(subject) WHERE kind = 'withdrawal';
                CREATE INDEX event_kind ON event(kind, sequence);
                CREATE INDEX event_document ON event(document_digest, sequence) WHERE kind = 'consent';
                CREATE TABLE signer (
                    event_sequence INTEGER NOT NULL REFERENCES event(sequence),
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    folded TEXT NOT NULL,
                    PRIMARY KEY (event_sequence, position)
                );
                CREATE TABLE file (sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL);
                CREATE TRIGGER event_unchanged BEFORE UPDATE ON event BEGIN SELECT RAISE(ABORT, 'events are never changed'); END;
                CREATE TRIGGER event_kept BEFORE DELETE ON event BEGIN SELECT RAISE(ABORT, 'events are never deleted'); END;
                CREATE TRIGGER file_unchanged BEFORE UPDATE ON file BEGIN SELECT RAISE(ABORT, 'files are never changed'); END;
                CREATE TRIGGER file_kept BEFORE DELETE ON file BEGIN SELECT RAISE(ABORT, 'files are never deleted'); END;
                """)
        }
        // Users on shared devices: the enrolment codes and the passcodes, which change (a code is used once, a count
        // of wrong passcodes goes up and back to 0), in plain tables beside the log; the owner's index for "my" lists.
        migrator.registerMigration("2") { db in
            try db.execute(sql: """
                CREATE TABLE enrolment_code (code_sha256 TEXT PRIMARY KEY, user_id TEXT NOT NULL, expires_at INTEGER NOT NULL);
                CREATE INDEX enrolment_code_user ON enrolment_code(user_id);
                CREATE TABLE passcode (
                    user_id TEXT NOT NULL,
                    device_id TEXT NOT NULL,
                    kdf TEXT NOT NULL,
                    salt TEXT NOT NULL,
                    hash TEXT NOT NULL,
                    failures INTEGER NOT NULL DEFAULT 0,
                    locked_until INTEGER NOT NULL DEFAULT 0,
                    onboarded INTEGER NOT NULL,
                    PRIMARY KEY (user_id, device_id)
                );
                CREATE INDEX passcode_device ON passcode(device_id, onboarded);
                CREATE INDEX event_user ON event(user_id, kind, sequence) WHERE user_id IS NOT NULL;
                """)
        }
        return migrator
    }

    func append(_ drafts: [EventDraft], blobs: [(sha256: String, bytes: [UInt8])], condition: AppendCondition,
                recordedAt: String) async throws(StoreError) -> [StoreEvent] {
        do {
            let events = try await pool.writeWithoutTransaction { db in
                var appended: [StoreEvent] = []
                try db.inTransaction(.immediate) {
                    appended = []
                    if case let .standingConsent(id) = condition { try Self.checkStanding(id, db) }
                    var head = try Row.fetchOne(db.cachedStatement(sql: "SELECT sequence, sha256 FROM event ORDER BY sequence DESC LIMIT 1"))
                        .map { ChainHead(sequence: $0[0], sha256: $0[1]) }
                    for draft in drafts {
                        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM event WHERE id = ?"), arguments: [draft.id]) != nil {
                            if draft.skipIfKept { continue }
                            throw StoreError.alreadyKept(draft.id)
                        }
                        let event = StoreEvent(kind: draft.kind, id: draft.id, recordedAt: recordedAt, content: draft.content, after: head)
                        try db.cachedStatement(
                            sql: """
                                INSERT INTO event (sequence, kind, id, recorded_at, content, content_sha256, previous_sha256, sha256,
                                                   subject, document_digest, user_id, device_id)
                                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                                """
                        ).execute(
                            arguments: [event.sequence, event.kind.rawValue, event.id, event.recordedAt, Data(event.content),
                                        event.contentSHA256, event.previousSHA256, event.sha256, draft.index.subject,
                                        draft.index.documentDigest, draft.index.user, draft.index.device])
                        for (position, name) in draft.index.signers.enumerated() {
                            try db.cachedStatement(sql: "INSERT INTO signer (event_sequence, position, name, folded) VALUES (?, ?, ?, ?)")
                                .execute(arguments: [event.sequence, position, name, EventIndex.fold(name)])
                        }
                        head = ChainHead(sequence: event.sequence, sha256: event.sha256)
                        appended.append(event)
                    }
                    for blob in blobs {
                        try db.cachedStatement(sql: "INSERT INTO file (sha256, bytes) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING")
                            .execute(arguments: [blob.sha256, Data(blob.bytes)])
                    }
                    return .commit
                }
                return appended
            }
            checkpointer.appended(drafts.reduce(0) { $0 + $1.content.count } + blobs.reduce(0) { $0 + $1.bytes.count })
            return events
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Throws unless the consent `id` exists and stands.
    private static func checkStanding(_ id: String, _ db: Database) throws {
        guard try String.fetchOne(db.cachedStatement(sql: "SELECT kind FROM event WHERE id = ?"), arguments: [id]) == StoreEvent.Kind.consent.rawValue else {
            throw StoreError.unknownConsent(id)
        }
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, recorded_at FROM event WHERE kind = 'withdrawal' AND subject = ?"),
                                      arguments: [id]) {
            throw StoreError.alreadyWithdrawn(consent: id, withdrawal: row[0], at: row[1])
        }
    }

    /// The columns of an event, its index and its withdrawal, as `row(at:)` reads them.
    private static let columns = """
        SELECT e.sequence, e.kind, e.id, e.recorded_at, e.content, e.content_sha256, e.previous_sha256, e.sha256,
               e.subject, e.document_digest, e.user_id, e.device_id,
               (SELECT json_group_array(name) FROM (SELECT name FROM signer WHERE event_sequence = e.sequence ORDER BY position)),
               w.sequence, w.kind, w.id, w.recorded_at, w.content, w.content_sha256, w.previous_sha256, w.sha256
        FROM event e LEFT JOIN event w ON e.kind = 'consent' AND w.kind = 'withdrawal' AND w.subject = e.id
        """

    func row(id: String) async throws(StoreError) -> StoredRow? {
        try pointRead { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.columns + " WHERE e.id = ?"), arguments: [id]).map(Self.storedRow)
        }
    }

    func consents(_ query: ConsentQuery) async throws(StoreError) -> [StoredRow] {
        var sql = Self.columns + " WHERE e.kind = 'consent' AND e.sequence > ?"
        var arguments: StatementArguments = [query.after]
        if let digest = query.documentDigest {
            sql += " AND e.document_digest = ?"
            _ = arguments.append(contentsOf: [digest.lowercased()])
        }
        if let name = query.signerName {
            sql += " AND EXISTS (SELECT 1 FROM signer s WHERE s.event_sequence = e.sequence AND instr(s.folded, ?) > 0)"
            _ = arguments.append(contentsOf: [EventIndex.fold(name)])
        }
        if let from = query.from {
            sql += " AND e.recorded_at >= ?"
            _ = arguments.append(contentsOf: [StoreEvent.timestamp(from)])
        }
        if let to = query.to {
            sql += " AND e.recorded_at < ?"
            _ = arguments.append(contentsOf: [StoreEvent.timestamp(to)])
        }
        if let withdrawn = query.withdrawn { sql += withdrawn ? " AND w.sequence IS NOT NULL" : " AND w.sequence IS NULL" }
        if let collector = query.collector {
            sql += " AND e.user_id = ?"
            _ = arguments.append(contentsOf: [collector])
        }
        sql += " ORDER BY e.sequence LIMIT ?"
        _ = arguments.append(contentsOf: [query.limit + 1])
        return try await read { [sql, arguments] db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.storedRow) }
    }

    func rows(kind: StoreEvent.Kind?, user: String?, after: Int64, limit: Int) async throws(StoreError) -> [StoredRow] {
        try await read { db in
            if let kind, let user {
                return try Row.fetchAll(db, sql: Self.columns + " WHERE e.user_id = ? AND e.kind = ? AND e.sequence > ? ORDER BY e.sequence LIMIT ?",
                                        arguments: [user, kind.rawValue, after, limit]).map(Self.storedRow)
            }
            if let user {
                return try Row.fetchAll(db, sql: Self.columns + " WHERE e.user_id = ? AND e.sequence > ? ORDER BY e.sequence LIMIT ?",
                                        arguments: [user, after, limit]).map(Self.storedRow)
            }
            if let kind {
                return try Row.fetchAll(db, sql: Self.columns + " WHERE e.kind = ? AND e.sequence > ? ORDER BY e.sequence LIMIT ?",
                                        arguments: [kind.rawValue, after, limit]).map(Self.storedRow)
            }
            return try Row.fetchAll(db, sql: Self.columns + " WHERE e.sequence > ? ORDER BY e.sequence LIMIT ?",
                                    arguments: [after, limit]).map(Self.storedRow)
        }
    }

    func withdrawal(of id: String) async throws(StoreError) -> StoreEvent? {
        try pointRead { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.withdrawalColumns), arguments: [id]).map { row in
                guard let event = try Self.event(row, at: 0) else { throw StoreError.corrupt("a withdrawal without a sequence") }
                return event
            }
        }
    }

    /// The withdrawal of one consent, in the columns ``event(_:at:)`` reads.
    private static let withdrawalColumns = """
        SELECT sequence, kind, id, recorded_at, content, content_sha256, previous_sha256, sha256
        FROM event WHERE kind = 'withdrawal' AND subject = ?
        """

    func blob(sha256: String) async throws(StoreError) -> [UInt8]? {
        try pointRead { db in
            try Data.fetchOne(db.cachedStatement(sql: "SELECT bytes FROM file WHERE sha256 = ?"), arguments: [sha256]).map { Array($0) }
        }
    }

    // MARK: Users on devices

    func replaceCode(sha256: String, user: String, expiresAt: Int64) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM enrolment_code WHERE user_id = ?", arguments: [user])
            try db.execute(sql: "INSERT INTO enrolment_code (code_sha256, user_id, expires_at) VALUES (?, ?, ?)",
                           arguments: [sha256, user, expiresAt])
        }
    }

    func codeUser(sha256: String, now: Int64) async throws(StoreError) -> String? {
        try pointRead { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT user_id FROM enrolment_code WHERE code_sha256 = ? AND expires_at > ?"),
                                arguments: [sha256, now])
        }
    }

    func takeCode(sha256: String, now: Int64) async throws(StoreError) -> String? {
        try await write { db in
            // Expired codes go with the first use of any code after they expire.
            try db.execute(sql: "DELETE FROM enrolment_code WHERE expires_at <= ? AND code_sha256 <> ?", arguments: [now, sha256])
            let row = try Row.fetchOne(db, sql: "DELETE FROM enrolment_code WHERE code_sha256 = ? RETURNING user_id, expires_at",
                                       arguments: [sha256])
            guard let row, (row[1] as Int64) > now else { return nil }
            return row[0]
        }
    }

    func setPasscode(user: String, device: String, hash: PasscodeRow) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO passcode (user_id, device_id, kdf, salt, hash, failures, locked_until, onboarded)
                VALUES (?, ?, ?, ?, ?, 0, 0, (SELECT coalesce(max(onboarded), 0) + 1 FROM passcode))
                ON CONFLICT (user_id, device_id) DO UPDATE SET kdf = excluded.kdf, salt = excluded.salt, hash = excluded.hash,
                    failures = 0, locked_until = 0
                """, arguments: [user, device, hash.kdf, hash.salt, hash.hash])
        }
    }

    func passcode(user: String, device: String) async throws(StoreError) -> PasscodeRow? {
        try pointRead { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT kdf, salt, hash, failures, locked_until FROM passcode WHERE user_id = ? AND device_id = ?"),
                             arguments: [user, device])
                .map { PasscodeRow(kdf: $0[0], salt: $0[1], hash: $0[2], failures: $0[3], lockedUntil: $0[4]) }
        }
    }

    func countFailure(user: String, device: String) async throws(StoreError) -> Int? {
        try await write { db in
            try Int.fetchOne(db, sql: "UPDATE passcode SET failures = failures + 1 WHERE user_id = ? AND device_id = ? RETURNING failures",
                             arguments: [user, device])
        }
    }

    func setFailures(user: String, device: String, failures: Int, lockedUntil: Int64) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE passcode SET failures = ?, locked_until = ? WHERE user_id = ? AND device_id = ?",
                           arguments: [failures, lockedUntil, user, device])
        }
    }

    func removePasscode(user: String, device: String) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM passcode WHERE user_id = ? AND device_id = ?", arguments: [user, device])
            return db.changesCount > 0
        }
    }

    func users(device: String) async throws(StoreError) -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT user_id FROM passcode WHERE device_id = ? ORDER BY onboarded", arguments: [device])
        }
    }

    /// Runs a write of the state of users on devices in one transaction.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    func close() async {
        checkpointer.close()
        try? pool.close()
    }

    /// Runs a read of many rows (a page, an export) in a transaction on one of the pool's reader connections, on
    /// GRDB's reader queue.
    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs a read of one row or one file by its key, a single statement, on a reader connection on the calling
    /// thread and outside a transaction (one statement's reads are consistent on their own in WAL mode, and a writer
    /// never blocks them). It takes tens of microseconds, less than handing it to GRDB's reader queue and back and
    /// opening and closing a transaction: reading one consent by id through the server went from 1,108 to 2,206 a
    /// second on two cores (BENCHMARKS.md).
    private func pointRead<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try pool.unsafeRead(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The event in the eight columns of `row` from `offset` on (sequence, kind, id, recorded_at, content and the
    /// three digests), or `nil` when its sequence is `NULL` (no withdrawal joined).
    private static func event(_ row: Row, at offset: Int) throws -> StoreEvent? {
        guard let sequence: Int64 = row[offset] else { return nil }
        let kindName: String = row[offset + 1]
        guard let kind = StoreEvent.Kind(rawValue: kindName) else {
            throw StoreError.corrupt("event \(sequence) has the kind '\(kindName)'")
        }
        let content: Data = row[offset + 4]
        return StoreEvent(sequence: sequence, kind: kind, id: row[offset + 2], recordedAt: row[offset + 3], content: Array(content),
                          contentSHA256: row[offset + 5], previousSHA256: row[offset + 6], sha256: row[offset + 7])
    }

    /// A row of ``columns`` as a stored row.
    private static func storedRow(_ row: Row) throws -> StoredRow {
        guard let main = try event(row, at: 0) else { throw StoreError.corrupt("an event without a sequence") }
        let index = EventIndex(subject: row[8], documentDigest: row[9], signers: EventIndex.signers(json: row[12]), user: row[10],
                               device: row[11])
        return StoredRow(event: main, index: index, withdrawal: try event(row, at: 13))
    }

    /// A GRDB or SQLite error as a store error.
    private static func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        return .database(words(error))
    }

    /// What an error says, without the SQL it came from.
    private static func words(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
        // A file system error: the system's words for its cause ("Not a directory", "Permission denied").
        let cocoa = error as NSError
        if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? any Error {
            let cause = underlying as NSError
            if cause.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(cause.code))) }
        }
        return cocoa.localizedDescription
    }
}

/// Checkpoints the write-ahead log on a connection of its own (`PASSIVE`: it copies what no reader still needs and
/// never blocks the writer or the readers), one at a time, each time `every` bytes have been appended since the last
/// one began.
private final class Checkpointer: Sendable {
    private let queue: DatabaseQueue
    private let every: Int
    /// Bytes appended since the last checkpoint began; whether one is running; how many have ended.
    private let state = Mutex<(bytes: Int, running: Bool, done: Int)>((0, false, 0))

    init(path: String, every: Int) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.every = every
    }

    var done: Int { state.withLock { $0.done } }

    /// Counts `bytes` appended, and starts a checkpoint when enough have been and none is running.
    func appended(_ bytes: Int) {
        let start = state.withLock { state in
            state.bytes += bytes
            guard state.bytes >= every, !state.running else { return false }
            state.bytes = 0
            state.running = true
            return true
        }
        guard start else { return }
        queue.asyncWriteWithoutTransaction { db in
            // A failed checkpoint loses nothing (the log keeps every commit); the next one, or SQLite's own, copies it.
            _ = try? db.checkpoint(.passive)
            self.state.withLock { state in
                state.running = false
                state.done += 1
            }
        }
    }

    func close() {
        try? queue.close()
    }
}
