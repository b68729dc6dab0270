// SPDX-License-Identifier: Apache-2.0

/// The streaming heart of the engine: samples in, ink points (smoothed centre line with widths) out.
///
/// Each sample goes through the ``OneEuroFilter`` (jitter removal on real timestamps), the ``WidthModel``
/// (pressure or speed), a merge of points closer than ``PenStyle/minimumSpacing``, and the curve construction
/// that subdivides sparse samples along cubic curves. New ink points appear in ``points`` as samples arrive
/// (one knot behind the input); ``finish()`` adds the rest, pulls the end onto the pen-up position, applies the
/// end taper and makes the widths change no faster than the outline can follow.
///
/// The stream is robust to any input: samples with a non-finite position are skipped; an interval that is
/// zero, negative or not a number counts as ``minimumInterval``. It keeps its buffers between strokes, so after
/// the first few strokes it allocates nothing.
public struct InkStream: Sendable {
    /// Shortest interval used between two samples, in milliseconds: equal or backwards timestamps (coalesced
    /// events, clock glitches such as those in SVC2004 files) are treated as this far apart. 1 ms is shorter than
    /// any real digitiser's period (the fastest report at 240 to 500 Hz, 2 to 4 ms).
    public static let minimumInterval = 1.0
    /// How fast the radius may change along the centre line while streaming, canvas units per canvas unit.
    /// Keeping it well below 1 keeps each segment's outline a proper tangent hull of its two end circles.
    static let streamingRadiusSlope = 0.5
    /// How fast the radius may change in the final outline, after the end taper (it must stay below 1).
    static let finalRadiusSlope = 0.9

    /// The style in use, sanitised.
    public let style: PenStyle
    /// The ink points of the current stroke so far.
    public private(set) var points: [InkPoint] = []
    /// Whether ``finish()`` has been called since the last ``reset()``.
    public private(set) var isFinished = false
    /// Whether the finished stroke is a tap: one round dot of ``PenStyle/effectiveDotWidth``.
    public private(set) var isDot = false

    private var filter: OneEuroFilter
    private var widthModel: WidthModel
    private var curve: CurveBuilder
    private var sampleCount = 0
    private var lastT = 0.0
    private var lastFiltered = Point.zero
    private var lastRaw = Point.zero
    private var lastRawT = 0.0
    private var currentRadius = 0.0
    private var distance = 0.0
    private var processed = 0          // points[..<processed] have had the start taper and slope applied
    private let spacing2: Double

    /// Creates a stream.
    /// - Parameter style: the pen style; it is sanitised first.
    public init(style: PenStyle = .default) {
        let s = style.sanitized
        self.style = s
        filter = OneEuroFilter(style: s)
        widthModel = WidthModel(style: s)
        curve = CurveBuilder(tolerance: s.curveTolerance)
        spacing2 = s.minimumSpacing * s.minimumSpacing
    }

    /// The pen's filtered velocity, in canvas units per millisecond (the 1 Euro filter's speed estimate).
    public var velocity: Point { filter.velocity * 0.001 }

    /// The last filtered pen position, or `nil` before the first sample.
    public var lastFilteredPosition: Point? { sampleCount > 0 ? lastFiltered : nil }

    /// The half-width the last sample was given, in canvas units (0 before the first sample).
    public var lastRadius: Double { currentRadius }

    /// Starts a new stroke, keeping the buffers' capacity.
    public mutating func reset() {
        points.removeAll(keepingCapacity: true)
        filter.reset()
        widthModel.reset()
        curve.reset()
        sampleCount = 0
        distance = 0
        processed = 0
        isFinished = false
        isDot = false
    }

    /// Reserves room for the ink points of a stroke of `n` samples.
    /// - Parameter n: expected number of samples, `>= 0`.
    public mutating func reserveCapacity(_ n: Int) { points.reserveCapacity(n + 8) }

    /// Adds one sample of the current stroke. Ignored after ``finish()`` until ``reset()``.
    /// - Parameter s: the sample; one with a non-finite position is skipped.
    @inline(__always)
    public mutating func append(_ s: InkSample) {
        guard !isFinished, s.x.isFinite, s.y.isFinite else { return }
        let p = Point(s.x, s.y)
        var dt = s.t - lastT
        if !(dt >= Self.minimumInterval) { dt = Self.minimumInterval }
        if sampleCount == 0 {
            dt = Self.minimumInterval
            lastT = s.t.isFinite ? s.t : 0
        } else if s.t.isFinite && s.t > lastT {
            lastT = s.t
        }
        let f = filter.filter(p, interval: dt * 0.001)
        let moved = sampleCount == 0 ? 0 : (f - lastFiltered).length
        lastFiltered = f
        currentRadius = 0.5 * widthModel.width(distance: moved, interval: dt, pressure: s.pressure)
        lastRaw = p
        lastRawT = lastT
        sampleCount += 1
        let knot = CurveBuilder.Knot(p: f, t: lastT, r: currentRadius)
        if let last = curve.lastKnot, (f - last.p).lengthSquared < spacing2 || f == last.p { return }
        curve.add(knot, into: &points, distance: &distance)
        shapeNewPoints()
    }

    /// Adds samples of the current stroke in order.
    /// - Parameter samples: the samples.
    public mutating func append<C: Collection>(contentsOf samples: C) where C.Element == InkSample {
        for s in samples { append(s) }
    }

    /// Completes the stroke: draws the rest of the curve to the pen-up position, applies the end taper and
    /// limits how fast the width changes. A stroke whose points all lie within ``PenStyle/minimumSpacing`` of
    /// the first becomes a dot.
    public mutating func finish() {
        guard !isFinished else { return }
        isFinished = true
        guard sampleCount > 0 else { return }
        // End on the pen-up position: the filter lags the pen by up to 1 / (2 pi beta) when fast.
        let end = CurveBuilder.Knot(p: lastRaw, t: lastRawT, r: currentRadius)
        if let last = curve.lastKnot, last.p != lastRaw {
            if (lastRaw - last.p).lengthSquared < spacing2 && curve.knotCount > 1 {
                curve.moveLastKnot(to: CurveBuilder.Knot(p: lastRaw, t: lastRawT, r: last.r))
            } else {
                curve.add(end, into: &points, distance: &distance)
            }
        }
        curve.finish(into: &points, distance: &distance)
        shapeNewPoints()
        if points.count == 1 {
            isDot = true
            points[0].radius = style.effectiveDotWidth / 2
            return
        }
        applyEndTaperAndSlope()
    }

    /// Applies the start taper and the streaming radius slope to points not shaped yet.
    @inline(__always)
    private mutating func shapeNewPoints() {
        let n = points.count
        guard processed < n else { return }
        let taper = style.startTaper, fraction = style.taperFraction
        points.withUnsafeMutableBufferPointer { pts in
            for i in processed..<n {
                var r = pts[i].radius
                if taper > 0 {
                    r *= WidthModel.taper(distance: pts[i].distance, length: taper, fraction: fraction)
                }
                if i > 0 {
                    let prev = pts[i - 1]
                    let limit = Self.streamingRadiusSlope * (pts[i].distance - prev.distance)
                    r = Swift.min(Swift.max(r, prev.radius - limit), prev.radius + limit)
                }
                pts[i].radius = r
            }
        }
        processed = n
    }

    /// The end taper, then a backward lower envelope so that `|r[i+1] - r[i]| <= finalRadiusSlope * length`.
    ///
    /// Streaming already keeps every step within ``streamingRadiusSlope``, and a monotone taper cannot make a
    /// width grow faster, so only drops near the end can be too steep: the backward pass stops as soon as it is
    /// before the taper and changes nothing.
    private mutating func applyEndTaperAndSlope() {
        let taper = style.endTaper, fraction = style.taperFraction
        points.withUnsafeMutableBufferPointer { pts in
            let n = pts.count
            guard n > 1 else { return }
            let total = pts[n - 1].distance
            var i = n - 1
            if taper > 0 {
                while i >= 0 && total - pts[i].distance < taper {
                    pts[i].radius *= WidthModel.taper(distance: total - pts[i].distance, length: taper,
                                                      fraction: fraction)
                    i -= 1
                }
            }
            let taperStart = i
            let k = Self.finalRadiusSlope
            var j = n - 2
            while j >= 0 {
                let limit = pts[j + 1].radius + k * (pts[j + 1].distance - pts[j].distance)
                if pts[j].radius > limit {
                    pts[j].radius = limit
                } else if j < taperStart {
                    break
                }
                j -= 1
            }
        }
    }
}
