// SPDX-License-Identifier: Apache-2.0

/// What went wrong reading, signing, rendering or checking a consent document, with the field at fault.
///
/// Fields are written as paths into the document's JSON, `sections[3].content` or `signatures[1].dateFormat`, so
/// an author can find them.
public enum ConsentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is not valid: `field` says where, `message` what is wrong and what is expected.
    case invalidDocument(field: String, message: String)
    /// A part of the document is larger than ``ConsentLimits`` allows.
    case limitExceeded(field: String, limit: Int, actual: Int)
    /// No signature slot has this identifier.
    case unknownSlot(String, known: [String])
    /// The slot requires the signer's printed name and none was given.
    case missingName(slot: String)
    /// The slot requires a drawn signature and none was given.
    case missingSignature(slot: String)
    /// The slot was signed already; a signed copy is not signed twice.
    case alreadySigned(slot: String)
    /// A signer's name or a date cannot be used: `field` says which, `message` why.
    case invalidSignature(field: String, message: String)
    /// The PDF could not be made.
    case rendering(String)
    /// A ``ConsentSubmission`` is refused: `field` says which part is at fault, for a front end to name in its own
    /// words; `message` says what is wrong, naming the form or slot.
    case invalidSubmission(ConsentSubmission.Field, message: String)

    public var description: String {
        switch self {
        case let .invalidDocument(field, message): return "\(field): \(message)"
        case let .limitExceeded(field, limit, actual): return "\(field): \(actual) exceeds the limit of \(limit)"
        case let .unknownSlot(slot, known):
            return "no signature slot is named '\(slot)'; the document has \(known.map { "'\($0)'" }.joined(separator: ", "))"
        case let .missingName(slot): return "signature slot '\(slot)' requires the signer's name"
        case let .missingSignature(slot): return "signature slot '\(slot)' requires a signature"
        case let .alreadySigned(slot): return "signature slot '\(slot)' is signed already"
        case let .invalidSignature(field, message): return "\(field): \(message)"
        case let .rendering(message): return "rendering the PDF: \(message)"
        case let .invalidSubmission(_, message): return message
        }
    }
}

/// The largest consent document the engine reads: a document past any of these is refused before it is laid out.
///
/// The defaults hold a long study consent (a 40-section document is about 60 KB) many times over while keeping the
/// work one untrusted document can cause to well under a second.
public struct ConsentLimits: Sendable, Hashable {
    /// Largest JSON document in bytes; default 1 MiB.
    public var maxBytes: Int
    /// Most sections; default 200.
    public var maxSections: Int
    /// Most characters (Unicode scalars) in one text field; default 20,000.
    public var maxFieldLength: Int
    /// Most characters in all text together; default 400,000.
    public var maxTotalText: Int
    /// Most signature slots; default 8.
    public var maxSlots: Int
    /// Most forms; default 50.
    public var maxForms: Int

    /// Creates limits; every value must be positive.
    public init(maxBytes: Int = 1 << 20, maxSections: Int = 200, maxFieldLength: Int = 20_000,
                maxTotalText: Int = 400_000, maxSlots: Int = 8, maxForms: Int = 50) {
        self.maxBytes = maxBytes
        self.maxSections = maxSections
        self.maxFieldLength = maxFieldLength
        self.maxTotalText = maxTotalText
        self.maxSlots = maxSlots
        self.maxForms = maxForms
    }

    /// The limits described above.
    public static let `default` = ConsentLimits()
}
