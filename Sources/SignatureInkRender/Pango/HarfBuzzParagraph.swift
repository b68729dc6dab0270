// SPDX-License-Identifier: Apache-2.0
import CCairo
import CPango
import SignatureInk

/// A paragraph that Noto Sans sets alone, broken into lines and shaped by HarfBuzz without Pango: the same lines,
/// glyphs, positions and bytes in every format as Pango 1.50 gives the paragraph (``Paragraph``), computed as Pango
/// computes them.
///
/// Pango lays a paragraph out through its itemizer, its attribute lists and its line breaker, and measures every
/// font it uses by laying out a sample sentence (`pango_font_get_metrics`, which its line breaker asks for); of the
/// study consent's 81 M instructions (callgrind), Pango's pagination of the paragraphs took 22 M, 13 M of them in
/// HarfBuzz shaping 4,073 code points for the 1,771 characters. None of that changes a paragraph whose every
/// character one face of Noto Sans has.
///
/// Which paragraphs: those whose every run ``HarfBuzzLine`` would set (one script of Latin, Greek and Cyrillic and
/// characters of no script; undetermined language, or English for Latin text), bold, italic or links among them,
/// with no empty run and no trailing space, set left to right, and whose characters all have a line-breaking class
/// this type knows (``breakClass(_:)``). A paragraph whose line breaking would need Pango's character wrapping (a
/// word wider than the line) is Pango's too: ``init(_:width:)`` returns `nil` as soon as it sees one.
///
/// The line breaker is Pango 1.50's `process_line` and `process_item` (`pango-layout.c`) for text without tabs,
/// letter spacing, ellipsizing, indents or justification, and the break opportunities its `pango_default_break`
/// (`break.c`, Unicode's line-breaking rules as Pango applies them) finds between the characters of those classes.
/// Links are drawn as Pango's renderer draws a foreground colour and a single underline (`pango-renderer.c`): the
/// runs cut at the links' ends once the lines are set, the underline at the font's own position and thickness.
///
/// With the paragraphs of the study consent set here, `signature-ink consent` takes 60.0 M instructions instead of
/// 81.2 M (callgrind), opens no Pango library, and runs in 0.68 of the time in a new process (BENCHMARKS.md).
struct HarfBuzzParagraph {
    /// A glyph as Pango keeps it, in Pango units (1/1024 of an output unit): its advance, and its offsets right
    /// and down.
    struct Glyph {
        var id: UInt32
        var width: Int32
        var xOffset: Int32
        var yOffset: Int32
    }

    /// Consecutive glyphs of one face: a piece of the text, as a line shows it.
    struct Run {
        /// Where its characters are in the paragraph's text, in bytes.
        var offset: Int, length: Int
        /// The face: bit 0 bold, bit 1 italic.
        var style: Int
        var glyphs: [Glyph]
        /// The index of the link the run is part of in ``HarfBuzzParagraph/links``, or `nil`.
        var link: Int? = nil
        /// The run's advance.
        var width: Int32 { glyphs.reduce(0) { $0 &+ $1.width } }
    }

    /// One line: its runs in order, and its extents in Pango units.
    struct Line {
        var runs: [Run]
        /// The bytes of the paragraph's text the line holds.
        var bytes: Range<Int> { (runs.first?.offset ?? 0)..<(runs.last.map { $0.offset + $0.length } ?? 0) }
        /// The line's logical rectangle: its top above the baseline (negative), its height and its advance.
        var top: Int32, height: Int32, width: Int32
        /// The tallest of its fonts' line heights (ascent, descent and line gap), which line spacing multiplies.
        var fontHeight: Int32
    }

    /// The paragraph's text as UTF-8.
    let text: [UInt8]
    /// The link runs' bytes and targets, in order.
    let links: [(bytes: Range<Int>, target: String)]
    /// The colour of link runs (Pango's foreground attribute, 16 bits a channel).
    let linkColor: (red: Double, green: Double, blue: Double)
    /// Each face's underline thickness and position (below the baseline, negative), in Pango units.
    let underlines: [(thickness: Int32, position: Int32)]
    /// Each face's ascender and descender (negative), in Pango units.
    let metrics: [(ascender: Int32, descender: Int32)]
    let lines: [Line]
    /// The em size in Pango units, as a Pango font description keeps it.
    let size: Int32
    let faces: [HarfBuzzLine.Face?]
    let centered: Bool
    /// The width the lines are set in, in Pango units.
    let width: Int32
    /// The line spacing as Pango keeps it (a float), and as the paragraph gives it.
    let lineSpacing: Float, spacing: Double

    /// Pango's glyph for a character that takes no space and is not drawn (`PANGO_GLYPH_EMPTY`).
    static let emptyGlyph = HarfBuzzLine.emptyGlyph

    /// The paragraph set in `width` output units, or `nil` when it is Pango's (see the type's discussion).
    init?(_ paragraph: Paragraph, width lineWidth: Double) {
        let font = paragraph.font
        let language = font.language.lowercased()
        guard font.size.isFinite, font.size > 0, font.size < 1_000_000, !font.handwriting,
              language == "und" || language == "en", paragraph.direction != .rightToLeft,
              lineWidth > 0, lineWidth < 1_000_000, (1...3).contains(paragraph.lineSpacing),
              !paragraph.runs.isEmpty,
              paragraph.runs.allSatisfy({ !$0.text.isEmpty }) else { return nil }
        let whole = paragraph.runs.map(\.text).joined()
        guard let last = whole.unicodeScalars.last, last != " ", let script = HarfBuzzLine.script(of: whole),
              HarfBuzzLine.accepts(language: language, script: script),
              case let .success(table) = HarfBuzzLibrary.loaded else { return nil }
        let hb = table.functions

        // The characters, their classes and the runs' faces; the items are cut where a bold or italic run begins or
        // ends, as Pango's itemizer cuts at every boundary of a font attribute.
        var scalars: [Unicode.Scalar] = [], byteOffsets: [Int] = [], classes: [BreakClass] = []
        var cuts: Set<Int> = [0]
        var styleRanges: [(bytes: Range<Int>, style: Int)] = []
        var links: [(bytes: Range<Int>, target: String)] = []
        var byte = 0
        for run in paragraph.runs {
            let start = byte
            // The paragraph's font is the base; a run's emphasis is an attribute over it.
            let style = (font.bold || run.bold ? 1 : 0) + (font.italic || run.italic ? 2 : 0)
            for scalar in run.text.unicodeScalars {
                guard let c = Self.breakClass(scalar) else { return nil }
                scalars.append(scalar)
                byteOffsets.append(byte)
                classes.append(c)
                byte += UTF8.width(scalar)
            }
            if run.bold || run.italic { cuts.insert(start); cuts.insert(byte) }
            styleRanges.append((start..<byte, style))
            if let target = run.link { links.append((start..<byte, target)) }
        }
        byteOffsets.append(byte)
        cuts.insert(byte)
        let bounds = cuts.sorted()

        let size = Int32(font.size * 1024)
        guard size > 0 else { return nil }
        var fonts: [ShapingFont?] = [nil, nil, nil, nil]
        var faces: [HarfBuzzLine.Face?] = [nil, nil, nil, nil]
        var items: [Item] = []
        var charIndex = 0
        for k in 0..<(bounds.count - 1) {
            let bytes = bounds[k]..<bounds[k + 1]
            guard let style = styleRanges.first(where: { $0.bytes.contains(bytes.lowerBound) })?.style else { return nil }
            if fonts[style] == nil {
                guard let face = HarfBuzzLine.Face.named(bold: style & 1 != 0, italic: style & 2 != 0),
                      let shaping = ShapingFont(face: face, size: size, hb: hb) else { return nil }
                fonts[style] = shaping
                faces[style] = face
            }
            var chars = 0
            while charIndex + chars < scalars.count, byteOffsets[charIndex + chars] < bytes.upperBound { chars += 1 }
            for scalar in scalars[charIndex..<(charIndex + chars)] {
                guard fonts[style]!.has(scalar, hb: hb) else { return nil }
            }
            items.append(Item(offset: bytes.lowerBound, length: bytes.count, start: charIndex, chars: chars, style: style))
            charIndex += chars
        }

        let breaks = Self.lineBreaks(classes)
        guard let buffer = hb.hb_buffer_create() else { return nil }
        defer { hb.hb_buffer_destroy(buffer) }
        let textBytes = Array(whole.utf8)
        let width = Int32((lineWidth * 1024).rounded(.down))
        var breaker = LineBreaker(text: textBytes, byteOffsets: byteOffsets, breaks: breaks, classes: classes,
                                  fonts: fonts, script: script, language: language, buffer: buffer, hb: hb,
                                  items: items, lineWidth: width)
        guard let laid = breaker.run() else { return nil }
        self.underlines = fonts.map { $0?.underline ?? (0, 0) }
        self.metrics = fonts.map { ($0?.metrics.ascender ?? 0, $0?.metrics.descender ?? 0) }

        self.text = textBytes
        self.links = links
        let c = paragraph.linkColor
        // As Pango's foreground attribute keeps the colour, and its Cairo renderer hands it over.
        self.linkColor = (Double(UInt16(c.red) * 257) / 65535, Double(UInt16(c.green) * 257) / 65535,
                          Double(UInt16(c.blue) * 257) / 65535)
        self.lines = laid.map { line in
            var top: Int32 = 0, bottom: Int32 = 0, advance: Int32 = 0, fontHeight: Int32 = 0
            for run in line {
                let metrics = fonts[run.style]!.metrics
                // Every glyph's logical rectangle spans its font's ascent and descent, an empty one's too.
                top = Swift.min(top, -metrics.ascender)
                bottom = Swift.max(bottom, -metrics.descender)
                advance &+= run.width
                fontHeight = Swift.max(fontHeight, abs(metrics.height))
            }
            return Line(runs: Self.split(line, at: links, in: textBytes), top: top, height: bottom - top,
                        width: advance, fontHeight: fontHeight)
        }
        self.size = size
        self.faces = faces
        self.centered = paragraph.centered
        self.width = width
        self.lineSpacing = Float(paragraph.lineSpacing)
        self.spacing = paragraph.lineSpacing
    }

    /// Each line's left edge, its top and height and its baseline from the paragraph's top, in output units, as
    /// Pango's layout iterator gives them with the paragraph's line spacing (the first baseline at the first line's
    /// ascent, each next one a spacing times its line's font height below the one before, in Pango's float
    /// arithmetic).
    var boxes: [(x: Double, top: Double, height: Double, baseline: Double)] {
        var baselines: [Int32] = []
        for (i, line) in lines.enumerated() {
            if i == 0 {
                baselines.append(-line.top)
            } else {
                baselines.append(Int32(Float(baselines[i - 1]) + lineSpacing * Float(line.fontHeight)))
            }
        }
        let firstHeight = Double(lines.first?.height ?? 0) / 1024
        // A paragraph of one line takes the spacing as the paragraph gives it, not as Pango's float keeps it.
        let pitch = baselines.count > 1 ? Double(baselines[1] - baselines[0]) / 1024 : firstHeight * spacing
        return lines.indices.map { i in
            let x = Double(xOffset(of: lines[i])) / 1024
            let baseline = Double(baselines[i]) / 1024
            let height = i + 1 < baselines.count ? Double(baselines[i + 1] - baselines[i]) / 1024 : pitch
            return (x, baseline - Double(baselines[0]) / 1024, height, Double(baselines[0]) / 1024)
        }
    }

    /// A line's offset from the paragraph's left edge, in Pango units (`get_x_offset`).
    private func xOffset(of line: Line) -> Int32 {
        guard centered, width != 0 else { return 0 }
        var x = (width - line.width) / 2
        if (width | line.width) & 1023 == 0 { x = (x + 512) & ~1023 }
        return x
    }

    /// The text of some lines.
    func text(lines range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        let start = lines[range.lowerBound].bytes.lowerBound, end = lines[range.upperBound - 1].bytes.upperBound
        return String(decoding: text[start..<end], as: UTF8.self)
    }

    /// Draws one line with the context's source, the start of its baseline at the context's current point, as
    /// `pango_cairo_show_layout_line` draws it: each run's glyphs with the characters they stand for where the
    /// surface keeps text (PDF), the run placed at the advance of the runs before it.
    func draw(line index: Int, on context: CairoContext) throws(RenderError) {
        try ProjectFonts.excludingOtherText { () throws(RenderError) in
            let cr = context.pointer
            var cornerX = 0.0, cornerY = 0.0
            cairo_get_current_point(cr, &cornerX, &cornerY)
            let withText = cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0
            var runX: Int32 = 0
            // Pango's renderer joins the underlines of consecutive link runs of one font. It draws one, in the link
            // colour, when the underline colour changes (a run that is not a link follows: then as far as the
            // link's advance reaches), when a link run of another underline follows, or when the line ends.
            var underline: (x: Int32, y: Int32, width: Int32, height: Int32)? = nil
            var linkColourSet = false
            func drawUnderline() {
                guard let u = underline else { return }
                underline = nil
                cairo_save(cr)
                if linkColourSet { cairo_set_source_rgba(cr, linkColor.red, linkColor.green, linkColor.blue, 1) }
                cairo_rectangle(cr, cornerX + Double(u.x) / 1024, cornerY + Double(u.y) / 1024, Double(u.width) / 1024,
                                Double(u.height) / 1024)
                cairo_fill(cr)
                cairo_restore(cr)
            }
            var scaledFonts: [OpaquePointer?] = [nil, nil, nil, nil]
            defer { for scaled in scaledFonts { if let scaled { cairo_scaled_font_destroy(scaled) } } }
            for run in lines[index].runs {
                defer { runX &+= run.width }
                if (run.link != nil) != linkColourSet {
                    if underline != nil { underline!.width = runX &- underline!.x }
                    drawUnderline()
                    linkColourSet = run.link != nil
                }
                guard let face = faces[run.style] else { throw .text("a face of the paragraph was not opened") }
                let baseX = cornerX + Double(runX) / 1024, baseY = cornerY
                var placed: [cairo_glyph_t] = []
                placed.reserveCapacity(run.glyphs.count)
                var clusters: [cairo_text_cluster_t] = []
                var x: Int32 = 0
                for glyph in run.glyphs {
                    // One character a glyph (the paragraph's characters are single clusters).
                    if glyph.id != Self.emptyGlyph {
                        placed.append(cairo_glyph_t(index: UInt(glyph.id), x: baseX + Double(x &+ glyph.xOffset) / 1024,
                                                    y: glyph.yOffset == 0 ? baseY : baseY + Double(glyph.yOffset) / 1024))
                    }
                    x &+= glyph.width
                }
                // One Cairo font a face for the line, as Pango keeps one a font.
                if scaledFonts[run.style] == nil {
                    guard let made = face.scaledFont(size: Double(size) / 1024) else {
                        throw .text("Cairo could not make a font of \(face.file)")
                    }
                    scaledFonts[run.style] = made
                }
                let scaled = scaledFonts[run.style]!
                cairo_save(cr)
                if run.link != nil { cairo_set_source_rgba(cr, linkColor.red, linkColor.green, linkColor.blue, 1) }
                cairo_set_scaled_font(cr, scaled)
                if withText {
                    var k = 0, byte = run.offset
                    let end = run.offset + run.length
                    while byte < end {
                        let n = Self.sequenceLength(text[byte])
                        clusters.append(cairo_text_cluster_t(num_bytes: Int32(n),
                                                             num_glyphs: run.glyphs[k].id == Self.emptyGlyph ? 0 : 1))
                        byte += n
                        k += 1
                    }
                    text[run.offset..<end].withUnsafeBufferPointer { bytes in
                        bytes.withMemoryRebound(to: CChar.self) { chars in
                            cairo_show_text_glyphs(cr, chars.baseAddress, Int32(run.length), &placed, Int32(placed.count),
                                                   &clusters, Int32(clusters.count), cairo_text_cluster_flags_t(rawValue: 0))
                        }
                    }
                } else {
                    cairo_show_glyphs(cr, &placed, Int32(placed.count))
                }
                cairo_restore(cr)
                if run.link != nil {
                    // The run's underline: under its ink and its advance, whichever reaches farther.
                    let ink = Self.inkExtents(of: run.glyphs, scaled: scaled)
                    let u = underlines[run.style]
                    let new = (x: runX &+ Swift.min(ink.x, 0), y: 0 &- u.position, width: Swift.max(ink.width, run.width),
                               height: u.thickness)
                    if let current = underline, current.y == new.y, current.height == new.height {
                        underline?.width = new.x &+ new.width &- current.x
                    } else {
                        drawUnderline()
                        underline = new
                    }
                }
            }
            drawUnderline()
            cairo_move_to(cr, cornerX, cornerY)
            try context.check()
        }
    }

    /// A line's runs cut where a link begins or ends, each piece marked with its link, as Pango applies the
    /// attributes that neither choose fonts nor change shaping to a laid-out line (`apply_attributes_to_runs`).
    private static func split(_ runs: [Run], at links: [(bytes: Range<Int>, target: String)], in text: [UInt8]) -> [Run] {
        guard !links.isEmpty else { return runs }
        let bounds = Set(links.flatMap { [$0.bytes.lowerBound, $0.bytes.upperBound] })
        var pieces: [Run] = []
        for run in runs {
            let end = run.offset + run.length
            var start = run.offset, byte = run.offset, glyph = 0, chars = 0
            // One glyph a character: a piece ends at the run's end or at a link's bound inside it.
            while byte < end {
                byte += sequenceLength(text[byte])
                chars += 1
                guard byte == end || bounds.contains(byte) else { continue }
                var piece = Run(offset: start, length: byte - start, style: run.style,
                                glyphs: Array(run.glyphs[glyph..<(glyph + chars)]))
                piece.link = links.firstIndex { $0.bytes.contains(start) }
                pieces.append(piece)
                start = byte
                glyph += chars
                chars = 0
            }
        }
        return pieces
    }

    /// The rectangles of a line's link runs, relative to the start of its baseline, in output units: each run's
    /// logical rectangle (its advance, its font's ascent and descent).
    func linkAreas(line index: Int) -> [(x: Double, y: Double, width: Double, height: Double, target: String)] {
        guard !links.isEmpty else { return [] }
        var areas: [(x: Double, y: Double, width: Double, height: Double, target: String)] = []
        var x: Int32 = 0
        for run in lines[index].runs {
            let width = run.width
            if let link = run.link {
                let m = metrics[run.style]
                areas.append((Double(x) / 1024, Double(-m.ascender) / 1024, Double(width) / 1024,
                              Double(m.ascender - m.descender) / 1024, links[link].target))
            }
            x &+= width
        }
        return areas
    }

    /// The union of the glyphs' ink rectangles, in Pango units, as Pango measures them: Cairo's extents of each glyph
    /// in whole Pango units, at its place along the run; glyphs without ink add nothing.
    private static func inkExtents(of glyphs: [Glyph], scaled: OpaquePointer) -> (x: Int32, width: Int32) {
        func units(_ d: Double) -> Int32 { Int32((d * 1024 + 0.5).rounded(.down)) }
        var left: Int32 = 0, right: Int32 = 0, any = false
        var x: Int32 = 0
        for glyph in glyphs {
            defer { x &+= glyph.width }
            guard glyph.id != emptyGlyph else { continue }
            var one = cairo_glyph_t(index: UInt(glyph.id), x: 0, y: 0)
            var extents = cairo_text_extents_t()
            cairo_scaled_font_glyph_extents(scaled, &one, 1, &extents)
            let bearing = units(extents.x_bearing), width = units(extents.width), height = units(extents.height)
            guard width != 0, height != 0 else { continue }
            let start = x &+ bearing &+ glyph.xOffset
            if !any {
                left = start
                right = start &+ width
                any = true
            } else {
                left = Swift.min(left, start)
                right = Swift.max(right, start &+ width)
            }
        }
        return any ? (left, right &- left) : (0, 0)
    }

    /// The bytes of the UTF-8 sequence that starts with `lead`.
    static func sequenceLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    }

    // MARK: Items and fonts

    /// A run of characters in one face, as Pango's itemizer cuts the paragraph (`PangoItem`).
    struct Item {
        /// Its bytes in the paragraph's text.
        var offset: Int, length: Int
        /// Its first character's index, and how many characters it holds.
        var start: Int, chars: Int
        var style: Int
    }

    /// A HarfBuzz font of one face at the paragraph's size, as Pango makes it, and the metrics Pango takes from it;
    /// destroyed with the last reference.
    final class ShapingFont {
        let font: OpaquePointer
        private let hb: SIHarfBuzz
        let metrics: (ascender: Int32, descender: Int32, height: Int32)
        /// Three times Pango's approximate character width: the margin its line breaker measures breaks within.
        private var cachedSafeDistance: Int32 = -1

        init?(face: HarfBuzzLine.Face, size: Int32, hb: SIHarfBuzz) {
            guard let font = face.font(size: size, hb: hb) else { return nil }
            var extents = hb_font_extents_t()
            guard hb.hb_font_get_h_extents(font, &extents) != 0 else {
                hb.hb_font_destroy(font)
                return nil
            }
            self.font = font
            self.hb = hb
            metrics = (extents.ascender, extents.descender, extents.ascender - extents.descender + extents.line_gap)
            // The font's own underline, or Pango's fallbacks: one unit thick, one unit below the baseline.
            var thickness: hb_position_t = 0, offset: hb_position_t = 0
            let hasThickness = hb.hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_UNDERLINE_SIZE, &thickness) != 0
            let hasOffset = hb.hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_UNDERLINE_OFFSET, &offset) != 0
            underline = (hasThickness && thickness != 0 ? thickness : 1024, hasOffset && offset != 0 ? offset : -1024)
        }

        /// The underline's thickness and position, in Pango units (`pango_font_metrics_get_underline_*`).
        let underline: (thickness: Int32, position: Int32)

        func has(_ scalar: Unicode.Scalar, hb: SIHarfBuzz) -> Bool {
            var glyph: hb_codepoint_t = 0
            return hb.hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0
        }

        /// Pango's metrics lay the language's sample sentence out (the default one for English and undetermined
        /// text) in a context that rounds glyph positions to whole units, and divide its width by its 44 characters.
        func safeDistance(buffer: OpaquePointer, language: String, hb: SIHarfBuzz) -> Int32? {
            if cachedSafeDistance >= 0 { return cachedSafeDistance }
            let sample = Array("The quick brown fox jumps over the lazy dog.".utf8)
            guard let glyphs = HarfBuzzParagraph.shape(sample, offset: 0, length: sample.count, font: font,
                                                       script: HB_SCRIPT_LATIN, language: language, buffer: buffer,
                                                       hb: hb) else { return nil }
            let width = glyphs.reduce(Int32(0)) { $0 &+ (($1.width &+ 512) & ~1023) }
            cachedSafeDistance = width / Int32(sample.count) * 3
            return cachedSafeDistance
        }

        deinit { hb.hb_font_destroy(font) }
    }

    /// The glyphs of `length` bytes of `text` from `offset`, shaped as Pango shapes an item of a paragraph (the
    /// paragraph's text before and after it as context, the project's features for Noto Sans), or `nil` when a
    /// character does not come out as one glyph of its own.
    static func shape(_ text: [UInt8], offset: Int, length: Int, font: OpaquePointer, script: hb_script_t,
                      language: String, buffer: OpaquePointer, hb: SIHarfBuzz) -> [Glyph]? {
        guard HarfBuzzLine.shape(text, offset: offset, length: length, font: font, script: script, language: language,
                                 buffer: buffer, hb: hb) else { return nil }
        let count = Int(hb.hb_buffer_get_length(buffer))
        guard let infos = hb.hb_buffer_get_glyph_infos(buffer, nil),
              let positions = hb.hb_buffer_get_glyph_positions(buffer, nil) else { return count == 0 ? [] : nil }
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(count)
        var expected = offset
        for k in 0..<count {
            guard Int(infos[k].cluster) == expected else { return nil }
            expected += sequenceLength(text[expected])
            let p = positions[k]
            glyphs.append(Glyph(id: infos[k].codepoint, width: p.x_advance, xOffset: p.x_offset, yOffset: 0 &- p.y_offset))
        }
        guard expected == offset + length else { return nil }
        return glyphs
    }

    // MARK: Break opportunities

    /// The line-breaking classes (Unicode's UAX #14, as GLib assigns them) of the characters a paragraph set here
    /// may hold.
    enum BreakClass {
        case alphabetic, numeric, space, exclamation, quotation, prefix, postfix, open, closeParenthesis,
             closePunctuation, infix, hyphen, symbol, after, beforeAndAfter
    }

    /// The class of a character this type breaks as Pango does, or `nil` for any other (the paragraph is then
    /// Pango's): letters of Latin, Greek and Cyrillic (the ranges ``HarfBuzzLine`` takes), ASCII's digits and
    /// punctuation, and a few marks of general punctuation and currency.
    static func breakClass(_ scalar: Unicode.Scalar) -> BreakClass? {
        switch scalar.value {
        case 0x20: .space
        case 0x21, 0x3F: .exclamation
        case 0x22, 0x27, 0x2018, 0x2019, 0x201C, 0x201D: .quotation
        case 0x24, 0x2B, 0x5C, 0xA3, 0x20AC: .prefix
        case 0x25, 0xB0: .postfix
        case 0x28, 0x5B, 0x7B: .open
        case 0x29, 0x5D: .closeParenthesis
        case 0x7D: .closePunctuation
        case 0x2C, 0x2E, 0x3A, 0x3B: .infix
        case 0x2D: .hyphen
        case 0x2F: .symbol
        case 0x7C, 0x2013: .after
        case 0x2014: .beforeAndAfter
        case 0x30...0x39: .numeric
        case 0x23, 0x26, 0x2A, 0x3C...0x3E, 0x40...0x5A, 0x5E...0x7A, 0x7E, 0xA9, 0xAE, 0xC0...0xD6, 0xD8...0xF6,
             0xF8...0x24F, 0x250...0x2AF, 0x386, 0x388...0x38A, 0x38C, 0x38E...0x3A1, 0x3A3...0x3F5, 0x3F7...0x3FF,
             0x400...0x482, 0x48A...0x52F, 0x1E00...0x1EFF:
            .alphabetic
        default: nil
        }
    }

    /// Where a line may break: before character `i` when element `i` is true (never before the first), as
    /// `pango_default_break` decides it for these classes (its rules LB7 to LB31, with LB25 as the rules'
    /// example 7 of customization).
    static func lineBreaks(_ classes: [BreakClass]) -> [Bool] {
        enum Numeric { case other, numeric, numericClose }
        var result = [Bool](repeating: false, count: classes.count + 1)
        result[classes.count] = true
        var prev: BreakClass? = nil, prevPrev: BreakClass? = nil
        var prevNumeric = Numeric.other
        for (i, c) in classes.enumerated() {
            let next: BreakClass? = i + 1 < classes.count ? classes[i + 1] : nil
            // The class before the spaces, and "unknown" (the start) read as alphabetic.
            let row = (prev == .space ? prevPrev : prev) ?? .alphabetic
            var numeric = Numeric.other
            if c == .numeric { numeric = .numeric }
            if c == .closeParenthesis || c == .closePunctuation { numeric = prevNumeric == .numeric ? .numericClose : .other }
            var prohibited: Bool? = nil
            func isOneOf(_ x: BreakClass?, _ set: BreakClass...) -> Bool { x.map { set.contains($0) } ?? false }
            // LB30
            if isOneOf(prev, .alphabetic, .numeric) && c == .open { prohibited = true }
            if prev == .closeParenthesis && isOneOf(c, .alphabetic, .numeric) { prohibited = true }
            // LB29, LB28
            if prev == .infix && c == .alphabetic { prohibited = true }
            if prev == .alphabetic && c == .alphabetic { prohibited = true }
            // LB25
            if isOneOf(prev, .prefix, .postfix) && c == .numeric { prohibited = true }
            if isOneOf(prev, .prefix, .postfix) && isOneOf(c, .open, .hyphen) && next == .numeric { prohibited = true }
            if isOneOf(prev, .open, .hyphen) && c == .numeric { prohibited = true }
            if prev == .numeric && isOneOf(c, .numeric, .symbol, .infix) { prohibited = true }
            if prevNumeric == .numeric && isOneOf(c, .numeric, .symbol, .infix, .closePunctuation, .closeParenthesis) {
                prohibited = true
            }
            if prevNumeric != .other && isOneOf(c, .postfix, .prefix) { prohibited = true }
            // LB24, LB23
            if isOneOf(prev, .prefix, .postfix) && c == .alphabetic { prohibited = true }
            if prev == .alphabetic && isOneOf(c, .prefix, .postfix) { prohibited = true }
            if prev == .alphabetic && c == .numeric { prohibited = true }
            if prev == .numeric && c == .alphabetic { prohibited = true }
            // LB21, LB19, LB18
            if isOneOf(c, .after, .hyphen) { prohibited = true }
            if prev == .quotation || c == .quotation { prohibited = true }
            if prev == .space { prohibited = false }
            // LB17, LB15, LB14
            if row == .beforeAndAfter && c == .beforeAndAfter { prohibited = true }
            if row == .quotation && c == .open { prohibited = true }
            if row == .open { prohibited = true }
            // LB13
            if c == .exclamation { prohibited = true }
            if prev != .numeric && isOneOf(c, .closePunctuation, .closeParenthesis, .infix, .symbol) { prohibited = true }
            // LB7
            if c == .space { prohibited = true }
            if i > 0 { result[i] = !(prohibited ?? false) }
            if isOneOf(c, .numeric, .symbol, .infix) {
                if prevNumeric != .numeric { prevNumeric = numeric }
            } else {
                prevNumeric = numeric
            }
            if c != .space {
                prevPrev = prev
                prev = c
            } else if prev != .space {
                prevPrev = prev
                prev = .space
            }
        }
        return result
    }
}

/// Pango 1.50's line breaker (`process_line` and `process_item` of `pango-layout.c`) for a paragraph of
/// ``HarfBuzzParagraph``: the same decisions from the same widths, each measured break shaped again as Pango shapes
/// it. Where Pango would wrap inside a word or insert a hyphen, it gives up (`nil`), and the paragraph is Pango's.
private struct LineBreaker {
    typealias Item = HarfBuzzParagraph.Item
    typealias Glyph = HarfBuzzParagraph.Glyph

    let text: [UInt8]
    let byteOffsets: [Int]
    let breaks: [Bool]
    /// Each character's line-breaking class, and whether it is a space (Pango's `is_white`).
    let classes: [HarfBuzzParagraph.BreakClass]
    let white: [Bool]
    let fonts: [HarfBuzzParagraph.ShapingFont?]
    let script: hb_script_t
    let language: String
    let buffer: OpaquePointer
    let hb: SIHarfBuzz
    var items: [Item]
    let lineWidth: Int32

    /// The item at the head of ``items`` as it was shaped whole, and the character its remainder starts at.
    var glyphs: [Glyph]? = nil
    var logWidthsOffset = 0
    var startOffset = 0
    var remaining: Int32 = 0
    var runs: [HarfBuzzParagraph.Run] = []
    var runItems: [Item] = []

    init(text: [UInt8], byteOffsets: [Int], breaks: [Bool], classes: [HarfBuzzParagraph.BreakClass],
         fonts: [HarfBuzzParagraph.ShapingFont?], script: hb_script_t, language: String, buffer: OpaquePointer,
         hb: SIHarfBuzz, items: [Item], lineWidth: Int32) {
        self.text = text
        self.byteOffsets = byteOffsets
        self.breaks = breaks
        self.classes = classes
        self.white = classes.map { $0 == .space }
        self.fonts = fonts
        self.script = script
        self.language = language
        self.buffer = buffer
        self.hb = hb
        self.items = items
        self.lineWidth = lineWidth
    }

    enum Result { case allFit, someFit, emptyFit, noneFit }

    /// Each line's runs, or `nil` where Pango would do what this breaker does not.
    mutating func run() -> [[HarfBuzzParagraph.Run]]? {
        var lines: [[HarfBuzzParagraph.Run]] = []
        while !items.isEmpty {
            guard let line = processLine() else { return nil }
            lines.append(line)
        }
        return lines
    }

    private func canBreak(at offset: Int) -> Bool { offset == breaks.count - 1 || breaks[offset] }

    private func canBreak(in start: Int, chars: Int, atStart: Bool) -> Bool {
        var i = atStart ? 0 : 1
        while i < chars {
            if canBreak(at: start + i) { return true }
            i += 1
        }
        return false
    }

    private func shape(_ item: Item) -> [Glyph]? {
        guard let font = fonts[item.style] else { return nil }
        return HarfBuzzParagraph.shape(text, offset: item.offset, length: item.length, font: font.font, script: script,
                                       language: language, buffer: buffer, hb: hb)
    }

    /// The first `chars` characters of `item`.
    private func prefix(_ item: Item, chars: Int) -> Item {
        Item(offset: item.offset, length: byteOffsets[item.start + chars] - item.offset, start: item.start, chars: chars,
             style: item.style)
    }

    private func logWidth(_ k: Int) -> Int32 { glyphs![logWidthsOffset + k].width }

    /// The width a break before character `pos` of the head item adds: less the space before it.
    private func extraWidth(breakingAt pos: Int) -> Int32 {
        pos > 0 && white[startOffset + pos - 1] ? -logWidth(pos - 1) : 0
    }

    private mutating func insert(_ item: Item, glyphs given: [Glyph]?, last: Bool) -> Bool {
        let run: [Glyph]
        if let given {
            run = given
        } else if last && logWidthsOffset == 0, let whole = glyphs {
            run = whole
            glyphs = nil
        } else {
            guard let shaped = shape(item) else { return false }
            run = shaped
        }
        if last { glyphs = nil }
        runs.append(HarfBuzzParagraph.Run(offset: item.offset, length: item.length, style: item.style, glyphs: run))
        runItems.append(item)
        return true
    }

    private mutating func processItem(forceFit: Bool, noBreakAtEnd: Bool, isLastItem: Bool) -> Result? {
        var item = items[0]
        var processingNew = false
        if glyphs == nil {
            guard let shaped = shape(item) else { return nil }
            glyphs = shaped
            logWidthsOffset = 0
            processingNew = true
        }
        var width: Int32 = 0
        if processingNew {
            width = glyphs!.reduce(0) { $0 &+ $1.width }
        } else {
            for i in 0..<item.chars { width &+= logWidth(i) }
        }
        var extraWidth: Int32 = !noBreakAtEnd && canBreak(at: startOffset + item.chars) ? extraWidth(breakingAt: item.chars) : 0
        if (width &+ extraWidth <= remaining || (item.chars == 1 && runs.isEmpty)) && !noBreakAtEnd {
            guard let shaped = logWidthsOffset == 0 ? glyphs : shape(item) else { return nil }
            width = shaped.reduce(0) { $0 &+ $1.width }
            if width &+ extraWidth <= remaining || (item.chars == 1 && runs.isEmpty) {
                guard insert(item, glyphs: shaped, last: true) else { return nil }
                remaining = Swift.max(remaining &- width, 0)
                return .allFit
            }
        }

        var breakWidth = width, breakExtraWidth = extraWidth, breakChars = item.chars
        var breakGlyphs: [Glyph]? = nil
        guard let safe = fonts[item.style]?.safeDistance(buffer: buffer, language: language, hb: hb) else {
            return nil
        }
        width = 0
        var chars = 0
        while chars < (noBreakAtEnd ? item.chars : item.chars + 1) {
            extraWidth = self.extraWidth(breakingAt: chars)
            if Swift.min(width &+ extraWidth, width) > remaining &+ safe && breakChars < item.chars { break }
            if canBreak(at: startOffset + chars) && (chars > 0 || !runs.isEmpty) {
                if chars == 0 || width &+ extraWidth < remaining &- safe {
                    breakChars = chars
                    breakWidth = width
                    breakExtraWidth = extraWidth
                } else {
                    let candidate = chars < item.chars ? prefix(item, chars: chars) : item
                    guard let shaped = candidate.chars == item.chars && logWidthsOffset == 0 ? glyphs : shape(candidate)
                    else { return nil }
                    let newWidth = shaped.reduce(Int32(0)) { $0 &+ $1.width }
                    let isSplit = chars < item.chars
                    if chars > 0 && (isSplit || !isLastItem) && white[startOffset + chars - 1] {
                        extraWidth = -logWidth(chars - 1)
                    } else {
                        extraWidth = 0
                    }
                    if breakChars == item.chars || newWidth &+ extraWidth <= remaining
                        || newWidth &+ extraWidth < breakWidth &+ breakExtraWidth {
                        breakChars = chars
                        breakWidth = newWidth
                        breakExtraWidth = extraWidth
                        breakGlyphs = shaped
                    }
                }
            }
            if chars < item.chars { width &+= logWidth(chars) }
            chars += 1
        }
        // Pango would wrap inside a word here, with a hyphen: left to it.
        if forceFit && breakWidth &+ breakExtraWidth > remaining { return nil }

        if forceFit || breakWidth &+ breakExtraWidth <= remaining {
            remaining = Swift.max(remaining &- (breakWidth &+ breakExtraWidth), 0)
            if breakChars == item.chars {
                guard insert(item, glyphs: nil, last: true) else { return nil }
                return .allFit
            } else if breakChars == 0 {
                return .emptyFit
            } else {
                let first = prefix(item, chars: breakChars)
                // A break before a character that Pango marks for a hyphen (inside a word) is Pango's.
                guard !insertsHyphen(at: item.start + breakChars) else { return nil }
                guard insert(first, glyphs: breakGlyphs, last: false) else { return nil }
                item = Item(offset: first.offset + first.length, length: item.length - first.length,
                            start: item.start + breakChars, chars: item.chars - breakChars, style: item.style)
                items[0] = item
                logWidthsOffset += breakChars
                return .someFit
            }
        } else {
            glyphs = nil
            return .noneFit
        }
    }

    /// Whether Pango would insert a hyphen at a break before character `index`: between two characters of a word
    /// (neither a space nor a hyphen, and letters or digits on both sides). Never at the breaks these classes allow;
    /// checked so that a gap in that argument shows as a paragraph left to Pango, not as a different line.
    private func insertsHyphen(at index: Int) -> Bool {
        guard index > 0, index < classes.count else { return false }
        func isWordCharacter(_ c: HarfBuzzParagraph.BreakClass) -> Bool { c == .alphabetic || c == .numeric }
        return isWordCharacter(classes[index - 1]) && isWordCharacter(classes[index])
    }

    private mutating func processLine() -> [HarfBuzzParagraph.Run]? {
        runs = []
        runItems = []
        remaining = lineWidth
        var haveBreak = false
        var breakRemaining: Int32 = 0, breakStartOffset = 0, breakRunCount = 0
        var wrapped = false
        loop: while !items.isEmpty {
            let item = items[0]
            let oldChars = item.chars
            let oldRemaining = remaining
            let firstInLine = runs.isEmpty
            let lastInLine = items.count == 1
            guard let result = processItem(forceFit: !haveBreak, noBreakAtEnd: false, isLastItem: lastInLine) else {
                return nil
            }
            switch result {
            case .allFit:
                if canBreak(in: startOffset, chars: oldChars, atStart: !firstInLine) {
                    haveBreak = true
                    breakRemaining = oldRemaining
                    breakStartOffset = startOffset
                    breakRunCount = runs.count - 1
                }
                items.removeFirst()
                startOffset += oldChars
            case .emptyFit:
                wrapped = true
                break loop
            case .someFit:
                startOffset += oldChars - items[0].chars
                wrapped = true
                break loop
            case .noneFit:
                while runs.count > breakRunCount {
                    runs.removeLast()
                    items.insert(runItems.removeLast(), at: 0)
                }
                startOffset = breakStartOffset
                remaining = breakRemaining
                let head = items[0].chars
                guard let again = processItem(forceFit: true, noBreakAtEnd: true, isLastItem: items.count == 1),
                      again == .someFit || again == .emptyFit else { return nil }
                startOffset += head - items[0].chars
                wrapped = true
                break loop
            }
        }
        guard !runs.isEmpty else { return nil }
        // A line broken after a space shows it as an empty glyph of no width (`zero_line_final_space`).
        if wrapped, startOffset > 0, white[startOffset - 1], var last = runs.last?.glyphs, !last.isEmpty {
            last[last.count - 1].width = 0
            last[last.count - 1].id = HarfBuzzParagraph.emptyGlyph
            runs[runs.count - 1].glyphs = last
        }
        return runs
    }
}
