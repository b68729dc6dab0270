// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
public import SignatureInkConsent
import SignatureInkFormats
import Synchronization

/// Every consent kept: the consent documents by version, each completed consent with its record and signed PDF,
/// the signatures saved from the signature form cell, and withdrawals, in an append-only log that is a hash chain.
///
/// One API over two databases: SQLite in a folder (the embedded default) and PostgreSQL (for several server
/// processes on several machines). Each write is one transaction, committed durably before the call returns, so
/// an answer that says a consent was kept survives a crash or a power cut. Nothing is ever changed or deleted: a
/// withdrawal is a new event that names the consent. ``verify()`` walks the chain and names the first event whose
/// content, link or files do not match.
///
/// ```swift
/// let store = try await ConsentStore.open("signature-ink-data")
/// let kept = try await store.keep(signed.record, pdf: signed.pdf, provenance: Provenance(client: "127.0.0.1"))
/// try await store.withdraw(consent: kept.id, reason: "asked by phone")
/// ```
public final class ConsentStore: Sendable {
    let database: any StoreDatabase
    /// Where the store is, as it can be shown: a folder, or a PostgreSQL URL without its password.
    public let location: String
    /// Documents read so far, by digest: a document's event never changes.
    private let documents = Mutex<[String: String]>([:])
    /// Retirements read so far, by document digest: a version once retired stays retired (a version not retired is
    /// looked up every time, so that a retirement by another process is seen).
    let retirements = Mutex<[String: StoredRetirement]>([:])

    init(database: any StoreDatabase, location: String) {
        self.database = database
        self.location = location
    }

    /// Opens the store at `location`, creating it (and its tables) when it does not exist.
    /// - Parameter location: a folder for SQLite, created when missing (the database is `consents.sqlite` in it); or a
    ///   PostgreSQL database, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with `?sslmode=` `disable`, `prefer`
    ///   (the default), `require` or `verify-full` as libpq reads them; a URL without a password takes the environment's
    ///   `PGPASSWORD`, as libpq does, so that the password shows in no process list. Several processes may open the
    ///   same database.
    /// - Throws: ``StoreError/unreachable(location:reason:)`` naming the location, a URL without its password.
    public static func open(_ location: String) async throws(StoreError) -> ConsentStore {
        guard let scheme = ["postgres://", "postgresql://"].first(where: { location.hasPrefix($0) }) else {
            return ConsentStore(database: try SQLiteDatabase(folder: location), location: location)
        }
        let shown = scheme + Self.withoutPassword(location.dropFirst(scheme.count))
        return ConsentStore(database: try await PostgreSQLDatabase(url: location, location: shown), location: shown)
    }

    /// A URL's part after its scheme with the password of its user, if any, left out.
    private static func withoutPassword(_ rest: Substring) -> String {
        let authority = rest.prefix(while: { $0 != "/" && $0 != "?" })
        guard let at = authority.lastIndex(of: "@") else { return String(rest) }
        let user = authority[..<at].prefix(while: { $0 != ":" })
        return String(user + rest[at...])
    }

    /// Closes the database's connections; the store must not be used after.
    public func close() async {
        await database.close()
    }

    // MARK: Writing

    /// Keeps a signed consent: its document (once per digest), its record (as data and as the JSON text returned at
    /// signing, `record.json`) and its PDF, in one transaction.
    /// - Parameters:
    ///   - record: the consent record, as `ConsentSubmission.Signed` gives it.
    ///   - pdf: the signed PDF, whose SHA-256 the record carries.
    ///   - pages: the PDF's page count, >= 1.
    ///   - id: the consent's identifier, chosen by the client so that a submission sent twice is kept once
    ///     (``isIdentifier(_:)``); default a new UUID.
    ///   - provenance: where the submission came from.
    ///   - date: when it was received; default now.
    /// - Returns: the consent as kept.
    /// - Throws: ``StoreError/alreadyKept(_:)`` when a consent with `id` is kept already;
    ///   ``StoreError/invalid(field:message:)`` when the PDF or the document does not match the record's digests or
    ///   `id` is no identifier; a database error. In every case nothing was kept.
    public func keep(_ record: ConsentRecord, pdf: [UInt8], pages: Int, id: String? = nil, provenance: Provenance = Provenance(),
                     at date: Date = Date()) async throws(StoreError) -> StoredConsent {
        if let id, !Self.isIdentifier(id) {
            throw .invalid(field: "id", message: "must be 1 to 64 lower-case letters, digits and '-'")
        }
        guard pages >= 1 else { throw .invalid(field: "pages", message: "must be >= 1") }
        let pdfDigest = HexDigest.sha256(pdf)
        guard pdfDigest == record.pdfSHA256.lowercased() else {
            throw .invalid(field: "pdf", message: "its SHA-256 is \(pdfDigest), the record says \(record.pdfSHA256)")
        }
        let document = Array(record.document.utf8)
        guard HexDigest.sha256(document) == record.documentDigest.lowercased() else {
            throw .invalid(field: "record.document", message: "its SHA-256 is not the record's documentDigest \(record.documentDigest)")
        }
        var stripped = record
        stripped.document = ""
        let id = id ?? UUID().uuidString.lowercased()
        let json = record.json
        let jsonDigest = HexDigest.sha256(json)
        let content = ConsentContent(record: stripped, pages: pages, provenance: provenance, recordSHA256: jsonDigest)
        let drafts = [
            EventDraft(kind: .document, id: record.documentDigest.lowercased(), content: document, index: EventIndex(), skipIfKept: true),
            EventDraft(kind: .consent, id: id, content: try CanonicalJSON.encode(content), index: EventIndex(content)),
        ]
        let events = try await database.append(drafts, blobs: [(pdfDigest, pdf), (jsonDigest, json)], condition: .none,
                                               recordedAt: StoreEvent.timestamp(date))
        guard let event = events.last, event.id == id else { throw .database("the consent's event was not appended") }
        return StoredConsent(id: id, sequence: event.sequence, recordedAt: event.recordedAt, record: record, recordJSON: json,
                             pages: pages, provenance: provenance)
    }

    /// Whether `text` can be an event's identifier: 1 to 64 lower-case ASCII letters, digits and `-` (a UUID in lower
    /// case is one).
    public static func isIdentifier(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { $0 == 45 || (48...57).contains($0) || (97...122).contains($0) }
    }

    /// Keeps a signature saved from the signature form cell.
    /// - Parameters:
    ///   - signature: the signature in the engine's native format.
    ///   - digest: its `SignatureRecord.digest`.
    ///   - savedAt: its `SignatureRecord.savedAt`, milliseconds since 1970.
    ///   - provenance: where it came from.
    ///   - date: when it was received; default now.
    public func keep(signature: String, digest: String, savedAt: Double, provenance: Provenance = Provenance(),
                     at date: Date = Date()) async throws(StoreError) -> StoredSignature {
        try await keep(SignatureContent(signature: signature, digest: digest, savedAt: savedAt, provenance: provenance), at: date)
    }

    /// Keeps a name typed in the signature form cell in place of a drawn signature.
    /// - Parameters:
    ///   - typedSignature: the name as the signer typed it, checked by the one who saves it.
    ///   - digest: the SHA-256 of its UTF-8 text, 64 hexadecimal digits.
    ///   - savedAt: when the signer saved it, milliseconds since 1970.
    ///   - provenance: where it came from.
    ///   - date: when it was received; default now.
    public func keep(typedSignature: String, digest: String, savedAt: Double, provenance: Provenance = Provenance(),
                     at date: Date = Date()) async throws(StoreError) -> StoredSignature {
        try await keep(SignatureContent(typedSignature: typedSignature, digest: digest, savedAt: savedAt, provenance: provenance), at: date)
    }

    /// Appends a saved signature's event.
    private func keep(_ content: SignatureContent, at date: Date) async throws(StoreError) -> StoredSignature {
        let id = UUID().uuidString.lowercased()
        let events = try await database.append(
            [EventDraft(kind: .signature, id: id, content: try CanonicalJSON.encode(content), index: EventIndex(content))],
            blobs: [], condition: .none, recordedAt: StoreEvent.timestamp(date))
        guard let event = events.first else { throw .database("the signature's event was not appended") }
        return StoredSignature(id: id, sequence: event.sequence, recordedAt: event.recordedAt, content: content)
    }

    /// Longest reason a withdrawal may give, in bytes of UTF-8.
    public static let maxReasonBytes = 4096

    /// Withdraws a consent: a new event that names it and the reason. The consent itself is kept as it was.
    /// - Parameters:
    ///   - id: the consent's identifier.
    ///   - reason: why, as the person gave it: 1...``maxReasonBytes`` bytes.
    ///   - provenance: who asked.
    ///   - date: when; default now.
    /// - Throws: ``StoreError/unknownConsent(_:)``, ``StoreError/alreadyWithdrawn(consent:withdrawal:at:)``, or
    ///   ``StoreError/invalid(field:message:)`` for an empty or too long reason.
    @discardableResult
    public func withdraw(consent id: String, reason: String, provenance: Provenance = Provenance(),
                         at date: Date = Date()) async throws(StoreError) -> StoredWithdrawal {
        guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalid(field: "reason", message: "must not be empty")
        }
        guard reason.utf8.count <= Self.maxReasonBytes else {
            throw .invalid(field: "reason", message: "is \(reason.utf8.count) bytes; at most \(Self.maxReasonBytes)")
        }
        let withdrawal = UUID().uuidString.lowercased()
        let content = WithdrawalContent(consent: id, reason: reason, provenance: provenance)
        let events = try await database.append(
            [EventDraft(kind: .withdrawal, id: withdrawal, content: try CanonicalJSON.encode(content), index: EventIndex(content))],
            blobs: [], condition: .standingConsent(id), recordedAt: StoreEvent.timestamp(date))
        guard let event = events.first else { throw .database("the withdrawal's event was not appended") }
        return StoredWithdrawal(id: withdrawal, consent: id, recordedAt: event.recordedAt, reason: reason, provenance: provenance)
    }

    // MARK: Reading

    /// The consent with this identifier, with its withdrawal if any.
    /// - Throws: ``StoreError/unknownConsent(_:)``.
    public func consent(id: String) async throws(StoreError) -> StoredConsent {
        guard let row = try await database.row(id: id), row.event.kind == .consent else { throw .unknownConsent(id) }
        return try await consent(row)
    }

    /// The withdrawal of the consent `id`, read now: `nil` while it stands (or when no consent has this identifier).
    /// Everything else of a consent never changes once kept, so a reader may keep it and ask only this.
    public func withdrawal(ofConsent id: String) async throws(StoreError) -> StoredWithdrawal? {
        guard let event = try await database.withdrawal(of: id) else { return nil }
        return try withdrawal(event, of: id)
    }

    /// A withdrawal from its event.
    private func withdrawal(_ event: StoreEvent, of consent: String) throws(StoreError) -> StoredWithdrawal {
        let content = try CanonicalJSON.decode(WithdrawalContent.self, event.content, event: event.id)
        return StoredWithdrawal(id: event.id, consent: consent, recordedAt: event.recordedAt, reason: content.reason,
                                provenance: content.provenance)
    }

    /// The signed PDF of a consent: the bytes returned at signing.
    /// - Throws: ``StoreError/unknownConsent(_:)``; ``StoreError/corrupt(_:)`` when the file is missing.
    public func pdf(ofConsent id: String) async throws(StoreError) -> [UInt8] {
        let kept = try await consent(id: id)
        guard let pdf = try await database.blob(sha256: kept.record.pdfSHA256.lowercased()) else {
            throw .corrupt("the PDF of consent '\(id)' (SHA-256 \(kept.record.pdfSHA256)) is missing")
        }
        return pdf
    }

    /// A page of the consents `query` selects, oldest first.
    /// - Throws: ``StoreError/invalid(field:message:)`` for a limit out of range.
    public func consents(_ query: ConsentQuery) async throws(StoreError) -> ConsentPage {
        guard (1...ConsentQuery.maxLimit).contains(query.limit) else {
            throw .invalid(field: "limit", message: "must be in 1...\(ConsentQuery.maxLimit)")
        }
        let rows = try await database.consents(query)
        var consents: [StoredConsent] = []
        for row in rows.prefix(query.limit) { consents.append(try await consent(row)) }
        return ConsentPage(consents: consents, next: rows.count > query.limit ? consents.last?.sequence : nil)
    }

    /// Signatures saved from the form cell, oldest first.
    /// - Parameters:
    ///   - after: the page starts after this position; 0 for the first.
    ///   - limit: most signatures: 1...``ConsentQuery/maxLimit``.
    /// - Returns: the signatures and the `after` of the next page, `nil` when this is the last.
    public func signatures(after: Int64 = 0, limit: Int = 100) async throws(StoreError) -> (signatures: [StoredSignature], next: Int64?) {
        guard (1...ConsentQuery.maxLimit).contains(limit) else {
            throw .invalid(field: "limit", message: "must be in 1...\(ConsentQuery.maxLimit)")
        }
        var signatures: [StoredSignature] = []
        let rows = try await database.rows(kind: .signature, after: after, limit: limit + 1)
        for row in rows.prefix(limit) {
            let content = try CanonicalJSON.decode(SignatureContent.self, row.event.content, event: row.event.id)
            signatures.append(StoredSignature(id: row.event.id, sequence: row.event.sequence, recordedAt: row.event.recordedAt,
                                              content: content))
        }
        return (signatures, rows.count > limit ? signatures.last?.sequence : nil)
    }

    /// Every event, oldest first, one page at a time, for an export.
    /// - Parameters:
    ///   - after: the page starts after this position; 0 for the first.
    ///   - limit: most events: 1...``ConsentQuery/maxLimit``.
    public func events(after: Int64 = 0, limit: Int = ConsentQuery.maxLimit) async throws(StoreError) -> [StoreEvent] {
        guard (1...ConsentQuery.maxLimit).contains(limit) else {
            throw .invalid(field: "limit", message: "must be in 1...\(ConsentQuery.maxLimit)")
        }
        return try await database.rows(kind: nil, after: after, limit: limit).map(\.event)
    }

    /// A consent from its row: the record with its document put back.
    private func consent(_ row: StoredRow) async throws(StoreError) -> StoredConsent {
        let content = try CanonicalJSON.decode(ConsentContent.self, row.event.content, event: row.event.id)
        var record = content.record
        record.document = try await documentText(record.documentDigest.lowercased(), for: row.event.id)
        let withdrawal = try row.withdrawal.map { event throws(StoreError) in try self.withdrawal(event, of: row.event.id) }
        let json: [UInt8]
        if let digest = content.recordSHA256 {
            guard let kept = try await database.blob(sha256: digest) else {
                throw .corrupt("the record text of consent '\(row.event.id)' (SHA-256 \(digest)) is missing")
            }
            json = kept
        } else {
            json = record.json
        }
        return StoredConsent(id: row.event.id, sequence: row.event.sequence, recordedAt: row.event.recordedAt, record: record,
                             recordJSON: json, pages: content.pages, provenance: content.provenance, withdrawal: withdrawal)
    }

    /// The text of the document with this digest.
    private func documentText(_ digest: String, for consent: String) async throws(StoreError) -> String {
        if let text = documents.withLock({ $0[digest] }) { return text }
        guard let row = try await database.row(id: digest), row.event.kind == .document else {
            throw .corrupt("the document \(digest) of consent '\(consent)' is missing")
        }
        let text = String(decoding: row.event.content, as: UTF8.self)
        documents.withLock { $0[digest] = text }
        return text
    }
}
