// SPDX-License-Identifier: Apache-2.0
import CCairo
import CPango
import SignatureInk

/// How a line of text is set: size, weight, slant and the language it is written in.
public struct TextFont: Sendable, Hashable {
    /// The em size in output units (pixels at scale 1, points in PDF), > 0.
    public var size: Double
    /// Whether the bold face is used; default `false`.
    public var bold: Bool
    /// Whether the italic face is used; default `false`. Scripts without an italic face are slanted by the
    /// font renderer.
    public var italic: Bool
    /// A BCP 47 language tag (`en`, `ar`, `zh-Hant`, `ja`); default `und`, undetermined. It picks the glyph forms
    /// where scripts share characters (Chinese and Japanese) and the shaping rules of a script.
    public var language: String
    /// Whether the handwriting face comes first, as for a typed signature: Ecolier, a joined school cursive (Debian's
    /// `fonts-ecolier-court`, TrueType). Characters it lacks (any script but Latin) come from the other fonts.
    /// Default `false`.
    ///
    /// Not Dancing Script, which looks the part: it is a CFF font, and Cairo 1.16's CFF subsetter writes some of its
    /// glyphs broken (the "c" of "Lovelace" came out empty in every PDF viewer; fontTools cannot draw it either).
    public var handwriting: Bool

    /// Creates a font.
    /// - Parameters:
    ///   - size: em size in output units, > 0.
    ///   - bold: bold face, default `false`.
    ///   - italic: italic face, default `false`.
    ///   - language: BCP 47 tag, default `und`.
    ///   - handwriting: the handwriting face first, default `false`.
    public init(size: Double, bold: Bool = false, italic: Bool = false, language: String = "und", handwriting: Bool = false) {
        self.size = size
        self.bold = bold
        self.italic = italic
        self.language = language
        self.handwriting = handwriting
    }
}

/// Where a line's anchor point sits along its baseline.
enum TextAnchor {
    case start, middle, end
}

/// One line of text shaped by Pango with the project's fonts (``ProjectFonts``): any script, right-to-left runs in
/// their order, and each character from the first font that has it.
///
/// The line is measured, drawn into a Cairo context (the glyphs, so a PDF embeds the font subset and its text can
/// be read back), or turned into outlines (for SVG, so that a viewer without the fonts shows the same shapes).
struct TextLine: Hashable {
    /// The text, drawn on one line (a line break is shown, not followed).
    let text: String
    let font: TextFont

    /// Glyph metrics in output units.
    struct Metrics: Equatable {
        /// Advance width of the line.
        var width: Double
        /// Distance from the top of the line box to the baseline.
        var ascent: Double
        /// Height of the line box.
        var height: Double
        /// The characters no font of the set has, in text order without repeats; they would be drawn as boxes.
        var missing: [Unicode.Scalar]
    }

    /// The line's size and the characters no font covers.
    func metrics() throws(RenderError) -> Metrics {
        if let line = HarfBuzzLine(self) { return line.metrics }
        return try pangoMetrics()
    }

    /// The line's metrics as Pango measures it, for every line (``metrics()`` takes a line that one face of Noto
    /// Sans sets alone from ``HarfBuzzLine``, with the same figures).
    func pangoMetrics() throws(RenderError) -> Metrics {
        try withLayout { layout throws(RenderError) in Self.metrics(of: layout) }
    }

    /// Draws the line with the context's current source, its anchor at `point` on the baseline.
    func draw(anchor: TextAnchor, at point: Point, on context: CairoContext) throws(RenderError) {
        try draw(anchor: anchor, at: point, on: context, through: HarfBuzzLine(self))
    }

    /// Draws the line through Pango, or through `line` when it is given (this line as ``HarfBuzzLine`` sets it).
    func draw(anchor: TextAnchor, at point: Point, on context: CairoContext,
              through line: HarfBuzzLine?) throws(RenderError) {
        if let line {
            try line.render(at: Self.origin(of: line.metrics, anchor: anchor, at: point), on: context, path: false)
            context.newPath()
            return
        }
        try pangoDraw(anchor: anchor, at: point, on: context)
    }

    /// Draws the line through Pango, whatever its text (see ``pangoMetrics()``).
    func pangoDraw(anchor: TextAnchor, at point: Point, on context: CairoContext) throws(RenderError) {
        try withLayout { layout throws(RenderError) in
            let m = Self.metrics(of: layout)
            let origin = Self.origin(of: m, anchor: anchor, at: point)
            context.moveTo(origin)
            pango.pango_cairo_show_layout(context.pointer, layout)
            context.newPath()
            try context.check()
        }
    }

    /// The line's glyph outlines, its anchor at `point` on the baseline, to be filled with the non-zero rule.
    ///
    /// Traced on an unbounded surface: Pango leaves out the glyphs that lie outside the surface, so on a one-pixel
    /// scratch image every line away from the origin came out empty.
    func outline(anchor: TextAnchor, at point: Point) throws(RenderError) -> Path {
        try outline(anchor: anchor, at: point, through: HarfBuzzLine(self))
    }

    /// The outlines through Pango, or through `line` when it is given (see ``pangoMetrics()``).
    func outline(anchor: TextAnchor, at point: Point, through line: HarfBuzzLine?) throws(RenderError) -> Path {
        let scratch = try CairoSurface(unboundedRecording: ())
        let context = try CairoContext(surface: scratch)
        let traced: Path
        if let line {
            try line.render(at: Self.origin(of: line.metrics, anchor: anchor, at: point), on: context, path: true)
            traced = try context.takePath()
        } else {
            traced = try withLayout { layout throws(RenderError) in
                let origin = Self.origin(of: Self.metrics(of: layout), anchor: anchor, at: point)
                context.moveTo(origin)
                pango.pango_cairo_layout_path(context.pointer, layout)
                return try context.takePath()
            }
        }
        // A move followed by another (the one to the line box's corner, before the first glyph's) draws nothing.
        var kept: [Path.Element] = []
        for element in traced.elements {
            if case .move = element, let last = kept.last, case .move = last { kept.removeLast() }
            kept.append(element)
        }
        if let last = kept.last, case .move = last { kept.removeLast() }
        return Path(kept)
    }

    /// Runs `body` with the line's Pango layout, in a Pango context no other thread uses meanwhile: the layout this
    /// thread's font map made for the same text and font before, or a new one, kept for the next use (a page's
    /// footer, a list's markers, a signature block's caption: the same lines in every document of a batch).
    func withLayout<R>(_ body: (OpaquePointer) throws(RenderError) -> R) throws(RenderError) -> R {
        try ProjectFonts.holding { () throws(RenderError) -> R in
            let kept = try ProjectFonts.lineLayout(self) { () throws(RenderError) in
                let layout = try makeLayout(direction: PANGO_DIRECTION_WEAK_LTR)
                pango.pango_layout_set_single_paragraph_mode(layout, 1)
                return Layout(pointer: layout)
            }
            return try withExtendedLifetime(kept) { () throws(RenderError) -> R in try body(kept.pointer) }
        }
    }

    /// A line's Pango layout, released with the last reference (while a thread holds its font map: see
    /// ``ProjectFonts/withContext(language:direction:for:fonts:_:)``).
    final class Layout {
        let pointer: OpaquePointer
        init(pointer: OpaquePointer) { self.pointer = pointer }
        deinit { pango.g_object_unref(UnsafeMutableRawPointer(pointer)) }
    }

    /// A new Pango layout of the text in the font, from a context with the font's language and `direction` as its
    /// base direction, in the font set the text chooses or in `fonts`; the caller releases it with `g_object_unref`
    /// while it holds the fonts (``ProjectFonts/withContext(language:direction:for:fonts:_:)``).
    func makeLayout(direction: PangoDirection, fonts: ProjectFonts.FontSet? = nil) throws(RenderError)
        -> OpaquePointer {
        guard font.size > 0, font.size.isFinite else {
            throw .invalidOption(option: "font size", message: "\(font.size); must be a positive number")
        }
        return try ProjectFonts.withContext(language: font.language, direction: direction, for: text,
                                            fonts: fonts) { (context) throws(RenderError) in
            guard let layout = pango.pango_layout_new(context) else { throw .text("Pango could not make a layout") }
            guard let description = pango.pango_font_description_new() else {
                pango.g_object_unref(UnsafeMutableRawPointer(layout))
                throw .text("Pango could not make a font")
            }
            defer { pango.pango_font_description_free(description) }
            pango.pango_font_description_set_family(description, ProjectFonts.families(language: font.language, handwriting: font.handwriting))
            pango.pango_font_description_set_absolute_size(description, font.size * Double(PANGO_SCALE))
            pango.pango_font_description_set_weight(description, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
            pango.pango_font_description_set_style(description, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
            pango.pango_layout_set_font_description(layout, description)
            pango.pango_layout_set_text(layout, text, -1)
            return layout
        }
    }

    /// Pango's flag on a glyph that stands for a character no font has; the rest of the value is the character.
    private static let unknownGlyphFlag: UInt32 = 0x1000_0000

    private static func metrics(of layout: OpaquePointer) -> Metrics {
        var logical = PangoRectangle()
        pango.pango_layout_get_extents(layout, nil, &logical)
        let scale = Double(PANGO_SCALE)
        var missing: [Unicode.Scalar] = []
        if pango.pango_layout_get_unknown_glyphs_count(layout) > 0, let iterator = pango.pango_layout_get_iter(layout) {
            defer { pango.pango_layout_iter_free(iterator) }
            repeat {
                guard let run = pango.pango_layout_iter_get_run_readonly(iterator), let glyphs = run.pointee.glyphs else { continue }
                for i in 0..<Int(glyphs.pointee.num_glyphs) {
                    let glyph = glyphs.pointee.glyphs[i].glyph
                    guard glyph & unknownGlyphFlag != 0, let scalar = Unicode.Scalar(glyph & ~unknownGlyphFlag),
                          !missing.contains(scalar) else { continue }
                    missing.append(scalar)
                }
            } while pango.pango_layout_iter_next_run(iterator) != 0
        }
        return Metrics(width: Double(logical.width) / scale, ascent: Double(pango.pango_layout_get_baseline(layout)) / scale,
                       height: Double(logical.height) / scale, missing: missing)
    }

    /// The top-left corner of the layout that puts its anchor at `point` on the baseline.
    private static func origin(of m: Metrics, anchor: TextAnchor, at point: Point) -> Point {
        let x: Double
        switch anchor {
        case .start: x = point.x
        case .middle: x = point.x - m.width / 2
        case .end: x = point.x - m.width
        }
        return Point(x, point.y - m.ascent)
    }
}

/// Which characters of a text the project's fonts cannot draw: a script no font of the set covers would come out
/// as boxes, so callers report these before rendering.
public enum TextCoverage {
    /// The characters of `text` that no font of the set has, in text order without repeats; empty when every
    /// character can be drawn.
    /// - Parameters:
    ///   - text: the text, drawn on one line.
    ///   - font: the face to check; default regular at 12 units (the size does not change the answer).
    /// - Throws: ``RenderError/text(_:)`` when the fonts cannot be loaded.
    ///
    /// A text whose every character the fonts other than the CJK collections have misses none, and is not laid out
    /// to find that: a timestamp and a watermark checked before a render were a fifth of its instructions.
    public static func missingCharacters(in text: String, font: TextFont = TextFont(size: 12)) throws(RenderError)
        -> [Unicode.Scalar] {
        // A line one face of Noto Sans sets alone has every character (and is checked without Pango).
        guard !text.isEmpty, HarfBuzzLine(TextLine(text: text, font: font)) == nil,
              try ProjectFonts.fontSet(for: text) == .all else { return [] }
        return try TextLine(text: text, font: font).metrics().missing
    }

    /// The characters as a person reads them: `U+0F00 'ༀ', U+13000 '𓀀'`.
    public static func describe(_ characters: [Unicode.Scalar]) -> String {
        characters.map { c in
            let hex = String(c.value, radix: 16, uppercase: true)
            return "U+\(String(repeating: "0", count: Swift.max(0, 4 - hex.count)))\(hex) '\(Character(c))'"
        }.joined(separator: ", ")
    }
}
