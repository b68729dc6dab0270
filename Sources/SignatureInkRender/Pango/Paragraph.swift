// SPDX-License-Identifier: Apache-2.0
import CCairo
import CPango
public import SignatureInk

/// A piece of a ``Paragraph`` with its emphasis and, for a link, its target.
public struct TextRun: Sendable, Hashable {
    /// The text, drawn as it is: no markup in it is read.
    public var text: String
    /// Whether the run is bold; default `false`.
    public var bold: Bool
    /// Whether the run is italic; default `false`.
    public var italic: Bool
    /// The address the run links to, or `nil`; default `nil`. In a PDF it becomes a link annotation over the run.
    public var link: String?

    /// Creates a run.
    /// - Parameters:
    ///   - text: the text.
    ///   - bold: bold, default `false`.
    ///   - italic: italic, default `false`.
    ///   - link: link target, default `nil`.
    public init(_ text: String, bold: Bool = false, italic: Bool = false, link: String? = nil) {
        self.text = text
        self.bold = bold
        self.italic = italic
        self.link = link
    }
}

/// The direction a paragraph's lines run in.
public enum TextDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// From the paragraph's first strong character (Unicode's bidirectional algorithm, rule P2): Arabic or Hebrew
    /// text runs right to left, Latin text left to right.
    case auto
    /// Left to right, lines starting at the left edge.
    case leftToRight = "ltr"
    /// Right to left, lines starting at the right edge.
    case rightToLeft = "rtl"
}

/// Text set in lines of a given width, by Pango with the project's fonts: shaped, bidirectional, broken at word
/// boundaries (inside a word only when one word is wider than the line).
///
/// A document composer measures a paragraph with ``lines(width:)``, decides which lines fit on a page, and
/// draws them with ``draw(lines:width:at:on:)``; a paragraph can so be broken across pages between any two lines.
/// Lines start at the paragraph's start edge: the left for left-to-right text, the right for right-to-left text.
public struct Paragraph: Sendable, Hashable {
    /// The runs, in logical order.
    public var runs: [TextRun]
    /// The base font: size, weight, slant and language; runs add bold and italic.
    public var font: TextFont
    /// The distance between baselines as a multiple of the font's own line height (its ascent plus descent,
    /// about 1.36 em for Noto Sans), in `1...3`; default 1.15.
    public var lineSpacing: Double
    /// Whether the lines are centred rather than set from the start edge; default `false`.
    public var centered: Bool
    /// The text colour; default `#212121`.
    public var color: Color
    /// The colour of link runs, which are also underlined; default `#1a4fa0`.
    public var linkColor: Color
    /// The paragraph's base direction; default ``TextDirection/auto``, from its first strong character.
    public var direction: TextDirection

    /// Creates a paragraph.
    /// - Parameters:
    ///   - runs: the text.
    ///   - font: the base font.
    ///   - lineSpacing: baseline distance in font line heights, `1...3`; default 1.15.
    ///   - centered: centre each line; default `false`.
    ///   - color: text colour, default `#212121`.
    ///   - linkColor: link colour, default `#1a4fa0`.
    ///   - direction: base direction, default ``TextDirection/auto``.
    public init(_ runs: [TextRun], font: TextFont, lineSpacing: Double = 1.15, centered: Bool = false,
                color: Color = Color(red: 0x21, green: 0x21, blue: 0x21),
                linkColor: Color = Color(red: 0x1a, green: 0x4f, blue: 0xa0), direction: TextDirection = .auto) {
        self.runs = runs
        self.font = font
        self.lineSpacing = lineSpacing
        self.centered = centered
        self.color = color
        self.linkColor = linkColor
        self.direction = direction
    }

    /// One line of a laid-out paragraph, in output units.
    public struct Line: Sendable, Hashable {
        /// The line's height: the distance from its top to the next line's top.
        public var height: Double
        /// The distance from the line's top to its baseline.
        public var baseline: Double
    }

    /// The paragraph laid out in `width`: its lines, top to bottom.
    /// - Parameter width: the line length in output units, > 0.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` for a bad width, size or spacing;
    ///   ``RenderError/text(_:)`` when the fonts cannot be loaded.
    public func lines(width: Double) throws(RenderError) -> [Line] {
        try ProjectFonts.holding { () throws(RenderError) in try layout(width: width).lines }
    }

    /// The characters no font of the set has, in text order without repeats (see ``TextCoverage``).
    public func missingCharacters() throws(RenderError) -> [Unicode.Scalar] {
        try TextCoverage.missingCharacters(in: runs.map(\.text).joined(), font: font)
    }

    /// Draws some of the paragraph's lines, the first of them with its top at `origin.y`.
    /// - Parameters:
    ///   - lines: which lines, as indices into ``lines(width:)``; an empty range draws nothing.
    ///   - width: the line length given to ``lines(width:)``.
    ///   - origin: the top-left corner of the first line drawn, in the target's user space.
    ///   - target: where to draw; on a PDF page, link runs become link annotations.
    /// - Throws: ``RenderError`` for a bad width or range, missing fonts, or when Cairo fails.
    public func draw(lines: Range<Int>, width: Double, at origin: Point, on target: CairoTarget) throws(RenderError) {
        guard !lines.isEmpty else { return }
        try ProjectFonts.holding { () throws(RenderError) in try layout(width: width).draw(lines: lines, at: origin, on: target) }
    }

    // MARK: Layout

    /// Where a line sits in the layout, in output units.
    fileprivate struct LineBox {
        var x: Double, top: Double, height: Double, baseline: Double
    }

    /// A link run's byte range in the layout's text and its target.
    fileprivate struct LinkRange {
        var bytes: Range<Int>
        var target: String
    }

    /// The paragraph laid out once in a width: measured by a composer, then drawn a page at a time, without being
    /// shaped and broken into lines again. It holds Pango objects of one font map, so it is used and released only
    /// by a thread that holds that font map (``ProjectFonts/holding(_:)``); the font map keeps it for later
    /// documents (``ProjectFonts/layout(_:_:)``). Nothing in it changes once made.
    final class Layout {
        /// The lines, top to bottom.
        let lines: [Line]
        /// Pango's layout, or `nil` for a paragraph set by ``HarfBuzzParagraph``.
        private let pointer: OpaquePointer?
        private let direct: HarfBuzzParagraph?
        private let boxes: [LineBox]
        private let links: [LinkRange]
        private let color: Color

        fileprivate init(pointer: OpaquePointer, links: [LinkRange], spacing: Double, color: Color) {
            self.pointer = pointer
            self.direct = nil
            self.links = links
            self.color = color
            boxes = Paragraph.lineBoxes(pointer, spacing: spacing)
            lines = boxes.map { Line(height: $0.height, baseline: $0.baseline) }
        }

        init(direct: HarfBuzzParagraph, color: Color) {
            self.pointer = nil
            self.direct = direct
            self.links = []
            self.color = color
            boxes = direct.boxes.map { LineBox(x: $0.x, top: $0.top, height: $0.height, baseline: $0.baseline) }
            lines = boxes.map { Line(height: $0.height, baseline: $0.baseline) }
        }

        deinit { if let pointer { pango.g_object_unref(UnsafeMutableRawPointer(pointer)) } }

        /// Whether HarfBuzz set the paragraph without Pango (``HarfBuzzParagraph``).
        var isDirect: Bool { direct != nil }

        /// The text of some of the lines.
        func text(lines range: Range<Int>) -> String {
            if let direct { return direct.text(lines: range) }
            guard let pointer, !range.isEmpty, let all = pango.pango_layout_get_text(pointer),
                  let first = pango.pango_layout_get_line_readonly(pointer, Int32(range.lowerBound)),
                  let last = pango.pango_layout_get_line_readonly(pointer, Int32(range.upperBound - 1)) else { return "" }
            let start = Int(first.pointee.start_index), end = Int(last.pointee.start_index + last.pointee.length)
            guard start <= end else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: all, count: end)[start...], as: UTF8.self)
        }

        /// The whole text.
        var text: String {
            if let direct { return String(decoding: direct.text, as: UTF8.self) }
            return pointer.flatMap { pango.pango_layout_get_text($0) }.map { String(cString: $0) } ?? ""
        }

        /// Draws some of the lines, the first of them with its top at `origin.y` (see
        /// ``Paragraph/draw(lines:width:at:on:)``); with `spans`, each line as a `Span` of a tagged PDF's open
        /// element, with its text as the span's actual text.
        ///
        /// A line's own element keeps the words of two lines apart: Cairo writes the space where a line breaks as a
        /// nested `/ActualText` span, which the tagged PDF's completion drops (see `MarkedContent`), and poppler
        /// joins the text of one element's lines without a space.
        func draw(lines range: Range<Int>, at origin: Point, on target: CairoTarget, spans: Bool = false) throws(RenderError) {
            guard !range.isEmpty else { return }
            guard range.lowerBound >= 0, range.upperBound <= boxes.count else {
                throw .invalidOption(option: "lines", message: "\(range) is outside the paragraph's \(boxes.count) lines")
            }
            let context = try CairoContext(borrowing: target.unsafeContext)
            let top = boxes[range.lowerBound].top
            context.save()
            context.setSource(color)
            for index in range {
                let box = boxes[index]
                let baseline = Point(origin.x + box.x, origin.y + box.top - top + box.baseline)
                let pangoLine = pointer.flatMap { pango.pango_layout_get_line_readonly($0, Int32(index)) }
                guard direct != nil || pangoLine != nil else { continue }
                context.moveTo(baseline)
                if spans { context.beginStructure(.span, actualText: text(lines: index..<(index + 1))) }
                if let direct { try direct.draw(line: index, on: context) }
                if let pangoLine { pango.pango_cairo_show_layout_line(context.pointer, pangoLine) }
                if spans { context.endStructure() }
                context.newPath()
                let areas = direct?.linkAreas(line: index) ?? pangoLine.map { Paragraph.linkAreas(of: $0, links: links) } ?? []
                for area in areas {
                    let rect = Rect(x: baseline.x + area.x, y: baseline.y + area.y, width: area.width, height: area.height)
                    context.link(to: area.target, over: rect)
                }
            }
            context.restore()
            try context.check()
        }
    }

    /// A paragraph and the width it is set in: what makes its layout.
    struct LayoutKey: Hashable {
        var paragraph: Paragraph
        var width: Double
    }

    /// The paragraph laid out in `width`, for the thread that holds the fonts: the layout made for the same paragraph
    /// and width before, if the font map still keeps it (``ProjectFonts/layout(_:_:)``), or a new one.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` for a bad width, size or spacing;
    ///   ``RenderError/text(_:)`` when the fonts cannot be loaded.
    func layout(width: Double) throws(RenderError) -> Layout {
        guard width > 0, width.isFinite, width < 1_000_000 else {
            throw .invalidOption(option: "width", message: "\(width); must be a positive number of units")
        }
        guard (1...3).contains(lineSpacing) else {
            throw .invalidOption(option: "line spacing", message: "\(lineSpacing); must be in 1...3")
        }
        return try ProjectFonts.layout(LayoutKey(paragraph: self, width: width)) { () throws(RenderError) in
            if let direct = HarfBuzzParagraph(self, width: width) { return Layout(direct: direct, color: color) }
            return try makeLayout(width: width)
        }
    }

    /// The paragraph laid out by Pango, whatever its text (``layout(width:)`` takes a paragraph that Noto Sans sets
    /// alone from ``HarfBuzzParagraph``, with the same lines).
    func makeLayout(width: Double) throws(RenderError) -> Layout {
        // A fixed base direction comes from the layout's context: lines start at its edge, whatever the paragraph's
        // first letter.
        let base = switch direction {
        case .auto: PANGO_DIRECTION_WEAK_LTR
        case .leftToRight: PANGO_DIRECTION_LTR
        case .rightToLeft: PANGO_DIRECTION_RTL
        }
        let layout = try TextLine(text: runs.map(\.text).joined(), font: font).makeLayout(direction: base)
        let scale = Double(PANGO_SCALE)
        pango.pango_layout_set_width(layout, Int32((width * scale).rounded(.down)))
        pango.pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        if direction != .auto { pango.pango_layout_set_auto_dir(layout, 0) }
        let startEdge = direction == .rightToLeft ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT
        pango.pango_layout_set_alignment(layout, centered ? PANGO_ALIGN_CENTER : startEdge)
        pango.pango_layout_set_line_spacing(layout, Float(lineSpacing))
        var links: [LinkRange] = []
        guard let attributes = pango.pango_attr_list_new() else {
            pango.g_object_unref(UnsafeMutableRawPointer(layout))
            throw .text("Pango could not make an attribute list")
        }
        defer { pango.pango_attr_list_unref(attributes) }
        var start = 0
        for run in runs {
            let end = start + run.text.utf8.count
            func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?) {
                guard let attribute else { return }
                attribute.pointee.start_index = UInt32(start)
                attribute.pointee.end_index = UInt32(end)
                pango.pango_attr_list_insert(attributes, attribute)
            }
            if run.bold { add(pango.pango_attr_weight_new(PANGO_WEIGHT_BOLD)) }
            if run.italic { add(pango.pango_attr_style_new(PANGO_STYLE_ITALIC)) }
            if let target = run.link, end > start {
                let c = linkColor
                add(pango.pango_attr_foreground_new(UInt16(c.red) * 257, UInt16(c.green) * 257, UInt16(c.blue) * 257))
                add(pango.pango_attr_underline_new(PANGO_UNDERLINE_SINGLE))
                links.append(LinkRange(bytes: start..<end, target: target))
            }
            start = end
        }
        pango.pango_layout_set_attributes(layout, attributes)
        return Layout(pointer: layout, links: links, spacing: lineSpacing, color: color)
    }

    /// Every line's place in the layout. Lines are a baseline pitch apart (Pango's line spacing puts the factor
    /// between baselines), the first line's top is the layout's top, and the last line is as tall as the others,
    /// so that paragraphs set one after another keep the same pitch.
    private static func lineBoxes(_ layout: OpaquePointer, spacing: Double) -> [LineBox] {
        guard let iterator = pango.pango_layout_get_iter(layout) else { return [] }
        defer { pango.pango_layout_iter_free(iterator) }
        let scale = Double(PANGO_SCALE)
        var xs: [Double] = [], baselines: [Double] = []
        var firstHeight = 0.0
        repeat {
            var logical = PangoRectangle()
            pango.pango_layout_iter_get_line_extents(iterator, nil, &logical)
            if baselines.isEmpty { firstHeight = Double(logical.height) / scale }
            xs.append(Double(logical.x) / scale)
            baselines.append(Double(pango.pango_layout_iter_get_baseline(iterator)) / scale)
        } while pango.pango_layout_iter_next_line(iterator) != 0
        let pitch = baselines.count > 1 ? baselines[1] - baselines[0] : firstHeight * spacing
        return baselines.indices.map { i in
            let height = i + 1 < baselines.count ? baselines[i + 1] - baselines[i] : pitch
            return LineBox(x: xs[i], top: baselines[i] - baselines[0], height: height, baseline: baselines[0])
        }
    }

    /// The rectangles of a line's link runs, relative to the line's baseline start.
    private static func linkAreas(of line: UnsafeMutablePointer<PangoLayoutLine>, links: [LinkRange])
        -> [(x: Double, y: Double, width: Double, height: Double, target: String)] {
        guard !links.isEmpty else { return [] }
        let scale = Double(PANGO_SCALE)
        var areas: [(x: Double, y: Double, width: Double, height: Double, target: String)] = []
        var x = 0.0
        var node = line.pointee.runs
        while let current = node {
            defer { node = current.pointee.next }
            guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                  let item = run.pointee.item, let glyphs = run.pointee.glyphs else { continue }
            var logical = PangoRectangle()
            pango.pango_glyph_string_extents(glyphs, item.pointee.analysis.font, nil, &logical)
            let offset = Int(item.pointee.offset)
            if let link = links.first(where: { $0.bytes.contains(offset) }) {
                areas.append((x + Double(logical.x) / scale, Double(logical.y) / scale, Double(logical.width) / scale,
                              Double(logical.height) / scale, link.target))
            }
            x += Double(logical.width) / scale
        }
        return areas
    }
}
