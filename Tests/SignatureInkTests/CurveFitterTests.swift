// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk

@Suite struct CurveFitterTests {
    /// Dense samples of a segment.
    static func samples(_ s: CubicSegment, _ n: Int = 64) -> [Point] {
        (0...n).map { s.point(at: Double($0) / Double(n)) }
    }

    /// Measures a fit: returns the worst distance from input to curve and from curve to input, after checking
    /// that segment ends are input points in order, the first and last are kept and the chain is continuous.
    @discardableResult
    static func check(_ input: [Point], _ segs: [CubicSegment], _ tol: Double,
                      sourceLocation: SourceLocation = #_sourceLocation) -> (Double, Double) {
        var pts: [Point] = []
        for p in input where pts.last != p { pts.append(p) }
        guard pts.count > 1 else {
            #expect(segs.isEmpty, sourceLocation: sourceLocation)
            return (0, 0)
        }
        #expect(segs.first?.p0 == pts.first && segs.last?.p3 == pts.last, sourceLocation: sourceLocation)
        #expect(zip(segs, segs.dropFirst()).allSatisfy { $0.p3 == $1.p0 }, sourceLocation: sourceLocation)
        // Segment ends are input points, in increasing index order.
        var cursor = 0
        var ends: [Int] = [0]
        for s in segs {
            guard let j = pts[(cursor + 1)...].firstIndex(of: s.p3) else {
                Issue.record("segment end is not a later input point", sourceLocation: sourceLocation)
                return (.infinity, .infinity)
            }
            cursor = j
            ends.append(j)
        }
        var inToCurve = 0.0, curveToIn = 0.0
        for (k, s) in segs.enumerated() {
            let dense = samples(s, 128)
            let a = ends[k], b = ends[k + 1]
            for i in a...b { inToCurve = max(inToCurve, Geometry.polylineDistance(dense, pts[i])) }
            let run = Array(pts[a...b])
            for q in dense { curveToIn = max(curveToIn, Geometry.polylineDistance(run, q)) }
        }
        return (inToCurve, curveToIn)
    }

    @Test(arguments: 0..<40)
    func randomStrokesFitWithinTolerance(seed: Int) {
        let p = Polylines.random(seed)
        for tol in [0.1, 0.5, 2.0] {
            var f = CurveFitter(tolerance: tol)
            let segs = f.fit(p)
            let (a, b) = Self.check(p, segs, tol)
            // Input points are measured exactly (<= tol); the curve between two points is checked at its middle
            // by the fitter, so dense sampling may find it a little farther: allowed 10 %.
            #expect(a <= tol + 1e-6, "input to curve \(a) at tolerance \(tol)")
            #expect(b <= tol * 1.1 + 1e-6, "curve to input \(b) at tolerance \(tol)")
        }
    }

    @Test func realStrokesFitWithinToleranceAndCompactly() {
        var f = CurveFitter(tolerance: 0.5)
        var points = 0, segments = 0
        var worstIn = 0.0, worstOut = 0.0
        for line in Polylines.real.prefix(600) {
            let segs = f.fit(line)
            let (a, b) = Self.check(line, segs, 0.5)
            worstIn = max(worstIn, a); worstOut = max(worstOut, b)
            points += line.count; segments += segs.count
        }
        #expect(worstIn <= 0.5 + 1e-6)
        #expect(worstOut <= 0.55)
        #expect(segments * 3 < points, "\(segments) cubics for \(points) points")
    }

    @Test func fittingACircleNeedsFewCubics() {
        let circle = (0...360).map { i in Point(100 + 50 * cos(Double(i) * .pi / 180), 100 + 50 * sin(Double(i) * .pi / 180)) }
        let segs = CurveFitter.fit(circle, tolerance: 0.1)
        #expect(segs.count <= 12)
        let (a, b) = Self.check(circle, segs, 0.1)
        #expect(a <= 0.1 + 1e-6 && b <= 0.11)
    }

    @Test func cornersStaySharp() {
        let square = [Point(0, 0), Point(5, 0), Point(10, 0), Point(10, 5), Point(10, 10), Point(0, 10), Point(0, 0)]
        let segs = CurveFitter.fit(square, tolerance: 0.5)
        let ends = Set(segs.map(\.p3))
        for c in [Point(10, 0), Point(10, 10), Point(0, 10)] { #expect(ends.contains(c)) }
        Self.check(square, segs, 0.5)
    }

    @Test func edges() {
        #expect(CurveFitter.fit([], tolerance: 1).isEmpty)
        #expect(CurveFitter.fit([Point(1, 1)], tolerance: 1).isEmpty)
        #expect(CurveFitter.fit([Point(1, 1), Point(1, 1), Point(1, 1)], tolerance: 1).isEmpty)
        let two = CurveFitter.fit([Point(0, 0), Point(9, 0)], tolerance: 1)
        #expect(two.count == 1 && two[0].isStraight(within: 1e-12))
        let dupes = [Point(0, 0), Point(0, 0), Point(5, 1), Point(5, 1), Point(10, 0)]
        Self.check(dupes, CurveFitter.fit(dupes, tolerance: 0.2), 0.2)
        // Non-finite points are skipped, never returned.
        let nan = CurveFitter.fit([Point(0, 0), Point(.nan, 0), Point(4, 4), Point(8, 0)], tolerance: 0.1)
        #expect(nan.allSatisfy { $0.p0.isFinite && $0.c1.isFinite && $0.c2.isFinite && $0.p3.isFinite })
        // Huge coordinates.
        let huge = Polylines.random(3).map { Point($0.x + 1e9, $0.y - 1e9) }
        let segs = CurveFitter.fit(huge, tolerance: 0.5)
        let (a, _) = Self.check(huge, segs, 0.5)
        #expect(a <= 0.5 + 1e-4)
    }

    @Test func refittedOutlineIsSmallerAndClose() {
        guard let sig = RealInk.hwrt("292934.json") else { Issue.record("missing real ink"); return }
        let outline = sig.outlinePath()
        var f = CurveFitter(tolerance: 0.25)
        let fitted = f.fitted(outline)
        #expect(fitted.elements.count < outline.elements.count / 2,
                "\(outline.elements.count) -> \(fitted.elements.count)")
        // Same shape: every vertex of the refitted outline lies within the tolerance of the original.
        let original = Geometry.polygons(outline, pieces: 16)
        let refit = Geometry.polygons(fitted, pieces: 16)
        #expect(original.count == refit.count)
        for (o, r) in zip(original, refit) {
            let ring = o + [o[0]]
            for q in r { #expect(Geometry.polylineDistance(ring, q) <= 0.25 * 1.1 + 0.01) }
        }
    }
}
