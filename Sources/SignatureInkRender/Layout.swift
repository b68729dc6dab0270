// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Where a signature lands in the output: the output box in output units and the map from canvas units to it.
struct Layout: Equatable {
    /// Output box width in output units.
    var width: Double
    /// Output box height in output units.
    var height: Double
    /// Output units per canvas unit: 1 unless the ink is fitted.
    var inkScale: Double
    /// Output position of the canvas origin.
    var offset: Point

    /// The box used when the ink must be fitted and nothing else gives a size: the usual signature pad size.
    static let defaultBox = OutputSize(width: 600, height: 300)
    /// Ink (plus padding) wider or taller than this many canvas units, in an input with neither a canvas nor a
    /// box, is fitted into ``defaultBox`` rather than drawn one output unit per canvas unit: tablet units
    /// (SVC2004 runs to thousands) would otherwise make a huge image of hairlines.
    static let autoFitThreshold = 2000.0

    /// Maps a canvas point to output units.
    func apply(_ p: Point) -> Point { Point(p.x * inkScale + offset.x, p.y * inkScale + offset.y) }

    /// Moves an ink point into output units; its radius stays as it is (pen widths are in output units).
    func apply(_ p: InkPoint) -> InkPoint {
        var q = p
        q.x = p.x * inkScale + offset.x
        q.y = p.y * inkScale + offset.y
        return q
    }

    /// The layout for `signature` under `options`.
    ///
    /// - ``Framing/canvas``: the box (else the canvas) at one output unit per canvas unit; an input with neither
    ///   is cropped, or fitted into ``defaultBox`` when its ink is larger than ``autoFitThreshold``.
    /// - ``Framing/crop``: the sample bounds grown by half the pen width plus the padding.
    /// - ``Framing/fit``: the ink grown the same way, scaled to fit the box (else the canvas, else
    ///   ``defaultBox``) keeping its aspect, centred. Pen width and padding are not scaled.
    static func make(for signature: Signature, options: RenderOptions) -> Layout {
        let ink = finiteBounds(of: signature)
        var widest = options.penWidth
        if options.recordedPen.contains(.widths) {
            for pen in signature.pens {
                let style = pen.applied(to: options.penStyle)
                widest = Swift.max(widest, style.maxWidth, style.effectiveDotWidth)
            }
        }
        let margin = options.padding + widest / 2  // the widest line or dot
        switch options.framing {
        case .crop:
            return crop(ink, margin: margin)
        case .fit:
            let box = options.box ?? signature.canvas.map { OutputSize(width: $0.width, height: $0.height) }
                ?? defaultBox
            return fit(ink, margin: margin, into: box)
        case .canvas:
            if let box = options.box {
                return Layout(width: box.width, height: box.height, inkScale: 1, offset: .zero)
            }
            if let canvas = signature.canvas {
                return Layout(width: canvas.width, height: canvas.height, inkScale: 1, offset: .zero)
            }
            let cropped = crop(ink, margin: margin)
            if Swift.max(cropped.width, cropped.height) > autoFitThreshold {
                return fit(ink, margin: margin, into: defaultBox)
            }
            return cropped
        }
    }

    /// The bounds of the samples with finite coordinates (the outliner skips the others), or `nil` for none.
    static func finiteBounds(of signature: Signature) -> Rect? {
        var r: Rect?
        for s in signature.samples where s.x.isFinite && s.y.isFinite {
            if r == nil { r = Rect(minX: s.x, minY: s.y, maxX: s.x, maxY: s.y) } else { r!.include(s.location) }
        }
        return r
    }

    private static func crop(_ ink: Rect?, margin: Double) -> Layout {
        guard let ink else { return Layout(width: 2 * margin, height: 2 * margin, inkScale: 1, offset: .zero) }
        let area = ink.outsetBy(margin)
        return Layout(width: area.width, height: area.height, inkScale: 1, offset: Point(-area.minX, -area.minY))
    }

    /// Scales the sample bounds so that, grown by `margin` output units on each side, they fit the box.
    private static func fit(_ ink: Rect?, margin: Double, into box: OutputSize) -> Layout {
        guard let ink else { return Layout(width: box.width, height: box.height, inkScale: 1, offset: .zero) }
        let roomX = Swift.max(box.width - 2 * margin, 1e-9), roomY = Swift.max(box.height - 2 * margin, 1e-9)
        var k = Double.infinity
        if ink.width > 0 { k = Swift.min(k, roomX / ink.width) }
        if ink.height > 0 { k = Swift.min(k, roomY / ink.height) }
        if !k.isFinite { k = 1 }  // a single dot: nothing to scale
        let c = ink.center
        return Layout(width: box.width, height: box.height, inkScale: k,
                      offset: Point(box.width / 2 - c.x * k, box.height / 2 - c.y * k))
    }

    /// The raster size of this layout at `scale`, checked against `limits` before anything is allocated.
    /// - Throws: ``RenderError/limitExceeded(what:limit:actual:)`` or ``RenderError/invalidOption(option:message:)``.
    ///
    /// SVG and PDF check the same size, so every format accepts and refuses the same inputs.
    func pixelSize(scale: Double, limits: RenderLimits) throws(RenderError) -> (width: Int, height: Int) {
        let w = (width * scale).rounded(.up), h = (height * scale).rounded(.up)
        guard w.isFinite, h.isFinite, inkScale.isFinite, inkScale > 0, offset.isFinite else {
            throw .invalidOption(option: "size", message: "output size is not finite")
        }
        let pw = Swift.max(1, Int(Swift.min(w, 1e9))), ph = Swift.max(1, Int(Swift.min(h, 1e9)))
        guard pw <= limits.maxSide, ph <= limits.maxSide else {
            throw .limitExceeded(what: "output side in pixels", limit: limits.maxSide, actual: Swift.max(pw, ph))
        }
        guard pw * ph <= limits.maxPixels else {
            throw .limitExceeded(what: "output pixels", limit: limits.maxPixels, actual: pw * ph)
        }
        return (pw, ph)
    }
}
