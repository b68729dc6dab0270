// SPDX-License-Identifier: Apache-2.0
import CCairo
import InkTestSupport
@testable import SignatureInkRender
import SignatureInk
import Testing

/// Lines that Noto Sans sets alone go through HarfBuzz without Pango: each must measure, draw and trace exactly as
/// Pango does it, in pixels and in PDF bytes.
@Suite struct HarfBuzzLineTests {
    /// Texts of the kinds set without Pango: timestamps, watermarks, names and dates, in Latin, Greek and Cyrillic,
    /// with kerning pairs, accents and punctuation of no script.
    static let texts = [
        "2026-12-02 15:04 UTC", "DRAFT", "Approved", "AVAST Wo To Ty", "Ada Lovelace", "naïve café — “quoted” (1,5 %)",
        "Łukasz Żółć", "Ørsted & Ærø", "ΔΟΚΙΜΗ Αθήνα", "Черновик Київ", "12.03.2026, 9:41", "Fi fl ffi", "x",
        "   spaced   out   ", "£ € ¥ ¢ § ¶ © ®", "Ǆ ǅ ǆ Ā ą Ǎ ǎ ə", "Ễ ệ Ḁ ḁ",
    ]

    static let fonts = [
        TextFont(size: 11), TextFont(size: 37.3, bold: true), TextFont(size: 100, bold: true),
        TextFont(size: 4.5, italic: true), TextFont(size: 18.0001, bold: true, italic: true),
    ]

    @Test func theLinesAreSetWithoutPango() {
        for text in Self.texts {
            for font in Self.fonts {
                #expect(HarfBuzzLine(TextLine(text: text, font: font)) != nil, "\(text) at \(font.size)")
            }
        }
    }

    @Test func theyMeasureAsPangoMeasuresThem() throws {
        for text in Self.texts {
            for font in Self.fonts {
                let line = TextLine(text: text, font: font)
                let ours = try #require(HarfBuzzLine(line)).metrics
                let pangos = try line.pangoMetrics()
                #expect(ours == pangos, "\(text) at \(font.size)")
                #expect(pangos.width > 0)
            }
        }
    }

    @Test func theyTraceThePangoOutlines() throws {
        for text in Self.texts {
            for font in Self.fonts {
                let line = TextLine(text: text, font: font)
                let point = Point(13.37, 61.7)
                for anchor in [TextAnchor.start, .middle, .end] {
                    let ours = try line.outline(anchor: anchor, at: point, through: HarfBuzzLine(line))
                    let pangos = try line.outline(anchor: anchor, at: point, through: nil)
                    #expect(ours == pangos, "\(text) at \(font.size)")
                    #expect(text.allSatisfy(\.isWhitespace) || !ours.elements.isEmpty)
                }
            }
        }
    }

    @Test func theyDrawThePangoPixels() throws {
        for text in Self.texts {
            for font in Self.fonts {
                let line = TextLine(text: text, font: font)
                let ours = try Self.pixels { try line.draw(anchor: .middle, at: Point(300.3, 140.55), on: $0) }
                let pangos = try Self.pixels { try line.pangoDraw(anchor: .middle, at: Point(300.3, 140.55), on: $0) }
                #expect(ours == pangos, "\(text) at \(font.size)")
                #expect(text.allSatisfy(\.isWhitespace) || ours.contains { $0 != 0 })
            }
        }
    }

    @Test func theyWriteThePangoPDF() throws {
        // The glyphs with the characters they stand for: the same font subsets, text and bytes.
        for text in Self.texts {
            let lines = Self.fonts.map { TextLine(text: text, font: $0) }
            let ours = try Self.pdf { context in
                for (k, line) in lines.enumerated() { try line.draw(anchor: .start, at: Point(20, 30 + 110 * Double(k)), on: context) }
            }
            let pangos = try Self.pdf { context in
                for (k, line) in lines.enumerated() { try line.pangoDraw(anchor: .start, at: Point(20, 30 + 110 * Double(k)), on: context) }
            }
            #expect(ours == pangos, "\(text)")
        }
    }

    /// Lines drawn from the accepted characters at random (a fixed seed): mostly one script's block with characters
    /// of no script among them, 1 to 40 characters, any size from 3 to 120 and any style. Every one that is set
    /// without Pango measures and draws as Pango does. (Run with 12,000 lines, this found U+2027 HYPHENATION POINT,
    /// which Pango draws otherwise; it is left to Pango.)
    @Test func randomLinesOfTheAcceptedCharactersMatchPango() throws {
        var random = SeededRandom(seed: 0x5EED_1A7E)
        func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let blocks: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x2AF, 0x386...0x3FF, 0x400...0x52F, 0x1E00...0x1EFF,
                                             0x2010...0x205E, 0x20A0...0x20C0]
        var direct = 0
        for _ in 0..<400 {
            let block = blocks[below(blocks.count)]
            let scalars = (0..<(1 + below(40))).compactMap { _ -> Unicode.Scalar? in
                let range = below(2) == 0 ? block : blocks[[0, 5, 6][below(3)]]
                return Unicode.Scalar(range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1)))
            }
            let font = TextFont(size: 3 + Double(below(11_700)) / 100, bold: below(2) == 0,
                                italic: below(2) == 0)
            let line = TextLine(text: String(String.UnicodeScalarView(scalars)), font: font)
            guard HarfBuzzLine(line) != nil else { continue }
            direct += 1
            #expect(try line.metrics() == line.pangoMetrics(), "\(line)")
            let ours = try Self.pixels { try line.draw(anchor: .start, at: Point(5.5, 150), on: $0) }
            let pangos = try Self.pixels { try line.pangoDraw(anchor: .start, at: Point(5.5, 150), on: $0) }
            #expect(ours == pangos, "\(line)")
        }
        #expect(direct > 100)
    }

    /// English text in Latin letters is set here too, shaped as English as Pango shapes it.
    @Test func englishLinesInLatinLettersMatchPango() throws {
        let english = [TextFont(size: 10, language: "en"), TextFont(size: 23.7, bold: true, italic: true, language: "EN")]
        var direct = 0
        for text in Self.texts {
            for font in english {
                let line = TextLine(text: text, font: font)
                guard let set = HarfBuzzLine(line) else {
                    #expect(text.unicodeScalars.contains { (0x370...0x52F).contains($0.value) }, "\(text)")
                    continue
                }
                direct += 1
                #expect(set.metrics == (try line.pangoMetrics()), "\(text)")
                let ours = try Self.pixels { try line.draw(anchor: .middle, at: Point(300.3, 140.55), on: $0) }
                let pangos = try Self.pixels { try line.pangoDraw(anchor: .middle, at: Point(300.3, 140.55), on: $0) }
                #expect(ours == pangos, "\(text) at \(font.size)")
                let ourPDF = try Self.pdf { try line.draw(anchor: .start, at: Point(20, 30), on: $0) }
                let pangoPDF = try Self.pdf { try line.pangoDraw(anchor: .start, at: Point(20, 30), on: $0) }
                #expect(ourPDF == pangoPDF, "\(text) at \(font.size)")
            }
        }
        #expect(direct >= 2 * 13)
    }

    @Test func otherLinesAreLeftToPango() {
        let font = TextFont(size: 12)
        let pangos: [(String, TextFont)] = [
            ("مرحبا", font), ("שלום", font), ("नमस्ते", font), ("署名", font), ("Hello Αθήνα", font),
            ("Hello Мир", font), ("e\u{301}", font), ("a\u{200D}b", font), ("soft\u{AD}hyphen", font),
            ("line\nbreak", font), ("tab\there", font), ("", font), ("Ada", TextFont(size: 12, handwriting: true)),
            ("Ada", TextFont(size: 12, language: "de")), ("Αθήνα", TextFont(size: 12, language: "en")),
            ("Ada", TextFont(size: 0)), ("Ada", TextFont(size: .infinity)),
            ("№ 5", font), ("½ ™", font), ("Ⅻ", font), ("hy\u{2027}phen", font),
        ]
        for (text, font) in pangos {
            #expect(HarfBuzzLine(TextLine(text: text, font: font)) == nil, "\(text.debugDescription)")
        }
    }

    @Test func aLineLeftToPangoStillDraws() throws {
        let line = TextLine(text: "Hello Αθήνα مرحبا", font: TextFont(size: 14))
        #expect(HarfBuzzLine(line) == nil)
        #expect(try line.metrics() == line.pangoMetrics())
        #expect(try Self.pixels { try line.draw(anchor: .start, at: Point(10, 50), on: $0) }.contains { $0 != 0 })
    }

    /// The pixels of a 600 x 300 transparent image after `draw`, in a dark grey.
    static func pixels(_ draw: (CairoContext) throws -> Void) throws -> [UInt8] {
        let surface = try CairoSurface(image: .argb32, width: 600, height: 300)
        let context = try CairoContext(surface: surface)
        context.setSource(Color(red: 30, green: 30, blue: 30))
        try draw(context)
        return try surface.withPixels { Array($0) }
    }

    /// A one-page PDF of `draw`, with a fixed date.
    static func pdf(_ draw: (CairoContext) throws -> Void) throws -> [UInt8] {
        let sink = PDFSink()
        do {
            let surface = try CairoSurface(pdfTo: sink, width: 600, height: 600)
            surface.setPDFMetadata(.createDate, "2026-12-02T00:00:00Z")
            let context = try CairoContext(surface: surface)
            try draw(context)
            try surface.finish()
        }
        return sink.bytes
    }
}
