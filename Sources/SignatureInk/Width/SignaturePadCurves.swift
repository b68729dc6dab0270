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
/// The circles become ``InkPoint``s, which the ``Outliner`` joins into one outline per curve: the union of
/// the capsules between consecutive circles, the same shape within a fraction of a pixel. signature_pad fills
/// each curve on its own, so a translucent pen (or the anti-aliased edge of an opaque one) builds up where
/// consecutive curves overlap; filling the curves one by one gives the same.
public struct SignaturePadCurves: Sendable {
    /// Smallest radius, CSS pixels (signature_pad's `minWidth`), `> 0`.
    public var minRadius: Double
    /// Largest radius, CSS pixels (signature_pad's `maxWidth`), `>= minRadius`.
    public var maxRadius: Double
    /// Radius of the dot on a stroke's first point, CSS pixels, `> 0`.
    public var dotRadius: Double
    /// Weight of the newest speed in the filtered speed, `0...1`.
    public var velocityFilterWeight: Double

    /// Creates the model from a signature_pad pen, taking a width the pen leaves out from `style`.
    /// - Parameters:
    ///   - pen: a pen whose widths are line widths (twice signature_pad's radii).
    ///   - style: the renderer's style, for widths the pen does not give.
    public init(pen: Pen, style: PenStyle) {
        let s = pen.applied(to: style).sanitized
        minRadius = s.minWidth / 2
        maxRadius = s.maxWidth / 2
        dotRadius = s.effectiveDotWidth / 2
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
    ///     first); empty when nothing but the dot is drawn.
    /// - Returns: the dot on the first point (its radius is ``dotRadius``), or `nil` when no sample is finite.
    public func inkPoints<C: Collection>(of stroke: C, into points: inout [InkPoint], curveEnds: inout [Int]) -> InkPoint?
    where C.Element == InkSample {
        points.removeAll(keepingCapacity: true)
        curveEnds.removeAll(keepingCapacity: true)
        var knots: [Knot] = []
        knots.reserveCapacity(4)
        var dot: InkPoint?
        var lastVelocity = 0.0
        var lastRadius = (minRadius + maxRadius) / 2
        for s in stroke where s.x.isFinite && s.y.isFinite && s.t.isFinite {
            let k = Knot(x: s.x, y: s.y, t: s.t)
            if dot == nil { dot = InkPoint(x: k.x, y: k.y, t: k.t, radius: dotRadius) }
            knots.append(k)
            guard knots.count > 2 else { continue }
            if knots.count == 3 { knots.insert(knots[0], at: 0) }
            let a = knots[1], b = knots[2]
            let distance = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let speed = b.t != a.t ? distance / (b.t - a.t) : 0
            let velocity = velocityFilterWeight * speed + (1 - velocityFilterWeight) * lastVelocity
            let radius = Swift.max(maxRadius / (velocity + 1), minRadius)
            // signature_pad hands the tangent control at the far end to the near end and back (its Bezier
            // constructor takes them in the other order); the curve is drawn that way, so it is built that way.
            let near = Self.controls(knots[1], knots[2], knots[3]).before
            let far = Self.controls(knots[0], knots[1], knots[2]).after
            let start = points.count
            appendCurve(from: a, near, far, to: b, radii: (lastRadius, radius), into: &points)
            if points.count > start { curveEnds.append(points.count) }
            lastVelocity = velocity
            lastRadius = radius
            knots.removeFirst()
        }
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
    /// Most circles one curve is drawn with (a curve over 256 pixels long), so that hostile coordinates cannot
    /// make millions of them; along such a curve the capsules between circles 1/512 of its length apart still
    /// follow it within a small fraction of a pixel where its turns are gentle.
    public static let mostStepsPerCurve = 512

    private func appendCurve(from a: Knot, _ c1: Point, _ c2: Point, to b: Knot, radii: (Double, Double),
                             into points: inout [InkPoint]) {
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
        // A very long curve (coordinates far apart) gets no more circles than this; the outline joins them anyway.
        let steps = Int(Swift.min(length.rounded(.up), Double(Self.mostStepsPerCurve / Self.stepsPerPixel))) * Self.stepsPerPixel
        guard steps > 0 else { return }
        let delta = radii.1 - radii.0
        let first = points.count
        for i in 0..<steps {
            let t = Double(i) / Double(steps)
            let p = at(t)
            let r = Swift.min(radii.0 + t * t * t * delta, maxRadius)
            append(InkPoint(x: p.x, y: p.y, t: a.t + (b.t - a.t) * t, radius: r), to: &points, from: first)
        }
        thin(&points, from: first)
    }

    /// Largest distance, in canvas units, by which leaving out circles may move the outline (their centres from
    /// the chord between the kept ones, and their radii from the radius interpolated along it): 0.02, a fiftieth
    /// of a CSS pixel.
    static let thinningTolerance = 0.02
    /// Most circles one kept step may stand for, so that thinning costs a bounded amount per circle.
    static let longestThinnedRun = 24

    /// Leaves out the circles of `points[first...]` that the capsule between their neighbours already covers
    /// within ``thinningTolerance``: signature_pad draws two a pixel, and along a gentle stretch most of them add
    /// nothing to the union.
    private func thin(_ points: inout [InkPoint], from first: Int) {
        guard points.count - first > 2 else { return }
        let tol = Self.thinningTolerance
        var write = first + 1  // points[first] is kept
        var anchor = first
        var j = first + 2
        while j < points.count {
            let a = points[anchor], b = points[j]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            var covered = j - anchor <= Self.longestThinnedRun && length > 0
            var m = anchor + 1
            while covered && m < j {
                let p = points[m]
                let u = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (length * length)
                let off = abs((p.x - a.x) * dy - (p.y - a.y) * dx) / length
                let r = a.radius + (b.radius - a.radius) * Swift.min(1, Swift.max(0, u))
                covered = u >= 0 && u <= 1 && off + abs(p.radius - r) <= tol
                m += 1
            }
            if !covered {
                // Keep the last circle that was still covered, and start again from it.
                anchor = j - 1
                points[write] = points[anchor]
                write += 1
            }
            j += 1
        }
        points[write] = points[points.count - 1]
        write += 1
        // Distances along the kept chain.
        for i in (first + 1)..<write {
            let p = points[i - 1], q = points[i]
            points[i].distance = p.distance + ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
        }
        points.removeSubrange(write...)
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
