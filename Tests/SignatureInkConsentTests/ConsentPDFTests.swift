// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkRender
import Testing

@Suite struct ConsentPDFTests {
    /// Runs of white space as one space.
    static func flat(_ text: String) -> String {
        // pdftotext marks right-to-left runs with bidirectional embedding controls; they are not text.
        let controls: Set<Unicode.Scalar> = ["\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}"]
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { !controls.contains($0) }))
        return kept.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The text with no white space at all: pdftotext puts spaces inside some shaped clusters (Devanagari).
    static func solid(_ text: String) -> String { flat(text).filter { !$0.isWhitespace } }

    @Test func theSignedPDFPassesQPDFEmbedsSubsetsAndHasNoImage() throws {
        let pdf = try ConsentFixtures.signedSample().pdf()
        #expect(try PDFCheck.qpdfProblems(pdf) == nil)
        let fonts = try PDFCheck.fonts(pdf)
        #expect(!fonts.isEmpty)
        for font in fonts { #expect(font.embedded && font.subset, "\(font.name)") }
        // Each face once: no ligature glyph outside WinAnsi sends Noto Sans into a second, CID font.
        let faces = fonts.map { $0.name.split(separator: "+").last.map(String.init) ?? $0.name }
        #expect(Set(faces).count == faces.count, "\(fonts.map(\.name))")
        #expect(faces.contains("NotoSans-Regular") && faces.contains("NotoSans-Bold"), "\(faces)")
        #expect(try PDFCheck.imageCount(pdf) == 0)
        let raw = String(decoding: pdf, as: UTF8.self)
        #expect(raw.contains("/Title (Consent to take part in the Signing on Screens study)"))
        #expect(raw.contains("/Subject (Consent document)"))
        #expect(raw.contains("/Creator (signature-ink)"))
        // Links: the Learn more address and the mailto link are annotations.
        #expect(raw.contains("/URI (https://example.org/signing-study)"))
        #expect(raw.contains("/URI (mailto:study-team@example.org)"))
    }

    @Test func textReadsBackInReadingOrder() throws {
        let signed = try ConsentFixtures.signedSample()
        let text = Self.flat(try PDFCheck.text(try signed.pdf()))
        var expected: [String] = [signed.title]
        for section in signed.sections {
            expected.append(section.title)
            expected += ConsentMarkupText.lines(section.content)
        }
        expected += [signed.signaturePageTitle] + ConsentMarkupText.lines(signed.signaturePageContent)
        expected += ["Participant", "Ada Lovelace", "2026-11-25", "Investigator", "Charles Babbage", "25 Nov 2026"]
        var position = text.startIndex
        for item in expected {
            guard let found = text.range(of: Self.flat(item), range: position..<text.endIndex) else {
                Issue.record("'\(item)' is missing or out of order")
                continue
            }
            position = found.upperBound
        }
    }

    @Test func bookmarksOnePerSectionAndTheSignaturePage() throws {
        let signed = try ConsentFixtures.signedSample()
        let raw = String(decoding: try signed.pdf(), as: UTF8.self)
        for title in signed.sections.map(\.title) + [signed.title, "Signatures"] {
            #expect(raw.contains("/Title (\(title))"), "\(title)")
        }
    }

    @Test func theInkSitsInsideEachSignersBlockAndNowhereElse() throws {
        let signed = try ConsentFixtures.signedSample()
        let pdf = try signed.pdf()
        let last = try PDFCheck.pages(pdf)
        let words = try PDFCheck.words(pdf, page: last)
        let raster = try PDFCheck.raster(pdf, page: last)
        func isInk(_ p: (Int, Int, Int)) -> Bool { p.2 > 120 && p.2 - p.0 > 60 && p.2 - p.1 > 40 && p.0 < 140 }
        var blocks: [(top: Int, bottom: Int)] = []
        for (role, name) in [("Participant", "Ada"), ("Investigator", "Charles")] {
            let heading = try #require(words.first { $0.text == role })
            let printed = try #require(words.first { $0.text == name && $0.minY > heading.maxY })
            blocks.append((Int(heading.maxY), Int(printed.minY)))
            var count = 0
            for y in Int(heading.maxY)..<Int(printed.minY) {
                for x in 0..<raster.width where isInk(raster.pixel(x, y)) { count += 1 }
            }
            #expect(count > 40, "\(role): \(count) ink pixels in the block")
        }
        var outside = 0
        for y in 0..<raster.height where !blocks.contains(where: { y >= $0.top && y < $0.bottom }) {
            for x in 0..<raster.width where isInk(raster.pixel(x, y)) { outside += 1 }
        }
        #expect(outside == 0)
    }

    @Test func theSameSignedCopyGivesTheSameBytesAndADifferentDateDoesNot() throws {
        let a = try ConsentFixtures.signedSample().pdf()
        let b = try ConsentFixtures.signedSample().pdf()
        #expect(a == b)
        let other = try ConsentFixtures.sample()
            .signing(ConsentSignature(slot: "participant", name: "Ada Lovelace", signature: try ConsentFixtures.ink(),
                                      date: ConsentDate(iso8601: "2026-11-26")!))
        #expect(try other.pdf() != a)
    }

    @Test func letterAndA4AndAPreviewOfEachPage() throws {
        let signed = try ConsentFixtures.signedSample()
        let letter = try signed.pdf(setup: .letter)
        let raw = String(decoding: letter, as: UTF8.self)
        #expect(raw.contains("/MediaBox [ 0 0 612 792 ]"))
        let count = try signed.pageCount(setup: .letter)
        #expect(try PDFCheck.pages(letter) == count)
        let png = try signed.pagePreview(page: count, dpi: 48, setup: .letter)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        #expect(throws: ConsentError.self) { _ = try signed.pagePreview(page: count + 1) }
    }

    @Test func namesInEveryScriptAreShapedEmbeddedAndReadBack() throws {
        let names = ["Zoë Ødegård", "Αλέξανδρος Παπαδόπουλος", "Анна Каренина", "فاطمة الزهراء", "דוד בן־גוריון",
                     "देवनागरी नाम", "王小明", "山田花子"]
        let slots = names.indices.map { ["identifier": "s\($0)", "title": "Signer \($0 + 1)"] }
        var document = try ConsentFixtures.document(ConsentFixtures.json { $0["slots"] = slots })
        for (i, name) in names.enumerated() {
            document = try document.signing(ConsentSignature(slot: "s\(i)", name: name, signature: try ConsentFixtures.ink(),
                                                             date: ConsentFixtures.date))
        }
        let pdf = try document.pdf()
        #expect(try PDFCheck.qpdfProblems(pdf) == nil)
        for font in try PDFCheck.fonts(pdf) { #expect(font.embedded && font.subset, "\(font.name)") }
        let text = Self.flat(try PDFCheck.text(pdf))
        for name in names {
            // Every letter of the name, in logical order (right-to-left names included).
            #expect(Self.solid(text).contains(Self.solid(name)), "\(name)")
        }
    }

    @Test func aRightToLeftDocumentReadsBackInLogicalOrder() throws {
        let document = try ConsentFixtures.document(ConsentFixtures.json { object in
            object["language"] = "he"
            object["direction"] = "rtl"
            object["title"] = "הסכמה להשתתפות במחקר"
            object["sections"] = [["identifier": "a", "kind": "custom", "title": "מבוא",
                                   "content": "ההשתתפות במחקר היא מרצון.\n\n- אפשר לעזוב בכל עת\n- הנתונים נשמרים בסוד"]]
            object["signaturePageTitle"] = "חתימות"
        }).signing(ConsentSignature(slot: "participant", name: "דוד", signature: try ConsentFixtures.ink(), date: ConsentFixtures.date))
        let pdf = try document.pdf()
        #expect(try PDFCheck.qpdfProblems(pdf) == nil)
        let text = Self.flat(try PDFCheck.text(pdf))
        for phrase in ["הסכמה להשתתפות במחקר", "מבוא", "ההשתתפות במחקר היא מרצון.", "אפשר לעזוב בכל עת", "חתימות"] {
            #expect(text.contains(phrase), "\(phrase)")
        }
        // Lines start at the right edge: every line of the body ends at the right margin (list items with their
        // bullet there), and the signature block's line is at the right too.
        let words = try PDFCheck.words(pdf, page: 1)
        let right = PageSetup.a4.width - PageSetup.a4.margin
        let body = words.filter { $0.minY > PageSetup.a4.margin - 1 && $0.maxY < PageSetup.a4.height - PageSetup.a4.margin }
        let lines = Dictionary(grouping: body) { Int($0.minY.rounded()) }
        #expect(lines.count >= 6)
        for (y, line) in lines where !line.contains(where: { $0.text.contains("2026") }) {
            #expect((line.map(\.maxX).max() ?? 0) > right - 2, "the line at \(y) pt ends short of the right margin")
        }
        // Under the signature line the name is at the right end and the date at the left.
        let date = try #require(words.first { $0.text == "2026-11-25" })
        let name = words.filter { $0.text.contains("ד") && abs($0.minY - date.minY) < 2 }
        #expect(!name.isEmpty && name.allSatisfy { $0.minX > date.maxX })
        #expect((name.map(\.maxX).max() ?? 0) > right - 2)
    }

    /// An Arabic or Hebrew document with the default `auto` is laid out as with `rtl`: its list markers, "Learn more"
    /// links and signature blocks too, not only the paragraphs that begin with an Arabic letter; a Japanese one as
    /// with `ltr`.
    @Test(arguments: [("ar", "موافقة على المشاركة", TextDirection.rightToLeft), ("he", "הסכמה להשתתפות", .rightToLeft),
                      ("ja", "研究参加への同意", .leftToRight), ("und", "موافقة", .rightToLeft), ("und", "2026 Consent", .leftToRight),
                      ("az-Arab", "Razılıq", .rightToLeft), ("ku-Latn", "Razîbûn", .leftToRight)])
    func autoTakesTheDocumentsDirectionFromItsLanguageOrFirstStrongCharacter(language: String, title: String,
                                                                             expected: TextDirection) throws {
        func document(_ direction: String) throws -> ConsentDocument {
            try ConsentFixtures.document(ConsentFixtures.json { object in
                object["language"] = language
                object["direction"] = direction
                object["title"] = title
                object["sections"] = [["identifier": "a", "kind": "custom", "title": "1", "learnMore": "https://example.org/a",
                                       "content": "Study 2026.\n\n- one\n- two"]]
            }).signing(ConsentSignature(slot: "participant", name: "Ada", signature: try ConsentFixtures.ink(), date: ConsentFixtures.date))
        }
        let auto = try document("auto")
        #expect(auto.layoutDirection == expected)
        #expect(try auto.pdf() == (try document(expected.rawValue).pdf()))
    }

    @Test func fortySectionsBreakAcrossPagesWithNoLostOrRepeatedLine() throws {
        var words: [String] = []
        var sections: [[String: Any]] = []
        for s in 1...40 {
            let paragraphs = (0..<(1 + s % 3)).map { p in (1...(12 + (s * 7 + p * 13) % 70)).map { "s\(s)p\(p)w\($0)" } }
            words += ["Section", "\(s)"] + paragraphs.flatMap { $0 }
            sections.append(["identifier": "s\(s)", "kind": "custom", "title": "Section \(s)",
                             "content": paragraphs.map { $0.joined(separator: " ") }.joined(separator: "\n\n")])
        }
        let document = try ConsentFixtures.document(ConsentFixtures.json { $0["sections"] = sections; $0["title"] = "Long" })
        let pdf = try document.pdf()
        let pages = try PDFCheck.pages(pdf)
        #expect(pages >= 5)
        var read: [String] = []
        for page in 1...pages {
            let text = try PDFCheck.text(pdf, page: page)
            // No section title is the last line of a page, above the footer.
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(!(lines.dropLast().last ?? "").hasPrefix("Section "), "page \(page) ends with a heading")
            read += text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
                .filter { $0.hasPrefix("s") && $0.contains("w") || $0 == "Section" || Int($0) != nil }
                .filter { !($0 == "\(page)" || $0 == "\(pages)") || !text.contains("Page \(page) of \(pages)") }
        }
        let body = read.filter { $0.contains("w") }
        let expectedBody = words.filter { $0.contains("w") }
        #expect(body.count == expectedBody.count)
        #expect(body == expectedBody)
    }
}

/// The plain text of markup, a line a block, as the PDF reads back.
enum ConsentMarkupText {
    static func lines(_ markup: String) -> [String] {
        ConsentMarkup.parse(markup).map { ConsentMarkup.plainText([$0]) }
    }
}
