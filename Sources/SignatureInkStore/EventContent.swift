// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInkConsent

/// The content of a consent event: the record with its `document` text left empty (the document is its own event,
/// kept once per digest, which the record names), and where it came from.
struct ConsentContent: Codable {
    var record: ConsentRecord
    /// The PDF's page count.
    var pages: Int
    var provenance: Provenance
    /// The SHA-256 of the record's JSON text as it was returned at signing (`ConsentRecord.json`), kept as a file so
    /// that it is returned byte for byte whatever later versions of JSON encoders write; `nil` in a consent kept by
    /// the store's first version, whose record text is written again when read.
    var recordSHA256: String?
}

/// The content of a saved signature's event: the native document of a drawn one, or the text of a typed one (whose
/// content has no `signature`, and a drawn one's no `typedSignature`, so a drawn one's content is what it always was).
struct SignatureContent: Codable {
    var signature: String?
    var typedSignature: String?
    var digest: String
    var savedAt: Double
    var provenance: Provenance

    init(signature: String? = nil, typedSignature: String? = nil, digest: String, savedAt: Double, provenance: Provenance) {
        self.signature = signature
        self.typedSignature = typedSignature
        self.digest = digest
        self.savedAt = savedAt
        self.provenance = provenance
    }
}

/// The content of a withdrawal's event.
struct WithdrawalContent: Codable {
    var consent: String
    var reason: String
    var provenance: Provenance
}

/// Canonical JSON of the store's contents: sorted keys, no insignificant space, `/` unescaped.
enum CanonicalJSON {
    static func encode(_ value: some Encodable) throws(StoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw .invalid(field: "content", message: "cannot be written as JSON: \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], event: String) throws(StoreError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw .corrupt("the content of event '\(event)' cannot be read: \(error)")
        }
    }
}

/// The columns a database keeps beside an event so that it can be found by them. They are derived from the content
/// alone; ``ConsentStore/verify()`` derives them again and names an event whose columns differ.
struct EventIndex: Sendable, Hashable, CustomStringConvertible {
    /// The consent a withdrawal withdraws.
    var subject: String?
    /// The document a consent agrees to, or a retirement retires.
    var documentDigest: String?
    /// A consent's signers' names.
    var signers: [String] = []
    /// The owner of a consent or a signature; the user a user's, an enrolment's or a revocation's event is about; the
    /// administrator who retired a document.
    var user: String?
    /// The device a consent or a signature was captured on, or an enrolment or a revocation is about.
    var device: String?

    /// The index of `event`, from its content: what ``ConsentStore/verify()`` compares the stored columns with.
    init(of event: StoreEvent) throws(StoreError) {
        switch event.kind {
        case .document: self.init()
        case .consent: self.init(try CanonicalJSON.decode(ConsentContent.self, event.content, event: event.id))
        case .signature: self.init(try CanonicalJSON.decode(SignatureContent.self, event.content, event: event.id))
        case .withdrawal: self.init(try CanonicalJSON.decode(WithdrawalContent.self, event.content, event: event.id))
        case .user:
            _ = try CanonicalJSON.decode(UserContent.self, event.content, event: event.id)
            self.init(user: event.id)
        case .enrolment:
            let content = try CanonicalJSON.decode(EnrolmentContent.self, event.content, event: event.id)
            self.init(user: content.user, device: content.device)
        case .revocation:
            let content = try CanonicalJSON.decode(RevocationContent.self, event.content, event: event.id)
            self.init(user: content.user, device: content.device)
        case .retirement: self.init(try CanonicalJSON.decode(RetirementContent.self, event.content, event: event.id))
        }
    }

    /// The index of a consent: its document and its signers' names.
    init(_ content: ConsentContent) {
        self.init(documentDigest: content.record.documentDigest.lowercased(), signers: content.record.signers.map(\.name),
                  user: content.provenance.user, device: content.provenance.device)
    }

    /// The index of a saved signature: its owner.
    init(_ content: SignatureContent) {
        self.init(user: content.provenance.user, device: content.provenance.device)
    }

    /// The index of a withdrawal: the consent it withdraws.
    init(_ content: WithdrawalContent) {
        self.init(subject: content.consent, user: content.provenance.user, device: content.provenance.device)
    }

    /// The index of a retirement: the document retired, and the administrator who retired it.
    init(_ content: RetirementContent) {
        self.init(documentDigest: content.document, user: content.provenance.user, device: content.provenance.device)
    }

    init(subject: String? = nil, documentDigest: String? = nil, signers: [String] = [], user: String? = nil, device: String? = nil) {
        self.subject = subject
        self.documentDigest = documentDigest
        self.signers = signers
        self.user = user
        self.device = device
    }

    /// A signer's name as the signer search compares it: in lower case, whatever the script.
    static func fold(_ name: String) -> String { name.lowercased() }

    /// The signers' names from the JSON array of strings a database builds of them; none for `nil` or what is no
    /// such array (which verification then finds different from the content).
    static func signers(json: String?) -> [String] {
        guard let json else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }

    /// The columns in words, for a verification message.
    var description: String {
        var parts: [String] = []
        if let subject { parts.append("withdraws '\(subject)'") }
        if let documentDigest { parts.append("document \(documentDigest)") }
        if !signers.isEmpty { parts.append("signers " + signers.map { "'\($0)'" }.joined(separator: ", ")) }
        if let user { parts.append("user '\(user)'") }
        if let device { parts.append("device '\(device)'") }
        return parts.isEmpty ? "none" : parts.joined(separator: "; ")
    }
}

extension StoredSignature {
    /// The signature kept by an event.
    init(id: String, sequence: Int64, recordedAt: String, content: SignatureContent) {
        self.init(id: id, sequence: sequence, recordedAt: recordedAt, signature: content.signature, typedSignature: content.typedSignature,
                  digest: content.digest, savedAt: content.savedAt, provenance: content.provenance)
    }
}

/// The content of a user's event: the profile as the administrator gave it (the identifier is the event's), and where
/// the request came from. No secret: the enrolment code and the passcodes are in tables of their own.
struct UserContent: Codable {
    var displayName: String
    var title: String?
    var subtitle: String?
    /// `true` for an administrator; absent otherwise, so that a user's content is what it was before administrators
    /// were users.
    var administrator: Bool?
    var provenance: Provenance

    init(_ user: UserProfile, provenance: Provenance) {
        displayName = user.displayName
        title = user.title
        subtitle = user.subtitle
        administrator = user.isAdministrator ? true : nil
        self.provenance = provenance
    }
}

extension UserProfile {
    /// The profile a user's event keeps.
    init(id: String, content: UserContent) {
        self.init(id: id, displayName: content.displayName, title: content.title, subtitle: content.subtitle,
                  isAdministrator: content.administrator ?? false)
    }
}

/// The content of an enrolment's event: the user onboarded and the device (the SHA-256 of its cookie, never the cookie).
struct EnrolmentContent: Codable {
    var user: String
    var device: String
    var provenance: Provenance
}

/// The content of a retirement's event: the document version retired (its SHA-256), why, and who retired it.
struct RetirementContent: Codable {
    var document: String
    var reason: String
    var provenance: Provenance
}

/// The content of a revocation's event: the user and the device, and why.
struct RevocationContent: Codable {
    var user: String
    var device: String
    var reason: String
    var provenance: Provenance
}
