// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkRender
import Testing

/// The engine's own words in a consent PDF follow the document's `words`: read and checked with the document, printed
/// in the links, footers, dates and audit trail, and English wherever the document gives none.
@Suite struct ConsentWordsTests {
    /// Arabic, Hebrew and Japanese: the link's text, the footer (page 1), the month of 25 Nov 2026, and the audit
    /// trail's title.
    static let languages: [(language: String, title: String, words: String, expected: [String])] = [
        ("ar", "موافقة على المشاركة",
         #"{"learnMore": "اعرف المزيد", "pageNumber": "صفحة {n} من {N}", "auditTrail": "سجل التدقيق", "months": ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"]}"#,
         ["اعرف المزيد", "صفحة 1 من 1", "نوفمبر"]),
        ("he", "הסכמה להשתתפות",
         #"{"learnMore": "מידע נוסף", "pageNumber": "עמוד {n} מתוך {N}", "auditTrail": "יומן ביקורת", "months": ["ינו׳", "פבר׳", "מרץ", "אפר׳", "מאי", "יוני", "יולי", "אוג׳", "ספט׳", "אוק׳", "נוב׳", "דצמ׳"]}"#,
         ["מידע נוסף", "עמוד 1 מתוך 1", "נוב׳"]),
        ("ja", "研究参加への同意",
         #"{"learnMore": "詳しく見る", "pageNumber": "{n} / {N} ページ", "auditTrail": "監査証跡", "months": ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"]}"#,
         ["詳しく見る", "1/1ページ", "11月"]),
    ]

    /// A JSON object's text as the object.
    static func object(_ json: String) -> Any { try! JSONSerialization.jsonObject(with: Data(json.utf8)) }

    /// The document of `languages[k]`, with its words or (`words: false`) without, signed on 25 Nov 2026.
    static func document(_ k: Int, words: Bool = true) throws -> ConsentDocument {
        try unsigned(k, words: words)
            .signing(ConsentSignature(slot: "participant", name: "Ada", signature: try ConsentFixtures.ink(), date: ConsentFixtures.date))
    }

    /// The document of `languages[k]`, not signed.
    static func unsigned(_ k: Int, words: Bool = true) throws -> ConsentDocument {
        let case_ = languages[k]
        return try ConsentFixtures.document(ConsentFixtures.json { object in
            object["language"] = case_.language
            object["title"] = case_.title
            object["sections"] = [["identifier": "a", "kind": "custom", "title": case_.title, "learnMore": "https://example.org/a",
                                   "content": case_.title]]
            object["slots"] = [["identifier": "participant", "title": case_.title, "dateFormat": "d MMM yyyy"]]
            if words { object["words"] = Self.object(case_.words) }
        })
    }

    @Test(arguments: 0..<3) func theLinksFooterAndDatesAreInTheDocumentsWords(k: Int) throws {
        let pdf = try Self.document(k).pdf()
        #expect(try PDFCheck.qpdfProblems(pdf) == nil)
        let text = ConsentPDFTests.solid(try PDFCheck.text(pdf))
        for phrase in Self.languages[k].expected { #expect(text.contains(ConsentPDFTests.solid(phrase)), "\(phrase)") }
        for english in ["Learnmore", "Page1of1", "Nov"] { #expect(!text.contains(english), "\(english)") }
        // Without words, the same document prints English.
        let plain = ConsentPDFTests.solid(try PDFCheck.text(try Self.document(k, words: false).pdf()))
        for english in ["Learnmore", "Page1of1", "25Nov2026"] { #expect(plain.contains(english), "\(english)") }
    }

    /// The footer is drawn on the rows where the English one is, in the page image: the words change, not the layout.
    @Test(arguments: 0..<3) func theFooterIsDrawnWhereTheEnglishOneIs(k: Int) throws {
        /// The rows of the bottom margin (72 pt, a pixel a point) with anything but white in them.
        func footerRows(_ pdf: [UInt8]) throws -> Set<Int> {
            let page = try PDFCheck.raster(pdf, page: 1)
            return Set((page.height - 72..<page.height).filter { y in (0..<page.width).contains { x in page.pixel(x, y).0 < 230 } })
        }
        let worded = try footerRows(try Self.document(k).pdf())
        let english = try footerRows(try Self.document(k, words: false).pdf())
        #expect(!english.isEmpty)
        #expect(!worded.isDisjoint(with: english), "the footer's rows \(worded.sorted()) against \(english.sorted())")
    }

    @Test func aSealedConsentsAuditTrailHasTheDocumentsHeadings() throws {
        let submission = try ConsentSubmission(
            document: try Self.unsigned(0), decisions: [], undecided: .allowed, sharing: nil,
            signers: [.init(slot: "participant", name: "Ada", ink: try ConsentFixtures.ink())])
        let signed = try submission.sign(now: ConsentSubmissionTests.now, seal: try ConsentSealTests.seal())
        let last = try PDFCheck.pages(signed.pdf)
        let text = ConsentPDFTests.solid(try PDFCheck.text(signed.pdf, page: last))
        #expect(text.contains(ConsentPDFTests.solid("سجل التدقيق")))
        #expect(!text.contains("Audittrail"))
    }

    @Test func wordsAreReadWithTheDocumentAndWrittenOnlyWhenNotEnglish() throws {
        let document = try Self.document(0)
        #expect(document.words.learnMore == "اعرف المزيد")
        #expect(document.words.dateNames.months[10] == "نوفمبر")
        // What the document leaves out is English.
        #expect(document.words.events == "Events" && document.words.dateNames.weekdays[0] == "Mon")
        #expect(String(decoding: document.canonicalJSON, as: UTF8.self).contains("\"words\""))
        // A document without words has the canonical JSON (and digest) it had before there were words.
        let english = try ConsentFixtures.document(ConsentFixtures.json())
        #expect(english.words == .english)
        #expect(!String(decoding: english.canonicalJSON, as: UTF8.self).contains("words"))
        // Read back from its canonical JSON, a document keeps its words.
        #expect(try ConsentDocument(json: document.canonicalJSON).words == document.words)
    }

    @Test(arguments: [
        (#"{"learnMore": "x", "moreInfo": "y"}"#, "words", "unknown field 'moreInfo'"),
        (#"{"months": ["a", "b"]}"#, "words.months", "twelve"),
        (#"{"weekdays": ["a"]}"#, "words.weekdays", "seven"),
        (#"{"pageNumber": "Page"}"#, "words.pageNumber", "{n}"),
        (#"{"learnMore": "  "}"#, "words.learnMore", "must not be empty"),
        (#"{"auditTrail": "a\u0007b"}"#, "words.auditTrail", "control character"),
        ("{\"record\": \"\(String(repeating: "x", count: 101))\"}", "words.record", "100"),
    ])
    func badWordsAreRefusedByField(words: String, field: String, message: String) throws {
        let json = ConsentFixtures.json { $0["words"] = Self.object(words) }
        let error = try #require(throws: ConsentError.self) { _ = try ConsentFixtures.document(json) }
        #expect("\(error)".contains(field), "\(error)")
        #expect("\(error)".contains(message), "\(error)")
    }

    // MARK: The walk-through page's words

    /// The Arabic document the browser test walks through, with every word of the page.
    static func arabic() throws -> ConsentDocument {
        try ConsentDocument(json: Array(try Data(contentsOf: TestData.repositoryRoot.appendingPathComponent("Tests/Fixtures/consent/consent-ar.json"))))
    }

    /// The English fields of the PDF's words, which a document with words always writes.
    static let pdfFields: Set<String> = ["learnMore", "pageNumber", "months", "weekdays", "am", "pm", "auditTrail", "events",
                                         "document", "version", "record"]

    /// The keys of the canonical JSON's `words` object; empty when it has none.
    static func writtenWords(_ document: ConsentDocument) throws -> Set<String> {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(document.canonicalJSON)) as? [String: Any])
        return Set((object["words"] as? [String: Any] ?? [:]).keys)
    }

    @Test func pageWordsAreReadAndEnglishWhereTheDocumentGivesNone() throws {
        let json = ConsentFixtures.json { $0["words"] = Self.object(#"{"next": "التالي", "progress": "{form}: {n} من {N}"}"#) }
        let document = try ConsentFixtures.document(json)
        #expect(document.words[.next] == "التالي")
        #expect(document.words[.progress] == "{form}: {n} من {N}")
        #expect(document.words[.back] == "Back" && document.words[.signingFailed] == "The consent could not be signed")
        // The page gets every word, the document's or English, and the PDF's Learn more.
        let page = document.words.page
        #expect(page.count == ConsentWords.PageWord.allCases.count + 1)
        #expect(page["next"] == "التالي" && page["cancel"] == "Cancel" && page["learnMore"] == "Learn more")
    }

    @Test func pageWordsAreWrittenOnlyWhenNotEnglish() throws {
        // Given page words: written, with the PDF's words as a document with words always has them; no English page word.
        let worded = try ConsentFixtures.document(ConsentFixtures.json { $0["words"] = Self.object(#"{"next": "التالي"}"#) })
        #expect(try Self.writtenWords(worded) == Self.pdfFields.union(["next"]))
        #expect(try ConsentDocument(json: worded.canonicalJSON).words == worded.words)
        // A document with PDF words only writes what it wrote before the page had words: its digest stays.
        #expect(try Self.writtenWords(try Self.unsigned(0)) == Self.pdfFields)
        // Page words given in English are English: no words written, the digest of the document without them.
        let english = try ConsentFixtures.document(ConsentFixtures.json { $0["words"] = Self.object(#"{"next": "Next", "cancel": "Cancel"}"#) })
        #expect(english.words == .english)
        #expect(english.digest == (try ConsentFixtures.document(ConsentFixtures.json())).digest)
        // Set in code, a word set back to English is gone.
        var words = ConsentWords.english
        words[.agree] = "أوافق"
        #expect(words != .english)
        words[.agree] = ConsentWords.PageWord.agree.english
        #expect(words == .english)
    }

    @Test func theArabicFixtureGivesEveryWordOfThePage() throws {
        let document = try Self.arabic()
        #expect(document.layoutDirection == .rightToLeft)
        for word in ConsentWords.PageWord.allCases {
            #expect(document.words[word] != word.english, "\(word.stringValue)")
        }
    }

    @Test func placeholdersAreTheEnglishWordsOnes() {
        #expect(ConsentWords.PageWord.progress.placeholders == ["{form}", "{n}", "{N}"])
        #expect(ConsentWords.PageWord.shareBroadly.placeholders == ["{investigator}"])
        #expect(ConsentWords.PageWord.next.placeholders.isEmpty)
    }

    @Test(arguments: [
        (#"{"next": ""}"#, "words.next", "must not be empty"),
        (#"{"cancel": "\t"}"#, "words.cancel", "must not be empty"),
        (#"{"agree": "a\u0007b"}"#, "words.agree", "control character"),
        ("{\"typedNote\": \"\(String(repeating: "x", count: 301))\"}", "words.typedNote", "300"),
        (#"{"progress": "{n}"}"#, "words.progress", "{form}"),
        (#"{"shareBroadly": "Share with everyone"}"#, "words.shareBroadly", "{investigator}"),
        (#"{"reference": "Kept."}"#, "words.reference", "{id}"),
        (#"{"next": 5}"#, "words.next", "a string"),
    ])
    func badPageWordsAreRefusedByField(words: String, field: String, message: String) throws {
        let json = ConsentFixtures.json { $0["words"] = Self.object(words) }
        let error = try #require(throws: ConsentError.self) { _ = try ConsentFixtures.document(json) }
        #expect("\(error)".contains(field), "\(error)")
        #expect("\(error)".contains(message), "\(error)")
    }

    @Test func aPageWordOfThreeHundredCharactersIsAccepted() throws {
        let json = ConsentFixtures.json { $0["words"] = ["typedNote": String(repeating: "x", count: 300)] }
        #expect(try ConsentFixtures.document(json).words[.typedNote].count == 300)
    }

    /// The published schema lists every field of `words`, and only those.
    @Test func theSchemaDescribesEveryWord() throws {
        let defs = try #require(try ConsentSchemaTests.schema()["$defs"] as? [String: Any])
        let words = try #require(defs["words"] as? [String: Any])
        let described = Set((words["properties"] as? [String: Any] ?? [:]).keys)
        #expect(described == Self.pdfFields.union(ConsentWords.PageWord.allCases.map(\.stringValue)))
    }
}
