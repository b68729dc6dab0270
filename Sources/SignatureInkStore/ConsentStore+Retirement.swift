// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
import SignatureInkFormats

/// The retirement of a consent document version: from then on no consent to it is kept.
public struct StoredRetirement: Sendable, Hashable {
    /// The SHA-256 of the version retired (its canonical JSON), 64 lower-case hexadecimal digits.
    public var document: String
    /// Why, in the administrator's words.
    public var reason: String
    /// When the store kept it: ISO 8601 in UTC with milliseconds.
    public var recordedAt: String
    /// Who retired it: the administrator's user when done in a session (``Provenance/user``), and the client.
    public var provenance: Provenance

    /// Creates a retirement as the store reads it.
    public init(document: String, reason: String, recordedAt: String, provenance: Provenance) {
        self.document = document
        self.reason = reason
        self.recordedAt = recordedAt
        self.provenance = provenance
    }
}

/// Retiring a consent document version: an administrator finds a mistake in a version, or replaces it, and no device
/// may collect consents to it any longer. A ``StoreEvent/Kind/retirement`` event on the chain says which version, why
/// and who; the server then refuses a submission for that version. A version is retired once: its event's identifier
/// is `retirement-` and the digest (75 characters, so that no identifier a client may choose, at most 64, is one).
extension ConsentStore {
    /// Most characters (Unicode code points) of a retirement's reason: 500.
    public static let maxRetirementReason = 500

    /// Retires a consent document version, once: a version retired already keeps its first retirement.
    /// - Parameters:
    ///   - document: the version's SHA-256, 64 lower-case hexadecimal digits (it need not be a version the store has
    ///     kept a consent to).
    ///   - reason: why: 1...``maxRetirementReason`` code points, not blank, no control characters.
    ///   - provenance: who retired it: the administrator's user, when done in a session, and the client.
    ///   - date: when; default now.
    /// - Returns: the retirement, and whether it is new (`false`: the version was retired already, and this is that
    ///   first retirement; nothing was appended).
    /// - Throws: ``StoreError/invalid(field:message:)`` naming `document` or `reason`; a database error.
    public func retire(document: String, reason: String, provenance: Provenance = Provenance(),
                       at date: Date = Date()) async throws(StoreError) -> (retirement: StoredRetirement, isNew: Bool) {
        let content = RetirementContent(document: document, reason: reason, provenance: provenance)
        if let problem = content.problem { throw problem }
        if let retired = try await retirement(ofDocument: document) { return (retired, false) }
        let events: [StoreEvent]
        do {
            events = try await database.append(
                [EventDraft(kind: .retirement, id: Self.retirementID(document), content: try CanonicalJSON.encode(content), index: EventIndex(content))],
                blobs: [], condition: .none, recordedAt: StoreEvent.timestamp(date))
        } catch .alreadyKept {
            // Retired at the same moment by another request or process: the first one stands.
            guard let retired = try await retirement(ofDocument: document) else { throw .database("the retirement's event was not appended") }
            return (retired, false)
        }
        guard let event = events.first else { throw .database("the retirement's event was not appended") }
        let retirement = StoredRetirement(document: document, reason: reason, recordedAt: event.recordedAt, provenance: provenance)
        retirements.withLock { $0[document] = retirement }
        return (retirement, true)
    }

    /// The retirement of a consent document version, or `nil` while it may be signed: one read by identifier, none
    /// once a retirement has been read.
    /// - Parameter document: the version's SHA-256 in lower-case hexadecimal (anything else is retired by nobody).
    public func retirement(ofDocument document: String) async throws(StoreError) -> StoredRetirement? {
        if let retired = retirements.withLock({ $0[document] }) { return retired }
        guard RetirementContent.isDigest(document), let row = try await database.row(id: Self.retirementID(document)),
              row.event.kind == .retirement else { return nil }
        let content = try CanonicalJSON.decode(RetirementContent.self, row.event.content, event: row.event.id)
        let retirement = StoredRetirement(document: content.document, reason: content.reason, recordedAt: row.event.recordedAt,
                                          provenance: content.provenance)
        retirements.withLock { $0[document] = retirement }
        return retirement
    }

    /// The identifier of the retirement of the version `document`.
    static func retirementID(_ document: String) -> String { "retirement-" + document }
}

extension RetirementContent {
    /// What is wrong with the retirement, naming the field; `nil` when it is acceptable. The store checks it before
    /// appending, and ``ConsentStore/verify()`` again for every retirement kept.
    var problem: StoreError? {
        guard Self.isDigest(document) else {
            return .invalid(field: "document", message: "must be a document's SHA-256, 64 lower-case hexadecimal digits")
        }
        if reason.allSatisfy(\.isWhitespace) { return .invalid(field: "reason", message: "must not be empty") }
        // Characters as JSON Schema's maxLength counts them: code points.
        let characters = reason.unicodeScalars.count
        guard characters <= ConsentStore.maxRetirementReason else {
            return .invalid(field: "reason", message: "has \(characters) characters; at most \(ConsentStore.maxRetirementReason)")
        }
        guard !reason.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .invalid(field: "reason", message: "must not contain control characters")
        }
        return nil
    }

    /// Whether `text` is a SHA-256 in lower-case hexadecimal.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
