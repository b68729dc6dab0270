// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk

/// Polylines to simplify: seeded random strokes and every real stroke.
enum Polylines {
    static func random(_ seed: Int) -> [Point] {
        RandomInk.stroke(seed: UInt64(seed) &* 104_729 &+ 17, count: 2 + seed * 13 % 400).map(\.location)
    }
    static let real: [[Point]] = RealInk.all(wacomStrokes: 400).flatMap { _, sig in
        sig.strokes.map { $0.map(\.location) }
    }
}

/// The test's own measure: the largest distance from any input point to the kept segment spanning it.
func measuredDeviation(_ points: [Point], kept: [Int]) -> Double {
    var worst = 0.0
    for (a, b) in zip(kept, kept.dropFirst()) where b - a > 1 {
        for i in (a + 1)..<b { worst = max(worst, Geometry.polylineDistance([points[a], points[b]], points[i])) }
    }
    return worst
}

/// A plain recursive RDP over the segment distance, as a reference for small inputs.
func referenceRDP(_ p: [Point], _ tol: Double) -> [Int] {
    guard p.count > 2 else { return Array(p.indices) }
    var keep = [Bool](repeating: false, count: p.count)
    keep[0] = true; keep[p.count - 1] = true
    func rec(_ a: Int, _ b: Int) {
        guard b - a > 1 else { return }
        var worst = -1.0, at = a
        for i in (a + 1)..<b {
            let d = Geometry.polylineDistance([p[a], p[b]], p[i])
            if d > worst { worst = d; at = i }
        }
        if worst > tol { keep[at] = true; rec(a, at); rec(at, b) }
    }
    rec(0, p.count - 1)
    return keep.indices.filter { keep[$0] }
}

@Suite struct RamerDouglasPeuckerTests {
    func check(_ points: [Point], _ tol: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let kept = RamerDouglasPeucker.simplifiedIndices(points, tolerance: tol)
        #expect(kept.first == 0 && kept.last == points.count - 1, sourceLocation: sourceLocation)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 }, sourceLocation: sourceLocation)
        #expect(measuredDeviation(points, kept: kept) <= tol + 1e-9, sourceLocation: sourceLocation)
        #expect(RamerDouglasPeucker.simplify(points, tolerance: tol) == kept.map { points[$0] },
                sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<60)
    func randomStrokesStayWithinTolerance(seed: Int) {
        for tol in [0.0, 0.1, 0.5, 2, 10] { check(Polylines.random(seed), tol) }
    }

    @Test func realStrokesStayWithinTolerance() {
        #expect(Polylines.real.count >= 300)
        var before = 0, after = 0
        for line in Polylines.real where line.count > 1 {
            check(line, 0.5)
            before += line.count
            after += RamerDouglasPeucker.simplifiedIndices(line, tolerance: 0.5).count
        }
        // Real pen input is dense: at 0.5 px most points go.
        #expect(after < before * 3 / 4)
    }

    @Test(arguments: 0..<30)
    func matchesTheTextbookRecursion(seed: Int) {
        let p = Polylines.random(seed + 1000)
        #expect(RamerDouglasPeucker.simplifiedIndices(p, tolerance: 0.7) == referenceRDP(p, 0.7))
    }

    @Test func edges() {
        #expect(RamerDouglasPeucker.simplify([], tolerance: 1).isEmpty)
        #expect(RamerDouglasPeucker.simplifiedIndices([], tolerance: 1).isEmpty)
        #expect(RamerDouglasPeucker.simplifiedIndices([Point(1, 1)], tolerance: 1) == [0])
        #expect(RamerDouglasPeucker.simplifiedIndices([Point(1, 1), Point(2, 2)], tolerance: 1) == [0, 1])
        // All the same point, and duplicates.
        #expect(RamerDouglasPeucker.simplifiedIndices(Array(repeating: Point(3, 3), count: 10), tolerance: 0) == [0, 9])
        // Collinear points go (a tolerance above rounding error); a closed loop keeps its far side.
        let line = (0..<50).map { Point(Double($0), 2 * Double($0)) }
        #expect(RamerDouglasPeucker.simplifiedIndices(line, tolerance: 1e-9) == [0, 49])
        let loop = (0...40).map { i in Point(cos(Double(i) * .pi / 20) * 10, sin(Double(i) * .pi / 20) * 10) }
        let kept = RamerDouglasPeucker.simplifiedIndices(loop, tolerance: 0.5)
        #expect(kept.count > 4)
        #expect(measuredDeviation(loop, kept: kept) <= 0.5)
        // A point out and back is kept: segment distance, not line distance.
        let spike = [Point(0, 0), Point(10, 0), Point(20, 0), Point(5, 0)]
        #expect(RamerDouglasPeucker.simplifiedIndices(spike, tolerance: 1) == [0, 2, 3])
        // NaN never crashes and is never silently lost.
        let withNaN = [Point(0, 0), Point(.nan, 1), Point(2, 0)]
        #expect(RamerDouglasPeucker.simplifiedIndices(withNaN, tolerance: 1) == [0, 1, 2])
        // Negative tolerance counts as zero.
        #expect(RamerDouglasPeucker.simplifiedIndices([Point(0, 0), Point(1, 0.1), Point(2, 0)], tolerance: -1) == [0, 1, 2])
    }

    @Test func hugeCoordinates() {
        let p = Polylines.random(7).map { Point($0.x * 1e9 + 1e12, $0.y * 1e9) }
        let kept = RamerDouglasPeucker.simplifiedIndices(p, tolerance: 5e8)
        #expect(measuredDeviation(p, kept: kept) <= 5e8 * (1 + 1e-9))
    }

    @Test func deepInputNeedsNoRecursion() {
        // A spiral of 200k points whose every point is kept: a recursive RDP would nest very deeply.
        let p = (0..<200_000).map { i -> Point in
            let a = Double(i) * 0.01
            return Point(cos(a) * (1 + a), sin(a) * (1 + a))
        }
        let kept = RamerDouglasPeucker.simplifiedIndices(p, tolerance: 1e-9)
        #expect(kept.count > 100_000)
        #expect(RamerDouglasPeucker.deviation(of: p, kept: kept) <= 1e-9)
    }
}

@Suite struct VisvalingamWhyattTests {
    func check(_ points: [Point], _ tol: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let kept = VisvalingamWhyatt.simplifiedIndices(points, tolerance: tol)
        #expect(kept.first == 0 && kept.last == points.count - 1, sourceLocation: sourceLocation)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 }, sourceLocation: sourceLocation)
        #expect(measuredDeviation(points, kept: kept) <= tol + 1e-9, sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<60)
    func randomStrokesStayWithinTolerance(seed: Int) {
        for tol in [0.0, 0.1, 0.5, 2, 10] { check(Polylines.random(seed), tol) }
    }

    @Test func realStrokesStayWithinTolerance() {
        var rdp = 0, vw = 0
        for line in Polylines.real where line.count > 1 {
            check(line, 0.5)
            rdp += RamerDouglasPeucker.simplifiedIndices(line, tolerance: 0.5).count
            vw += VisvalingamWhyatt.simplifiedIndices(line, tolerance: 0.5).count
        }
        // Both reduce real ink by a similar amount (within a quarter of each other).
        #expect(Double(vw) < Double(rdp) * 1.25 && Double(rdp) < Double(vw) * 1.25, "rdp \(rdp) vw \(vw)")
    }

    @Test func classicAreaThreshold() {
        // Triangle areas: (1,1) -> 1, (3,0.1) -> 0.1; with a threshold of 0.5 only the small bump goes.
        let p = [Point(0, 0), Point(1, 1), Point(2, 0), Point(3, 0.1), Point(4, 0)]
        #expect(VisvalingamWhyatt.simplify(p, minimumArea: 0.5) == [Point(0, 0), Point(1, 1), Point(2, 0), Point(4, 0)])
        #expect(VisvalingamWhyatt.simplify(p, minimumArea: 10) == [Point(0, 0), Point(4, 0)])
        #expect(VisvalingamWhyatt.simplify(p, minimumArea: 0) == p)
    }

    @Test func edges() {
        #expect(VisvalingamWhyatt.simplifiedIndices([], tolerance: 1).isEmpty)
        #expect(VisvalingamWhyatt.simplifiedIndices([Point(1, 1)], tolerance: 1) == [0])
        #expect(VisvalingamWhyatt.simplifiedIndices([Point(1, 1), Point(1, 1)], tolerance: 1) == [0, 1])
        #expect(VisvalingamWhyatt.simplifiedIndices(Array(repeating: Point(3, 3), count: 10), tolerance: 0) == [0, 9])
        let line = (0..<50).map { Point(Double($0), 2 * Double($0)) }
        #expect(VisvalingamWhyatt.simplifiedIndices(line, tolerance: 1e-9) == [0, 49])
        let withNaN = [Point(0, 0), Point(.nan, 1), Point(2, 0), Point(3, 0)]
        let kept = VisvalingamWhyatt.simplifiedIndices(withNaN, tolerance: 1)
        #expect(kept.contains(1) && kept.first == 0 && kept.last == 3)
    }
}

@Suite struct PathLineSimplificationTests {
    @Test func straightRunsAreSimplifiedCurvesKept() {
        var p = Path()
        p.move(to: Point(0, 0))
        for i in 1...10 { p.line(to: Point(Double(i), i % 2 == 0 ? 0.05 : -0.05)) }
        p.curve(to: Point(12, 2), control1: Point(11, 0), control2: Point(12, 1))
        p.line(to: Point(12, 3))
        p.close()
        let q = p.simplifyingLines(tolerance: 0.1)
        #expect(q.elements == [.move(Point(0, 0)), .line(Point(10, 0.05)), .cubic(Point(11, 0), Point(12, 1), Point(12, 2)),
                               .line(Point(12, 3)), .close])
        #expect(p.simplifyingLines(tolerance: 0).elements.count == p.elements.count)
    }

    /// Splits a path into its runs of lines (each with the point it starts from) and everything else, in order.
    static func runs(_ path: Path) -> (runs: [[Point]], others: [Path.Element]) {
        var runs: [[Point]] = [], others: [Path.Element] = []
        var run: [Point] = [], current = Point.zero, start = Point.zero
        for e in path.elements {
            if case let .line(p) = e {
                if run.isEmpty { run.append(current) }
                run.append(p)
                current = p
                continue
            }
            if !run.isEmpty { runs.append(run); run = [] }
            others.append(e)
            switch e {
            case let .move(p): current = p; start = p
            case let .cubic(_, _, p): current = p
            case .close: current = start
            case .line: break
            }
        }
        if !run.isEmpty { runs.append(run) }
        return (runs, others)
    }

    @Test func realOutlinesStayWithinTheToleranceAndKeepEverythingButLines() {
        let tolerance = 0.15
        var before = 0, after = 0
        for (name, sig) in RealInk.all(wacomStrokes: 40) {
            let path = sig.outlinePath()
            let simple = path.simplifyingLines(tolerance: tolerance)
            let (original, originalOthers) = Self.runs(path)
            let (kept, keptOthers) = Self.runs(simple)
            #expect(keptOthers == originalOthers, "\(name): moves, curves and closes change")
            #expect(kept.count == original.count, "\(name)")
            for (o, k) in zip(original, kept) {
                // The kept points are the run's own, in order, with both ends.
                #expect(k.first == o.first && k.last == o.last, "\(name)")
                var j = 0
                for q in k {
                    while j < o.count && o[j] != q { j += 1 }
                    #expect(j < o.count, "\(name): a kept point is not one of the run's")
                }
                let worst = o.map { Geometry.polylineDistance(k, $0) }.max() ?? 0
                #expect(worst <= tolerance + 1e-9, "\(name): a dropped corner is \(worst) away")
            }
            before += path.elements.count
            after += simple.elements.count
        }
        // Outlines write a line for every side point; many of them fall within the tolerance.
        #expect(after < before * 3 / 4, "\(before) commands, \(after) simplified")
    }
}
