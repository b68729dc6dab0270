// SPDX-License-Identifier: Apache-2.0
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
            let dot = Self.curves.inkPoints(of: stroke, into: &points, curveEnds: &ends)
            #expect(dot?.location == Point(10, 10))
            #expect(dot?.radius == 1.5)  // the mean of the two radii
            #expect(points.isEmpty && ends.isEmpty)
        }
        #expect(Self.curves.inkPoints(of: [InkSample](), into: &points, curveEnds: &ends) == nil)
    }

    @Test func theLastCurveIsNeverDrawn() {
        var points: [InkPoint] = [], ends: [Int] = []
        let stroke = Self.stroke([(0, 0, 0), (20, 0, 16), (40, 0, 32), (60, 0, 48), (80, 0, 64)])
        _ = Self.curves.inkPoints(of: stroke, into: &points, curveEnds: &ends)
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
        _ = Self.curves.inkPoints(of: Self.stroke(pts), into: &points, curveEnds: &ends)
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
        _ = Self.curves.inkPoints(of: stroke, into: &points, curveEnds: &ends)
        #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.radius.isFinite && $0.radius > 0 })
        // Speed 0 everywhere: the radius grows from the mean to the maximum.
        #expect(points.last.map { $0.radius > 1.5 } ?? false)
    }

    @Test func aDotSizeSetsTheDot() {
        let curves = SignaturePadCurves(pen: .signaturePad(color: .black, minWidth: 0.5, maxWidth: 2.5, dotSize: 3,
                                                           velocityFilterWeight: 0.7, erases: false), style: .default)
        var points: [InkPoint] = [], ends: [Int] = []
        #expect(curves.inkPoints(of: Self.stroke([(1, 2, 0)]), into: &points, curveEnds: &ends)?.radius == 3)
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
        _ = curves.inkPoints(of: stroke, into: &points, curveEnds: &ends)
        #expect(ends.count == 3)
        #expect(points.count <= 3 * SignaturePadCurves.mostStepsPerCurve)
    }
}
