// SPDX-License-Identifier: Apache-2.0
public import SignatureInkRender

/// A consent document: what a participant reads, walks through, agrees to and signs.
///
/// The model follows the consent documents of research apps: a title, sections in reading order (each a page of
/// the visual walk-through and a titled part of the PDF), an optional review text that replaces the sections in
/// the review and the PDF, a signature page with a slot per signer, an optional sharing question, and the consent
/// forms the walk-through groups sections into. It is read from JSON (``init(json:limits:)``; the schema is in the
/// "Consent documents" article) and checked as a whole before anything is laid out.
///
/// A document is a value: ``signing(_:)`` returns a signed copy and never changes the document it is called on.
public struct ConsentDocument: Sendable, Hashable, Codable {
    /// The document's title: the PDF's first heading, running header and metadata title.
    public var title: String
    /// The BCP 47 language of the text (`en`, `ar`, `zh-Hans`); default `en`. It picks glyph forms and shaping.
    public var language: String
    /// The direction of the text; default `TextDirection/auto`: the direction of the document's language, or for an
    /// undetermined language (`und`, empty) that of its first strong character (see ``layoutDirection``).
    public var direction: TextDirection
    /// The sections, in reading order.
    public var sections: [ConsentSection]
    /// Text in ``ConsentMarkup`` that replaces the sections in the review and the PDF; `nil` to use the sections.
    public var reviewContent: String?
    /// The signature page's title; default "Signatures".
    public var signaturePageTitle: String
    /// Text in ``ConsentMarkup`` above the signatures; default empty.
    public var signaturePageContent: String
    /// The signers' places, in the order they are printed.
    public var slots: [SignatureSlot]
    /// The sharing question, or `nil` when the study asks none.
    public var sharing: SharingQuestion?
    /// The forms of the walk-through. When the document names none, ``walkThroughForms`` makes one mandatory form
    /// of every section that is not ``ConsentSection/Kind/onlyInDocument``.
    public var forms: [ConsentForm]
    /// What the participant confirms on agreeing, shown in the agreement's confirmation.
    public var reasonForConsent: String
    /// The engine's own words in the PDF (links, page numbers, dates' month names, the audit trail's headings) in
    /// the document's language; default ``ConsentWords/english``.
    public var words: ConsentWords

    /// The signatures applied so far, in the order they were applied. Not part of the JSON document: a signed
    /// copy's signatures travel in its ``ConsentRecord``.
    public private(set) var appliedSignatures: [ConsentSignature] = []

    /// The default ``reasonForConsent``.
    public static let defaultReasonForConsent =
        "By agreeing you confirm that you read the information and that you wish to take part in this study."

    /// Creates a document. Call ``validate(limits:)`` before using one built in code from untrusted parts.
    /// - Parameters:
    ///   - title: the title.
    ///   - language: BCP 47 tag, default `en`.
    ///   - direction: text direction, default `TextDirection/auto`.
    ///   - sections: the sections.
    ///   - reviewContent: review text that replaces the sections, default `nil`.
    ///   - signaturePageTitle: default "Signatures".
    ///   - signaturePageContent: default empty.
    ///   - slots: the signature slots.
    ///   - sharing: the sharing question, default `nil`.
    ///   - forms: the walk-through's forms, default none (one form of all sections).
    ///   - reasonForConsent: default ``defaultReasonForConsent``.
    ///   - words: the engine's words in the document's language; default ``ConsentWords/english``.
    public init(title: String, language: String = "en", direction: TextDirection = .auto, sections: [ConsentSection],
                reviewContent: String? = nil, signaturePageTitle: String = "Signatures", signaturePageContent: String = "",
                slots: [SignatureSlot], sharing: SharingQuestion? = nil, forms: [ConsentForm] = [],
                reasonForConsent: String = ConsentDocument.defaultReasonForConsent, words: ConsentWords = .english) {
        self.title = title
        self.language = language
        self.direction = direction
        self.sections = sections
        self.reviewContent = reviewContent
        self.signaturePageTitle = signaturePageTitle
        self.signaturePageContent = signaturePageContent
        self.slots = slots
        self.sharing = sharing
        self.forms = forms
        self.reasonForConsent = reasonForConsent
        self.words = words
    }

    /// The forms the walk-through shows: ``forms``, or when there are none, one mandatory form named `consent`
    /// with a page for every section that is not ``ConsentSection/Kind/onlyInDocument``.
    public var walkThroughForms: [ConsentForm] {
        if !forms.isEmpty { return forms }
        let pages = sections.filter { $0.kind != .onlyInDocument }.map(\.identifier)
        return pages.isEmpty ? [] : [ConsentForm(identifier: "consent", title: title, sections: pages)]
    }

    /// The section with an identifier, or `nil`.
    public func section(_ identifier: String) -> ConsentSection? { sections.first { $0.identifier == identifier } }

    /// The slot with an identifier, or `nil`.
    public func slot(_ identifier: String) -> SignatureSlot? { slots.first { $0.identifier == identifier } }

    // MARK: JSON

    private enum CodingKeys: String, CodingKey {
        case title, language, direction, sections, reviewContent, signaturePageTitle, signaturePageContent, slots,
             sharing, forms, reasonForConsent, words
    }

    /// Reads a document from JSON, as the schema in the "Consent documents" article describes it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(title: try c.decode(String.self, forKey: .title),
                  language: try c.decodeIfPresent(String.self, forKey: .language) ?? "en",
                  direction: try c.decodeIfPresent(TextDirection.self, forKey: .direction) ?? .auto,
                  sections: try c.decode([ConsentSection].self, forKey: .sections),
                  reviewContent: try c.decodeIfPresent(String.self, forKey: .reviewContent),
                  signaturePageTitle: try c.decodeIfPresent(String.self, forKey: .signaturePageTitle) ?? "Signatures",
                  signaturePageContent: try c.decodeIfPresent(String.self, forKey: .signaturePageContent) ?? "",
                  slots: try c.decode([SignatureSlot].self, forKey: .slots),
                  sharing: try c.decodeIfPresent(SharingQuestion.self, forKey: .sharing),
                  forms: try c.decodeIfPresent([ConsentForm].self, forKey: .forms) ?? [],
                  reasonForConsent: try c.decodeIfPresent(String.self, forKey: .reasonForConsent) ?? Self.defaultReasonForConsent,
                  words: try c.decodeIfPresent(ConsentWords.self, forKey: .words) ?? .english)
    }

    /// Writes the document as JSON, every field explicit but ``words`` when they are all English (so that the digest
    /// of a document written before there were words is the same). ``appliedSignatures`` are not written.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encode(language, forKey: .language)
        try c.encode(direction, forKey: .direction)
        try c.encode(sections, forKey: .sections)
        try c.encodeIfPresent(reviewContent, forKey: .reviewContent)
        try c.encode(signaturePageTitle, forKey: .signaturePageTitle)
        try c.encode(signaturePageContent, forKey: .signaturePageContent)
        try c.encode(slots, forKey: .slots)
        try c.encodeIfPresent(sharing, forKey: .sharing)
        try c.encode(forms, forKey: .forms)
        try c.encode(reasonForConsent, forKey: .reasonForConsent)
        if words != .english { try c.encode(words, forKey: .words) }
    }

    // MARK: Signing

    /// A copy of the document with one more signature applied; this document is not changed.
    /// - Parameter signature: the signer's slot, name, ink and date.
    /// - Returns: the signed copy.
    /// - Throws: ``ConsentError/unknownSlot(_:known:)``, ``ConsentError/alreadySigned(slot:)``,
    ///   ``ConsentError/missingName(slot:)`` or ``ConsentError/missingSignature(slot:)`` as the slot requires, and
    ///   ``ConsentError/invalidSignature(field:message:)`` for a name or typed signature that is too long or has control
    ///   characters, a signature both drawn and typed, or a typed one where the slot requires a drawn one.
    public func signing(_ signature: ConsentSignature) throws(ConsentError) -> ConsentDocument {
        guard let slot = slot(signature.slot) else { throw .unknownSlot(signature.slot, known: slots.map(\.identifier)) }
        guard !appliedSignatures.contains(where: { $0.slot == signature.slot }) else { throw .alreadySigned(slot: signature.slot) }
        try ConsentSignature.validate(name: signature.name, field: "name of '\(slot.identifier)'")
        if slot.requiresName && signature.name.isEmpty { throw .missingName(slot: slot.identifier) }
        if let typed = signature.typedSignature {
            let field = "typed signature of '\(slot.identifier)'"
            if signature.signature != nil { throw .invalidSignature(field: field, message: "a signature is either drawn or typed, not both") }
            if !slot.requiresSignature { throw .invalidSignature(field: field, message: "the slot takes no signature") }
            _ = try ConsentSignature.typed(typed, for: slot)
        } else if slot.requiresSignature && (signature.signature?.isEmpty ?? true) {
            throw .missingSignature(slot: slot.identifier)
        }
        var copy = self
        copy.appliedSignatures.append(signature)
        return copy
    }

    /// The signature applied to a slot, or `nil`.
    public func appliedSignature(for slot: String) -> ConsentSignature? { appliedSignatures.first { $0.slot == slot } }

    /// The slots that require a name or a signature and have none yet.
    public var unsignedSlots: [SignatureSlot] {
        slots.filter { slot in
            (slot.requiresName || slot.requiresSignature) && appliedSignature(for: slot.identifier) == nil
        }
    }
}
