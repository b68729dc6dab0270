// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Everything drawn over the background for one signature, in output units: the ink and its decorations.
/// Built once per render and handed to whichever writer makes the output.
struct Scene {
    /// The output box and the placement of the ink.
    var layout: Layout
    /// The ink in output units.
    var ink: InkGeometry
    /// Colours, opacity and decorations.
    var options: RenderOptions
    /// The timestamp to write, already formatted, or `nil` for none.
    var timestamp: String?

    /// Lays out and builds the ink of `signature`.
    init(_ signature: Signature, options: RenderOptions) {
        self.init(signature, options: options, layout: Layout.make(for: signature, options: options))
    }

    /// Builds the ink of `signature` placed by `layout`.
    init(_ signature: Signature, options: RenderOptions, layout: Layout) {
        self.layout = layout
        self.options = options
        self.ink = InkGeometry.make(signature, layout: layout, options: options)
        if let format = options.decorations.timestamp, let start = signature.startTime {
            timestamp = format.string(millisecondsSince1970: start)
        } else {
            timestamp = nil
        }
    }

    /// Cairo's flattening tolerance for ink redrawn as signature_pad draws it when Cairo fills it (a caller's
    /// context), in device pixels: its default, 0.1, cuts each small round dot's chords inside the circle and loses
    /// a few percent of its area, which a browser's canvas does not; this keeps a 2-pixel dot within half a percent.
    /// The engine's own images are filled by the coverage rasterizer, which puts the chords' area back instead and
    /// keeps Cairo's default (``coverageTolerance``).
    static let signaturePadTolerance = 0.01

    /// Farthest the outline given to a vector surface may be from the outline a raster fills, in output units:
    /// the straight-run budget the SVG writer has at its default precision.
    static let vectorLineTolerance = 0.15

    /// Whether only the ink is drawn, in one colour painted over: the output is then a coverage image.
    var isInkOnly: Bool {
        let d = options.decorations
        return !d.signatureLine && !d.xMark && (d.watermark ?? "").isEmpty && timestamp == nil && ink.isOneInkColour
    }

    /// Whether every colour the scene paints is a grey (red, green and blue equal): an opaque or translucent
    /// background, the ink that is not an eraser, and the decorations drawn. Cairo composites each channel
    /// alike, and text is anti-aliased in grey (``ProjectFonts``), so the image is then grey too: a PNG of it
    /// needs one colour channel instead of three, and no alpha when the background is opaque.
    var paintsGreysOnly: Bool {
        func grey(_ c: Color) -> Bool { c.red == c.green && c.green == c.blue }
        let d = options.decorations
        return (options.background.alpha == 0 || grey(options.background))
            && inkFills.allSatisfy { $0.erases || grey($0.color) }
            && (!(d.signatureLine || d.xMark) || grey(d.lineColor))
            && (timestamp == nil || grey(d.textColor))
            && ((d.watermark ?? "").isEmpty || grey(d.watermarkColor))
    }

    /// The colour of the ink when it is one colour (``InkGeometry/isSinglePaint``).
    var inkColor: Color { ink.inkColor(default: options.penColor) }

    /// The decoration positions for this box.
    var decorationLayout: DecorationLayout { DecorationLayout(width: layout.width, height: layout.height) }

    /// The coverage rasterizer's flattening tolerance for any ink, in device pixels: Cairo's default, since
    /// ``AreaRasterizer`` keeps a curve's area whatever the tolerance (the benchmark set as signature_pad files:
    /// 1,357 edges a file instead of 2,004 at ``signaturePadTolerance``).
    static let coverageTolerance = RasterWindow.cairoTolerance

    /// The ink's fills in drawing order, each with its colour and whether it erases: the whole ink at once when
    /// it is one paint filled once, else each run's fills.
    var inkFills: [(elements: ArraySlice<Path.Element>, color: Color, erases: Bool)] {
        if ink.paints.count <= 1 && ink.fillBreaks.isEmpty {
            return [(ink.path.elements[...], inkColor, ink.paints.first?.blend == .erase)]
        }
        return ink.paints.flatMap { run in
            ink.fills(of: run).map { (ink.path.elements[$0], run.color, run.blend == .erase) }
        }
    }

    /// Draws the scene (not the background) on a context whose user space is in output units. With an opacity
    /// below 1 everything is drawn into one group painted at that opacity, so overlaps do not darken.
    ///
    /// A vector surface gets the outline with its straight runs simplified within ``vectorLineTolerance``, so
    /// a PDF holds a few commands for a straight stretch of ink rather than two for every ink point.
    /// - Parameter raster: for an image surface of the engine's own, ``inkFills`` prepared for its pixels (their
    ///   parts beyond the image collapsed, see ``RasterFill``), in the same order, and the window they were
    ///   prepared for: each is filled as coverage by ``AreaRasterizer`` and painted through it, so that ink over
    ///   decorations or in several colours has the pixels of ink alone. `nil` has Cairo fill the outline as it is
    ///   (a caller's context, whatever its transform).
    /// - Parameters:
    ///   - bands: instead of `raster`, the ink of an image drawn a band of rows at a time, for the band it is at.
    ///   - texts: the decorations' texts, as ``decorationTexts()`` gives them, when the caller has them already.
    func draw(on context: CairoContext, raster: (fills: [RasterFill], window: RasterWindow)? = nil,
              bands: BandedInk? = nil,
              texts: (watermark: PlacedText?, timestamp: PlacedText?)? = nil) throws(RenderError) {
        let vector = !context.drawsPixels
        let erases = ink.paints.contains { $0.blend == .erase }
        // An eraser removes ink, never the background: the ink is drawn in a group of its own first.
        let grouped = options.opacity < 1 || erases
        if grouped { context.pushGroup() }
        // Drawn a band at a time, a text is drawn in the bands its ink reaches, give or take two pixels (the outlines'
        // extents are measured unhinted, and a pixel an edge crosses takes some of its colour).
        let rows = bands.map { band in
            (top: Double(band.band.lowerBound) / options.scale, bottom: Double(band.band.upperBound) / options.scale,
             margin: 2 / options.scale)
        }
        if let texts {
            try drawDecorationsBehind(on: context, texts: texts, rows: rows)
        } else {
            try drawDecorationsBehind(on: context, texts: decorationTexts(), rows: rows)
        }
        if ink.hasSignaturePadInk { context.setTolerance(Self.signaturePadTolerance) }
        for (i, fill) in inkFills.enumerated() {
            context.setSource(fill.color)
            context.setErasing(fill.erases)
            if vector {
                context.append(vectorPath(of: fill.elements))
                context.fillNonZero()
            } else if let bands {
                try bands.paint(i, on: context)
            } else if let raster {
                try Self.paintCoverage(of: raster.fills[i], in: raster.window, on: context)
            } else {
                context.append(fill.elements)
                context.fillNonZero()
            }
        }
        context.setErasing(false)
        if grouped { context.popGroupAndPaint(alpha: options.opacity) }
    }

    /// One of ``inkFills`` as a vector surface gets it: its straight runs simplified within ``vectorLineTolerance``.
    func vectorPath(of fill: ArraySlice<Path.Element>) -> Path {
        // The whole ink is simplified as it is, without a copy.
        let path = fill.count == ink.path.elements.count ? ink.path : Path(Array(fill))
        return path.simplifyingLines(tolerance: Self.vectorLineTolerance)
    }

    /// Fills `fill` as coverage over the pixels its ink can reach and paints the context's source through it.
    private static func paintCoverage(of fill: RasterFill, in window: RasterWindow,
                                      on context: CairoContext) throws(RenderError) {
        let cost = fill.cost
        let box = InkGeometry.pixelBounds(minX: cost.minX, minY: cost.minY, maxX: cost.maxX, maxY: cost.maxY,
                                          width: window.width, height: window.height)
        guard box.width > 0, box.height > 0 else { return }
        let mask = try CairoSurface(image: .a8, width: box.width, height: box.height)
        var rasterizer = AreaRasterizer(width: box.width, height: box.height, edges: cost.edges)
        rasterizer.add(fill.elements, scale: window.scale,
                       offset: Point(window.offset.x - Double(box.x), window.offset.y - Double(box.y)),
                       tolerance: coverageTolerance)
        let stride = mask.stride
        try mask.withMutablePixels { (pixels) throws(RenderError) in
            // A new image surface is cleared to 0.
            try rasterizer.fill(into: pixels.assumingMemoryBound(to: UInt8.self), stride: stride,
                                blend: .over(alpha: 255), blank: true)
        }
        context.mask(mask, atPixelX: box.x, y: box.y)
    }

    /// A line of text the decorations draw: the text, where its anchor goes on the baseline, its colour, and the line
    /// as HarfBuzz sets it, once for every time it is drawn (`nil` for a line Pango sets, see ``HarfBuzzLine``).
    struct PlacedText {
        var line: TextLine
        var anchor: TextAnchor
        var point: Point
        var color: Color
        var shaped: HarfBuzzLine?
        /// The rows of user space the glyphs' outlines reach (from ``HarfBuzzLine/inkTop`` and ``HarfBuzzLine/inkBottom``
        /// about the baseline, which is at `point`), `nil` when unknown.
        private var ink: (top: Double, bottom: Double)?

        init(line: TextLine, anchor: TextAnchor, point: Point, color: Color) {
            self.line = line
            self.anchor = anchor
            self.point = point
            self.color = color
            shaped = HarfBuzzLine(line)
            ink = shaped.map { (point.y + Double($0.inkTop) / 1024, point.y + Double($0.inkBottom) / 1024) }
        }

        /// Draws the line with its colour.
        func draw(on context: CairoContext) throws(RenderError) {
            context.setSource(color)
            try line.draw(anchor: anchor, at: point, on: context, through: shaped)
        }

        /// Whether the line's ink may reach the user-space rows from `top` to `bottom`, `margin` units above or below
        /// them: always when its extent is not known (a line Pango sets).
        func mayReach(top: Double, bottom: Double, margin: Double) -> Bool {
            guard let ink else { return true }
            return ink.top - margin < bottom && ink.bottom + margin > top
        }
    }

    /// The watermark (behind the line) and the timestamp, shaped with the project's fonts and placed in the box.
    /// The Cairo and SVG writers draw the same lines at the same places.
    func decorationTexts() throws(RenderError) -> (watermark: PlacedText?, timestamp: PlacedText?) {
        let d = options.decorations, at = decorationLayout
        var watermark: PlacedText?
        if let text = d.watermark, !text.isEmpty {
            let line = try at.watermarkLine(text)
            let m = try line.metrics()
            // Centred on the box: the middle of the line's box, not its baseline, at the centre.
            let point = Point(at.width / 2, at.height / 2 - m.height / 2 + m.ascent)
            watermark = PlacedText(line: line, anchor: .middle, point: point, color: d.watermarkColor)
        }
        let stamp = timestamp.map {
            PlacedText(line: TextLine(text: $0, font: TextFont(size: at.timestampFontSize)), anchor: .end,
                       point: at.timestampAnchor(belowLine: d.signatureLine), color: d.textColor)
        }
        return (watermark, stamp)
    }

    /// Draws the watermark, the signature line, the "X" and the timestamp; with `rows` (user space), only the texts
    /// that may reach them.
    private func drawDecorationsBehind(on context: CairoContext, texts: (watermark: PlacedText?, timestamp: PlacedText?),
                                       rows: (top: Double, bottom: Double, margin: Double)?) throws(RenderError) {
        let d = options.decorations, at = decorationLayout
        func shows(_ text: PlacedText) -> Bool {
            rows.map { text.mayReach(top: $0.top, bottom: $0.bottom, margin: $0.margin) } ?? true
        }
        if let w = texts.watermark, shows(w) { try w.draw(on: context) }
        if d.signatureLine {
            context.setSource(d.lineColor)
            context.moveTo(Point(at.lineStartX, at.lineY))
            context.lineTo(Point(at.lineEndX, at.lineY))
            context.strokeButt(width: DecorationLayout.lineWidth)
        }
        if d.xMark {
            context.setSource(d.lineColor)
            for (a, b) in at.xMarkSegments { context.moveTo(a); context.lineTo(b) }
            context.strokeRound(width: DecorationLayout.xMarkWidth)
        }
        if let t = texts.timestamp, shows(t) { try t.draw(on: context) }
    }
}
