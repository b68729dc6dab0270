// SPDX-License-Identifier: Apache-2.0

/// One section of a ``ConsentDocument``: a page of the visual walk-through and a titled part of the PDF.
public struct ConsentSection: Sendable, Hashable, Codable {
    /// What a section is about. The predefined kinds follow the usual order of a study consent and have an English
    /// default title; ``custom`` and ``onlyInDocument`` need a title of their own.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// What the study is and why; default title "Welcome".
        case overview
        /// What data is collected and how; default title "Data Gathering".
        case dataGathering
        /// How the data is protected; default title "Privacy".
        case privacy
        /// What the data is used for; default title "Data Use".
        case dataUse
        /// How much time taking part takes; default title "Time Commitment".
        case timeCommitment
        /// The surveys the participant answers; default title "Study Survey".
        case studySurvey
        /// The tasks the participant does; default title "Study Tasks".
        case studyTasks
        /// How to leave the study; default title "Withdrawing".
        case withdrawing
        /// Any other topic, shown in the walk-through and in the PDF.
        case custom
        /// Text that appears only in the PDF and the review, never as a walk-through page.
        case onlyInDocument

        /// The English title a section of this kind has when the document gives none; `nil` for ``custom`` and
        /// ``onlyInDocument``.
        public var defaultTitle: String? {
            switch self {
            case .overview: "Welcome"
            case .dataGathering: "Data Gathering"
            case .privacy: "Privacy"
            case .dataUse: "Data Use"
            case .timeCommitment: "Time Commitment"
            case .studySurvey: "Study Survey"
            case .studyTasks: "Study Tasks"
            case .withdrawing: "Withdrawing"
            case .custom, .onlyInDocument: nil
            }
        }
    }

    /// A name unique in the document, which forms use to list their pages; letters, digits, `-`, `_` and `.`.
    public var identifier: String
    /// What the section is about.
    public var kind: Kind
    /// The section's title: the page title in the walk-through and the heading in the PDF.
    public var title: String
    /// One line that sums the section up, shown under the title in the walk-through; empty for none.
    public var summary: String
    /// The section's text in ``ConsentMarkup``: paragraphs, lists, bold, italic and links.
    public var content: String
    /// An address with more on the topic (`https:`, `http:` or `mailto:`), shown as "Learn more"; `nil` for none.
    public var learnMore: String?

    /// Creates a section.
    /// - Parameters:
    ///   - identifier: unique name in the document.
    ///   - kind: the topic.
    ///   - title: the title; default the kind's ``Kind/defaultTitle`` (required for custom kinds).
    ///   - summary: one-line summary, default empty.
    ///   - content: the text in ``ConsentMarkup``, default empty.
    ///   - learnMore: "Learn more" address, default `nil`.
    public init(identifier: String, kind: Kind, title: String? = nil, summary: String = "", content: String = "",
                learnMore: String? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.title = title ?? kind.defaultTitle ?? ""
        self.summary = summary
        self.content = content
        self.learnMore = learnMore
    }

    private enum CodingKeys: String, CodingKey { case identifier, kind, title, summary, content, learnMore }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(Kind.self, forKey: .kind)
        self.init(identifier: try c.decode(String.self, forKey: .identifier), kind: kind,
                  title: try c.decodeIfPresent(String.self, forKey: .title),
                  summary: try c.decodeIfPresent(String.self, forKey: .summary) ?? "",
                  content: try c.decodeIfPresent(String.self, forKey: .content) ?? "",
                  learnMore: try c.decodeIfPresent(String.self, forKey: .learnMore))
    }
}

/// A place for one signer on the signature page.
public struct SignatureSlot: Sendable, Hashable, Codable {
    /// A name unique in the document that signers are matched by (`participant`, `investigator`).
    public var identifier: String
    /// The signer's role as printed on the signature page ("Participant", "Investigator").
    public var title: String
    /// Whether the signer must give a printed name; default `true`.
    public var requiresName: Bool
    /// Whether the signer must sign (draw, or type where the slot allows it); default `true`.
    public var requiresSignature: Bool
    /// Whether the signature must be drawn: a typed signature is then refused. Default `false`: a person who cannot
    /// draw may type their name instead.
    public var requiresDrawnSignature: Bool
    /// The pattern the signing date is printed with (Unicode TR35 letters, as `SignatureInkRender`'s
    /// `TimestampFormat` reads them); default `yyyy-MM-dd`, the ISO 8601 calendar date. `YYYY`, the week-based
    /// year, is refused: it prints the wrong year around New Year.
    public var dateFormat: String
    /// Whether the slot is signed by the staff member who collects the consent (the investigator), rather than by the
    /// participant: a device's front end may offer the collector's saved signature there. At most one slot of a
    /// document has it. Default `false`.
    public var signedByCollector: Bool

    /// The default ``dateFormat``: an ISO 8601 calendar date.
    public static let defaultDateFormat = "yyyy-MM-dd"

    /// Creates a slot.
    /// - Parameters:
    ///   - identifier: unique name in the document.
    ///   - title: the role as printed.
    ///   - requiresName: whether a printed name is required; default `true`.
    ///   - requiresSignature: whether a signature is required; default `true`.
    ///   - requiresDrawnSignature: whether it must be drawn (no typed signature); default `false`.
    ///   - dateFormat: date pattern; default ``defaultDateFormat``.
    ///   - signedByCollector: whether the staff member who collects the consent signs it; default `false`.
    public init(identifier: String, title: String, requiresName: Bool = true, requiresSignature: Bool = true,
                requiresDrawnSignature: Bool = false, dateFormat: String = SignatureSlot.defaultDateFormat,
                signedByCollector: Bool = false) {
        self.identifier = identifier
        self.title = title
        self.requiresName = requiresName
        self.requiresSignature = requiresSignature
        self.requiresDrawnSignature = requiresDrawnSignature
        self.dateFormat = dateFormat
        self.signedByCollector = signedByCollector
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, title, requiresName, requiresSignature, requiresDrawnSignature, dateFormat, signedByCollector
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(identifier: try c.decode(String.self, forKey: .identifier), title: try c.decode(String.self, forKey: .title),
                  requiresName: try c.decodeIfPresent(Bool.self, forKey: .requiresName) ?? true,
                  requiresSignature: try c.decodeIfPresent(Bool.self, forKey: .requiresSignature) ?? true,
                  requiresDrawnSignature: try c.decodeIfPresent(Bool.self, forKey: .requiresDrawnSignature) ?? false,
                  dateFormat: try c.decodeIfPresent(String.self, forKey: .dateFormat) ?? Self.defaultDateFormat,
                  signedByCollector: try c.decodeIfPresent(Bool.self, forKey: .signedByCollector) ?? false)
    }

    /// Writes the slot; ``requiresDrawnSignature`` and ``signedByCollector`` only when set, so that the digest of a
    /// document written before they existed is the same.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(title, forKey: .title)
        try c.encode(requiresName, forKey: .requiresName)
        try c.encode(requiresSignature, forKey: .requiresSignature)
        if requiresDrawnSignature { try c.encode(true, forKey: .requiresDrawnSignature) }
        try c.encode(dateFormat, forKey: .dateFormat)
        if signedByCollector { try c.encode(true, forKey: .signedByCollector) }
    }
}

/// A consent form of the walk-through: one page (a single form) or several (a sequential form, "1 of 3"), with
/// Allow and Deny (and Not Now when optional) on its last page.
public struct ConsentForm: Sendable, Hashable, Codable {
    /// A name unique among the forms; the consent record lists each form's decision under it.
    public var identifier: String
    /// The form's title, shown above its pages.
    public var title: String
    /// The identifiers of the sections shown as its pages, in order; at least one.
    public var sections: [String]
    /// Whether the form must be allowed to go on: Deny then raises the "consent required" alert. Default `true`.
    public var isMandatory: Bool

    /// Creates a form.
    /// - Parameters:
    ///   - identifier: unique name among the forms.
    ///   - title: the title.
    ///   - sections: identifiers of its pages' sections.
    ///   - isMandatory: whether it must be allowed; default `true`.
    public init(identifier: String, title: String, sections: [String], isMandatory: Bool = true) {
        self.identifier = identifier
        self.title = title
        self.sections = sections
        self.isMandatory = isMandatory
    }

    private enum CodingKeys: String, CodingKey { case identifier, title, sections, isMandatory = "mandatory" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(identifier: try c.decode(String.self, forKey: .identifier), title: try c.decode(String.self, forKey: .title),
                  sections: try c.decode([String].self, forKey: .sections),
                  isMandatory: try c.decodeIfPresent(Bool.self, forKey: .isMandatory) ?? true)
    }
}

/// The sharing question of a study: whether the participant's data goes to the study team only or to qualified
/// researchers elsewhere too.
public struct SharingQuestion: Sendable, Hashable, Codable {
    /// The study team's short name, as the options print it ("the Signing Study team").
    public var investigator: String
    /// More about sharing, in ``ConsentMarkup``; empty for none.
    public var learnMore: String

    /// Creates the question.
    /// - Parameters:
    ///   - investigator: the study team's short name.
    ///   - learnMore: more about sharing, default empty.
    public init(investigator: String, learnMore: String = "") {
        self.investigator = investigator
        self.learnMore = learnMore
    }

    /// The option that shares with the study team and qualified researchers worldwide.
    public var broadOption: String { "Share my data with \(investigator) and qualified researchers worldwide" }
    /// The option that shares with the study team only.
    public var investigatorOnlyOption: String { "Only share my data with \(investigator)" }

    private enum CodingKeys: String, CodingKey { case investigator, learnMore }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(investigator: try c.decode(String.self, forKey: .investigator),
                  learnMore: try c.decodeIfPresent(String.self, forKey: .learnMore) ?? "")
    }
}

/// What the participant answered to the ``SharingQuestion``.
public enum SharingChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// Share with the study team and qualified researchers worldwide.
    case broadly
    /// Share with the study team only.
    case investigatorOnly
}
