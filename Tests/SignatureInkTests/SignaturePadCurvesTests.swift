// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import Testing

/// `SignaturePadCurves`: signature_pad's curves, widths and dots.
@Suite struct SignaturePadCurvesTests {
    /// signature_pad's defaults: radii 0.5 to 2.5, velocity filter 0.7.
    static let curves = SignaturePadCurves(pen: .signaturePad(color: .black, minWidth: 0.5, maxWidth: 2.5, dotSize: 0,
                                                               velocityFilterWeight: 0.7, erases: false),
                                           style: .default)

    static func stroke(_ points: [(Double, Double, Double)]) -> [InkSample] {
        points.map { InkSample(x: $0.0, y: $0.1, t: $0.2) }
    }

    @Test func oneOrTwoPointsAreOnlyTheDot() {
        var points: [InkPoint] = [], ends: [Int] = []
        for stroke in [Self.stroke([(10, 10, 0)]), Self.stroke([(10, 10, 0), (30, 10, 16)])] {
            let dot = Self.curves.inkPoints(of: stroke[...], into: &points, curveEnds: &ends)
            #expect(dot?.location == Point(10, 10))
            #expect(dot?.radius == 1.5)  // the mean of the two radii
            #expect(points.isEmpty && ends.isEmpty)
        }
        #expect(Self.curves.inkPoints(of: [], into: &points, curveEnds: &ends) == nil)
    }

    @Test func theLastCurveIsNeverDrawn() {
        var points: [InkPoint] = [], ends: [Int] = []
        let stroke = Self.stroke([(0, 0, 0), (20, 0, 16), (40, 0, 32), (60, 0, 48), (80, 0, 64)])
        _ = Self.curves.inkPoints(of: stroke[...], into: &points, curveEnds: &ends)
        // Curves 0-20, 20-40 and 40-60; 60-80 waits for a point that never comes.
        #expect(ends.count == 3)
        #expect(points.allSatisfy { $0.x < 60 })
        #expect(points.contains { $0.x > 55 })
        #expect(ends.last == points.count)
    }

    @Test func radiiStayWithinTheWidthsAndFollowTheSpeed() {
        var points: [InkPoint] = [], ends: [Int] = []
        // Slow (0.25 px/ms) then fast (5 px/ms) along a line.
        var pts: [(Double, Double, Double)] = []
        var x = 0.0, t = 0.0
        for i in 0..<20 { pts.append((x, 0, t)); x += 10; t += i < 10 ? 40 : 2 }
        _ = Self.curves.inkPoints(of: Self.stroke(pts)[...], into: &points, curveEnds: &ends)
        #expect(points.allSatisfy { $0.radius >= 0.5 - 1e-12 && $0.radius <= 2.5 + 1e-12 })
        let slow = points.filter { $0.x < 80 }.map(\.radius).max() ?? 0
        let fast = points.filter { $0.x > 150 }.map(\.radius).min() ?? 9
        #expect(slow > 2 && fast < 1)
        // Every step keeps the outline's condition: no circle holds its neighbour.
        for (a, b) in zip(points, points.dropFirst()) where b.distance > 0 {
            let d = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            #expect(d + Swift.min(a.radius, b.radius) > Swift.max(a.radius, b.radius))
        }
    }

    @Test func equalTimesAndRepeatedPointsAreHarmless() {
        var points: [InkPoint] = [], ends: [Int] = []
        let stroke = Self.stroke([(0, 0, 5), (0, 0, 5), (10, 10, 5), (10, 10, 5), (20, 0, 5), (.nan, 3, 6), (30, 5, 5)])
        _ = Self.curves.inkPoints(of: stroke[...], into: &points, curveEnds: &ends)
        #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.radius.isFinite && $0.radius > 0 })
        // Speed 0 everywhere: the radius grows from the mean to the maximum.
        #expect(points.last.map { $0.radius > 1.5 } ?? false)
    }

    /// A stroke along a circle of radius 30 at an even pace: the kept circles' centres lie on signature_pad's curve,
    /// which passes within 0.03 pixel of the circle there, and the chord between two kept centres may stray from
    /// the curve by at most the tolerance (the style's curve tolerance, 0.1): far fewer circles than signature_pad's
    /// two a pixel. Halving the tolerance keeps more circles, which stray less.
    @Test func theKeptCirclesFollowTheCurveWithinTheTolerance() {
        var pts: [(Double, Double, Double)] = []
        for i in 0...60 {
            let angle = Double(i) * 0.1
            pts.append((100 + 30 * cos(angle), 100 + 30 * sin(angle), Double(i) * 16))
        }
        var points: [InkPoint] = [], ends: [Int] = []
        _ = Self.curves.inkPoints(of: Self.stroke(pts)[...], into: &points, curveEnds: &ends)
        #expect(ends.count == 59)
        func offCircle(_ x: Double, _ y: Double) -> Double { abs(((x - 100) * (x - 100) + (y - 100) * (y - 100)).squareRoot() - 30) }
        let farthest = points.map { offCircle($0.x, $0.y) }.max() ?? 0
        #expect(farthest < 0.03, "\(farthest)")
        var widest = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            widest = Swift.max(widest, offCircle((a.x + b.x) / 2, (a.y + b.y) / 2))
        }
        #expect(Self.curves.tolerance == 0.1)
        #expect(widest > 0.02 && widest <= Self.curves.tolerance + 0.03, "\(widest)")
        // signature_pad draws 2 * ceil(length) circles a curve; each of these 3-pixel curves needs only a few.
        #expect(points.count < 59 * 4)
        var finer = Self.curves
        finer.tolerance /= 2
        var finerPoints: [InkPoint] = []
        _ = finer.inkPoints(of: Self.stroke(pts)[...], into: &finerPoints, curveEnds: &ends)
        var finerWidest = 0.0
        for (a, b) in zip(finerPoints, finerPoints.dropFirst()) {
            finerWidest = Swift.max(finerWidest, offCircle((a.x + b.x) / 2, (a.y + b.y) / 2))
        }
        #expect(finerPoints.count > points.count && finerWidest < widest)
    }

    /// A straight stroke at an even pace keeps little more than each curve's ends (signature_pad draws twenty circles
    /// on each of these 10-pixel curves): only where the radius still eases towards the pace's does a curve need
    /// more.
    @Test func aStraightStrokeKeepsLittleMoreThanTheEndsOfEachCurve() {
        let pts = (0...20).map { (Double($0) * 10, 50.0, Double($0) * 20) }
        var points: [InkPoint] = [], ends: [Int] = []
        _ = Self.curves.inkPoints(of: Self.stroke(pts)[...], into: &points, curveEnds: &ends)
        #expect(ends.count == 19)
        #expect(points.count < 19 * 3)
        #expect(points.allSatisfy { abs($0.y - 50) < 1e-9 })
    }

    /// An opaque pen's curves as one chain (`joined`) against the same curves each a chain of its own: one outline a
    /// stroke, every step of it one the outline can take, and each side's circles within the other's capsules (to
    /// the tolerance), a repeated sample and a sub-pixel step among them, where the curves' own chains did not meet.
    @Test func anOpaquePensCurvesMakeOneChainThatCoversWhatTheCurvesCover() {
        var pts: [(Double, Double, Double)] = (0..<40).map { i in
            let a = Double(i) * 0.3
            return (100 + 40 * cos(a) + Double(i), 80 + 25 * sin(2 * a), Double(i) * 12)
        }
        pts.insert(pts[10], at: 11)
        pts.insert((pts[20].0 + 0.05, pts[20].1, pts[20].2 + 1), at: 21)
        let stroke = Self.stroke(pts)[...]
        var curves: [InkPoint] = [], ends: [Int] = []
        _ = Self.curves.inkPoints(of: stroke, into: &curves, curveEnds: &ends)
        var chain: [InkPoint] = [], chainEnds: [Int] = []
        _ = Self.curves.inkPoints(of: stroke, into: &chain, curveEnds: &chainEnds, joined: true)
        #expect(ends.count > 30)
        #expect(chainEnds == [chain.count])
        #expect(chain.count < curves.count)
        for (a, b) in zip(chain, chain.dropFirst()) {
            let d = (b.location - a.location).length
            #expect(d > abs(b.radius - a.radius), "\(a) \(b)")
        }
        // Whether circle `p` lies within the capsules of `run`'s consecutive circles, give or take `slack`.
        func covered(_ p: InkPoint, by runs: [ArraySlice<InkPoint>], slack: Double) -> Bool {
            for run in runs {
                if let only = run.first, run.count == 1,
                   (p.location - only.location).length + p.radius <= only.radius + slack { return true }
                for (a, b) in zip(run, run.dropFirst()) {
                    let v = b.location - a.location, w = p.location - a.location
                    let u = Swift.min(1, Swift.max(0, v.dot(w) / Swift.max(v.lengthSquared, 1e-300)))
                    let centre = a.location + v * u, radius = a.radius + (b.radius - a.radius) * u
                    if (p.location - centre).length + p.radius <= radius + slack { return true }
                }
            }
            return false
        }
        let starts = [0] + ends.dropLast()
        let separate = zip(starts, ends).map { curves[$0..<$1] }
        let slack = Self.curves.tolerance + 1e-9
        #expect(curves.allSatisfy { covered($0, by: [chain[...]], slack: slack) })
        #expect(chain.allSatisfy { covered($0, by: separate, slack: slack) })
        // The chain ends where signature_pad's last circle on the last curve stands.
        #expect(chain.last?.location == curves.last?.location)
    }

    @Test func aDotSizeSetsTheDot() {
        let curves = SignaturePadCurves(pen: .signaturePad(color: .black, minWidth: 0.5, maxWidth: 2.5, dotSize: 3,
                                                           velocityFilterWeight: 0.7, erases: false), style: .default)
        var points: [InkPoint] = [], ends: [Int] = []
        #expect(curves.inkPoints(of: Self.stroke([(1, 2, 0)])[...], into: &points, curveEnds: &ends)?.radius == 3)
    }
}

// Hostile pens and coordinates stay bounded.
extension SignaturePadCurvesTests {
    @Test func absurdWidthsAreHeldToTheRenderersRange() {
        let pen = Pen.signaturePad(color: .black, minWidth: 1e300, maxWidth: -5, dotSize: .infinity,
                                   velocityFilterWeight: .nan, erases: false)
        let curves = SignaturePadCurves(pen: pen, style: .default)
        #expect(curves.minRadius > 0 && curves.maxRadius <= Pen.widestLine / 2 && curves.minRadius <= curves.maxRadius)
        #expect(curves.dotRadius.isFinite && curves.velocityFilterWeight == 0.7)
    }

    @Test func aHugeCurveHasABoundedNumberOfCircles() {
        let curves = Self.curves
        var points: [InkPoint] = [], ends: [Int] = []
        let stroke = Self.stroke([(0, 0, 0), (9e6, 0, 1), (9e6, 9e6, 2), (0, 9e6, 3), (0, 0, 4)])
        _ = curves.inkPoints(of: stroke[...], into: &points, curveEnds: &ends)
        #expect(ends.count == 3)
        #expect(points.count <= 3 * (SignaturePadCurves.mostStepsPerCurve + 1))
    }
}
