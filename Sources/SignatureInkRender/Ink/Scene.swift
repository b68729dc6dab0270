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

    /// Cairo's flattening tolerance for ink redrawn as signature_pad draws it, in device pixels: its default,
    /// 0.1, cuts each small round dot's chords inside the circle and loses a few percent of its area, which a
    /// browser's canvas does not; this keeps a 2-pixel dot within half a percent.
    static let signaturePadTolerance = 0.01

    /// Farthest the outline given to a vector surface may be from the outline a raster fills, in output units:
    /// the straight-run budget the SVG writer has at its default precision.
    static let vectorLineTolerance = 0.15

    /// Whether only the ink is drawn, in one colour painted over: the output is then a coverage image.
    var isInkOnly: Bool {
        let d = options.decorations
        return !d.signatureLine && !d.xMark && (d.watermark ?? "").isEmpty && timestamp == nil && ink.isSinglePaint
    }

    /// The colour of the ink when it is one colour (``InkGeometry/isSinglePaint``).
    var inkColor: Color { ink.inkColor(default: options.penColor) }

    /// The decoration positions for this box.
    var decorationLayout: DecorationLayout { DecorationLayout(width: layout.width, height: layout.height) }

    /// Draws the scene (not the background) on a context whose user space is in output units. With an opacity
    /// below 1 everything is drawn into one group painted at that opacity, so overlaps do not darken.
    ///
    /// A vector surface gets the outline with its straight runs simplified within ``vectorLineTolerance``, so
    /// a PDF holds a few commands for a straight stretch of ink rather than two for every ink point.
    func draw(on context: CairoContext) {
        let vector = !context.drawsPixels
        let erases = ink.paints.contains { $0.blend == .erase }
        // An eraser removes ink, never the background: the ink is drawn in a group of its own first.
        let grouped = options.opacity < 1 || erases
        if grouped { context.pushGroup() }
        drawDecorationsBehind(on: context)
        if ink.hasSignaturePadInk { context.setTolerance(Self.signaturePadTolerance) }
        if ink.paints.count <= 1 && ink.fillBreaks.isEmpty {
            context.setSource(inkColor)
            context.setErasing(ink.paints.first?.blend == .erase)
            context.append(vector ? ink.path.simplifyingLines(tolerance: Self.vectorLineTolerance) : ink.path)
            context.fillNonZero()
        } else {
            for run in ink.paints {
                context.setSource(run.color)
                context.setErasing(run.blend == .erase)
                for fill in ink.fills(of: run) {
                    if vector {
                        context.append(Path(Array(ink.path.elements[fill])).simplifyingLines(tolerance: Self.vectorLineTolerance))
                    } else {
                        context.append(ink.path.elements[fill])
                    }
                    context.fillNonZero()
                }
            }
        }
        context.setErasing(false)
        if grouped { context.popGroupAndPaint(alpha: options.opacity) }
    }

    private func drawDecorationsBehind(on context: CairoContext) {
        let d = options.decorations, at = decorationLayout
        if let text = d.watermark, !text.isEmpty {
            context.setSource(d.watermarkColor)
            context.selectFont(size: at.watermarkFontSize(text), bold: true)
            let c = at.watermarkCenter(text)
            context.showText(text, at: Point(c.x - context.textWidth(text) / 2, c.y))
        }
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
        if let timestamp {
            context.setSource(d.textColor)
            context.selectFont(size: at.timestampFontSize)
            let anchor = at.timestampAnchor(belowLine: d.signatureLine)
            context.showText(timestamp, at: Point(anchor.x - context.textWidth(timestamp), anchor.y))
        }
    }
}
