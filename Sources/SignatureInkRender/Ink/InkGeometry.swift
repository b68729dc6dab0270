// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// The ink of a signature as the one shape every output draws: closed variable-width outlines in output
/// units, filled once with the non-zero rule.
///
/// This is the single seam between the geometry core and the writers: PNG, SVG, PDF and a caller's Cairo
/// context all fill ``path``, so they agree, and overlapping strokes never darken.
struct InkGeometry {
    /// The outlines in output units, one closed sub-path per stroke (a tap is a round dot).
    var path: Path
    /// For each stroke, the range of ``path``'s elements that draw it (empty for a stroke with no finite sample).
    var strokeRanges: [Range<Int>]
    /// The ink in drawing order as runs of consecutive strokes with the same paint; empty for a signature
    /// without recorded pens, which is drawn with the options' pen.
    var paints: [PaintRun] = []

    /// Consecutive strokes filled with one colour and blend: one fill, so that their overlaps do not darken.
    struct PaintRun: Equatable {
        /// The range of ``InkGeometry/path``'s elements.
        var elements: Range<Int>
        /// The ink colour.
        var color: Color
        /// Painted over, or erasing.
        var blend: Pen.Blend
    }

    /// Indices into ``path``'s elements, ascending, where one fill ends and the next begins inside a paint run:
    /// signature_pad fills each curve on its own, so translucent ink builds up where curves overlap. Empty
    /// when every run is one fill.
    var fillBreaks: [Int] = []
    /// Whether the ink holds strokes redrawn as signature_pad draws them, whose small round dots need Cairo's
    /// curves flattened finely when Cairo fills them (see ``Scene/signaturePadTolerance``).
    var hasSignaturePadInk = false
    /// The element ranges of signature_pad's dots that their stroke's first curve covers, ascending: opaque ink whose
    /// dot stands where the curve starts, no larger than the curve's first circle (by default they are the same
    /// size). The union is the same without them, so the SVG writer leaves them out (``vectorPath(_:)``). The
    /// raster fill keeps them: the pad's canvas paints the dot and the curve one after another, and their
    /// anti-aliased edges build up where they overlap, which Cairo's coverage of the two sub-paths matches (without
    /// them a stroke's start is up to half a pixel's coverage lighter than on the page).
    var coveredDots: [Range<Int>] = []

    /// The elements of ``path`` in `range` as a path, without the dots in ``coveredDots``: what the SVG writer draws.
    func vectorPath(_ range: Range<Int>) -> Path {
        // Without a covered dot in the range (the common case: ink without signature_pad's pens), the path itself
        // or its elements, not a copy made element by element.
        if !coveredDots.contains(where: { $0.overlaps(range) }) {
            return range == path.elements.indices ? path : Path(Array(path.elements[range]))
        }
        var kept: [Path.Element] = []
        kept.reserveCapacity(range.count)
        var from = range.lowerBound
        for dot in coveredDots where dot.overlaps(from..<range.upperBound) {
            if dot.lowerBound > from { kept += path.elements[from..<dot.lowerBound] }
            from = dot.upperBound
        }
        if from < range.upperBound { kept += path.elements[from..<range.upperBound] }
        return Path(kept)
    }

    /// The element ranges filled one after another to draw `run`: a translucent run split at ``fillBreaks``,
    /// where its curves build up; an opaque run in one fill.
    ///
    /// Opaque curves build up only along their anti-aliased edges, by a fraction of a pixel's coverage: the union of
    /// the curves, which every outline's single turning direction makes the non-zero fill of all of them at once,
    /// is the same shape, and one fill costs Cairo a fraction of one per curve (a 171-sample name from
    /// signature_pad is 160 curves).
    func fills(of run: PaintRun) -> [Range<Int>] {
        guard run.color.alpha < 255 else { return [run.elements] }
        var ranges: [Range<Int>] = []
        var start = run.elements.lowerBound
        for b in fillBreaks where b > start && b < run.elements.upperBound {
            ranges.append(start..<b)
            start = b
        }
        ranges.append(start..<run.elements.upperBound)
        return ranges
    }

    /// Whether the ink is one colour painted over the background: it can then be written as coverage.
    var isSinglePaint: Bool { paints.count <= 1 && paints.allSatisfy { $0.blend == .normal } }

    /// Whether every run that paints uses one colour, erasers aside: the ink is then one colour whose coverage the
    /// erasers only take away from, so it can be drawn as coverage.
    var isOneInkColour: Bool {
        let painted = paints.filter { $0.blend == .normal }
        return painted.allSatisfy { $0.color == painted.first?.color }
    }

    /// Whether some run erases.
    var erases: Bool { paints.contains { $0.blend == .erase } }

    /// The colour of single-paint ink (``isSinglePaint``), else of its first run.
    func inkColor(default color: Color) -> Color { paints.first { $0.blend == .normal }?.color ?? paints.first?.color ?? color }

    /// The ink of `signature` placed by `layout`.
    ///
    /// The samples are moved into output units first and outlined there, so widths, tapers and the curve
    /// tolerance are in output units whatever the layout's scale; the speed parameters are scaled with the
    /// ink so a fitted signature keeps the widths it has at its natural size.
    ///
    /// A stroke with a recorded pen (`Signature.pens`) is drawn with the pen's colour and widths, unless
    /// ``RenderOptions/recordedPen`` leaves them out; its blend (an eraser) always applies. A pen with
    /// signature_pad's width model is redrawn with `SignaturePadCurves` in canvas units and then moved,
    /// which keeps its widths in output units.
    static func make(_ signature: Signature, layout: Layout, options: RenderOptions) -> InkGeometry {
        let k = layout.inkScale
        let moved = k != 1 || layout.offset != .zero
        var style = options.penStyle
        if moved {
            style.speedAtMidWidth *= k
            style.smoothingBeta /= k
        }
        var outliner = Outliner(style: style)
        var path = Path()
        // About two commands an ink point and a dozen a stroke for its caps; signature_pad's curves keep about
        // three ink points a sample, and a dot a stroke.
        let padPens = signature.pens.contains { if case .signaturePad = $0.widthModel { true } else { false } }
        path.reserveCapacity(signature.samples.count * (padPens ? 7 : 2) + signature.strokeCount * (padPens ? 18 : 12))
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(signature.strokeCount)
        // The moved samples of one stroke at a time, in one buffer for them all.
        var scratch: [InkSample] = []
        if moved { scratch.reserveCapacity(signature.samples.count) }
        guard !signature.pens.isEmpty else {
            for stroke in signature.strokes {
                let start = path.elements.count
                outline(stroke, layout: layout, moved: moved, scratch: &scratch, with: &outliner, to: &path)
                ranges.append(start..<path.elements.count)
            }
            // One paint, the options' pen: no run is listed, so that the common case allocates nothing more.
            return InkGeometry(path: path, strokeRanges: ranges)
        }

        var paints: [PaintRun] = []
        var outliners: [PenStyle: Outliner] = [:]
        var curvePoints: [InkPoint] = []
        var curveEnds: [Int] = []
        var breaks: [Int] = []
        var signaturePadInk = false
        var coveredDots: [Range<Int>] = []
        let parts = options.recordedPen
        for (index, stroke) in signature.strokes.enumerated() {
            let start = path.elements.count
            let pen = signature.pen(ofStroke: index)
            if let pen, parts.contains(.widths) {
                if case .signaturePad = pen.widthModel {
                    signaturePadInk = true
                    var curves = SignaturePadCurves(pen: pen, style: options.penStyle)
                    // Drawn in canvas units, held in device pixels: a HiDPI image gets the finer curve it shows.
                    let pixels = k * Swift.max(1, options.scale)
                    if pixels > 0 && pixels.isFinite { curves.tolerance /= pixels }
                    // Translucent ink builds up where signature_pad's curves overlap: each curve is its own fill.
                    // Opaque ink looks the same filled at once, which is much cheaper: its curves are one chain of
                    // circles, one outline a stroke (the same union, without a pair of round caps at every joint).
                    let layered = pen.color.alpha < 255
                    if let dot = curves.inkPoints(of: stroke, into: &curvePoints, curveEnds: &curveEnds,
                                                  joined: !layered) {
                        if layered && start > 0 { breaks.append(start) }
                        let dotStart = path.elements.count
                        outliner.appendOutline(of: [moved ? layout.apply(dot) : dot], isDot: true, to: &path)
                        if !layered && Self.covers(curvePoints.first, dot) {
                            coveredDots.append(dotStart..<path.elements.count)
                        }
                        if moved { for i in curvePoints.indices { curvePoints[i] = layout.apply(curvePoints[i]) } }
                        var first = 0
                        for end in curveEnds {
                            if layered { breaks.append(path.elements.count) }
                            outliner.appendOutline(of: curvePoints[first..<end], isDot: end - first == 1, to: &path)
                            first = end
                        }
                        if layered { breaks.append(path.elements.count) }
                    }
                } else {
                    var penStyle = pen.applied(to: style)
                    penStyle = penStyle.sanitized
                    var penOutliner = outliners[penStyle] ?? Outliner(style: penStyle)
                    outline(stroke, layout: layout, moved: moved, scratch: &scratch, with: &penOutliner, to: &path)
                    outliners[penStyle] = penOutliner
                }
            } else {
                outline(stroke, layout: layout, moved: moved, scratch: &scratch, with: &outliner, to: &path)
            }
            let end = path.elements.count
            ranges.append(start..<end)
            let color = pen.map { parts.contains(.color) ? $0.color : options.penColor } ?? options.penColor
            let blend = pen?.blend ?? .normal
            if let last = paints.last, last.color == color, last.blend == blend {
                paints[paints.count - 1].elements = last.elements.lowerBound..<end
            } else {
                paints.append(PaintRun(elements: start..<end, color: color, blend: blend))
            }
        }
        return InkGeometry(path: path, strokeRanges: ranges, paints: paints, fillBreaks: breaks,
                           hasSignaturePadInk: signaturePadInk, coveredDots: coveredDots)
    }

    /// Whether the disc of ink point `a` holds the whole disc of `b`: the same centre, a radius at least as large.
    static func covers(_ a: InkPoint?, _ b: InkPoint) -> Bool {
        guard let a else { return false }
        return a.location == b.location && a.radius >= b.radius
    }

    /// Outlines one stroke with `outliner`, its samples moved into output units in `scratch` when `moved`.
    ///
    /// The moved samples go to the outliner as an array, its contiguous path. Moving them as they were read (a lazy
    /// map) went through the outliner's unspecialized generic entry: the runtime then looked the lazy map's iterator
    /// up by name, scanning every protocol conformance of the binary, 0.8 M instructions of the 5 M a
    /// `render --scale 2` took in a new process (callgrind).
    private static func outline(_ stroke: ArraySlice<InkSample>, layout: Layout, moved: Bool, scratch: inout [InkSample],
                                with outliner: inout Outliner, to path: inout Path) {
        guard moved else {
            outliner.appendOutline(of: stroke, to: &path)
            return
        }
        scratch.removeAll(keepingCapacity: true)
        for s in stroke {
            var t = s
            t.location = layout.apply(s.location)
            scratch.append(t)
        }
        outliner.appendOutline(of: scratch[...], to: &path)
    }

    /// Cairo's fixed-point coordinates (24.8 bits) hold device coordinates up to 2^23 pixels; beyond them it
    /// wraps, so ink that far out is not bounded by its coordinates.
    static let largestFixedCoordinate = Double(1 << 23)
    /// Pixels added around the ink's bounds: anti-aliasing covers only the pixels the shape overlaps, and one
    /// more on each side absorbs Cairo's rounding of coordinates to 1/256 pixel (at most 1/512).
    static let boundsMargin = 1.0

    /// The pixels of a `width` x `height` image the ink can cover when drawn at `scale` device pixels per
    /// output unit: the bounds of every point and control point (a cubic lies in their hull), rounded out, plus
    /// ``boundsMargin``, and clipped to the image.
    /// - Returns: the rectangle, empty (all zero) when the path has no point inside the image, or the whole
    ///   image when a coordinate is not finite or is beyond Cairo's fixed-point range.
    func pixelBounds(scale: Double, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        // min and max skip NaN; this sum of zeros becomes NaN at any coordinate that is not finite.
        var finite = 0.0
        for e in path.elements {
            switch e {
            case let .move(p), let .line(p):
                minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
                minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
                finite += (p.x + p.y) * 0
            case let .cubic(a, b, c):
                minX = Swift.min(minX, a.x, b.x, c.x); maxX = Swift.max(maxX, a.x, b.x, c.x)
                minY = Swift.min(minY, a.y, b.y, c.y); maxY = Swift.max(maxY, a.y, b.y, c.y)
                finite += (a.x + a.y + b.x + b.y + c.x + c.y) * 0
            case .close: break
            }
        }
        guard finite == 0 else { return (0, 0, width, height) }
        return Self.pixelBounds(minX: minX * scale, minY: minY * scale, maxX: maxX * scale, maxY: maxY * scale,
                                width: width, height: height)
    }

    /// ``pixelBounds(scale:width:height:)`` from the extent of the points already in pixels (a fill's
    /// ``RasterCost`` measures it as it goes): NaN when a coordinate is not finite, minimum above maximum when there
    /// is no point.
    static func pixelBounds(minX: Double, minY: Double, maxX: Double, maxY: Double,
                            width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let whole = (x: 0, y: 0, width: width, height: height)
        guard !minX.isNaN, !minY.isNaN, !maxX.isNaN, !maxY.isNaN else { return whole }
        guard minX <= maxX, minY <= maxY else { return (0, 0, 0, 0) }  // no point
        let limit = Self.largestFixedCoordinate
        let x0 = minX.rounded(.down) - Self.boundsMargin, x1 = maxX.rounded(.up) + Self.boundsMargin
        let y0 = minY.rounded(.down) - Self.boundsMargin, y1 = maxY.rounded(.up) + Self.boundsMargin
        guard x0 > -limit, y0 > -limit, x1 < limit, y1 < limit else { return whole }  // also catches NaN, infinity
        let left = Int(Swift.max(0, x0)), right = Int(Swift.min(Double(width), x1))
        let top = Int(Swift.max(0, y0)), bottom = Int(Swift.min(Double(height), y1))
        guard left < right, top < bottom else { return (0, 0, 0, 0) }
        return (left, top, right - left, bottom - top)
    }
}

