// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Logging
import NIOCore
import NIOSSL
import PostgresNIO

/// The store in PostgreSQL, through PostgresNIO's pool of connections: the same tables as SQLite's, for several
/// server processes on several machines that share one log.
///
/// An append takes `LOCK TABLE event IN EXCLUSIVE MODE` inside its transaction: writers, in every process connected to
/// the database, wait for one another, so the chain stays one line, while readers go on (the lock allows `SELECT`).
/// A transaction answered by `COMMIT` is durable with PostgreSQL's defaults (`synchronous_commit = on`, `fsync = on`).
/// Triggers refuse to change, delete or truncate an event or a file.
final class PostgreSQLDatabase: StoreDatabase {
    private let client: PostgresClient
    private let running: Task<Void, Never>
    /// The consents known to stand, and the connection that hears of withdrawals.
    let watch = WithdrawalWatch()
    private let watching: Task<Void, Never>
    private let logger = Logger(label: "signature-ink.store", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects to the database `url` names, brings its tables up to date, and starts the pool of connections.
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with `?sslmode=` `disable`, `prefer` (the default,
    ///     as libpq's), `require` (encrypted, the certificate not checked, as libpq's) or `verify-full`; without a
    ///     password, the environment's `PGPASSWORD`, if any.
    ///   - location: the URL without its password, for errors.
    /// - Throws: ``StoreError/unreachable(location:reason:)`` when the URL is not one or the server cannot be reached,
    ///   refuses the user, or has no such database.
    init(url: String, location: String) async throws(StoreError) {
        let target = try Self.target(url, location: location)
        let tls: PostgresClient.Configuration.TLS
        let connectionTLS: PostgresConnection.Configuration.TLS
        do {
            switch target.sslMode {
            case .disable:
                (tls, connectionTLS) = (.disable, .disable)
            case .prefer, .require:
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                let context = try NIOSSLContext(configuration: configuration)
                (tls, connectionTLS) = target.sslMode == .prefer
                    ? (.prefer(configuration), .prefer(context)) : (.require(configuration), .require(context))
            case .verifyFull:
                let configuration = TLSConfiguration.makeClientConfiguration()
                (tls, connectionTLS) = (.require(configuration), .require(try NIOSSLContext(configuration: configuration)))
            }
        } catch {
            throw .unreachable(location: location, reason: "TLS: \(error)")
        }
        // One connection first: a server that cannot be reached is an error now, not requests that wait for it.
        let configuration = PostgresConnection.Configuration(
            host: target.host, port: target.port, username: target.user, password: target.password, database: target.database,
            tls: connectionTLS)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            do {
                try await Self.migrate(connection, logger: logger)
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            throw .unreachable(location: location, reason: Self.words(error))
        }
        let client = PostgresClient(
            configuration: .init(host: target.host, port: target.port, username: target.user, password: target.password,
                                 database: target.database, tls: tls),
            backgroundLogger: logger)
        self.client = client
        running = Task { await client.run() }
        watching = Task { [watch, logger] in await watch.run(configuration, logger: logger) }
    }

    // MARK: The URL

    enum SSLMode: String { case disable, prefer, require, verifyFull = "verify-full" }

    /// What a `postgres://` URL names.
    struct Target {
        var host: String
        var port: Int
        var user: String
        var password: String?
        var database: String
        var sslMode: SSLMode
    }

    /// Reads a `postgres://` or `postgresql://` URL.
    static func target(_ url: String, location: String) throws(StoreError) -> Target {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw .unreachable(location: location, reason: "not a URL of the form postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        guard let user = components.user, !user.isEmpty else {
            throw .unreachable(location: location, reason: "the URL names no user (postgres://USER@HOST/DATABASE)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw .unreachable(location: location, reason: "the URL names no database (postgres://USER@HOST/DATABASE)")
        }
        var sslMode = SSLMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else {
                throw .unreachable(location: location, reason: "the URL's parameter '\(item.name)' is not understood; only sslmode is")
            }
            guard let mode = item.value.flatMap(SSLMode.init(rawValue:)) else {
                throw .unreachable(location: location, reason: "sslmode must be disable, prefer, require or verify-full")
            }
            sslMode = mode
        }
        // As libpq does: a URL without a password takes the environment's PGPASSWORD, which no process list shows.
        let password = components.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        return Target(host: host, port: components.port ?? 5432, user: user, password: password, database: database, sslMode: sslMode)
    }

    // MARK: The tables

    /// Statements of each version of the schema, in order; `signature_ink_schema` holds the versions applied.
    private static let migrations: [[String]] = [
        [
            """
            CREATE TABLE event (
                sequence bigint PRIMARY KEY,
                kind text NOT NULL,
                id text NOT NULL UNIQUE,
                recorded_at text NOT NULL,
                content bytea NOT NULL,
                content_sha256 text NOT NULL,
                previous_sha256 text NOT NULL,
                sha256 text NOT NULL,
                subject text,
                document_digest text,
                user_id text,
                device_id text
            )
            """,
            "CREATE UNIQUE INDEX event_withdrawal ON event(subject) WHERE kind = 'withdrawal'",
            "CREATE INDEX event_kind ON event(kind, sequence)",
            "CREATE INDEX event_document ON event(document_digest, sequence) WHERE kind = 'consent'",
            """
            CREATE TABLE signer (
                event_sequence bigint NOT NULL REFERENCES event(sequence),
                position integer NOT NULL,
                name text NOT NULL,
                folded text NOT NULL,
                PRIMARY KEY (event_sequence, position)
            )
            """,
            "CREATE TABLE file (sha256 text PRIMARY KEY, bytes bytea NOT NULL)",
            // LZ4 rather than the default pglz for the large values (a consent's content, its record and its PDF):
            // pglz_compress was 2.8 % of the machine's time under a load of signings; a server built without LZ4
            // keeps pglz.
            """
            DO $$ BEGIN
                ALTER TABLE event ALTER COLUMN content SET COMPRESSION lz4;
                ALTER TABLE file ALTER COLUMN bytes SET COMPRESSION lz4;
            EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
            END $$
            """,
            """
            CREATE FUNCTION signature_ink_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION '% rows are never changed or deleted', TG_TABLE_NAME; END $$
            """,
            "CREATE TRIGGER event_unchanged BEFORE UPDATE OR DELETE ON event FOR EACH ROW EXECUTE FUNCTION signature_ink_refuse()",
            "CREATE TRIGGER event_kept BEFORE TRUNCATE ON event FOR EACH STATEMENT EXECUTE FUNCTION signature_ink_refuse()",
            "CREATE TRIGGER file_unchanged BEFORE UPDATE OR DELETE ON file FOR EACH ROW EXECUTE FUNCTION signature_ink_refuse()",
            "CREATE TRIGGER file_kept BEFORE TRUNCATE ON file FOR EACH STATEMENT EXECUTE FUNCTION signature_ink_refuse()",
        ],
        [
            // Every withdrawal, whoever inserts it, is told to the servers that listen (WithdrawalWatch) when its
            // transaction commits.
            """
            CREATE FUNCTION signature_ink_withdrawal_notice() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(WithdrawalWatch.channel)', NEW.subject); RETURN NULL; END $$
            """,
            """
            CREATE TRIGGER event_withdrawal_notice AFTER INSERT ON event FOR EACH ROW WHEN (NEW.kind = 'withdrawal')
            EXECUTE FUNCTION signature_ink_withdrawal_notice()
            """,
        ],
        [
            // Users on shared devices: the enrolment codes and the passcodes, which change (a code is used once, a
            // count of wrong passcodes goes up and back to 0), in plain tables beside the log; the owner's index.
            "CREATE TABLE enrolment_code (code_sha256 text PRIMARY KEY, user_id text NOT NULL, expires_at bigint NOT NULL)",
            "CREATE INDEX enrolment_code_user ON enrolment_code(user_id)",
            """
            CREATE TABLE passcode (
                user_id text NOT NULL,
                device_id text NOT NULL,
                kdf text NOT NULL,
                salt text NOT NULL,
                hash text NOT NULL,
                failures integer NOT NULL DEFAULT 0,
                locked_until bigint NOT NULL DEFAULT 0,
                onboarded bigserial,
                PRIMARY KEY (user_id, device_id)
            )
            """,
            "CREATE INDEX passcode_device ON passcode(device_id, onboarded)",
            "CREATE INDEX event_user ON event(user_id, kind, sequence) WHERE user_id IS NOT NULL",
        ],
    ]

    /// Applies the versions of the schema the database lacks, in one transaction under an advisory lock, so that
    /// servers started together do not apply one twice.
    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7400301)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS signature_ink_schema (version integer PRIMARY KEY)", logger: logger)
            var applied = 0
            for try await version in try await connection.query("SELECT coalesce(max(version), 0) FROM signature_ink_schema",
                                                                 logger: logger).decode(Int.self) {
                applied = version
            }
            for (offset, statements) in migrations.enumerated() where offset + 1 > applied {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query("INSERT INTO signature_ink_schema (version) VALUES (\(offset + 1))", logger: logger)
            }
        }
    }

    // MARK: Writing

    func append(_ drafts: [EventDraft], blobs: [(sha256: String, bytes: [UInt8])], condition: AppendCondition,
                recordedAt: String) async throws(StoreError) -> [StoreEvent] {
        let logger = logger
        // This process reads its own withdrawals at once, before their notifications come back; also one whose commit
        // failed, which may have been made.
        defer {
            for draft in drafts where draft.kind == .withdrawal {
                if let consent = draft.index.subject { watch.withdrawn(consent) }
            }
        }
        let appended: [StoreEvent]
        do {
            appended = try await client.withTransaction(logger: logger) { connection in
                try await connection.query("LOCK TABLE event IN EXCLUSIVE MODE", logger: logger)
                if case let .standingConsent(id) = condition { try await Self.checkStanding(id, connection, logger) }
                // The chain's head and which of the drafts are kept already, in one round trip.
                var head: ChainHead?
                var kept: Set<String> = []
                for try await (sequence, sha256, ids) in try await connection.execute(HeadAndKept(ids: drafts.map(\.id)), logger: logger) {
                    if let sequence, let sha256 { head = ChainHead(sequence: sequence, sha256: sha256) }
                    kept = Set(ids)
                }
                if let draft = drafts.first(where: { kept.contains($0.id) && !$0.skipIfKept }) { throw StoreError.alreadyKept(draft.id) }
                let inserted = drafts.filter { !kept.contains($0.id) }
                var appended: [StoreEvent] = []
                for (position, draft) in inserted.enumerated() {
                    let event = StoreEvent(kind: draft.kind, id: draft.id, recordedAt: recordedAt, content: draft.content, after: head)
                    // The files go with the last event: each event is one round trip.
                    _ = try await connection.execute(
                        InsertEvent(event: event, index: draft.index, files: position == inserted.count - 1 ? blobs : []), logger: logger)
                    head = ChainHead(sequence: event.sequence, sha256: event.sha256)
                    appended.append(event)
                }
                if inserted.isEmpty && !blobs.isEmpty {
                    _ = try await connection.execute(InsertEvent.Files(files: blobs), logger: logger)
                }
                return appended
            }
        } catch {
            throw Self.storeError(error)
        }
        return appended
    }

    /// Throws unless the consent `id` exists and stands.
    private static func checkStanding(_ id: String, _ connection: PostgresConnection, _ logger: Logger) async throws {
        var kind: String?
        for try await value in try await connection.query("SELECT kind FROM event WHERE id = \(id)", logger: logger).decode(String.self) {
            kind = value
        }
        guard kind == StoreEvent.Kind.consent.rawValue else { throw StoreError.unknownConsent(id) }
        for try await (withdrawal, at) in try await connection.query(
            "SELECT id, recorded_at FROM event WHERE kind = 'withdrawal' AND subject = \(id)", logger: logger).decode((String, String).self) {
            throw StoreError.alreadyWithdrawn(consent: id, withdrawal: withdrawal, at: at)
        }
    }

    // MARK: Reading

    /// The columns of an event, its index and its withdrawal, in the order ``storedRow(_:)`` reads them.
    private static let columns = """
        SELECT e.sequence, e.kind, e.id, e.recorded_at, e.content, e.content_sha256, e.previous_sha256, e.sha256,
               e.subject, e.document_digest, e.user_id, e.device_id,
               (SELECT coalesce(json_agg(name ORDER BY position), '[]'::json)::text FROM signer WHERE event_sequence = e.sequence),
               w.sequence, w.kind, w.id, w.recorded_at, w.content, w.content_sha256, w.previous_sha256, w.sha256
        FROM event e LEFT JOIN event w ON e.kind = 'consent' AND w.kind = 'withdrawal' AND w.subject = e.id
        """

    func row(id: String) async throws(StoreError) -> StoredRow? {
        let knowledge = watch.mark(id)
        let row = try await first(RowByID(id: id))
        if let row, row.event.kind == .consent, row.withdrawal == nil, case let .ask(mark) = knowledge {
            watch.remember(id, readAfter: mark)
        }
        return row
    }

    func consents(_ query: ConsentQuery) async throws(StoreError) -> [StoredRow] {
        var binds = PostgresBindings()
        func next(_ value: some PostgresNonThrowingEncodable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        var sql = Self.columns + " WHERE e.kind = 'consent' AND e.sequence > \(next(query.after))"
        if let digest = query.documentDigest { sql += " AND e.document_digest = \(next(digest.lowercased()))" }
        if let name = query.signerName {
            sql += " AND EXISTS (SELECT 1 FROM signer s WHERE s.event_sequence = e.sequence AND strpos(s.folded, \(next(EventIndex.fold(name)))) > 0)"
        }
        if let from = query.from { sql += " AND e.recorded_at >= \(next(StoreEvent.timestamp(from)))" }
        if let to = query.to { sql += " AND e.recorded_at < \(next(StoreEvent.timestamp(to)))" }
        if let withdrawn = query.withdrawn { sql += withdrawn ? " AND w.sequence IS NOT NULL" : " AND w.sequence IS NULL" }
        if let collector = query.collector { sql += " AND e.user_id = \(next(collector))" }
        sql += " ORDER BY e.sequence LIMIT \(next(query.limit + 1))"
        return try await rows(sql, binds)
    }

    func rows(kind: StoreEvent.Kind?, user: String?, after: Int64, limit: Int) async throws(StoreError) -> [StoredRow] {
        var binds = PostgresBindings()
        binds.append(after)
        binds.append(limit)
        if let user {
            binds.append(user)
            guard let kind else { return try await rows(Self.columns + " WHERE e.user_id = $3 AND e.sequence > $1 ORDER BY e.sequence LIMIT $2", binds) }
            binds.append(kind.rawValue)
            return try await rows(Self.columns + " WHERE e.user_id = $3 AND e.kind = $4 AND e.sequence > $1 ORDER BY e.sequence LIMIT $2", binds)
        }
        if let kind {
            binds.append(kind.rawValue)
            return try await rows(Self.columns + " WHERE e.kind = $3 AND e.sequence > $1 ORDER BY e.sequence LIMIT $2", binds)
        }
        return try await rows(Self.columns + " WHERE e.sequence > $1 ORDER BY e.sequence LIMIT $2", binds)
    }

    /// The withdrawal of the consent `id`: from memory when the consent is known to stand (``WithdrawalWatch``), else
    /// from the database (reads of one consent through the server went from 3,672/s to 9,024/s at 4 connections, and
    /// from 3,174/s to 7,495/s at 2, when this stopped asking: BENCHMARKS.md).
    func withdrawal(of id: String) async throws(StoreError) -> StoreEvent? {
        guard case let .ask(mark) = watch.mark(id) else { return nil }
        let event = try await first(WithdrawalOf(consent: id))
        if event == nil { watch.remember(id, readAfter: mark) }
        return event
    }

    func blob(sha256: String) async throws(StoreError) -> [UInt8]? {
        try await first(FileBytes(sha256: sha256))
    }

    // Point reads as prepared statements: each connection parses and plans them once rather than at every read (reads
    // of one consent by id, answered from the server's memory but for the withdrawal, went from 2,237/s to 2,922/s at
    // 2 connections and 3,423/s at 4; those that read the whole consent from 686/s to 1,014/s and 1,250/s:
    // BENCHMARKS.md). Each has its own short name: PostgreSQL keeps 63 bytes of a name, and the default, the type's
    // name in full, is longer, so that two statements would share one.

    /// `row(id:)`'s query.
    private struct RowByID: PostgresPreparedStatement {
        static let name = "signature_ink_row_by_id"
        static let sql = PostgreSQLDatabase.columns + " WHERE e.id = $1"
        var id: String
        func makeBindings() -> PostgresBindings { Self.bindings(id) }
        func decodeRow(_ row: PostgresRow) throws -> StoredRow { try PostgreSQLDatabase.storedRow(row) }
    }

    /// `withdrawal(of:)`'s query: the withdrawal event of one consent.
    private struct WithdrawalOf: PostgresPreparedStatement {
        static let name = "signature_ink_withdrawal_of"
        static let sql = """
            SELECT sequence, kind, id, recorded_at, content, content_sha256, previous_sha256, sha256
            FROM event WHERE kind = 'withdrawal' AND subject = $1
            """
        var consent: String
        func makeBindings() -> PostgresBindings { Self.bindings(consent) }
        func decodeRow(_ row: PostgresRow) throws -> StoreEvent {
            guard let event = try PostgreSQLDatabase.event(row.makeRandomAccess(), at: 0) else {
                throw StoreError.corrupt("a withdrawal without a sequence")
            }
            return event
        }
    }

    // The append's statements, prepared: parsing and planning them at every consent was a fifth of PostgreSQL's time
    // under a load of signings (BENCHMARKS.md, "What the store costs a signing").

    /// The chain's head (`NULL`s in an empty log) and which of the identifiers `$1` are kept already.
    private struct HeadAndKept: PostgresPreparedStatement {
        static let name = "signature_ink_head_and_kept"
        static let sql = """
            SELECT e.sequence, e.sha256, ARRAY(SELECT id FROM event WHERE id = ANY($1::text[]))
            FROM (SELECT 1) AS one LEFT JOIN (SELECT sequence, sha256 FROM event ORDER BY sequence DESC LIMIT 1) AS e ON true
            """
        var ids: [String]
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(ids)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> (Int64?, String?, [String]) { try row.decode((Int64?, String?, [String]).self) }
    }

    /// An event, its signers' names and files, in one statement.
    private struct InsertEvent: PostgresPreparedStatement {
        static let name = "signature_ink_insert_event"
        static let sql = """
            WITH e AS (
                INSERT INTO event (sequence, kind, id, recorded_at, content, content_sha256, previous_sha256, sha256,
                                   subject, document_digest, user_id, device_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                RETURNING sequence
            ), s AS (
                INSERT INTO signer (event_sequence, position, name, folded)
                SELECT e.sequence, (x.ordinality - 1)::integer, x.name, x.folded
                FROM e, unnest($13::text[], $14::text[]) WITH ORDINALITY AS x(name, folded, ordinality)
            )
            INSERT INTO file (sha256, bytes) SELECT * FROM unnest($15::text[], $16::bytea[]) ON CONFLICT (sha256) DO NOTHING
            """
        var event: StoreEvent
        var index: EventIndex
        var files: [(sha256: String, bytes: [UInt8])]
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 16)
            bindings.append(event.sequence)
            bindings.append(event.kind.rawValue)
            bindings.append(event.id)
            bindings.append(event.recordedAt)
            bindings.append(ByteBuffer(bytes: event.content))
            bindings.append(event.contentSHA256)
            bindings.append(event.previousSHA256)
            bindings.append(event.sha256)
            bindings.append(index.subject)
            bindings.append(index.documentDigest)
            bindings.append(index.user)
            bindings.append(index.device)
            bindings.append(index.signers)
            bindings.append(index.signers.map(EventIndex.fold))
            bindings.append(files.map(\.sha256))
            bindings.append(files.map { ByteBuffer(bytes: $0.bytes) })
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws {}

        /// Files alone, when every event of an append was kept already.
        struct Files: PostgresPreparedStatement {
            static let name = "signature_ink_insert_files"
            static let sql = "INSERT INTO file (sha256, bytes) SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (sha256) DO NOTHING"
            var files: [(sha256: String, bytes: [UInt8])]
            func makeBindings() -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 2)
                bindings.append(files.map(\.sha256))
                bindings.append(files.map { ByteBuffer(bytes: $0.bytes) })
                return bindings
            }
            func decodeRow(_ row: PostgresRow) throws {}
        }
    }

    /// `blob(sha256:)`'s query.
    private struct FileBytes: PostgresPreparedStatement {
        static let name = "signature_ink_file_bytes"
        static let sql = "SELECT bytes FROM file WHERE sha256 = $1"
        var sha256: String
        func makeBindings() -> PostgresBindings { Self.bindings(sha256) }
        func decodeRow(_ row: PostgresRow) throws -> [UInt8] { Array(try row.decode(ByteBuffer.self).readableBytesView) }
    }

    /// The first row a prepared statement reads, or `nil` when it reads none. The rows are read to the end (these
    /// queries have one at most): a statement whose first execution is left before its end is not known as prepared
    /// on its connection, which prepares it again and fails with 42P05 ("already exists").
    private func first<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws(StoreError) -> Statement.Row? {
        do {
            var first: Statement.Row?
            for try await row in try await client.execute(statement, logger: logger) where first == nil { first = row }
            return first
        } catch {
            throw Self.storeError(error)
        }
    }

    // MARK: Users on devices

    func replaceCode(sha256: String, user: String, expiresAt: Int64) async throws(StoreError) {
        let logger = logger
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("DELETE FROM enrolment_code WHERE user_id = \(user)", logger: logger)
                try await connection.query(
                    "INSERT INTO enrolment_code (code_sha256, user_id, expires_at) VALUES (\(sha256), \(user), \(expiresAt))", logger: logger)
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    func codeUser(sha256: String, now: Int64) async throws(StoreError) -> String? {
        try await values("SELECT user_id FROM enrolment_code WHERE code_sha256 = \(sha256) AND expires_at > \(now)") { try $0.decode(String.self) }.first
    }

    func takeCode(sha256: String, now: Int64) async throws(StoreError) -> String? {
        // Expired codes go with the first use of any code after they expire.
        _ = try await values("DELETE FROM enrolment_code WHERE expires_at <= \(now) AND code_sha256 <> \(sha256) RETURNING 1") { try $0.decode(Int32.self) }
        let taken = try await values("DELETE FROM enrolment_code WHERE code_sha256 = \(sha256) RETURNING user_id, expires_at") { try $0.decode((String, Int64).self) }
        guard let (user, expiresAt) = taken.first, expiresAt > now else { return nil }
        return user
    }

    func setPasscode(user: String, device: String, hash: PasscodeRow) async throws(StoreError) {
        _ = try await values("""
            INSERT INTO passcode (user_id, device_id, kdf, salt, hash, failures, locked_until)
            VALUES (\(user), \(device), \(hash.kdf), \(hash.salt), \(hash.hash), 0, 0)
            ON CONFLICT (user_id, device_id) DO UPDATE SET kdf = excluded.kdf, salt = excluded.salt, hash = excluded.hash,
                failures = 0, locked_until = 0
            RETURNING 1
            """) { try $0.decode(Int32.self) }
    }

    func passcode(user: String, device: String) async throws(StoreError) -> PasscodeRow? {
        try await values("SELECT kdf, salt, hash, failures, locked_until FROM passcode WHERE user_id = \(user) AND device_id = \(device)") { try $0.decode((String, String, String, Int, Int64).self) }
            .first.map { PasscodeRow(kdf: $0.0, salt: $0.1, hash: $0.2, failures: $0.3, lockedUntil: $0.4) }
    }

    func countFailure(user: String, device: String) async throws(StoreError) -> Int? {
        try await values("UPDATE passcode SET failures = failures + 1 WHERE user_id = \(user) AND device_id = \(device) RETURNING failures") { try $0.decode(Int.self) }.first
    }

    func setFailures(user: String, device: String, failures: Int, lockedUntil: Int64) async throws(StoreError) {
        _ = try await values("""
            UPDATE passcode SET failures = \(failures), locked_until = \(lockedUntil) WHERE user_id = \(user) AND device_id = \(device)
            RETURNING 1
            """) { try $0.decode(Int32.self) }
    }

    func removePasscode(user: String, device: String) async throws(StoreError) -> Bool {
        !(try await values("DELETE FROM passcode WHERE user_id = \(user) AND device_id = \(device) RETURNING 1") { try $0.decode(Int32.self) }).isEmpty
    }

    func users(device: String) async throws(StoreError) -> [String] {
        try await values("SELECT user_id FROM passcode WHERE device_id = \(device) ORDER BY onboarded") { try $0.decode(String.self) }
    }

    /// Runs one statement and decodes every row it gives.
    private func values<T>(_ query: PostgresQuery, _ decode: (PostgresRow) throws -> T) async throws(StoreError) -> [T] {
        do {
            var values: [T] = []
            for try await row in try await client.query(query, logger: logger) { values.append(try decode(row)) }
            return values
        } catch {
            throw Self.storeError(error)
        }
    }

    func close() async {
        watching.cancel()
        await watching.value
        running.cancel()
        await running.value
    }

    /// Runs a query of ``columns`` and reads its rows.
    private func rows(_ sql: String, _ binds: PostgresBindings) async throws(StoreError) -> [StoredRow] {
        do {
            var rows: [StoredRow] = []
            for try await row in try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger) {
                rows.append(try Self.storedRow(row))
            }
            return rows
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The event in the eight cells of `cells` from `offset` on (sequence, kind, id, recorded_at, content and the
    /// three digests), or `nil` when its sequence is `NULL` (no withdrawal joined).
    private static func event(_ cells: PostgresRandomAccessRow, at offset: Int) throws -> StoreEvent? {
        guard let sequence = try cells[offset].decode(Int64?.self) else { return nil }
        let kindName = try cells[offset + 1].decode(String.self)
        guard let kind = StoreEvent.Kind(rawValue: kindName) else {
            throw StoreError.corrupt("event \(sequence) has the kind '\(kindName)'")
        }
        let content = try cells[offset + 4].decode(ByteBuffer.self)
        return StoreEvent(sequence: sequence, kind: kind, id: try cells[offset + 2].decode(String.self),
                          recordedAt: try cells[offset + 3].decode(String.self), content: Array(content.readableBytesView),
                          contentSHA256: try cells[offset + 5].decode(String.self),
                          previousSHA256: try cells[offset + 6].decode(String.self), sha256: try cells[offset + 7].decode(String.self))
    }

    /// A row of ``columns`` as a stored row.
    private static func storedRow(_ row: PostgresRow) throws -> StoredRow {
        let cells = row.makeRandomAccess()
        guard let main = try event(cells, at: 0) else { throw StoreError.corrupt("an event without a sequence") }
        let index = EventIndex(subject: try cells[8].decode(String?.self), documentDigest: try cells[9].decode(String?.self),
                               signers: EventIndex.signers(json: try cells[12].decode(String?.self)),
                               user: try cells[10].decode(String?.self), device: try cells[11].decode(String?.self))
        return StoredRow(event: main, index: index, withdrawal: try event(cells, at: 13))
    }

    // MARK: Errors

    /// A PostgresNIO error as a store error.
    private static func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PostgresTransactionError {
            if let closure = error.closureError { return storeError(closure) }
            if let commit = error.commitError { return .database("the commit failed: \(words(commit))") }
            if let begin = error.beginError { return .database(words(begin)) }
        }
        return .database(words(error))
    }

    /// What an error says: the server's message, or the connection's failure, without the query or the password.
    static func words(_ error: any Error) -> String {
        if let error = error as? PostgresTransactionError {
            return (error.closureError ?? error.commitError ?? error.beginError).map(words) ?? "the transaction failed"
        }
        guard let error = error as? PSQLError else { return "\(error)" }
        if error.code == .authMechanismRequiresPassword {
            return "the server asks for a password, and neither the URL nor the environment's PGPASSWORD gives one"
        }
        if let message = error.serverInfo?[.message] {
            return error.serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }
}

extension PostgresPreparedStatement {
    /// Bindings of one text parameter, `$1`.
    fileprivate static func bindings(_ text: String) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(text)
        return bindings
    }
}
