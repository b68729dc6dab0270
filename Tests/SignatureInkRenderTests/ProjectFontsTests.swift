// SPDX-License-Identifier: Apache-2.0
import CCairo
import CPango
import Dispatch
import SignatureInk
@testable import SignatureInkRender
import Synchronization
import Testing

@Suite struct ProjectFontsTests {
    /// The family names of the faces the project's configuration loads, one per face.
    static func families(_ set: ProjectFonts.FontSet = .all) throws -> [String] {
        let (config, fonts) = try ProjectFonts.makeConfiguration(set).get()
        defer { FcConfigDestroy(config) }
        return (0..<Int(fonts.pointee.nfont)).compactMap { i in
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(fonts.pointee.fonts[i], FC_FAMILY, 0, &value) == FcResultMatch, let value else {
                return nil
            }
            return String(cString: value)
        }
    }

    /// The monospaced CJK faces share their files with the proportional ones and cover the same characters; the text
    /// never asks for them, and each of them made every font sort of Pango's compare one more large character set.
    @Test func everyFaceButTheMonospacedCJKOnesIsLoaded() throws {
        let families = try Self.families()
        #expect(!families.contains { $0.hasPrefix("Noto Sans Mono CJK") }, "\(families)")
        for region in ["JP", "KR", "SC", "TC", "HK"] {
            #expect(families.filter { $0 == "Noto Sans CJK \(region)" }.count == 2, "regular and bold: \(families)")
        }
        #expect(families.filter { $0 == "Noto Sans" }.count == 4)
        #expect(families.count == 4 + 2 + 2 + 2 + 10 + 1, "\(families)")
    }

    /// The common set is every face of the complete one but the CJK collections' faces.
    @Test func theCommonSetIsEveryFaceButTheCJKOnes() throws {
        let all = try Self.families(.all), common = try Self.families(.common)
        #expect(common.sorted() == all.filter { !$0.hasPrefix("Noto Sans CJK") }.sorted(), "\(common)")
        #expect(common.count == 4 + 2 + 2 + 2 + 1, "\(common)")
    }

    /// Text of the scripts the common families cover.
    static let commonTexts = [
        "", "Ada Lovelace", "2026-11-28 14:02:07 UTC", "DRAFT", "Zoë Łukasiewicz-Øster, naïve café — “quoted” …",
        "Ελληνικά κείμενα", "Русский текст", "النص العربي ١٢٣", "טקסט עברי", "हिन्दी पाठ", "fi fl ffi",
        "  \u{00A0}no-break",
    ]

    /// Which font set a text is set with: without the CJK collections when the other families have all of it.
    @Test func aTextIsSetWithoutTheCJKFontsWhenTheOthersHaveAllOfIt() throws {
        for text in Self.commonTexts {
            #expect(try ProjectFonts.fontSet(for: text) == .common, "\(text)")
        }
        // CJK, Latin with one CJK character, and a character no font has (which the complete set reports missing).
        for text in ["山田太郎", "Ada 山田", "한국어", "カタカナ", "\u{13000}"] {
            #expect(try ProjectFonts.fontSet(for: text) == .all, "\(text)")
        }
    }

    /// A text the common set is chosen for misses no character when it is laid out, in either set, so
    /// `TextCoverage.missingCharacters` need not lay it out; one it is not chosen for is laid out and its missing
    /// characters named.
    @Test func aTextOfTheCommonFamiliesMissesNoCharacter() throws {
        for text in Self.commonTexts where !text.isEmpty {
            for font in [TextFont(size: 12), TextFont(size: 12, bold: true), TextFont(size: 12, handwriting: true)] {
                let line = TextLine(text: text, font: font)
                for fonts in [ProjectFonts.FontSet.common, .all] {
                    let missing = try ProjectFonts.holding { () throws(RenderError) -> Int32 in
                        let layout = try line.makeLayout(direction: PANGO_DIRECTION_WEAK_LTR, fonts: fonts)
                        defer { pango.g_object_unref(UnsafeMutableRawPointer(layout)) }
                        return pango.pango_layout_get_unknown_glyphs_count(layout)
                    }
                    #expect(missing == 0, "\(text) \(font) \(fonts)")
                }
            }
            #expect(try TextCoverage.missingCharacters(in: text).isEmpty)
        }
        #expect(try TextCoverage.missingCharacters(in: "Ada \u{13000}\u{0F00}") == ["\u{13000}", "\u{0F00}"])
    }

    /// A text the common set is chosen for gives the same glyphs, in the same places, as the complete set gives:
    /// the same outline, in every style, language and base direction.
    @Test func theCommonSetDrawsWhatTheCompleteSetDraws() throws {
        let fonts = [
            TextFont(size: 12), TextFont(size: 17.5, bold: true), TextFont(size: 9, italic: true),
            TextFont(size: 12, bold: true, italic: true), TextFont(size: 24, handwriting: true),
            TextFont(size: 12, language: "ar"), TextFont(size: 12, language: "ja"),
            TextFont(size: 12, language: "zh-Hant"),
        ]
        for text in Self.commonTexts where !text.isEmpty {
            for font in fonts {
                for direction in [PANGO_DIRECTION_WEAK_LTR, PANGO_DIRECTION_RTL] {
                    let line = TextLine(text: text, font: font)
                    let common = try Self.outline(line, direction: direction, fonts: .common)
                    let all = try Self.outline(line, direction: direction, fonts: .all)
                    #expect(common.elements.count > 4, "\(text) \(font)")
                    let same = common == all
                    #expect(same, "\(text) \(font) \(direction)")
                }
            }
        }
    }

    /// Once ``ProjectFonts/openEveryFace()`` has run, every font Pango sets text with, in the font maps of any thread,
    /// draws with one of the Cairo font faces it keeps: in every style, script, language and font set, on four threads
    /// at once. Cairo then only finds its faces in the lists it keeps without a lock, and never adds or frees one.
    @Test func textOnEveryThreadIsDrawnWithTheFacesKeptOpen() throws {
        try ProjectFonts.openEveryFace()
        let kept = Set(ProjectFonts.keptFaces.map(UInt.init(bitPattern:)))
        #expect(kept.count == (try Self.families()).count)
        let fonts = [
            TextFont(size: 12), TextFont(size: 31, bold: true), TextFont(size: 9, italic: true),
            TextFont(size: 12, bold: true, italic: true), TextFont(size: 24, handwriting: true),
            TextFont(size: 24, bold: true, italic: true, handwriting: true),
        ] + ["ar", "he", "hi", "ja", "ko", "zh-Hans", "zh-Hant", "zh-HK"].flatMap { language in
            [TextFont(size: 12, language: language), TextFont(size: 14, bold: true, language: language)]
        }
        let texts = Self.commonTexts.filter { !$0.isEmpty } + ["山田太郎", "研究參與同意書", "연구 참여 동의", "カタカナ", "Ada 山田"]
        let used = Mutex<[UInt: [String]]>([:])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for (k, text) in texts.enumerated() where k % 4 == thread {
                for font in fonts {
                    let line = TextLine(text: text, font: font)
                    let faces = try? ProjectFonts.holding { () throws(RenderError) -> [UInt] in
                        let layout = try line.makeLayout(direction: PANGO_DIRECTION_WEAK_LTR)
                        defer { pango.g_object_unref(UnsafeMutableRawPointer(layout)) }
                        return Self.faces(of: layout)
                    }
                    used.withLock { used in
                        for face in faces ?? [0] { used[face, default: []].append("\(text) \(font)") }
                    }
                }
            }
        }
        let faces = used.withLock { $0 }
        for (face, texts) in faces where !kept.contains(face) {
            Issue.record("a face not kept draws \(texts.count) texts, among them \(texts[0])")
        }
        #expect(faces.count >= 16, "the texts use \(faces.count) faces")
    }

    /// The Cairo font faces of the fonts of `layout`'s runs, as addresses.
    static func faces(of layout: OpaquePointer) -> [UInt] {
        guard let iterator = pango.pango_layout_get_iter(layout) else { return [0] }
        defer { pango.pango_layout_iter_free(iterator) }
        var faces: [UInt] = []
        repeat {
            guard let run = pango.pango_layout_iter_get_run_readonly(iterator) else { continue }
            let scaled = run.pointee.item.pointee.analysis.font.flatMap { pango.pango_cairo_font_get_scaled_font(OpaquePointer($0)) }
            faces.append(UInt(bitPattern: scaled.flatMap { cairo_scaled_font_get_font_face($0) }))
        } while pango.pango_layout_iter_next_run(iterator) != 0
        return faces
    }

    /// The outline of `line` laid out with the font set `fonts`, its layout made anew (not one kept for the text).
    static func outline(_ line: TextLine, direction: PangoDirection, fonts: ProjectFonts.FontSet) throws -> Path {
        try ProjectFonts.holding { () throws(RenderError) -> Path in
            let layout = try line.makeLayout(direction: direction, fonts: fonts)
            defer { pango.g_object_unref(UnsafeMutableRawPointer(layout)) }
            let context = try CairoContext(surface: try CairoSurface(unboundedRecording: ()))
            pango.pango_cairo_layout_path(context.pointer, layout)
            return try context.takePath()
        }
    }
}
