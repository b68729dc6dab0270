// SPDX-License-Identifier: Apache-2.0
import Crypto
import FoundationEssentials
import SignatureInkConsent
import SignatureInkFormats

/// One entry of the store's log: every consent document, consent, saved signature and withdrawal is one event, and so
/// is each user created, onboarded on a device or revoked from one, and each document version retired; nothing is ever changed or deleted once appended.
///
/// Events form a hash chain. Each carries the SHA-256 of its content and the SHA-256 of the event before it, and its
/// own ``sha256`` covers its position, kind, identifier, time and both of those digests (``header``). Changing any
/// byte of an event's content, or removing or reordering an event, breaks a digest that ``ConsentStore/verify()``
/// recomputes and names.
public struct StoreEvent: Sendable, Hashable, Codable {
    /// What an event records.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A consent document version: its canonical JSON, appended once per digest.
        case document
        /// A completed consent: the record without its document text, the client and the owner.
        case consent
        /// A signature saved from the signature form cell.
        case signature
        /// The withdrawal of a consent, with its reason.
        case withdrawal
        /// A user created by an administrator: the profile (display name, title, subtitle), never a secret.
        case user
        /// A user onboarded on a device with an enrolment code: the user and the device.
        case enrolment
        /// A user's enrolment on a device revoked (too many wrong passcodes): the user, the device and why.
        case revocation
        /// A consent document version retired by an administrator: its SHA-256, why, and who retired it (the
        /// administrator's user in a session). The store keeps no consent to a retired version from then on
        /// (the server refuses them); consents kept before stay as they are. Its identifier is `retirement-` and the
        /// digest, so that a version is retired once.
        case retirement
    }

    /// The event's position in the log: 1 for the first, then each one more than the one before.
    public var sequence: Int64
    /// What it records.
    public var kind: Kind
    /// Its identifier, unique in the store: a document's digest, `retirement-` and the digest of a document retired, or
    /// a consent's, signature's, withdrawal's or user's UUID.
    public var id: String
    /// When the store appended it: ISO 8601 in UTC with milliseconds (`2026-11-26T09:30:00.000Z`).
    public var recordedAt: String
    /// What it records, as canonical JSON (UTF-8, sorted keys, no insignificant white space).
    public var content: [UInt8]
    /// SHA-256 of ``content``, 64 lower-case hexadecimal digits.
    public var contentSHA256: String
    /// ``sha256`` of the event before it; 64 zeros for the first event.
    public var previousSHA256: String
    /// SHA-256 of ``header``: the link the next event carries.
    public var sha256: String

    /// The ``previousSHA256`` of the first event.
    public static let genesis = String(repeating: "0", count: 64)

    /// The text ``sha256`` is the digest of: a version line, then the sequence, kind, identifier, time, content
    /// digest and previous digest, one a line.
    public var header: [UInt8] {
        Array("signature-ink-event/1\n\(sequence)\n\(kind.rawValue)\n\(id)\n\(recordedAt)\n\(contentSHA256)\n\(previousSHA256)\n".utf8)
    }

    /// Seals an event onto the chain: fills in its digests from its content and the event before it.
    /// - Parameters:
    ///   - kind: what it records.
    ///   - id: its identifier.
    ///   - recordedAt: when, as ``recordedAt``.
    ///   - content: its canonical JSON.
    ///   - previous: the event before it, or `nil` for the first.
    init(kind: Kind, id: String, recordedAt: String, content: [UInt8], after previous: ChainHead?) {
        sequence = (previous?.sequence ?? 0) + 1
        self.kind = kind
        self.id = id
        self.recordedAt = recordedAt
        self.content = content
        contentSHA256 = HexDigest.sha256(content)
        previousSHA256 = previous?.sha256 ?? Self.genesis
        sha256 = ""
        sha256 = HexDigest.sha256(header)
    }

    /// An event as a database row gives it back, digests as stored (``ConsentStore/verify()`` checks them).
    init(sequence: Int64, kind: Kind, id: String, recordedAt: String, content: [UInt8], contentSHA256: String,
         previousSHA256: String, sha256: String) {
        self.sequence = sequence
        self.kind = kind
        self.id = id
        self.recordedAt = recordedAt
        self.content = content
        self.contentSHA256 = contentSHA256
        self.previousSHA256 = previousSHA256
        self.sha256 = sha256
    }

    /// The event as one line of the NDJSON export: its fields, the content as a JSON value, and a final newline.
    public var exportLine: [UInt8] {
        var line = Array(#"{"sequence":\#(sequence),"kind":"\#(kind.rawValue)","id":"#.utf8)
        line += Array(JSONText.string(id).utf8)
        line += Array(#","recordedAt":"#.utf8) + Array(JSONText.string(recordedAt).utf8)
        line += Array(#","content":"#.utf8) + content
        line += Array(#","contentSHA256":"\#(contentSHA256)","previousSHA256":"\#(previousSHA256)","sha256":"\#(sha256)"}"#.utf8)
        line.append(10)
        return line
    }

    /// The time `date` is written in ``recordedAt``.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}

/// The last event of the chain, which the next one links to.
struct ChainHead: Sendable, Hashable {
    /// Its position.
    var sequence: Int64
    /// Its ``StoreEvent/sha256``.
    var sha256: String
}
