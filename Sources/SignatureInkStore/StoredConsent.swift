// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
public import SignatureInkConsent

/// Where a stored event came from and whom it belongs to.
public struct Provenance: Sendable, Hashable, Codable {
    /// The client that sent it: an address (`127.0.0.1`), or a tool's name for an import; `nil` when unknown.
    public var client: String?
    /// The user it belongs to, once the store has users; `nil` for none.
    public var user: String?
    /// The device it was captured on, once the store has devices; `nil` for none.
    public var device: String?

    /// Creates a provenance; every part is optional.
    public init(client: String? = nil, user: String? = nil, device: String? = nil) {
        self.client = client
        self.user = user
        self.device = device
    }
}

/// A consent as the store keeps it.
public struct StoredConsent: Sendable, Hashable {
    /// Its identifier (a UUID in lower case).
    public var id: String
    /// Its position in the store's log.
    public var sequence: Int64
    /// When the store kept it, ISO 8601 in UTC with milliseconds.
    public var recordedAt: String
    /// The consent record, its document included.
    public var record: ConsentRecord
    /// The record as JSON text, byte for byte the text returned at signing (`ConsentRecord.json` then).
    public var recordJSON: [UInt8]
    /// The signed PDF's page count.
    public var pages: Int
    /// Where it came from.
    public var provenance: Provenance
    /// Its withdrawal, or `nil` while it stands.
    public var withdrawal: StoredWithdrawal?
}

/// The withdrawal of a consent.
public struct StoredWithdrawal: Sendable, Hashable, Codable {
    /// The withdrawal's identifier.
    public var id: String
    /// The consent withdrawn.
    public var consent: String
    /// When the store kept it.
    public var recordedAt: String
    /// Why, in the words given.
    public var reason: String
    /// Who asked for it.
    public var provenance: Provenance
}

/// A signature saved from the signature form cell.
public struct StoredSignature: Sendable, Hashable, Codable {
    /// Its identifier.
    public var id: String
    /// Its position in the store's log.
    public var sequence: Int64
    /// When the store kept it.
    public var recordedAt: String
    /// The signature in the engine's native format; `nil` for a typed one.
    public var signature: String?
    /// The name the signer typed in place of drawing; `nil` for a drawn one.
    public var typedSignature: String?
    /// SHA-256 of its canonical samples (`SignatureRecord.digest`), or of a typed one's UTF-8 text.
    public var digest: String
    /// When the signer saved it, in milliseconds since 1970 (`SignatureRecord.savedAt`).
    public var savedAt: Double
    /// Where it came from.
    public var provenance: Provenance
}

/// Which consents to list.
public struct ConsentQuery: Sendable, Hashable {
    /// Only consents to the document with this digest; `nil` for any.
    public var documentDigest: String?
    /// Only consents with a signer whose name contains this text, in any case; `nil` for any.
    public var signerName: String?
    /// Only consents kept at or after this time; `nil` for no bound.
    public var from: Date?
    /// Only consents kept before this time; `nil` for no bound.
    public var to: Date?
    /// Only withdrawn consents (`true`), only standing ones (`false`), or both (`nil`).
    public var withdrawn: Bool?
    /// Only consents collected by this user (``Provenance/user``); `nil` for anyone's.
    public var collector: String?
    /// The page starts after the consent at this position (the last ``StoredConsent/sequence`` of the page before);
    /// 0 for the first page.
    public var after: Int64
    /// Most consents on a page: 1...``maxLimit``.
    public var limit: Int

    /// Most consents a page may hold.
    public static let maxLimit = 500

    /// Creates a query; by default every consent, the first 100.
    public init(documentDigest: String? = nil, signerName: String? = nil, from: Date? = nil, to: Date? = nil,
                withdrawn: Bool? = nil, collector: String? = nil, after: Int64 = 0, limit: Int = 100) {
        self.collector = collector
        self.documentDigest = documentDigest
        self.signerName = signerName
        self.from = from
        self.to = to
        self.withdrawn = withdrawn
        self.after = after
        self.limit = limit
    }
}

/// One page of consents.
public struct ConsentPage: Sendable, Hashable {
    /// The consents, oldest first.
    public var consents: [StoredConsent]
    /// The ``ConsentQuery/after`` of the next page, or `nil` when this is the last.
    public var next: Int64?
}

/// What walking the chain found.
public struct StoreVerification: Sendable, Hashable {
    /// Events checked.
    public var events: Int64
    /// The last event's ``StoreEvent/sha256``: keep it elsewhere to detect later that events were cut off the end.
    public var head: String
    /// The first event that does not match, or `nil` when everything does.
    public var failure: Failure?

    /// An event that does not match what it should be.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// Its position.
        public var sequence: Int64
        /// Its identifier, as stored.
        public var id: String
        /// What does not match.
        public var message: String

        public var description: String { "event \(sequence) ('\(id)'): \(message)" }
    }
}
