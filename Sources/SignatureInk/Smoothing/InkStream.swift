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
///
/// Every stage works on a few plain numbers, with no allocation per sample; a run of samples given to
/// `append(contentsOf:)` is processed with the stream's state in registers, in blocks whose filter factors are
/// worked out ahead of their positions. Samples given one by one and in runs give the same ink
/// points.
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
    /// Everything that changes from sample to sample.
    private var core: Core

    /// Creates a stream.
    /// - Parameter style: the pen style; it is sanitised first.
    public init(style: PenStyle = .default) {
        let s = style.sanitized
        self.style = s
        core = Core(style: s)
    }

    /// The pen's filtered velocity, in canvas units per millisecond (the 1 Euro filter's speed estimate).
    public var velocity: Point { core.filter.velocity * 0.001 }

    /// The last filtered pen position, or `nil` before the first sample.
    public var lastFilteredPosition: Point? { core.count > 0 ? core.filter.value : nil }

    /// The half-width the last sample was given, in canvas units (0 before the first sample).
    public var lastRadius: Double { core.radius }

    /// Starts a new stroke, keeping the buffers' capacity.
    public mutating func reset() {
        points.removeAll(keepingCapacity: true)
        core.reset()
        isFinished = false
        isDot = false
    }

    /// Reserves room for the ink points of a stroke of `n` samples.
    /// - Parameter n: expected number of samples, `>= 0`.
    public mutating func reserveCapacity(_ n: Int) { points.reserveCapacity(n + 8) }

    /// Adds one sample of the current stroke. Ignored after ``finish()`` until ``reset()``.
    /// - Parameter s: the sample; one with a non-finite position is skipped.
    public mutating func append(_ s: InkSample) {
        guard !isFinished, s.x.isFinite, s.y.isFinite else { return }
        core.append(s, into: &points)
    }

    /// Adds samples of the current stroke in order.
    /// - Parameter samples: the samples.
    public mutating func append<C: Collection>(contentsOf samples: C) where C.Element == InkSample {
        let done: Void? = samples.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if done == nil { for s in samples { append(s) } }
    }

    /// Adds a run of samples of the current stroke in order: the fast path for samples in memory, such as a
    /// stroke of a saved signature or the samples a capture received since the last frame.
    /// - Parameter samples: the samples.
    public mutating func append(contentsOf samples: UnsafeBufferPointer<InkSample>) {
        guard !isFinished, !samples.isEmpty else { return }
        // A run of several samples goes in blocks, even a short one: it still leaves the filtered positions
        // fewer waits. A single sample (a live view asking after every event) goes straight in.
        if samples.count > 1 {
            appendInBlocks(samples)
        } else {
            append(samples[samples.startIndex])
        }
    }

    /// Adds a run of samples a block at a time: the first halves of a block's samples (intervals, speed
    /// estimates, smoothing factors, with their square roots and divisions), then the second halves, whose chain
    /// of filtered positions then runs without waiting on them. The ink points are the same as sample by sample.
    @inline(never)
    private mutating func appendInBlocks(_ samples: UnsafeBufferPointer<InkSample>) {
        var c = core
        var out = points
        points = []
        withUnsafeTemporaryAllocation(of: Core.Prepared.self, capacity: Self.block) { prepared in
            var i = samples.startIndex
            while i < samples.endIndex {
                let block = UnsafeBufferPointer(rebasing: samples[i..<Swift.min(i + Self.block, samples.endIndex)])
                var m = 0
                for s in block where s.x.isFinite && s.y.isFinite {
                    prepared[m] = c.prepare(s)
                    m += 1
                }
                m = 0
                for s in block where s.x.isFinite && s.y.isFinite {
                    c.consume(s, prepared[m], into: &out)
                    m += 1
                }
                i += block.count
            }
        }
        core = c
        points = out
    }

    /// Samples prepared ahead of their second half: 32 of 32 bytes, the most the standard library keeps on the
    /// stack for a temporary allocation (beyond 1 KiB it allocates on the heap).
    static let block = 32

    /// Completes the stroke: draws the rest of the curve to the pen-up position, applies the end taper and
    /// limits how fast the width changes. A stroke whose points all lie within ``PenStyle/minimumSpacing`` of
    /// the first becomes a dot.
    public mutating func finish() {
        guard !isFinished else { return }
        isFinished = true
        guard core.count > 0 else { return }
        core.finish(into: &points)
        if points.count == 1 {
            isDot = true
            points[0].radius = style.effectiveDotWidth / 2
            return
        }
        applyEndTaperAndSlope()
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

extension InkStream {
    /// The state of the stroke being built, in plain numbers, and the per-sample work: interval, 1 Euro
    /// filter, width, merging of close points. The curve construction is in `CurveBuilder.swift`.
    struct Core: Sendable {
        // Settings.
        let velocitySmoothing: Double
        let law: WidthModel.Law
        let spacing2: Double
        let tolerance2: Double
        let startTaper: Double
        let taperFraction: Double

        // The samples.
        var count = 0                   // samples accepted in this stroke
        var lastT = 0.0                 // latest time seen, milliseconds
        var filter: OneEuroFilter
        var speed = 0.0                 // filtered speed for the width, canvas units per millisecond
        var radius = 0.0                // half-width of the last sample

        // The knots of the curve: k0 -> k1 is the segment waiting for the tangent at k1.
        var knots = 0                   // 0, 1, or 2 for two and more
        var k0 = Knot.zero
        var k1 = Knot.zero
        var tangentOut0 = Point.zero    // tangent leaving k0 (not normalised)
        var deviationOut0 = 0.0         // bound on |unit tangent - chord|^2 there
        var chord01 = Point.zero        // unit chord k0 -> k1
        var length01 = 0.0              // its length
        var knotIsLastFiltered = false  // whether k1 is at the last filtered position

        // The ink points written: centre-line length, and the last point's shaped radius and distance.
        var distance = 0.0
        var shapedRadius = 0.0
        var shapedDistance = 0.0

        /// A knot: a smoothed point with the time and radius it was taken at.
        struct Knot: Sendable {
            var p: Point
            var t: Double
            var r: Double
            static let zero = Knot(p: .zero, t: 0, r: 0)
        }

        init(style s: PenStyle) {
            filter = OneEuroFilter(style: s)
            velocitySmoothing = s.velocitySmoothing
            law = WidthModel.Law(style: s)
            spacing2 = s.minimumSpacing * s.minimumSpacing
            tolerance2 = s.curveTolerance * s.curveTolerance
            startTaper = s.startTaper
            taperFraction = s.taperFraction
        }

        mutating func reset() {
            filter.reset()
            count = 0
            speed = 0
            knots = 0
            knotIsLastFiltered = false
            distance = 0
        }

        /// What the first half of a sample's work hands the second: the filter's smoothing factor, the interval's
        /// reciprocal (per millisecond) and speed weight, and the time the sample is taken at.
        struct Prepared: Sendable {
            var factor: Double
            var inverse: Double
            var weight: Double
            var t: Double
        }

        /// Processes one sample with a finite position: both halves at once.
        @inline(__always)
        mutating func append(_ s: InkSample, into out: inout [InkPoint]) {
            consume(s, prepare(s), into: &out)
        }

        /// The first half of a sample's work: its interval, the interval's factors and the filter's speed
        /// estimate and smoothing factor. It never reads a filtered position, so a run's samples can be prepared
        /// ahead of the second half, whose chain of filtered positions then need not wait on this one's square
        /// root and divisions.
        /// - Parameter s: a sample with a finite position.
        @inline(__always)
        mutating func prepare(_ s: InkSample) -> Prepared {
            let p = Point(s.x, s.y)
            var dt = s.t - lastT
            if !(dt >= InkStream.minimumInterval) { dt = InkStream.minimumInterval }
            if count == 0 {
                dt = InkStream.minimumInterval
                lastT = s.t.isFinite ? s.t : 0
            } else if s.t.isFinite && s.t > lastT {
                lastT = s.t
            }
            // The interval's factors for the filter and the width, from one division:
            // 1 / (dt (x + 1) (dt + tau)) with x = 2 pi fc dt gives 1 / dt, x / (x + 1) and dt / (dt + tau).
            let seconds = dt * 0.001
            let x = OneEuroFilter.twoPi * filter.derivativeCutoff * seconds
            let e = dt + velocitySmoothing
            let x1 = x + 1
            let reciprocal = 1 / (dt * x1 * e)
            var inverse = reciprocal * x1 * e               // 1 / dt, per millisecond
            var derivativeAlpha = x * dt * e * reciprocal
            var weight = dt * dt * x1 * reciprocal
            if !(reciprocal > 0 && reciprocal.isFinite) {    // extreme settings: the plain divisions
                inverse = 1 / dt
                derivativeAlpha = x / x1
                weight = dt / e
            }
            count += 1
            let factor = filter.smoothingFactor(p, interval: seconds, inverse: inverse * 1000,
                                                derivativeAlpha: derivativeAlpha)
            return Prepared(factor: factor, inverse: inverse, weight: weight, t: lastT)
        }

        /// The second half: the filtered position, the width, the merge of close points and the curve.
        /// - Parameters:
        ///   - s: the sample given to ``prepare(_:)``.
        ///   - q: what ``prepare(_:)`` returned for it.
        @inline(__always)
        mutating func consume(_ s: InkSample, _ q: Prepared, into out: inout [InkPoint]) {
            let previousFiltered = filter.value
            let f = filter.smooth(Point(s.x, s.y), factor: q.factor)
            // Width from the speed of the smoothed pen (or the pressure). The stroke's first sample is the one
            // that finds no knot: it always becomes the first.
            let isFirst = knots == 0
            let moved2 = isFirst ? 0 : (f - previousFiltered).lengthSquared
            let moved = moved2.squareRoot()
            if !isFirst { speed += (moved * q.inverse - speed) * q.weight }
            radius = 0.5 * law.width(speed: speed, pressure: s.pressure)
            // Points closer than the minimum spacing to the last knot are merged into it. Most samples follow
            // the last knot directly: their distance from it is `moved`.
            var length = -1.0
            if knots > 0 {
                if knotIsLastFiltered {
                    if moved2 < spacing2 || moved2 == 0 {
                        knotIsLastFiltered = false
                        return
                    }
                    length = moved
                } else if (f - k1.p).lengthSquared < spacing2 || f == k1.p {
                    return
                }
            }
            knotIsLastFiltered = addKnot(Knot(p: f, t: q.t, r: radius), length: length, into: &out)
        }

        /// Draws the rest of the curve, ending on the pen-up position: the filter lags the pen by up to
        /// `1 / (2 pi beta)` when fast.
        mutating func finish(into out: inout [InkPoint]) {
            let end = filter.previousInput
            if knots > 0 && k1.p != end {
                if (end - k1.p).lengthSquared < spacing2 && knots > 1 {
                    moveLastKnot(to: Knot(p: end, t: lastT, r: k1.r))
                } else {
                    _ = addKnot(Knot(p: end, t: lastT, r: radius), length: -1, into: &out)
                }
            }
            finishCurve(into: &out)
        }

        /// Writes one ink point at the current ``distance``, with the start taper and the streaming radius slope
        /// applied to its radius.
        @inline(__always)
        mutating func write(_ p: Point, t: Double, radius r: Double, into out: inout [InkPoint]) {
            var r = r
            if distance < startTaper {
                r *= WidthModel.taper(distance: distance, length: startTaper, fraction: taperFraction)
            }
            if !out.isEmpty {
                let limit = InkStream.streamingRadiusSlope * (distance - shapedDistance)
                r = Swift.min(Swift.max(r, shapedRadius - limit), shapedRadius + limit)
            }
            shapedRadius = r
            shapedDistance = distance
            out.append(InkPoint(x: p.x, y: p.y, t: t, radius: r, distance: distance))
        }
    }
}
