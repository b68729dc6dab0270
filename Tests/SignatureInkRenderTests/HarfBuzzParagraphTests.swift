// SPDX-License-Identifier: Apache-2.0
import CCairo
import InkTestSupport
@testable import SignatureInkRender
import SignatureInk
import Testing

/// Paragraphs that Noto Sans sets alone are broken into lines and shaped by HarfBuzz without Pango: each must give
/// Pango's lines (heights, baselines, text) and draw Pango's pixels and PDF bytes.
@Suite struct HarfBuzzParagraphTests {
    /// Paragraphs of the kinds a consent holds: plain, with bold and italic runs inside words and at their edges,
    /// numbers, quotes, brackets, dashes and slashes.
    static let paragraphs: [[TextRun]] = [
        [TextRun("We are asking you to take part in a research study about how people sign on screens. Taking part is "
                 + "voluntary, and you may stop at any time without giving a reason.")],
        [TextRun("Your signature, the "), TextRun("time", bold: true), TextRun(" and the "),
         TextRun("device you use", italic: true), TextRun(" are kept for 10 years (until 2036-12-01), then deleted.")],
        [TextRun("Ask the study team: "), TextRun("Dr. Ada Lovelace", bold: true, italic: true),
         TextRun(", +44 20 7946 0958, 9:00–17:00 — Monday/Friday; 15 % of $1,200.50 (about €1.100) is “refunded”.")],
        [TextRun("bold", bold: true), TextRun("glued"), TextRun("italic", italic: true), TextRun(" and (brackets) [here] "
                 + "{there}; it's \"quoted\" and 'single' — well-known, co-operate, and/or 3.14159... #tag @name ~ 1°C")],
        [TextRun("Ελληνικά κείμενα σε γραμμές, με αριθμούς 1.234 και σημεία στίξης; όλα στη σειρά.")],
        [TextRun("Русский текст тоже разбивается на строки: слово за словом, без переносов.")],
        [TextRun("Short.")],
        [TextRun("If you withdraw, the recordings are deleted within thirty days. Write to "),
         TextRun("the study team", link: "mailto:team@example.org"), TextRun(" to withdraw, or read "),
         TextRun("the notice", italic: true, link: "https://example.org/notice?a=1&b='2'"),
         TextRun(" and "), TextRun("its annex", bold: true, link: "https://example.org/annex"),
         TextRun("glued", link: "https://example.org/annex"), TextRun(".")],
        [TextRun("Learn more", link: "https://example.org/learn")],
        [TextRun("   Leading spaces, then  doubled  spaces between  words.")],
    ]

    static let fonts = [
        TextFont(size: 11), TextFont(size: 11, language: "en"), TextFont(size: 17.3, bold: true),
        TextFont(size: 8.5, italic: true), TextFont(size: 24.0001, bold: true, italic: true),
    ]

    static let widths = [60.0, 123.4, 250, 480.7]

    @Test func theParagraphsAreSetWithoutPango() throws {
        for runs in Self.paragraphs {
            for font in Self.fonts where !(font.language == "en" && runs.contains { $0.text.contains("λ") || $0.text.contains("т") }) {
                let paragraph = Paragraph(runs, font: font)
                #expect(HarfBuzzParagraph(paragraph, width: 480.7) != nil, "\(runs.map(\.text)) at \(font.size)")
            }
        }
    }

    @Test func theyGivePangosLinesAndBytes() throws {
        var compared = 0
        for runs in Self.paragraphs {
            for font in Self.fonts {
                for width in Self.widths {
                    for centered in [false, true] {
                        let paragraph = Paragraph(runs, font: font, lineSpacing: centered ? 1.05 : 1.15, centered: centered)
                        guard HarfBuzzParagraph(paragraph, width: width) != nil else { continue }
                        try Self.expectSame(paragraph, width: width)
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 250)
    }

    /// Paragraphs drawn from the accepted characters at random (a fixed seed): words of letters, digits and
    /// punctuation in one script, one to four runs of any emphasis, some of them links, any size, width, spacing and
    /// alignment. Every one set without Pango gives Pango's lines, pixels and PDF bytes (links and underlines
    /// included).
    @Test func randomParagraphsOfTheAcceptedCharactersMatchPango() throws {
        var random = SeededRandom(seed: 0x9A7A_6E4F)
        func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let latin = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZàéîõüçñßøåæœłżšđŁŻŠÉÀ")
        let greek = Array("αβγδεζηθικλμνξοπρστυφχψωάέήίόύώΑΒΓΔΘΛΞΠΣΦΨΩ")
        let cyrillic = Array("абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЖЗИЙКЛМНПРСТФЦЧШЩЭЮЯёЁїієґ")
        let digits = Array("0123456789")
        let marks = Array(".,;:!?'\"()[]{}-/%$+&*@#=<>~^_`|\\–—‘’“”€£©®°")
        var direct = 0
        for _ in 0..<300 {
            let letters = [latin, greek, cyrillic][below(3)]
            var words: [String] = []
            for _ in 0..<(1 + below(40)) {
                var word = ""
                for _ in 0..<(1 + below(9)) {
                    switch below(10) {
                    case 0: word.append(digits[below(digits.count)])
                    case 1, 2: word.append(marks[below(marks.count)])
                    default: word.append(letters[below(letters.count)])
                    }
                }
                words.append(word)
            }
            var text = ""
            for (k, word) in words.enumerated() {
                if k > 0 { text += below(8) == 0 ? "  " : " " }
                text += word
            }
            // Cut into runs at random characters.
            let characters = Array(text)
            var cuts = Set((0..<below(4)).map { _ in below(characters.count) })
            cuts.remove(0)
            var runs: [TextRun] = []
            var start = 0
            for cut in (cuts.sorted() + [characters.count]) where cut > start {
                runs.append(TextRun(String(characters[start..<cut]), bold: below(3) == 0, italic: below(4) == 0,
                                    link: below(3) == 0 ? "https://example.org/\(below(3))" : nil))
                start = cut
            }
            let language = letters == latin && below(2) == 0 ? "en" : "und"
            let font = TextFont(size: 5 + Double(below(2_500)) / 100, bold: below(5) == 0, italic: below(6) == 0,
                                language: language)
            let paragraph = Paragraph(runs, font: font, lineSpacing: 1 + Double(below(100)) / 100,
                                      centered: below(4) == 0)
            let width = 40 + Double(below(46_000)) / 100
            guard HarfBuzzParagraph(paragraph, width: width) != nil else { continue }
            direct += 1
            try Self.expectSame(paragraph, width: width)
        }
        #expect(direct > 150)
    }

    @Test func otherParagraphsAreLeftToPango() {
        let font = TextFont(size: 12)
        let pangos: [Paragraph] = [
            Paragraph([TextRun("مرحبا بالعالم")], font: font),
            Paragraph([TextRun("Hello Αθήνα")], font: font),
            Paragraph([TextRun("right to left")], font: font, direction: .rightToLeft),
            Paragraph([TextRun("tab\there")], font: font),
            Paragraph([TextRun("line\nbreak")], font: font),
            Paragraph([TextRun("trailing space ")], font: font),
            Paragraph([TextRun(""), TextRun("empty run")], font: font),
            Paragraph([TextRun("Ada")], font: TextFont(size: 12, handwriting: true)),
            Paragraph([TextRun("Deutsch")], font: TextFont(size: 12, language: "de")),
            Paragraph([TextRun("Αθήνα")], font: TextFont(size: 12, language: "en")),
            Paragraph([TextRun("soft\u{AD}hyphen")], font: font),
            Paragraph([TextRun("no\u{A0}break")], font: font),
            Paragraph([TextRun("…")], font: font),
        ]
        for paragraph in pangos {
            #expect(HarfBuzzParagraph(paragraph, width: 300) == nil, "\(paragraph.runs.map(\.text))")
        }
        // A word wider than the line would be broken inside, with a hyphen: Pango's.
        let long = Paragraph([TextRun("a Pneumonoultramicroscopicsilicovolcanoconiosis b")], font: font)
        #expect(HarfBuzzParagraph(long, width: 60) == nil)
        #expect(HarfBuzzParagraph(long, width: 600) != nil)
    }

    /// The paragraph's lines as ``HarfBuzzParagraph`` and as Pango set them: the same heights, baselines and text,
    /// and the same pixels and PDF bytes when drawn.
    static func expectSame(_ paragraph: Paragraph, width: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ProjectFonts.holding { () throws(RenderError) in
            guard let direct = HarfBuzzParagraph(paragraph, width: width) else { return }
            let ours = Paragraph.Layout(direct: direct, color: paragraph.color)
            let pangos = try paragraph.makeLayout(width: width)
            let label = "\(paragraph.runs.map(\.text)) at \(paragraph.font.size) in \(width)"
            #expect(ours.isDirect && !pangos.isDirect)
            #expect(ours.lines == pangos.lines, "\(label)", sourceLocation: sourceLocation)
            guard ours.lines.count == pangos.lines.count else { return }
            for i in ours.lines.indices {
                #expect(ours.text(lines: i..<(i + 1)) == pangos.text(lines: i..<(i + 1)), "\(label)",
                        sourceLocation: sourceLocation)
            }
            let all = 0..<ours.lines.count
            let origin = Point(17.3, 12.9)
            let ourPixels = try pixels { (target) throws(RenderError) in try ours.draw(lines: all, at: origin, on: target) }
            let pangoPixels = try pixels { (target) throws(RenderError) in try pangos.draw(lines: all, at: origin, on: target) }
            // Compared as one answer: a failure names the paragraph rather than printing both images.
            let samePixels = ourPixels == pangoPixels
            #expect(samePixels, "\(label)", sourceLocation: sourceLocation)
            #expect(ourPixels.contains { $0 != 0 })
            let ourPDF = try pdf { (target) throws(RenderError) in
                try ours.draw(lines: all, at: origin, on: target, spans: true)
            }
            let pangoPDF = try pdf { (target) throws(RenderError) in
                try pangos.draw(lines: all, at: origin, on: target, spans: true)
            }
            let samePDF = ourPDF == pangoPDF
            #expect(samePDF, "\(label)", sourceLocation: sourceLocation)
        }
    }

    /// The pixels of a 600 x 700 transparent image after `draw`.
    static func pixels(_ draw: (CairoTarget) throws(RenderError) -> Void) throws(RenderError) -> [UInt8] {
        let surface = try CairoSurface(image: .argb32, width: 600, height: 700)
        let context = try CairoContext(surface: surface)
        try draw(CairoTarget(context: context))
        return try surface.withPixels { Array($0) }
    }

    /// A one-page PDF of `draw`, with a fixed date.
    static func pdf(_ draw: (CairoTarget) throws(RenderError) -> Void) throws(RenderError) -> [UInt8] {
        let sink = PDFSink()
        do {
            let surface = try CairoSurface(pdfTo: sink, width: 600, height: 700)
            surface.setPDFMetadata(.createDate, "2026-12-07T00:00:00Z")
            let context = try CairoContext(surface: surface)
            try draw(CairoTarget(context: context))
            try surface.finish()
        }
        return sink.bytes
    }
}
