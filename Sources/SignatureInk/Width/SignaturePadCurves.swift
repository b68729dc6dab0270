// SPDX-License-Identifier: Apache-2.0

/// Rebuilds a stroke's ink the way signature_pad (version 4 and 5) draws it on its canvas, so that a page's
/// `toData()` renders as thick, and along the same curves, as the page showed it.
///
/// signature_pad keeps the last four points of a stroke (the first one doubled at the start), and for each new
/// point draws a cubic Bezier from the second to the third: its control points come from the tangent at each
/// end (parallel to the chord between that end's neighbours, split in proportion to the two chord lengths).
/// The radius at the curve's end comes from the speed between its two ends, filtered with
/// `velocityFilterWeight` against the previous speed: `max(maxWidth / (speed + 1), minWidth)` with speed in
/// CSS pixels per millisecond; the radius at its start is the previous curve's end radius (the mean of the
/// two widths for the first curve). Along the curve, circles are drawn at `2 * ceil(length)` evenly spaced
/// parameter steps, the radius easing from start to end with the cube of the parameter. The first point also
/// gets a dot of radius `dotSize` (the mean of the widths when 0), and the stroke's last curve is never drawn
/// (signature_pad draws a curve only when the point after it arrives).
///
/// Here each curve becomes as few circles (``InkPoint``s) as keep the capsules between them within ``tolerance``
/// of signature_pad's circles, and the ``Outliner`` joins them into one outline: the union of the
/// capsules, the same shape within a fraction of a pixel. signature_pad fills each curve on its own, so a
/// translucent pen (or the anti-aliased edge of an opaque one) builds up where consecutive curves overlap;
/// filling a translucent pen's curves one by one gives the same. An opaque pen's curves make one chain of
/// circles (`joined`), each curve running on to the next one's first circle, so that a stroke is one outline
/// (the benchmark set as signature_pad files: 20 outlines a file instead of 41, and 959 lines instead of 1,136).
public struct SignaturePadCurves: Sendable {
    /// Smallest radius, CSS pixels (signature_pad's `minWidth`), `> 0`.
    public var minRadius: Double
    /// Largest radius, CSS pixels (signature_pad's `maxWidth`), `>= minRadius`.
    public var maxRadius: Double
    /// Radius of the dot on a stroke's first point, CSS pixels, `> 0`.
    public var dotRadius: Double
    /// Weight of the newest speed in the filtered speed, `0...1`.
    public var velocityFilterWeight: Double
    /// Largest distance, in canvas units, by which the capsules between the kept circles may stand from the union
    /// of signature_pad's circles along a curve (their centres from the curve, and their radii from its radius):
    /// the style's `curveTolerance`, the tolerance of every other outline's curves. A renderer that scales the ink
    /// divides it by the scale, so that it holds in device pixels.
    public var tolerance: Double

    /// Creates the model from a signature_pad pen, taking a width the pen leaves out from `style`.
    /// - Parameters:
    ///   - pen: a pen whose widths are line widths (twice signature_pad's radii).
    ///   - style: the renderer's style, for widths the pen does not give.
    public init(pen: Pen, style: PenStyle) {
        let s = pen.applied(to: style).sanitized
        minRadius = s.minWidth / 2
        maxRadius = s.maxWidth / 2
        dotRadius = s.effectiveDotWidth / 2
        tolerance = s.curveTolerance
        if case let .signaturePad(weight) = pen.widthModel, weight.isFinite {
            velocityFilterWeight = Swift.min(1, Swift.max(0, weight))
        } else {
            velocityFilterWeight = 0.7
        }
    }

    /// One point as signature_pad keeps it.
    private struct Knot {
        var x: Double, y: Double, t: Double
    }

    /// The ink of one stroke.
    /// - Parameters:
    ///   - stroke: the samples, in order, as signature_pad recorded them (after its throttle and minimum
    ///     distance). Samples with a coordinate that is not finite are skipped.
    ///   - points: receives the ink points of the drawn curves (emptied first), curve after curve.
    ///   - curveEnds: receives, for each drawn curve, the index in `points` one past its last point (emptied
    ///     first); empty when nothing but the dot is drawn. With `joined`, one end: the whole chain's.
    ///   - joined: whether the curves make one chain of circles, for ink whose curves are filled at once (an opaque
    ///     pen): a circle at the start of a curve that the last one of the curve before holds, or that holds it,
    ///     is dropped or replaces it as within a curve, so that every step of the chain keeps the outline's
    ///     condition and the stroke is one outline. Default `false`: each curve a chain of its own.
    /// - Returns: the dot on the first point (its radius is ``dotRadius``), or `nil` when no sample is finite.
    ///
    /// The stroke is an array slice, as a `Signature` keeps it, rather than any collection: a generic entry called from
    /// another module runs unspecialized, and its first iterator is then built from its mangled name by a scan of
    /// every protocol conformance in the binary (0.4 M of the 6.4 M instructions of rendering one signature_pad file
    /// in a new process).
    public func inkPoints(of stroke: ArraySlice<InkSample>, into points: inout [InkPoint],
                          curveEnds: inout [Int], joined: Bool = false) -> InkPoint? {
        points.removeAll(keepingCapacity: true)
        curveEnds.removeAll(keepingCapacity: true)
        // The last four points, oldest first (the first point doubled once a third arrives): four variables, not
        // an array shifted at every point.
        var k0 = Knot(x: 0, y: 0, t: 0), k1 = k0, k2 = k0
        var known = 0
        var dot: InkPoint?
        var lastVelocity = 0.0
        var lastRadius = (minRadius + maxRadius) / 2
        // The last sample drawn: the curve it completes is the stroke's last one, which ends where signature_pad's
        // last circle on it stands.
        var lastFinite = stroke.endIndex
        for i in stroke.indices.reversed() where stroke[i].x.isFinite && stroke[i].y.isFinite && stroke[i].t.isFinite {
            lastFinite = i
            break
        }
        for i in stroke.indices {
            let s = stroke[i]
            guard s.x.isFinite && s.y.isFinite && s.t.isFinite else { continue }
            let k3 = Knot(x: s.x, y: s.y, t: s.t)
            switch known {
            case 0:
                dot = InkPoint(x: k3.x, y: k3.y, t: k3.t, radius: dotRadius)
                k1 = k3
                known = 1
                continue
            case 1:
                k2 = k3
                known = 2
                continue
            case 2:
                k0 = k1
                known = 3
            default:
                break
            }
            let a = k1, b = k2
            let distance = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let speed = b.t != a.t ? distance / (b.t - a.t) : 0
            let velocity = velocityFilterWeight * speed + (1 - velocityFilterWeight) * lastVelocity
            let radius = Swift.max(maxRadius / (velocity + 1), minRadius)
            // signature_pad hands the tangent control at the far end to the near end and back (its Bezier
            // constructor takes them in the other order); the curve is drawn that way, so it is built that way.
            let near = Self.controls(k1, k2, k3).before
            let far = Self.controls(k0, k1, k2).after
            let start = points.count
            appendCurve(from: a, near, far, to: b, radii: (lastRadius, radius), into: &points,
                        chainStart: joined ? 0 : start, through: joined && i != lastFinite)
            if !joined && points.count > start { curveEnds.append(points.count) }
            lastVelocity = velocity
            lastRadius = radius
            k0 = k1
            k1 = k2
            k2 = k3
        }
        if joined && !points.isEmpty { curveEnds.append(points.count) }
        return dot
    }

    /// The control points on either side of `b` for the path `a`, `b`, `c` (signature_pad's
    /// `calculateControlPoints`): the chord midpoints moved so that their split point lands on `b`.
    private static func controls(_ a: Knot, _ b: Knot, _ c: Knot) -> (before: Point, after: Point) {
        let l1 = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        let l2 = ((b.x - c.x) * (b.x - c.x) + (b.y - c.y) * (b.y - c.y)).squareRoot()
        let m1 = Point((a.x + b.x) / 2, (a.y + b.y) / 2), m2 = Point((b.x + c.x) / 2, (b.y + c.y) / 2)
        let k = l1 + l2 == 0 ? 0 : l2 / (l1 + l2)
        let cm = Point(m2.x + (m1.x - m2.x) * k, m2.y + (m1.y - m2.y) * k)
        let tx = b.x - cm.x, ty = b.y - cm.y
        return (Point(m1.x + tx, m1.y + ty), Point(m2.x + tx, m2.y + ty))
    }

    /// Steps used to estimate a curve's length (signature_pad's `length()`).
    static let lengthSteps = 10
    /// Circles drawn per CSS pixel of estimated length, rounded up (signature_pad's `drawSteps`).
    static let stepsPerPixel = 2
    /// Most capsules one curve is drawn with (signature_pad's count for a curve over 256 pixels long): one more
    /// circle than this at most, so that hostile coordinates cannot make millions of them.
    public static let mostStepsPerCurve = 1 << deepestSplit

    /// Most halvings of a curve's parameter range: at most 512 capsules a curve, however hostile its coordinates.
    static let deepestSplit = 9

    /// A circle as a point of three coordinates: its centre and its radius.
    private struct Disc {
        var x: Double, y: Double, r: Double

        func mid(_ o: Disc) -> Disc { Disc(x: (x + o.x) / 2, y: (y + o.y) / 2, r: (r + o.r) / 2) }
        func lerp(_ o: Disc, _ t: Double) -> Disc {
            Disc(x: x + (o.x - x) * t, y: y + (o.y - y) * t, r: r + (o.r - r) * t)
        }
    }

    /// Appends the circles of one curve: the stretch of it that signature_pad covers with `2 * ceil(length)` circles
    /// at evenly spaced parameters from 0 up to, but not including, 1, covered here by as few capsules as stay
    /// within ``tolerance`` of them.
    ///
    /// A circle is a point (x, y, r), and the curve's circles a cubic Bezier in those three coordinates: x and y are
    /// signature_pad's curve, and r, which eases from start to end with the cube of the parameter, has the
    /// control values r0, r0, r0, r1. A capsule between two circles is the circles along the straight segment
    /// between their points. So the curve is halved (de Casteljau) until each piece's inner control points lie
    /// within ``tolerance`` / (0.75 sqrt 2) of its chord: the piece then stays within 3/4 of that of the chord, and
    /// a circle moved by d in (x, y, r) moves its edge by at most sqrt 2 d. Only the kept circles are computed:
    /// for a 171-point name, 0.27 M instructions against 0.83 M for computing signature_pad's two circles a pixel
    /// and then leaving out those the others covered (callgrind), and fewer circles left for the outline and the fill.
    /// - Parameters:
    ///   - chainStart: the index in `points` where the chain this curve continues starts (circles before it are
    ///     never dropped).
    ///   - through: whether to cover the curve up to its end, where the next curve's first circle stands (in a
    ///     chain, that circle is then the one this curve ends with), rather than up to signature_pad's last circle
    ///     on it.
    private func appendCurve(from a: Knot, _ c1: Point, _ c2: Point, to b: Knot, radii: (Double, Double),
                             into points: inout [InkPoint], chainStart first: Int, through: Bool) {
        // signature_pad's last circle stands at (steps - 1) / steps: the piece of the curve up to it, or up to the
        // next curve's first circle, which needs no length (a curve whose length is 0 or not finite is not drawn: its
        // points are all one, or one is not finite).
        let last: Double
        if through {
            guard (c1.x + c1.y + c2.x + c2.y) * 0 == 0,
                  a.x != b.x || a.y != b.y || c1.x != a.x || c1.y != a.y || c2.x != a.x || c2.y != a.y else { return }
            last = 1
        } else {
            // signature_pad's length estimate: straight steps between ten points of the curve.
            func at(_ t: Double) -> Point {
                let u = 1 - t
                let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
                return Point(w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y)
            }
            var length = 0.0
            var previous = at(0)
            for i in 1...Self.lengthSteps {
                let p = at(Double(i) / Double(Self.lengthSteps))
                length += ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot()
                previous = p
            }
            guard length.isFinite else { return }
            let pixels = Swift.min(length.rounded(.up), Double(Self.mostStepsPerCurve / Self.stepsPerPixel))
            let steps = Int(pixels) * Self.stepsPerPixel
            guard steps > 0 else { return }
            last = Double(steps - 1) / Double(steps)
        }
        let p0 = Disc(x: a.x, y: a.y, r: radii.0), p1 = Disc(x: c1.x, y: c1.y, r: radii.0)
        let p2 = Disc(x: c2.x, y: c2.y, r: radii.0), p3 = Disc(x: b.x, y: b.y, r: radii.1)
        let ab = p0.lerp(p1, last), bc = p1.lerp(p2, last), cd = p2.lerp(p3, last)
        let abc = ab.lerp(bc, last), bcd = bc.lerp(cd, last)
        let end = abc.lerp(bcd, last)
        let span = (start: a.t, duration: (b.t - a.t) * last)
        let reach = tolerance / (0.75 * 2.0.squareRoot())
        let flatness = Swift.max(reach * reach, 1e-12)  // a tolerance of 0 or NaN still ends at the deepest split
        emit(p0, at: 0, span: span, into: &points, from: first)
        split(p0, ab, abc, end, 0, 1, depth: Self.deepestSplit, flatness: flatness, span: span, into: &points,
              from: first)
    }

    /// Appends the far end of each piece of the cubic `q0`...`q3` (parameters `t0`...`t1` of the drawn stretch) once
    /// its inner control points lie within `flatness` (squared) of its chord, halving it until then.
    private func split(_ q0: Disc, _ q1: Disc, _ q2: Disc, _ q3: Disc, _ t0: Double, _ t1: Double, depth: Int,
                       flatness: Double, span: (start: Double, duration: Double), into points: inout [InkPoint],
                       from first: Int) {
        if depth == 0 || Self.isFlat(q0, q1, q2, q3, within: flatness) {
            emit(q3, at: t1, span: span, into: &points, from: first)
            return
        }
        let ab = q0.mid(q1), bc = q1.mid(q2), cd = q2.mid(q3)
        let abc = ab.mid(bc), bcd = bc.mid(cd)
        let m = abc.mid(bcd), tm = (t0 + t1) / 2
        split(q0, ab, abc, m, t0, tm, depth: depth - 1, flatness: flatness, span: span, into: &points, from: first)
        split(m, bcd, cd, q3, tm, t1, depth: depth - 1, flatness: flatness, span: span, into: &points, from: first)
    }

    /// Whether `q1` and `q2` lie within the square root of `flatness` of the segment from `q0` to `q3`.
    private static func isFlat(_ q0: Disc, _ q1: Disc, _ q2: Disc, _ q3: Disc, within flatness: Double) -> Bool {
        let vx = q3.x - q0.x, vy = q3.y - q0.y, vr = q3.r - q0.r
        let vv = vx * vx + vy * vy + vr * vr
        func distance2(_ q: Disc) -> Double {
            let wx = q.x - q0.x, wy = q.y - q0.y, wr = q.r - q0.r
            let u = vv > 0 ? Swift.min(1, Swift.max(0, (wx * vx + wy * vy + wr * vr) / vv)) : 0
            let dx = wx - u * vx, dy = wy - u * vy, dr = wr - u * vr
            return dx * dx + dy * dy + dr * dr
        }
        return distance2(q1) <= flatness && distance2(q2) <= flatness
    }

    /// Appends the circle `q`, at parameter `t` of the drawn stretch, its radius held to ``maxRadius``.
    private func emit(_ q: Disc, at t: Double, span: (start: Double, duration: Double), into points: inout [InkPoint],
                      from first: Int) {
        append(InkPoint(x: q.x, y: q.y, t: span.start + span.duration * t, radius: Swift.min(q.r, maxRadius)),
               to: &points, from: first)
    }

    /// Appends a circle, keeping the run a chain of circles none of which holds its neighbour (the outline
    /// needs each step longer than its change of radius): a circle inside the last one adds nothing, and
    /// circles inside the new one are dropped.
    private func append(_ p: InkPoint, to points: inout [InkPoint], from first: Int) {
        var p = p
        while points.count > first, let last = points.last {
            let d = ((p.x - last.x) * (p.x - last.x) + (p.y - last.y) * (p.y - last.y)).squareRoot()
            if d + p.radius <= last.radius * Self.containment { return }
            if d + last.radius <= p.radius * Self.containment {
                points.removeLast()
                continue
            }
            p.distance = last.distance + d
            break
        }
        if points.count == first { p.distance = 0 }
        points.append(p)
    }

    /// A circle counts as inside another when it reaches no farther than this fraction beyond the other's
    /// radius (1.02): the outline's capsule tangents become unreliable as the step shrinks to the change in
    /// radius, and a circle sticking out by 2% of the radius changes no pixel.
    static let containment = 1.02
}
