// SPDX-License-Identifier: Apache-2.0
public import SignatureInkRender

/// The engine's own words in a consent PDF and on the consent walk-through page, in the document's language: the
/// "Learn more" links, the page numbers, the names of months and weekdays in the signatures' dates, the Audit trail
/// page's headings, and the walk-through page's titles, buttons, labels and messages (``PageWord``).
///
/// A document gives them in its `words` object, each one optional; what it leaves out is English. So an Arabic
/// document that gives its words has no English left in its PDF but the audit trail's event lines, which stay
/// English as evidence that reads the same in every consent, and none on its walk-through page but the server's
/// messages of a refused submission.
///
/// ```json
/// "words": {
///   "learnMore": "اعرف المزيد", "pageNumber": "صفحة {n} من {N}",
///   "months": ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"]
/// }
/// ```
public struct ConsentWords: Sendable, Hashable, Codable {
    /// The text of a section's link to more on its topic; default "Learn more".
    public var learnMore: String
    /// Each page's footer, where `{n}` is the page and `{N}` the number of pages; default "Page {n} of {N}".
    public var pageNumber: String
    /// What a date pattern's `MMM`, `EEE` and `a` write; default Jan...Dec, Mon...Sun, AM and PM.
    public var dateNames: TimestampFormat.Names
    /// The Audit trail page's title; default "Audit trail".
    public var auditTrail: String
    /// The heading above the audit trail's events; default "Events".
    public var events: String
    /// The audit trail's label of the document's title; default "Document".
    public var document: String
    /// The audit trail's label of the document version's digest; default "Version".
    public var version: String
    /// The audit trail's label of the attached record; default "Record".
    public var record: String
    /// The walk-through page's words the document gives, by word, none of them English (see ``subscript(_:)``).
    var pageWords: [PageWord: String] = [:]

    /// Words for a document.
    /// - Parameters:
    ///   - learnMore: default "Learn more".
    ///   - pageNumber: default "Page {n} of {N}"; must contain `{n}`.
    ///   - dateNames: default `TimestampFormat.Names.english`.
    ///   - auditTrail: default "Audit trail".
    ///   - events: default "Events".
    ///   - document: default "Document".
    ///   - version: default "Version".
    ///   - record: default "Record".
    public init(learnMore: String = "Learn more", pageNumber: String = "Page {n} of {N}",
                dateNames: TimestampFormat.Names = .english, auditTrail: String = "Audit trail", events: String = "Events",
                document: String = "Document", version: String = "Version", record: String = "Record") {
        self.learnMore = learnMore
        self.pageNumber = pageNumber
        self.dateNames = dateNames
        self.auditTrail = auditTrail
        self.events = events
        self.document = document
        self.version = version
        self.record = record
    }

    /// Most characters in one word of the PDF (a link's text, a footer, a month's name).
    public static let maxLength = 100

    /// English, every word: what a document without a `words` object prints.
    public static let english = ConsentWords()

    /// The fields of the JSON object, each optional.
    static let fields: Set<String> = Set(["learnMore", "pageNumber", "months", "weekdays", "am", "pm", "auditTrail", "events",
                                          "document", "version", "record"] + PageWord.allCases.map(\.stringValue))

    private enum CodingKeys: String, CodingKey {
        case learnMore, pageNumber, months, weekdays, am, pm, auditTrail, events, document, version, record
    }

    /// Reads the `words` object: what it leaves out is English.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let english = Self.english
        func word(_ key: CodingKeys, _ fallback: String) throws -> String { try c.decodeIfPresent(String.self, forKey: key) ?? fallback }
        let months = try c.decodeIfPresent([String].self, forKey: .months) ?? english.dateNames.months
        let weekdays = try c.decodeIfPresent([String].self, forKey: .weekdays) ?? english.dateNames.weekdays
        guard months.count == 12 else {
            throw DecodingError.dataCorruptedError(forKey: .months, in: c, debugDescription: "needs twelve names, January first; found \(months.count)")
        }
        guard weekdays.count == 7 else {
            throw DecodingError.dataCorruptedError(forKey: .weekdays, in: c, debugDescription: "needs seven names, Monday first; found \(weekdays.count)")
        }
        // Twelve months and seven weekdays, checked just above.
        let names = TimestampFormat.Names(months: months, weekdays: weekdays, am: try word(.am, english.dateNames.am),
                                          pm: try word(.pm, english.dateNames.pm))!
        self.init(learnMore: try word(.learnMore, english.learnMore), pageNumber: try word(.pageNumber, english.pageNumber),
                  dateNames: names, auditTrail: try word(.auditTrail, english.auditTrail), events: try word(.events, english.events),
                  document: try word(.document, english.document), version: try word(.version, english.version),
                  record: try word(.record, english.record))
        let page = try decoder.container(keyedBy: PageWord.self)
        for key in PageWord.allCases {
            if let text = try page.decodeIfPresent(String.self, forKey: key) { self[key] = text }
        }
    }

    /// Writes every word of the PDF, and the walk-through page's words that are not English (so that the words of a
    /// document written before the page had any are written as they were).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(learnMore, forKey: .learnMore)
        try c.encode(pageNumber, forKey: .pageNumber)
        try c.encode(dateNames.months, forKey: .months)
        try c.encode(dateNames.weekdays, forKey: .weekdays)
        try c.encode(dateNames.am, forKey: .am)
        try c.encode(dateNames.pm, forKey: .pm)
        try c.encode(auditTrail, forKey: .auditTrail)
        try c.encode(events, forKey: .events)
        try c.encode(document, forKey: .document)
        try c.encode(version, forKey: .version)
        try c.encode(record, forKey: .record)
        var page = encoder.container(keyedBy: PageWord.self)
        for key in PageWord.allCases {
            if let text = pageWords[key] { try page.encode(text, forKey: key) }
        }
    }

    /// Every word with the JSON field it comes from and its most characters, for the document's checks.
    var named: [(field: String, text: String, limit: Int)] {
        let pdf = [("learnMore", learnMore), ("pageNumber", pageNumber)]
            + dateNames.months.enumerated().map { ("months[\($0.offset)]", $0.element) }
            + dateNames.weekdays.enumerated().map { ("weekdays[\($0.offset)]", $0.element) }
            + [("am", dateNames.am), ("pm", dateNames.pm), ("auditTrail", auditTrail), ("events", events),
               ("document", document), ("version", version), ("record", record)]
        return pdf.map { ($0.0, $0.1, Self.maxLength) } + PageWord.allCases.map { ($0.stringValue, self[$0], Self.maxPageWordLength) }
    }
}
