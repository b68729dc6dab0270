// SPDX-License-Identifier: Apache-2.0

/// Builds a smooth curve through a stream of smoothed points (knots) and emits it as ink points dense enough
/// to follow the curve within a tolerance.
///
/// Between two knots it uses a cubic Bezier whose end tangents are the bisectors of the neighbouring chords
/// and whose handles are a third of the chord long, so the curve never overshoots a sparse sample the way a
/// uniform Catmull-Rom spline does. Where the path turns by more than ``cornerCosine`` (a reversal or a sharp
/// corner in a signature) the knot keeps a corner instead of being rounded. A segment is subdivided only when
/// its control points stray from the chord: at 100 Hz and above almost every segment is emitted as one step,
/// at 25 Hz a fast curve gets several.
///
/// The builder lags one knot behind its input: a segment is emitted once the knot after it is known.
struct CurveBuilder: Sendable {
    /// A knot: a smoothed point with the time and radius it was taken at.
    struct Knot: Sendable {
        var p: Point
        var t: Double
        var r: Double
    }

    /// Turns sharper than this (cosine of the angle between consecutive chords) keep a corner: 0 is 90 degrees.
    static let cornerCosine = 0.0
    /// `1 / (2 cos^2(pi/8))`: turns a bisector's chord cosine into a bound on its squared distance from the chord.
    static let bisectorDeviationFactor = 0.5 / 0.8535533905932737
    /// Most pieces one segment is cut into; a segment needing more is followed less closely.
    static let maximumSubdivisions = 32

    /// Largest allowed distance between the cubic and the emitted polyline, canvas units.
    var tolerance: Double

    private(set) var knotCount = 0
    private var k0 = Knot(p: .zero, t: 0, r: 0)   // knot before the pending one
    private var k1 = Knot(p: .zero, t: 0, r: 0)   // pending knot: its outgoing segment is not emitted yet
    private var tangentOut0 = Point.zero          // tangent leaving k0 (not normalised)
    private var deviationOut0 = 0.0               // bound on |unit tangent - chord|^2 there
    private var chord01 = Point.zero              // unit chord k0 -> k1
    private var length01 = 0.0                    // its length

    init(tolerance: Double) { self.tolerance = tolerance }

    mutating func reset() { knotCount = 0 }

    /// The last knot accepted, if any.
    var lastKnot: Knot? { knotCount > 0 ? k1 : nil }

    /// Moves the last knot (not emitted yet, except when it is the first).
    mutating func moveLastKnot(to k: Knot) {
        guard knotCount > 0 else { return }
        k1 = k
        if knotCount > 1 {
            let v = k1.p - k0.p
            let len = v.length
            if len > 0 && len.isFinite { chord01 = v * (1 / len); length01 = len }
        }
    }

    /// The unit vector and length from `a` to `b`, or `nil` when they coincide (or are not finite).
    @inline(__always)
    private static func chord(_ a: Point, _ b: Point) -> (Point, Double)? {
        let v = b - a
        let len = v.lengthSquared.squareRoot()
        guard len > 0 && len.isFinite else { return nil }
        return (v * (1 / len), len)
    }

    /// Adds a knot; emits the first knot, and the segment before the previous knot once its tangent is known.
    mutating func add(_ k: Knot, into out: inout [InkPoint], distance: inout Double) {
        switch knotCount {
        case 0:
            k1 = k
            knotCount = 1
            out.append(InkPoint(x: k.p.x, y: k.p.y, t: k.t, radius: k.r, distance: distance))
        case 1:
            guard let (u, len) = Self.chord(k1.p, k.p) else { return }
            k0 = k1
            k1 = k
            chord01 = u
            length01 = len
            tangentOut0 = u
            deviationOut0 = 0
            knotCount = 2
        default:
            guard let (u12, len12) = Self.chord(k1.p, k.p) else { return }
            let u01 = chord01
            let tIn: Point, tOut: Point, deviation: Double
            let c = u01.dot(u12)
            if c < Self.cornerCosine {
                tIn = u01
                tOut = u12
                deviation = 0
            } else {
                // The bisector, left unnormalised: it is only normalised when a segment must be subdivided.
                // For a turn a between the chords, |unit bisector - chord|^2 = 4 sin^2(a/4), at most
                // sin^2(a/2) / cos^2(pi/8) = (1 - c) / 2 / 0.8535 for turns up to 90 degrees.
                tIn = u01 + u12
                tOut = tIn
                deviation = (1 - c) * Self.bisectorDeviationFactor
            }
            emitSegment(from: k0, tangent: tangentOut0, deviation: deviationOut0, to: k1, tangent: tIn,
                        deviation: deviation, chord: u01, length: length01, into: &out, distance: &distance)
            k0 = k1
            k1 = k
            tangentOut0 = tOut
            deviationOut0 = deviation
            chord01 = u12
            length01 = len12
            knotCount += 1
        }
    }

    /// Emits the last pending segment; the builder is then empty.
    mutating func finish(into out: inout [InkPoint], distance: inout Double) {
        if knotCount >= 2 {
            emitSegment(from: k0, tangent: tangentOut0, deviation: deviationOut0, to: k1, tangent: chord01,
                        deviation: 0, chord: chord01, length: length01, into: &out, distance: &distance)
        }
        knotCount = 0
    }

    /// Emits the cubic from `a` to `b` as ink points after `a`, up to and including `b`.
    /// - Parameters:
    ///   - ta: tangent at `a`, any positive length; `deviationA` bounds `|unit(ta) - u|^2`.
    ///   - tb: tangent at `b`, any positive length; `deviationB` bounds `|unit(tb) - u|^2`.
    @inline(__always)
    private func emitSegment(from a: Knot, tangent ta: Point, deviation deviationA: Double, to b: Knot,
                             tangent tb: Point, deviation deviationB: Double, chord u: Point,
                             length len: Double, into out: inout [InkPoint], distance: inout Double) {
        // Control points are a third of the chord along each tangent; their distance from the chord's
        // third points bounds the curve's distance from the chord (3/4 of it, for a cubic).
        let h = len / 3
        let dev2 = 0.5625 * h * h * Swift.max(deviationA, deviationB)  // (3/4 * h * |t - u|)^2
        if dev2 <= tolerance * tolerance {
            distance += len
            out.append(InkPoint(x: b.p.x, y: b.p.y, t: b.t, radius: b.r, distance: distance))
            return
        }
        // Error after n even pieces falls as 1/n^2.
        let ratio = dev2.squareRoot() / tolerance
        let n = Swift.min(Self.maximumSubdivisions, Swift.max(2, Int(ratio.squareRoot().rounded(.up))))
        let ua = ta * (1 / ta.lengthSquared.squareRoot()), ub = tb * (1 / tb.lengthSquared.squareRoot())
        let c1 = a.p + ua * h, c2 = b.p - ub * h
        var previous = a.p
        let step = 1 / Double(n)
        for i in 1...n {
            let s = Double(i) * step
            let q: Point
            if i == n {
                q = b.p
            } else {
                let m = 1 - s
                let w0 = m * m * m, w1 = 3 * m * m * s, w2 = 3 * m * s * s, w3 = s * s * s
                q = Point(w0 * a.p.x + w1 * c1.x + w2 * c2.x + w3 * b.p.x,
                          w0 * a.p.y + w1 * c1.y + w2 * c2.y + w3 * b.p.y)
            }
            distance += (q - previous).length
            previous = q
            out.append(InkPoint(x: q.x, y: q.y, t: a.t + (b.t - a.t) * s, radius: a.r + (b.r - a.r) * s,
                                distance: distance))
        }
    }
}
