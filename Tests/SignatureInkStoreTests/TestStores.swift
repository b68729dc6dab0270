// SPDX-License-Identifier: Apache-2.0
import Foundation
import GRDB
import Logging
import NIOCore
import PostgresNIO
import SignatureInkConsent
import Testing

/// The two databases the store keeps its log in; every test of the store runs once on each.
enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgresql

    var description: String { rawValue }

    /// The variable that names the PostgreSQL server the tests use: `make test` starts a throw-away cluster and sets
    /// it (Scripts/with-postgres).
    static let postgresVariable = "SIGNATURE_INK_TEST_POSTGRES"
}

/// A new, empty store for one test, and the database under it opened directly, as a person with `sqlite3` or `psql`
/// would.
struct TestStore: Sendable {
    /// Where to open it: a folder, or a `postgres://` URL of a new database.
    var location: String
    var backend: Backend

    /// A new, empty place for a store: a folder under the system's temporary folder that does not exist yet, or a new
    /// database on the test server.
    static func new(_ backend: Backend) async throws -> TestStore {
        let name = "signature_ink_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        switch backend {
        case .sqlite:
            return TestStore(location: FileManager.default.temporaryDirectory.appendingPathComponent(name).path, backend: backend)
        case .postgresql:
            let server = try serverURL()
            _ = try await RawPostgres.withConnection(server) { connection, logger in
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
            }
            var components = try #require(URLComponents(string: server))
            components.path = "/" + name
            return TestStore(location: try #require(components.string), backend: backend)
        }
    }

    /// The test server's URL.
    static func serverURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[Backend.postgresVariable], !url.isEmpty else {
            throw TestStoreError("""
                the PostgreSQL tests need a server: \(Backend.postgresVariable) is not set. `make test` starts a \
                throw-away cluster for them; or run `Scripts/with-postgres swift test`
                """)
        }
        return url
    }

    /// Removes what the test left: the folder (a PostgreSQL database goes with the throw-away cluster).
    func remove() {
        if backend == .sqlite { try? FileManager.default.removeItem(atPath: location) }
    }

    /// Runs one SQL statement on the database directly and says how many rows it changed.
    @discardableResult
    func execute(_ sql: String) async throws -> Int {
        switch backend {
        case .sqlite:
            return try await DatabaseQueue(path: location + "/consents.sqlite").write { db in
                try db.execute(sql: sql)
                return db.changesCount
            }
        case .postgresql:
            return try await RawPostgres.withConnection(location) { connection, logger in
                let result: PostgresQueryResult = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).get()
                return result.metadata.rows ?? 0
            }
        }
    }

    /// The text of the first column of every row a query gives, read from the database directly.
    func texts(_ sql: String) async throws -> [String] {
        switch backend {
        case .sqlite:
            return try await DatabaseQueue(path: location + "/consents.sqlite").read { try String.fetchAll($0, sql: sql) }
        case .postgresql:
            return try await RawPostgres.withConnection(location) { connection, logger in
                var texts: [String] = []
                for try await text in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String.self) {
                    texts.append(text)
                }
                return texts
            }
        }
    }

    /// Drops the triggers that refuse to change or delete an event or a file.
    func dropTriggers() async throws {
        for (trigger, table) in [("event_unchanged", "event"), ("event_kept", "event"), ("file_unchanged", "file"), ("file_kept", "file")] {
            try await execute(backend == .sqlite ? "DROP TRIGGER \(trigger)" : "DROP TRIGGER \(trigger) ON \(table)")
        }
    }

    /// Replaces `text` with `replacement` in a column of bytes that holds UTF-8, in the rows `condition` selects.
    func replace(in table: String, column: String, _ text: String, with replacement: String, where condition: String) async throws -> Int {
        switch backend {
        case .sqlite:
            return try await execute("""
                UPDATE \(table) SET \(column) = CAST(replace(CAST(\(column) AS TEXT), '\(text)', '\(replacement)') AS BLOB) WHERE \(condition)
                """)
        case .postgresql:
            // Byte for byte (a PDF is not all UTF-8): the first occurrence, which is enough to change the digest.
            return try await execute("""
                UPDATE \(table) SET \(column) = overlay(\(column) PLACING '\(replacement)'::bytea FROM position('\(text)'::bytea IN \(column)) \
                FOR \(text.utf8.count)) WHERE \(condition) AND position('\(text)'::bytea IN \(column)) > 0
                """)
        }
    }

    /// A careful forgery: the content of the event at `sequence` changed, and its own digests recomputed, as someone
    /// who knows how the chain is built would. Returns the rows changed.
    func forge(event sequence: Int64, _ text: String, with replacement: String) async throws -> Int {
        let columns = "SELECT kind, id, recorded_at, content, previous_sha256 FROM event WHERE sequence = \(sequence)"
        let (kind, id, recordedAt, content, previous): (String, String, String, [UInt8], String)
        switch backend {
        case .sqlite:
            let fetched = try DatabaseQueue(path: location + "/consents.sqlite").read { try Row.fetchOne($0, sql: columns) }
            let row = try #require(fetched)
            (kind, id, recordedAt, content, previous) = (row[0], row[1], row[2], Array(row[3] as Data), row[4])
        case .postgresql:
            (kind, id, recordedAt, content, previous) = try await RawPostgres.withConnection(location) { connection, logger in
                for try await (kind, id, recordedAt, content, previous) in try await connection.query(
                    PostgresQuery(unsafeSQL: columns), logger: logger).decode((String, String, String, ByteBuffer, String).self) {
                    return (kind, id, recordedAt, Array(content.readableBytesView), previous)
                }
                throw TestStoreError("no event \(sequence)")
            }
        }
        let changed = Array(String(decoding: content, as: UTF8.self).replacingOccurrences(of: text, with: replacement).utf8)
        let contentDigest = HexDigest.sha256(changed)
        let header = "signature-ink-event/1\n\(sequence)\n\(kind)\n\(id)\n\(recordedAt)\n\(contentDigest)\n\(previous)\n"
        let hex = changed.map { String(format: "%02x", $0) }.joined()
        let literal = backend == .sqlite ? "X'\(hex)'" : "'\\x\(hex)'::bytea"
        return try await execute("""
            UPDATE event SET content = \(literal), content_sha256 = '\(contentDigest)', sha256 = '\(HexDigest.sha256(Array(header.utf8)))' \
            WHERE sequence = \(sequence)
            """)
    }
}

/// One connection to a PostgreSQL database, for the tests' own statements.
enum RawPostgres {
    static func withConnection<T: Sendable>(_ url: String, _ body: (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let components = try #require(URLComponents(string: url))
        let logger = Logger(label: "signature-ink.test", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection = try await PostgresConnection.connect(
            configuration: .init(host: try #require(components.host), port: components.port ?? 5432, username: try #require(components.user),
                                 password: components.password, database: String(components.path.dropFirst()), tls: .disable),
            id: 1, logger: logger)
        do {
            let value = try await body(connection, logger)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

struct TestStoreError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
