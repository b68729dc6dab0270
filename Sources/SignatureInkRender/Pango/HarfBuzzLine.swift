// SPDX-License-Identifier: Apache-2.0
import CCairo
import CPango
import SignatureInk
import Synchronization

/// HarfBuzz's functions, opened on first use and without Pango (see ``PangoLibrary``): four shared objects
/// (HarfBuzz, GLib, Graphite and PCRE) where Pango brings eighteen, and no font map.
enum HarfBuzzLibrary {
    /// The function table, or why HarfBuzz could not be opened.
    static let loaded: Result<CFunctionTable<SIHarfBuzz>, CFunctionTable<SIHarfBuzz>.LoadFailure> =
        CFunctionTable.load { table in StandIns.shared.withLoaded { _ in si_harfbuzz_load(table) } }
}

/// A line of text that one face of Noto Sans has every character of, set by HarfBuzz and drawn by Cairo without
/// Pango: the same glyphs at the same positions, the same metrics and the same bytes in every format as Pango
/// gives the line (``TextLine``), computed as Pango 1.50 computes them.
///
/// Pango's first line in a process opens eighteen shared objects, builds the fontconfig configuration, sorts the
/// faces for each font on two threads of its own per font (thirteen threads for a timestamp and a watermark), and
/// shapes a sample text for each font's metrics; none of that changes a line that Noto Sans sets alone. Counted with
/// callgrind in a new process, `render FILE -o OUT.png --timestamp --watermark DRAFT` takes 9.96 M instructions and
/// 912 page faults this way, 21.7 M and 1,158 through Pango (5.4 ms against 9.8 ms, `/bin/true` 0.8 ms); `sign` of a
/// form with a name and a date 27.6 M against 36.0 M (BENCHMARKS.md).
///
/// Which lines: the language is undetermined (`und`, the default) or English with Latin letters (other languages
/// would choose the font's language-specific forms, which Pango derives from its own tables), the face is not the
/// handwriting one, and every
/// character is a letter of one of Latin, Greek and Cyrillic or a digit, space or punctuation mark that Unicode gives
/// no script, and the face has a glyph for it. Such a line is one Pango item: one script, left to right, one font
/// (the first family, which has every character). Any other line is Pango's, and comes out as it always did.
struct HarfBuzzLine {
    /// A glyph and where Pango puts it: `x` from the line's start and `y` down from the baseline, in Pango units
    /// (1/1024 of an output unit).
    struct Glyph {
        var id: UInt32
        var x: Int32
        var y: Int32
    }

    let text: String
    let face: Face
    /// The em size in Pango units, as a Pango font description keeps it (a whole number).
    let size: Int32
    let glyphs: [Glyph]
    /// The characters' bytes and glyphs, in order, for a PDF's text (Cairo's `show_text_glyphs`).
    let clusters: [cairo_text_cluster_t]
    /// The advance of the line, and the font's ascender and descender (negative below the baseline), in Pango units.
    let width: Int32, ascender: Int32, descender: Int32
    /// How far the glyphs' outlines reach above the baseline and below it (negative above), in Pango units: the
    /// bounding boxes the font gives them (0 and 0 for a line of spaces; ``unbounded`` when a glyph has none).
    let inkTop: Int32, inkBottom: Int32
    /// The reach of a line one of whose glyphs the font gives no box: farther than any page.
    static let unbounded: (top: Int32, bottom: Int32) = (Int32.min / 2, Int32.max / 2)

    /// Pango's glyph for a character that takes no space and is not drawn (`PANGO_GLYPH_EMPTY`).
    static let emptyGlyph: UInt32 = 0x0FFF_FFFF

    /// The line set by HarfBuzz, or `nil` when it is Pango's (see the type's discussion) or HarfBuzz or the face
    /// cannot be opened.
    init?(_ line: TextLine) {
        let language = line.font.language.lowercased()
        guard line.font.size.isFinite, line.font.size > 0, line.font.size < 1_000_000, !line.font.handwriting,
              language == "und" || language == "en", !line.text.isEmpty,
              let script = Self.script(of: line.text), Self.accepts(language: language, script: script),
              case let .success(table) = HarfBuzzLibrary.loaded,
              let face = Face.named(bold: line.font.bold, italic: line.font.italic) else { return nil }
        let hb = table.functions
        // Pango keeps a description's size in whole Pango units, and scales the HarfBuzz font to that size.
        let size = Int32(line.font.size * 1024)
        guard size > 0, let font = face.font(size: size, hb: hb) else { return nil }
        defer { hb.hb_font_destroy(font) }
        for scalar in line.text.unicodeScalars {
            var glyph: hb_codepoint_t = 0
            guard hb.hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 else { return nil }
        }
        guard let buffer = hb.hb_buffer_create() else { return nil }
        defer { hb.hb_buffer_destroy(buffer) }
        let bytes = Int32(line.text.utf8.count)
        let utf8 = Array(line.text.utf8)
        guard Self.shape(utf8, offset: 0, length: utf8.count, font: font, script: script, language: language,
                         buffer: buffer, hb: hb) else { return nil }
        let count = Int(hb.hb_buffer_get_length(buffer))
        guard count > 0, let infos = hb.hb_buffer_get_glyph_infos(buffer, nil),
              let positions = hb.hb_buffer_get_glyph_positions(buffer, nil) else { return nil }
        var glyphs: [Glyph] = [], clusters: [cairo_text_cluster_t] = []
        glyphs.reserveCapacity(count)
        var x: Int32 = 0
        var inkTop: Int32 = 0, inkBottom: Int32 = 0
        var k = 0
        while k < count {
            // One cluster: the glyphs of the same characters; its bytes run to the next cluster's first.
            let start = infos[k].cluster
            var drawn: Int32 = 0
            var end = k
            while end < count, infos[end].cluster == start {
                let p = positions[end]
                if infos[end].codepoint != Self.emptyGlyph {
                    let glyph = Glyph(id: infos[end].codepoint, x: x &+ p.x_offset, y: 0 &- p.y_offset)
                    glyphs.append(glyph)
                    drawn += 1
                    // HarfBuzz measures up from the glyph's origin; a height goes down (negative). A glyph it cannot
                    // measure leaves the line's reach unbounded.
                    var box = hb_glyph_extents_t()
                    if hb.hb_font_get_glyph_extents(font, glyph.id, &box) == 0 {
                        (inkTop, inkBottom) = (Self.unbounded.top, Self.unbounded.bottom)
                    } else if box.height != 0 {
                        inkTop = Swift.min(inkTop, glyph.y &- box.y_bearing)
                        inkBottom = Swift.max(inkBottom, glyph.y &- box.y_bearing &- box.height)
                    }
                }
                x = x &+ p.x_advance
                end += 1
            }
            let next = end < count ? infos[end].cluster : UInt32(bytes)
            guard next > start else { return nil }
            clusters.append(cairo_text_cluster_t(num_bytes: Int32(next - start), num_glyphs: drawn))
            k = end
        }
        var extents = hb_font_extents_t()
        guard hb.hb_font_get_h_extents(font, &extents) != 0 else { return nil }
        self.text = line.text
        self.face = face
        self.size = size
        self.glyphs = glyphs
        self.clusters = clusters
        self.width = x
        self.ascender = extents.ascender
        self.descender = extents.descender
        self.inkTop = inkTop
        self.inkBottom = inkBottom
    }

    /// Shapes `length` bytes of `text` from `offset` into `buffer` (emptied first) as Pango shapes an item of a
    /// paragraph: left to right in `script` and `language`, clusters of whole characters, the text before and after
    /// the item as its context, Pango's empty glyph for what is not drawn, and the features the project's
    /// configuration gives Noto Sans (``ProjectFonts/configuration(_:)``: no optional ligatures).
    /// - Returns: `false` when a feature cannot be read.
    static func shape(_ text: [UInt8], offset: Int, length: Int, font: OpaquePointer, script: hb_script_t,
                      language: String, buffer: OpaquePointer, hb: SIHarfBuzz) -> Bool {
        hb.hb_buffer_clear_contents(buffer)
        hb.hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb.hb_buffer_set_script(buffer, script)
        hb.hb_buffer_set_language(buffer, hb.hb_language_from_string(language, -1))
        hb.hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS)
        hb.hb_buffer_set_flags(buffer, hb_buffer_flags_t(HB_BUFFER_FLAG_BOT.rawValue | HB_BUFFER_FLAG_EOT.rawValue))
        hb.hb_buffer_set_invisible_glyph(buffer, emptyGlyph)
        text.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // As Pango adds an item: its context before, the item, its context after.
                let base = chars.baseAddress
                hb.hb_buffer_add_utf8(buffer, base, Int32(offset), UInt32(offset), 0)
                hb.hb_buffer_add_utf8(buffer, base, Int32(offset + length), UInt32(offset), Int32(length))
                hb.hb_buffer_add_utf8(buffer, base, Int32(text.count), UInt32(offset + length), 0)
            }
        }
        var features = [hb_feature_t](repeating: hb_feature_t(), count: 2)
        for (k, feature) in ["liga=0", "clig=0"].enumerated() {
            guard hb.hb_feature_from_string(feature, -1, &features[k]) != 0 else { return false }
            features[k].start = 0
            features[k].end = UInt32.max
        }
        hb.hb_shape(font, buffer, features, UInt32(features.count))
        return true
    }

    /// Pango's logical extents of the line: the advance, and the font's ascender above and descender below.
    var metrics: TextLine.Metrics {
        TextLine.Metrics(width: Double(width) / 1024, ascent: Double(ascender) / 1024,
                         height: Double(ascender - descender) / 1024, missing: [])
    }

    /// Draws the glyphs with the context's source, or adds their outlines to its path (`path`), the line's top-left
    /// corner at `origin`, as `pango_cairo_show_layout` and `pango_cairo_layout_path` do: the corner taken back
    /// from the context as its current point (Cairo keeps it in 1/256 of a device unit), the glyphs with the
    /// characters they stand for where the surface keeps text (PDF), and the current point moved back to the corner.
    func render(at origin: Point, on context: CairoContext, path: Bool) throws(RenderError) {
        // Cairo opens and closes FreeType faces as it draws: where no other thread does so for Pango.
        try ProjectFonts.excludingOtherText { () throws(RenderError) in try draw(at: origin, on: context, path: path) }
    }

    private func draw(at origin: Point, on context: CairoContext, path: Bool) throws(RenderError) {
        let cr = context.pointer
        cairo_move_to(cr, origin.x, origin.y)
        var cornerX = 0.0, cornerY = 0.0
        cairo_get_current_point(cr, &cornerX, &cornerY)
        let baseY = cornerY + Double(ascender) / 1024
        var placed = glyphs.map { glyph in
            cairo_glyph_t(index: UInt(glyph.id), x: cornerX + Double(glyph.x) / 1024,
                          y: glyph.y == 0 ? baseY : baseY + Double(glyph.y) / 1024)
        }
        guard let scaled = face.scaledFont(size: Double(size) / 1024) else {
            throw .text("Cairo could not make a font of \(face.file)")
        }
        defer { cairo_scaled_font_destroy(scaled) }
        cairo_save(cr)
        cairo_set_scaled_font(cr, scaled)
        if path {
            cairo_glyph_path(cr, &placed, Int32(placed.count))
        } else if cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0 {
            var clusters = clusters
            cairo_show_text_glyphs(cr, text, Int32(text.utf8.count), &placed, Int32(placed.count), &clusters,
                                   Int32(clusters.count), cairo_text_cluster_flags_t(rawValue: 0))
        } else {
            cairo_show_glyphs(cr, &placed, Int32(placed.count))
        }
        cairo_restore(cr)
        cairo_move_to(cr, cornerX, cornerY)
        try context.check()
    }

    /// Whether text of `script` in `language` (lowercased) is set here: undetermined text of any script this type
    /// takes, and English in Latin letters (or characters of no script). Pango shapes an item in the language it
    /// derives from the text's and the script's (`compute_derived_language`): the text's own where it writes the
    /// script, which for English is Latin; for Greek or Cyrillic in English it would take another.
    static func accepts(language: String, script: hb_script_t) -> Bool {
        language == "und" || (language == "en" && (script == HB_SCRIPT_LATIN || script == HB_SCRIPT_COMMON))
    }

    /// The HarfBuzz script of a text whose every character is a letter of one of Latin, Greek and Cyrillic or a
    /// character of no script (digits, spaces, punctuation), as Pango itemizes it (its characters of no script take
    /// the script of the letters; a text of none is `Zyyy`); `nil` for any other text, and for characters Pango
    /// draws in its own way (controls, format characters, line and paragraph separators, combining marks, and
    /// U+2027 HYPHENATION POINT, which a test of random lines found Pango draws otherwise).
    static func script(of text: String) -> hb_script_t? {
        var script = HB_SCRIPT_COMMON
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let own: hb_script_t
            switch v {
            case 0x20...0x40, 0x5B...0x60, 0x7B...0x7E, 0xA0...0xA9, 0xAB...0xAC, 0xAE...0xB9, 0xBB...0xBF, 0xD7, 0xF7,
                 0x2010...0x2026, 0x2030...0x205E, 0x20A0...0x20C0:
                own = HB_SCRIPT_COMMON
            case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2AF, 0x1E00...0x1EFF:
                own = HB_SCRIPT_LATIN
            case 0x386, 0x388...0x38A, 0x38C, 0x38E...0x3A1, 0x3A3...0x3E1, 0x3F0...0x3FF:
                own = HB_SCRIPT_GREEK
            case 0x400...0x482, 0x48A...0x52F:
                own = HB_SCRIPT_CYRILLIC
            default:
                return nil
            }
            if own == HB_SCRIPT_COMMON { continue }
            if script == HB_SCRIPT_COMMON { script = own } else if script != own { return nil }
        }
        return script
    }

    /// One face of Noto Sans: HarfBuzz's face of the file, and the Cairo font face Pango draws it with.
    final class Face: @unchecked Sendable {
        let file: String
        /// HarfBuzz's face, immutable (shared by every thread).
        let harfBuzz: OpaquePointer
        /// The Cairo font face, with the options Pango's patterns carry (see ``ProjectFonts/openEveryFace()``).
        let cairo: OpaquePointer

        private init?(file: String) {
            guard case let .success(table) = HarfBuzzLibrary.loaded else { return nil }
            let hb = table.functions
            guard let blob = hb.hb_blob_create_from_file(file) else { return nil }
            defer { hb.hb_blob_destroy(blob) }
            guard let face = hb.hb_face_create(blob, 0) else { return nil }
            hb.hb_face_make_immutable(face)
            guard let pattern = FcPatternCreate() else {
                hb.hb_face_destroy(face)
                return nil
            }
            defer { FcPatternDestroy(pattern) }
            FcPatternAddString(pattern, FC_FILE, file)
            FcPatternAddInteger(pattern, FC_INDEX, 0)
            let options = ProjectFonts.makeFontOptions()
            defer { cairo_font_options_destroy(options) }
            cairo_ft_font_options_substitute(options, pattern)
            guard let cairoFace = cairo_ft_font_face_create_for_pattern(pattern),
                  cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS else {
                hb.hb_face_destroy(face)
                return nil
            }
            self.file = file
            self.harfBuzz = face
            self.cairo = cairoFace
        }

        /// HarfBuzz's font of the face at `size` Pango units as Pango makes it (the caller destroys it): scaled to the
        /// size, with the point size Pango's pattern carries at its 96 dots an inch.
        func font(size: Int32, hb: SIHarfBuzz) -> OpaquePointer? {
            guard let font = hb.hb_font_create(harfBuzz) else { return nil }
            hb.hb_font_set_scale(font, size, size)
            hb.hb_font_set_ptem(font, Float(Double(size) * (72.0 / 1024.0 / 96.0)))
            return font
        }

        /// Cairo's font of the face at `size` output units, as Pango makes it: the font matrix of a pattern without
        /// a matrix of its own, turned by no gravity, no device transformation, and the contexts' options. The
        /// caller destroys it.
        func scaledFont(size: Double) -> OpaquePointer? {
            var matrix = cairo_matrix_t(), gravity = cairo_matrix_t(), font = cairo_matrix_t(), ctm = cairo_matrix_t()
            cairo_matrix_init(&matrix, 1, -0.0, -0.0, 1, 0, 0)
            cairo_matrix_scale(&matrix, size, size)
            cairo_matrix_init_rotate(&gravity, 0)
            cairo_matrix_multiply(&font, &matrix, &gravity)
            cairo_matrix_init(&ctm, 1, 0, 0, 1, 0, 0)
            let options = ProjectFonts.makeFontOptions()
            defer { cairo_font_options_destroy(options) }
            guard let scaled = cairo_scaled_font_create(cairo, &font, &ctm, options) else { return nil }
            guard cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else {
                cairo_scaled_font_destroy(scaled)
                return nil
            }
            return scaled
        }

        /// The faces opened so far, by style (regular, bold, italic, bold italic); each is opened once and kept.
        private static let opened = Mutex<[Int: Face]>([:])

        /// The Noto Sans face of the style, opened on first use where no other thread sets text (a Cairo font face
        /// made beside Pango's, on another thread, corrupts Cairo's list of them: ``ProjectFonts``); `nil` when
        /// HarfBuzz or the file cannot be opened.
        static func named(bold: Bool, italic: Bool) -> Face? {
            let style = (bold ? 1 : 0) + (italic ? 2 : 0)
            if let face = opened.withLock({ $0[style] }) { return face }
            return (try? ProjectFonts.excludingOtherText { () -> Face? in open(style) }) ?? nil
        }

        /// The face of `style` (bit 0 bold, bit 1 italic), opened if it is not yet.
        private static func open(_ style: Int) -> Face? {
            opened.withLock { faces in
                if let face = faces[style] { return face }
                let name = ["NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf", "NotoSans-BoldItalic.ttf"][style]
                guard let face = Face(file: "\(ProjectFonts.notoFolder)/\(name)") else { return nil }
                faces[style] = face
                return face
            }
        }

        /// Opens every style's face, for ``ProjectFonts/openEveryFace()``, which holds the text lock: so that no
        /// thread adds a Cairo font face afterwards.
        static func openEvery() {
            for style in 0..<4 { _ = open(style) }
        }
    }
}
