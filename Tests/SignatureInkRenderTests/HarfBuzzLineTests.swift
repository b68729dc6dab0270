// SPDX-License-Identifier: Apache-2.0
import CCairo
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

    @Test func otherLinesAreLeftToPango() {
        let font = TextFont(size: 12)
        let pangos: [(String, TextFont)] = [
            ("مرحبا", font), ("שלום", font), ("नमस्ते", font), ("署名", font), ("Hello Αθήνα", font),
            ("Hello Мир", font), ("e\u{301}", font), ("a\u{200D}b", font), ("soft\u{AD}hyphen", font),
            ("line\nbreak", font), ("tab\there", font), ("", font), ("Ada", TextFont(size: 12, handwriting: true)),
            ("Ada", TextFont(size: 12, language: "en")), ("Ada", TextFont(size: 0)), ("Ada", TextFont(size: .infinity)),
            ("№ 5", font), ("½ ™", font), ("Ⅻ", font),
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
