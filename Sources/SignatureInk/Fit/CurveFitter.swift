// SPDX-License-Identifier: Apache-2.0

import RealModule

/// Fits cubic Bezier curves to a polyline within a tolerance: Schneider's method ("An Algorithm for
/// Automatically Fitting Digitized Curves", Graphics Gems, 1990), as paper.js `Path.simplify` uses it.
///
/// The polyline is first cut at corners (turns sharper than ``cornerAngle``), so the caps and sharp turns of an
/// outline stay sharp. Each run gets chord-length parameters, a least-squares cubic with fixed end tangents,
/// up to ``maximumIterations`` Newton-Raphson reparameterisations (fewer once the error shrinks too slowly to
/// reach the tolerance in the passes left), and is split at the point of worst error
/// until it fits. The error of a fit is the larger of two measured distances: from each input point to the
/// curve at its parameter (an upper bound of its distance to the curve), and how far the curve strays from the
/// input segment between two consecutive points: bounded through the curve's second derivative where that
/// proves it within the tolerance, else measured at a quarter, half and three quarters of the way (so the curve
/// cannot bulge away between points). Splits are an explicit stack visited in order. A run of two
/// points keeps its end tangents only when that curve stays within the tolerance of the chord, and is otherwise
/// the chord itself, so fitting always ends within the tolerance.
///
/// A fitter keeps its scratch buffers; reuse one for many fits.
public struct CurveFitter: Sendable {
    /// Largest distance between the input and the curves, canvas units, `> 0`.
    public var tolerance: Double
    /// Turns sharper than this, in radians, are kept as corners; default 1.2 (about 70 degrees).
    public var cornerAngle: Double
    /// Newton-Raphson passes tried before splitting; default 4 (Schneider's choice).
    public var maximumIterations: Int

    /// A fit within this multiple of the tolerance is improved by reparameterisation before it is split
    /// (Schneider uses 4).
    static let iterationErrorFactor = 4.0

    private var pts: [Point] = []
    private var u: [Double] = []
    private var stack: [Span] = []

    private struct Span {
        var first: Int
        var last: Int
        var t1: Point
        var t2: Point
    }

    /// Creates a fitter.
    /// - Parameters:
    ///   - tolerance: canvas units, `> 0`; default 0.5.
    ///   - cornerAngle: radians, `0...pi`; default 1.2.
    ///   - maximumIterations: `>= 0`; default 4.
    public init(tolerance: Double = 0.5, cornerAngle: Double = 1.2, maximumIterations: Int = 4) {
        self.tolerance = tolerance
        self.cornerAngle = cornerAngle
        self.maximumIterations = maximumIterations
    }

    /// Fits a polyline once, without keeping a fitter.
    /// - Parameters:
    ///   - points: the polyline in canvas units.
    ///   - tolerance: canvas units, `> 0`.
    /// - Returns: consecutive segments from the first point to the last; empty for fewer than two distinct points.
    public static func fit(_ points: [Point], tolerance: Double) -> [CubicSegment] {
        var f = CurveFitter(tolerance: tolerance)
        return f.fit(points)
    }

    /// Fits a polyline.
    /// - Parameter points: the polyline in canvas units.
    /// - Returns: consecutive segments from the first point to the last; empty for fewer than two distinct points.
    public mutating func fit(_ points: [Point]) -> [CubicSegment] {
        var out: [CubicSegment] = []
        points.withUnsafeBufferPointer { fit($0, into: &out) }
        return out
    }

    /// Fits a polyline as a path: a move to the first point, then a cubic per segment (a line where the segment
    /// is straight within a tenth of the tolerance), closed when asked.
    /// - Parameters:
    ///   - points: the polyline in canvas units.
    ///   - closed: whether to fit it as a closed ring (the last point joined back to the first) and close it.
    ///   - path: receives the sub-path.
    public mutating func appendFitted(_ points: [Point], closed: Bool, to path: inout Path) {
        guard let first = points.first else { return }
        var ring = points
        if closed, let last = points.last, last != first { ring.append(first) }
        let segs = fit(ring)
        path.move(to: first)
        for s in segs {
            if s.isStraight(within: tolerance * 0.1) { path.line(to: s.p3) } else {
                path.curve(to: s.p3, control1: s.c1, control2: s.c2)
            }
        }
        if closed { path.close() }
    }

    /// Refits every sub-path of a path (such as an outline) within the tolerance: curves are flattened finely,
    /// corners (caps, sharp turns) kept, and each run between corners fitted with as few cubics as it needs.
    /// - Parameter path: the path to refit.
    /// - Returns: a path with the same sub-paths, each closed if it was closed.
    public mutating func fitted(_ path: Path) -> Path {
        var out = Path()
        var ring: [Point] = []
        var closed = false
        func flush() {
            if ring.count > 1 { appendFitted(ring, closed: closed, to: &out) } else if let p = ring.first {
                out.move(to: p)
            }
            ring.removeAll(keepingCapacity: true)
            closed = false
        }
        let flat = tolerance * 0.25
        for e in path.elements {
            switch e {
            case let .move(p):
                flush()
                ring.append(p)
            case let .line(p):
                ring.append(p)
            case let .cubic(c1, c2, p):
                let p0 = ring.last ?? p
                let seg = CubicSegment(p0, c1, c2, p)
                // Pieces so that each chord is within `flat` of the curve (error ~ control deviation / n^2).
                let dev = Swift.max(RamerDouglasPeucker.segmentDistance(c1, p0, p),
                                    RamerDouglasPeucker.segmentDistance(c2, p0, p))
                let n = Swift.min(64, Swift.max(1, Int((0.75 * dev / flat).squareRoot().rounded(.up))))
                for k in 1...n { ring.append(k == n ? p : seg.point(at: Double(k) / Double(n))) }
            case .close:
                closed = true
                flush()
            }
        }
        flush()
        return out
    }

    /// The allocation-free entry point: appends the fitted segments to `out`.
    /// - Parameters:
    ///   - points: the polyline in canvas units.
    ///   - out: receives consecutive segments (appended).
    public mutating func fit(_ points: UnsafeBufferPointer<Point>, into out: inout [CubicSegment]) {
        // Drop consecutive duplicates and non-finite points.
        pts.removeAll(keepingCapacity: true)
        for p in points where p.isFinite {
            if let l = pts.last, l == p { continue }
            pts.append(p)
        }
        let n = pts.count
        guard n > 1 else { return }
        if u.count < n { u.append(contentsOf: repeatElement(0, count: n - u.count)) }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.5
        let work = Work(tolerance: tol, cornerCosine: Double.cos(cornerAngle),
                        iterations: Swift.max(0, maximumIterations))
        pts.withUnsafeBufferPointer { p in
            u.withUnsafeMutableBufferPointer { u in
                work.fit(p.baseAddress!, count: n, u: u.baseAddress!, stack: &stack, into: &out)
            }
        }
    }

    /// The fitting itself, over raw buffers: the points (distinct, finite) and scratch for their parameters.
    private struct Work {
        let tolerance: Double
        let cornerCosine: Double
        let iterations: Int

        /// Cuts the polyline at its corners and fits each run between them.
        func fit(_ pts: UnsafePointer<Point>, count n: Int, u: UnsafeMutablePointer<Double>, stack: inout [Span],
                 into out: inout [CubicSegment]) {
            let cornerCos2 = cornerCosine * cornerCosine
            var start = 0
            var a = pts[1] - pts[0]
            for i in 1..<n {
                let isCorner: Bool
                if i == n - 1 {
                    isCorner = true
                } else {
                    // a.b < cos * |a| |b|, compared squared to avoid square roots.
                    let b = pts[i + 1] - pts[i]
                    let d = a.dot(b)
                    let m = cornerCos2 * a.lengthSquared * b.lengthSquared
                    isCorner = cornerCosine >= 0 ? (d < 0 || d * d < m) : (d < 0 && d * d > m)
                    a = b
                }
                if isCorner {
                    let t1 = (pts[start + 1] - pts[start]).normalized ?? Point(1, 0)
                    let t2 = (pts[i - 1] - pts[i]).normalized ?? -t1
                    fitRun(pts, first: start, last: i, t1: t1, t2: t2, u: u, stack: &stack, into: &out)
                    start = i
                }
            }
        }

        private func fitRun(_ all: UnsafePointer<Point>, first: Int, last: Int, t1: Point, t2: Point,
                            u: UnsafeMutablePointer<Double>, stack: inout [Span], into out: inout [CubicSegment]) {
            let tol = tolerance
            stack.removeAll(keepingCapacity: true)
            stack.append(Span(first: first, last: last, t1: t1, t2: t2))
            let tol2 = tol * tol
            let iterate2 = tol2 * CurveFitter.iterationErrorFactor * CurveFitter.iterationErrorFactor
            while let span = stack.popLast() {
                let f = span.first, l = span.last
                let pts = all + f
                let count = l - f + 1
                let p0 = pts[0], p3 = pts[count - 1]
                if count == 2 {
                    // Two points: keep the tangents when the curve stays within the tolerance of the chord,
                    // else draw the chord itself (a straight cubic).
                    let d = p0.distance(to: p3) / 3
                    let curved = CubicSegment(p0, p0 + span.t1 * d, p3 + span.t2 * d, p3)
                    let bow = Swift.max(RamerDouglasPeucker.segmentDistance(curved.point(at: 0.25), p0, p3),
                                        RamerDouglasPeucker.segmentDistance(curved.point(at: 0.5), p0, p3),
                                        RamerDouglasPeucker.segmentDistance(curved.point(at: 0.75), p0, p3))
                    if bow <= tol {
                        out.append(curved)
                    } else {
                        let c = (p3 - p0) / 3
                        out.append(CubicSegment(p0, p0 + c, p3 - c, p3))
                    }
                    continue
                }
                Self.parameterize(pts, count: count, u: u)
                var bez = Self.generate(pts, count: count, u: u, t1: span.t1, t2: span.t2, newton: nil)
                var (err, split) = Self.maxError(bez, pts, count: count, u: u)
                if err > tol2 && err <= iterate2 {
                    for k in 0..<iterations {
                        let before = err
                        bez = Self.generate(pts, count: count, u: u, t1: span.t1, t2: span.t2,
                                             newton: Polynomial(bez))
                        (err, split) = Self.maxError(bez, pts, count: count, u: u)
                        if err <= tol2 { break }
                        // Newton's steps shrink the error about geometrically: give up (and split) when the
                        // last step's rate, kept for the passes left, would still miss the tolerance.
                        let rate = err / before
                        var projected = err
                        for _ in (k + 1)..<iterations { projected *= rate }
                        if !(projected <= tol2) { break }
                    }
                }
                if err <= tol2 {
                    // Final check between the points: no bulge or S-bend between sparse points.
                    (err, split) = Self.bulge(bez, pts, count: count, u: u, pointError: err.squareRoot(),
                                              tolerance: tol)
                }
                if err <= tol2 {
                    out.append(bez)
                    continue
                }
                // Split at the worst point; the tangent there follows its neighbours.
                let s = Swift.min(l - 1, Swift.max(f + 1, f + split))
                let tc = (all[s - 1] - all[s + 1]).normalized ?? ((all[s - 1] - all[s]).normalized ?? span.t2)
                stack.append(Span(first: s, last: l, t1: -tc, t2: span.t2))
                stack.append(Span(first: f, last: s, t1: span.t1, t2: tc))
            }
        }

        /// Chord-length parameters of `pts[0..<count]` into `u[0..<count]`.
        private static func parameterize(_ pts: UnsafePointer<Point>, count: Int, u: UnsafeMutablePointer<Double>) {
            u[0] = 0
            var total = 0.0
            for i in 1..<count {
                total += pts[i].distance(to: pts[i - 1])
                u[i] = total
            }
            let inv = total > 0 ? 1 / total : 0
            for i in 0..<count { u[i] *= inv }
            u[count - 1] = 1
        }

        /// Least-squares cubic with fixed end tangents (Schneider's `GenerateBezier`). With `newton`, each inner
        /// parameter first takes one Newton-Raphson step towards the nearest point of that curve (Schneider's
        /// `Reparameterize`), in the same pass.
        @inline(__always)
        private static func generate(_ pts: UnsafePointer<Point>, count: Int, u: UnsafeMutablePointer<Double>,
                                     t1: Point, t2: Point, newton: Polynomial?) -> CubicSegment {
            let p0 = pts[0], p3 = pts[count - 1]
            var c00 = 0.0, c01 = 0.0, c11 = 0.0, x0 = 0.0, x1 = 0.0
            for i in 0..<count {
                if let poly = newton, i > 0 && i < count - 1 {
                    let t = u[i]
                    let d = poly.point(at: t) - pts[i]
                    let d1 = poly.derivative(at: t), d2 = poly.secondDerivative(at: t)
                    let num = d.dot(d1)
                    let den = d1.dot(d1) + d.dot(d2)
                    if den != 0 && den.isFinite {
                        let nt = t - num / den
                        if nt.isFinite { u[i] = Swift.min(1, Swift.max(0, nt)) }
                    }
                }
                let t = u[i], m = 1 - t
                let b0 = m * m * m, b1 = 3 * m * m * t, b2 = 3 * m * t * t, b3 = t * t * t
                let a1 = t1 * b1, a2 = t2 * b2
                c00 += a1.dot(a1)
                c01 += a1.dot(a2)
                c11 += a2.dot(a2)
                let tmp = pts[i] - (p0 * (b0 + b1) + p3 * (b2 + b3))
                x0 += a1.dot(tmp)
                x1 += a2.dot(tmp)
            }
            let det = c00 * c11 - c01 * c01
            let chord = p0.distance(to: p3)
            var alpha1 = 0.0, alpha2 = 0.0
            if Swift.abs(det) > 1e-12 * Swift.max(1, c00 * c11) {
                alpha1 = (x0 * c11 - x1 * c01) / det
                alpha2 = (c00 * x1 - c01 * x0) / det
            }
            // Wu and Barsky's fallback when the system is degenerate or the handles point the wrong way.
            let epsilon = 1e-6 * chord
            if !(alpha1 > epsilon && alpha2 > epsilon && alpha1 < 4 * chord && alpha2 < 4 * chord) {
                alpha1 = chord / 3
                alpha2 = chord / 3
            }
            return CubicSegment(p0, p0 + t1 * alpha1, p3 + t2 * alpha2, p3)
        }

        /// The worst squared distance from an input point to the curve at its parameter, and the offset of the
        /// point to split at.
        private static func maxError(_ bez: CubicSegment, _ pts: UnsafePointer<Point>, count: Int,
                                     u: UnsafePointer<Double>) -> (Double, Int) {
            let poly = Polynomial(bez)
            var worst = 0.0
            var split = (count - 1) / 2
            for i in 1..<(count - 1) {
                let d = (poly.point(at: u[i]) - pts[i]).lengthSquared
                if !(d <= worst) { worst = d; split = i }
            }
            return (worst, split)
        }

        /// How far the curve strays between consecutive points, squared, and the offset of the point to split at.
        ///
        /// Between parameters `u[i]` and `u[i+1]` the curve lies within `M du^2 / 8` of the chord joining its
        /// two ends, where `M` bounds `|B''|` (which is linear in t, so its larger end value), and that chord lies
        /// within the larger point error of the input segment. Where that bound is within the tolerance the
        /// interval is proven and skipped; elsewhere the curve is measured at a quarter, half and three quarters.
        private static func bulge(_ bez: CubicSegment, _ pts: UnsafePointer<Point>, count: Int,
                                  u: UnsafePointer<Double>, pointError: Double,
                                  tolerance: Double) -> (Double, Int) {
            let m = 6 * Swift.max((bez.p0 - bez.c1 * 2 + bez.c2).length, (bez.c1 - bez.c2 * 2 + bez.p3).length)
            let budget = tolerance - pointError
            var worst = 0.0
            var split = (count - 1) / 2
            for i in 0..<(count - 1) {
                let a = u[i], b = u[i + 1]
                let du = b - a
                if m * du * du * 0.125 <= budget { continue }
                let p = pts[i], q = pts[i + 1]
                let d = Swift.max(CurveFitter.segmentDistance2(bez.point(at: a + du * 0.25), p, q),
                                  CurveFitter.segmentDistance2(bez.point(at: a + du * 0.5), p, q),
                                  CurveFitter.segmentDistance2(bez.point(at: a + du * 0.75), p, q))
                if !(d <= worst) { worst = d; split = i == 0 ? 1 : i }
            }
            return (worst, split)
        }
    }

    /// A cubic in the power basis, `((a t + b) t + c) t + d`: a point, its derivative and its second
    /// derivative each cost a few multiply-adds (Horner), against a dozen products in the Bernstein form.
    private struct Polynomial {
        let a: Point, b: Point, c: Point, d: Point

        @inline(__always)
        init(_ s: CubicSegment) {
            c = (s.c1 - s.p0) * 3
            b = (s.c2 - s.c1 * 2 + s.p0) * 3
            a = s.p3 - s.p0 + (s.c1 - s.c2) * 3
            d = s.p0
        }

        @inline(__always)
        func point(at t: Double) -> Point {
            Point(((a.x * t + b.x) * t + c.x) * t + d.x, ((a.y * t + b.y) * t + c.y) * t + d.y)
        }

        @inline(__always)
        func derivative(at t: Double) -> Point {
            Point((3 * a.x * t + 2 * b.x) * t + c.x, (3 * a.y * t + 2 * b.y) * t + c.y)
        }

        @inline(__always)
        func secondDerivative(at t: Double) -> Point {
            Point(6 * a.x * t + 2 * b.x, 6 * a.y * t + 2 * b.y)
        }
    }

    /// Squared distance from `p` to the segment `a`-`b`.
    @inline(__always)
    static func segmentDistance2(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let ab = b - a, ap = p - a
        let l2 = ab.lengthSquared
        var t = l2 > 0 ? ap.dot(ab) / l2 : 0
        t = t < 0 ? 0 : (t > 1 ? 1 : t)
        return (ap - ab * t).lengthSquared
    }
}
