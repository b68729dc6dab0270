// SPDX-License-Identifier: Apache-2.0

/// Curve construction: a smooth curve through the stream of smoothed points (knots), written as ink points dense
/// enough to follow it within ``PenStyle/curveTolerance``.
///
/// Between two knots the curve is a cubic Bezier whose end tangents are the bisectors of the neighbouring chords
/// and whose handles are a third of the chord long, so it never overshoots a sparse sample the way a uniform
/// Catmull-Rom spline does. Where the path turns by more than ``cornerCosine`` (a reversal or a sharp corner in a
/// signature) the knot keeps a corner instead of being rounded. A segment is subdivided only when its control
/// points stray from the chord: at 100 Hz and above almost every segment is written as one step, at 25 Hz a fast
/// curve gets several.
///
/// The curve lags one knot behind its input: a segment is written once the knot after it is known.
extension InkStream.Core {
    /// Turns sharper than this (cosine of the angle between consecutive chords) keep a corner: 0 is 90 degrees.
    static let cornerCosine = 0.0
    /// `1 / (2 cos^2(pi/8))`: turns a bisector's chord cosine into a bound on its squared distance from the chord.
    static let bisectorDeviationFactor = 0.5 / 0.8535533905932737
    /// Most pieces one segment is cut into; a segment needing more is followed less closely.
    static let maximumSubdivisions = 32

    /// Adds a knot: writes the first knot, and the segment before the previous knot once its tangent is known.
    /// - Parameters:
    ///   - k: the knot.
    ///   - known: `(k.p - k1.p).length` when the caller has it already, else negative.
    /// - Returns: whether the knot was taken (a knot at the last one's position, or too far away to measure,
    ///   is not).
    @inline(__always)
    mutating func addKnot(_ k: Knot, length known: Double, into out: inout [InkPoint]) -> Bool {
        if knots == 0 {
            k1 = k
            knots = 1
            write(k.p, t: k.t, radius: k.r, into: &out)
            return true
        }
        let v = k.p - k1.p
        let len = known >= 0 ? known : v.lengthSquared.squareRoot()
        guard len > 0 && len.isFinite else { return false }
        let u12 = v * (1 / len)
        if knots == 1 {
            tangentOut0 = u12
            deviationOut0 = 0
            knots = 2
        } else {
            let u01 = chord01
            let c = u01.dot(u12)
            let tangentIn: Point, tangentOut: Point, deviation: Double
            if c < Self.cornerCosine {
                tangentIn = u01
                tangentOut = u12
                deviation = 0
            } else {
                // The bisector, left unnormalised: it is only normalised when a segment must be subdivided.
                // For a turn a between the chords, |unit bisector - chord|^2 = 4 sin^2(a/4), at most
                // sin^2(a/2) / cos^2(pi/8) = (1 - c) / 2 / 0.8535 for turns up to 90 degrees.
                tangentIn = u01 + u12
                tangentOut = tangentIn
                deviation = (1 - c) * Self.bisectorDeviationFactor
            }
            writeSegment(tangentIn: tangentIn, deviationIn: deviation, into: &out)
            tangentOut0 = tangentOut
            deviationOut0 = deviation
        }
        k0 = k1
        k1 = k
        chord01 = u12
        length01 = len
        return true
    }

    /// Moves the last knot (not written yet, except when it is the first).
    mutating func moveLastKnot(to k: Knot) {
        guard knots > 0 else { return }
        k1 = k
        if knots > 1 {
            let v = k1.p - k0.p
            let len = v.length
            if len > 0 && len.isFinite { chord01 = v * (1 / len); length01 = len }
        }
    }

    /// Writes the last pending segment; the curve is then empty.
    mutating func finishCurve(into out: inout [InkPoint]) {
        if knots >= 2 { writeSegment(tangentIn: chord01, deviationIn: 0, into: &out) }
        knots = 0
    }

    /// Writes the cubic from `k0` to `k1` as ink points after `k0`, up to and including `k1`.
    /// - Parameters:
    ///   - tangentIn: tangent arriving at `k1`, any positive length; `deviationIn` bounds `|unit - chord|^2`.
    @inline(__always)
    private mutating func writeSegment(tangentIn: Point, deviationIn: Double, into out: inout [InkPoint]) {
        // Control points are a third of the chord along each tangent; their distance from the chord's
        // third points bounds the curve's distance from the chord (3/4 of it, for a cubic).
        let h = length01 / 3
        let dev2 = 0.5625 * h * h * Swift.max(deviationOut0, deviationIn)  // (3/4 * h * |t - u|)^2
        if dev2 <= tolerance2 {
            distance += length01
            write(k1.p, t: k1.t, radius: k1.r, into: &out)
        } else {
            subdivide(tangentIn: tangentIn, deviation2: dev2, into: &out)
        }
    }

    /// Writes a segment that strays from its chord as several points along the cubic.
    @inline(never)
    private mutating func subdivide(tangentIn: Point, deviation2 dev2: Double, into out: inout [InkPoint]) {
        let a = k0, b = k1
        let h = length01 / 3
        // The error after n even pieces falls as 1/n^2: the fewest pieces with n^4 tol^2 >= dev2.
        var n = 2
        while n < Self.maximumSubdivisions && Double(n * n * n * n) * tolerance2 < dev2 { n += 1 }
        let ta = tangentOut0, tb = tangentIn
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
            write(q, t: a.t + (b.t - a.t) * s, radius: a.r + (b.r - a.r) * s, into: &out)
        }
    }
}
