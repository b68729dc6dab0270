// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import InkTestSupport
import SignatureInk

@Suite struct OutlinerTests {
    /// Distance from the exact capsule union within which the filled outline may differ from it, canvas units:
    /// the curve tolerance (0.1, chords in place of shallow arcs) plus the 8-piece flattening of the test.
    static let coverageTolerance = 0.15

    /// Checks on a grid that the non-zero fill of `path` is the union of the capsules of `points`, and that
    /// every covered point winds the same way. Returns the number of grid points checked inside.
    @discardableResult
    static func expectFillIsCapsuleUnion(_ path: Path, _ points: [InkPoint], maxGrid: Int = 12000,
                                         sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let polys = Geometry.polygons(path)
        guard let box = Rect(bounding: points.map(\.location)) else { return 0 }
        let reach = (points.map(\.radius).max() ?? 0) + 1
        let r = box.outsetBy(reach)
        let step = max(0.25, ((r.width * r.height) / Double(maxGrid)).squareRoot())
        var sign = 0, inside = 0, failures = 0
        var y = r.minY + step / 2
        while y < r.maxY {
            var x = r.minX + step / 2
            while x < r.maxX {
                let q = Point(x, y)
                let d = Geometry.capsuleDistance(points, q)
                let w = Winding.number(polys, q)
                if w != 0 {
                    if sign == 0 { sign = w > 0 ? 1 : -1 }
                    if (w > 0 ? 1 : -1) != sign { failures += 1 }
                }
                if d < -coverageTolerance {
                    inside += 1
                    if w == 0 { failures += 1 }
                } else if d > coverageTolerance && w != 0 {
                    failures += 1
                }
                x += step
            }
            y += step
        }
        #expect(failures == 0, "grid points where the fill differs from the capsule union", sourceLocation: sourceLocation)
        return inside
    }

    @Test(arguments: 0..<24)
    func fillIsCapsuleUnionOnRandomStrokes(seed: Int) {
        let samples = RandomInk.stroke(seed: UInt64(seed) &* 7919 &+ 1, pressure: seed % 3 == 0)
        var outliner = Outliner()
        let points = outliner.inkPoints(of: samples)
        var path = Path()
        outliner.appendOutline(of: samples, to: &path)
        #expect(!points.isEmpty)
        Self.expectFillIsCapsuleUnion(path, points)
    }

    @Test func aStrokeOfSharpTurnsGetsAllItsCommands() {
        // A zigzag whose every vertex is a sharp turn writes far more than the usual two commands an ink point
        // (an arc on the outer side, two lines on the inner), more than the outline's first guess of room.
        let samples = (0..<160).map { i in
            InkSample(x: Double(i) * 4, y: i % 2 == 0 ? 0 : 40, t: Double(i) * 40)
        }
        var outliner = Outliner(style: .constant(3))
        let points = outliner.inkPoints(of: samples)
        var path = Path()
        outliner.appendOutline(of: samples, to: &path)
        #expect(path.elements.count > 3 * points.count + 24, "\(path.elements.count) commands, \(points.count) points")
        #expect(path.elements.first.map { if case .move = $0 { true } else { false } } == true)
        #expect(path.elements.last == .close)
        #expect(path.elements.dropFirst().dropLast().allSatisfy { if case .move = $0 { false } else { true } })
        Self.expectFillIsCapsuleUnion(path, points)
    }

    @Test func fillIsCapsuleUnionOnRealInk() {
        var checked = 0
        for (name, sig) in RealInk.all(wacomStrokes: 6) {
            var outliner = Outliner()
            for stroke in sig.strokes {
                let points = outliner.inkPoints(of: stroke)
                var path = Path()
                outliner.appendOutline(of: stroke, to: &path)
                #expect(!path.isEmpty, "\(name)")
                checked += Self.expectFillIsCapsuleUnion(path, points, maxGrid: 6000)
            }
        }
        #expect(checked > 10000, "the real files must be present in Tests/Fixtures/realink")
    }

    @Test func everyStrokeIsOneClosedSubpathWithTheSameOrientation() {
        for (name, sig) in RealInk.all(wacomStrokes: 40) {
            let path = sig.outlinePath()
            let moves = path.elements.filter { if case .move = $0 { return true } else { return false } }.count
            let closes = path.elements.filter { $0 == .close }.count
            #expect(moves == sig.strokeCount, "\(name)")
            #expect(closes == sig.strokeCount, "\(name)")
            let areas = Geometry.polygons(path).map(Geometry.area)
            // Tiny strokes can have a net area near zero only if degenerate; real ones are clearly signed.
            let signs = Set(areas.filter { abs($0) > 1e-6 }.map { $0 > 0 })
            #expect(signs.count == 1, "\(name): sub-paths wind both ways")
            #expect(sig.outlines().count == sig.strokeCount)
        }
    }

    @Test func overlappingStrokesFillOnce() {
        // Two crossing strokes and a loop crossing itself: every covered point has the same winding sign.
        let a = (0..<40).map { InkSample(x: Double($0) * 3, y: 50, t: Double($0) * 10) }
        let b = (0..<40).map { InkSample(x: 60, y: Double($0) * 3, t: 500 + Double($0) * 10) }
        let loop = (0..<80).map { i -> InkSample in
            let a = Double(i) * 0.1
            return InkSample(x: 60 + 30 * cos(a) + Double(i) * 0.5, y: 60 + 30 * sin(a), t: 1000 + Double(i) * 10)
        }
        let sig = Signature(strokes: [a, b, loop])
        let polys = Geometry.polygons(sig.outlinePath())
        var signs = Set<Bool>()
        for y in stride(from: 0.0, through: 130, by: 0.7) {
            for x in stride(from: -5.0, through: 140, by: 0.7) {
                let w = Winding.number(polys, Point(x, y))
                if w != 0 { signs.insert(w > 0) }
            }
        }
        #expect(signs.count == 1)
        #expect(Winding.number(polys, Point(60, 50)) != 0)
    }

    @Test func constantPenGivesAConstantWidthStadium() {
        let style = PenStyle.constant(4)
        let samples = (0..<51).map { InkSample(x: 10 + Double($0) * 2, y: 20, t: Double($0) * 8) }
        var outliner = Outliner(style: style)
        var path = Path()
        outliner.appendOutline(of: samples, to: &path)
        // Every on-curve point is 2 units from the segment (10,20)-(110,20).
        for poly in Geometry.polygons(path, pieces: 16) {
            for p in poly {
                let d = Geometry.polylineDistance([Point(10, 20), Point(110, 20)], p)
                #expect(abs(d - 2) < 0.003, "point \(p) at \(d)")
            }
        }
        let area = Geometry.polygons(path, pieces: 32).map(Geometry.area).reduce(0, +)
        let expected = 100 * 4 + Double.pi * 4
        #expect(abs(abs(area) - expected) / expected < 0.002)
    }

    @Test func constantPenKeepsItsWidthAlongACurve() {
        let style = PenStyle.constant(3)
        let samples = (0..<120).map { i -> InkSample in
            let a = Double(i) * 0.05
            return InkSample(x: 100 + 40 * cos(a), y: 100 + 40 * sin(a), t: Double(i) * 10)
        }
        var outliner = Outliner(style: style)
        let points = outliner.inkPoints(of: samples)
        #expect(points.allSatisfy { abs($0.radius - 1.5) < 1e-12 })
        var path = Path()
        outliner.appendOutline(of: samples, to: &path)
        let centre = points.map(\.location)
        for poly in Geometry.polygons(path) {
            for p in poly {
                let d = Geometry.polylineDistance(centre, p)
                // Inner chords cut at most a sagitta inside; outer points are exactly on the offset.
                #expect(d <= 1.5 + 0.001 && d >= 1.5 - 0.1, "\(d)")
            }
        }
    }

    @Test func aTapIsOneRoundDot() {
        for samples in [[InkSample(x: 5, y: 6, t: 0)],
                        [InkSample(x: 5, y: 6, t: 0), InkSample(x: 5, y: 6, t: 0)],
                        [InkSample(x: 5, y: 6, t: 0), InkSample(x: 5.1, y: 6.1, t: 16), InkSample(x: 5, y: 6, t: 30)]] {
            var outliner = Outliner(style: PenStyle(minWidth: 1, maxWidth: 3, dotWidth: 4))
            var path = Path()
            outliner.appendOutline(of: samples, to: &path)
            let cubics = path.elements.filter { if case .cubic = $0 { return true } else { return false } }
            #expect(cubics.count == 4)
            for poly in Geometry.polygons(path, pieces: 16) {
                for p in poly { #expect(abs(p.distance(to: Point(5, 6)) - 2) < 0.002) }
            }
        }
    }

    @Test func emptyAndNonFiniteStrokesDrawNothing() {
        var outliner = Outliner()
        var path = Path()
        outliner.appendOutline(of: [InkSample](), to: &path)
        outliner.appendOutline(of: [InkSample(x: .nan, y: 1, t: 0), InkSample(x: 1, y: .infinity, t: 1)], to: &path)
        #expect(path.isEmpty)
        #expect(Signature().outlinePath().isEmpty)
    }

    @Test func nanSamplesAreSkipped() {
        let samples = [InkSample(x: 0, y: 0, t: 0), InkSample(x: .nan, y: 0, t: 8), InkSample(x: 10, y: 0, t: 16),
                       InkSample(x: 20, y: 0, t: .nan), InkSample(x: 30, y: 0, t: 32, pressure: .nan)]
        let path = Signature(strokes: [samples]).outlinePath()
        #expect(!path.isEmpty)
        #expect(path.controlBounds.map { $0.minX.isFinite && $0.maxX.isFinite && $0.maxY.isFinite } == true)
    }

    @Test(arguments: [1e6, 1e9, 1e12])
    func hugeCoordinatesStayFinite(offset: Double) {
        let samples = RandomInk.stroke(seed: 42, count: 60).map {
            InkSample(x: $0.x + offset, y: $0.y - offset, t: $0.t)
        }
        let path = Signature(strokes: [samples]).outlinePath()
        #expect(!path.isEmpty)
        let b = path.controlBounds
        #expect(b != nil && b!.minX.isFinite && b!.maxY.isFinite)
        #expect(b!.minX > offset - 1000 && b!.maxX < offset + 1000)
    }

    @Test func noHairAtReversalsAndSharpCorners() {
        // A fast zigzag with full reversals: nothing of the outline may stray farther from the centre line
        // than the widest radius (plus the flattening tolerance).
        var samples: [InkSample] = []
        for i in 0..<60 {
            let x = i % 2 == 0 ? 0.0 : 80.0
            samples.append(InkSample(x: x, y: 100 + Double(i) * 0.5, t: Double(i) * 25))
            samples.append(InkSample(x: 40, y: 100 + Double(i) * 0.5 + 0.25, t: Double(i) * 25 + 12))
        }
        for style in [PenStyle.default, PenStyle.constant(6), PenStyle(minWidth: 2, maxWidth: 12)] {
            var outliner = Outliner(style: style)
            let points = outliner.inkPoints(of: samples)
            var path = Path()
            outliner.appendOutline(of: samples, to: &path)
            let centre = points.map(\.location)
            let rmax = points.map(\.radius).max() ?? 0
            for poly in Geometry.polygons(path) {
                for p in poly { #expect(Geometry.polylineDistance(centre, p) <= rmax + 0.01) }
            }
            Self.expectFillIsCapsuleUnion(path, points, maxGrid: 8000)
        }
    }

    @Test func builderFinalOutlineEqualsOutlinerOutline() {
        for seed in 0..<10 {
            let samples = RandomInk.stroke(seed: UInt64(seed) + 100, pressure: seed % 2 == 0)
            var builder = StrokeBuilder()
            builder.begin(samples[0])
            for s in samples.dropFirst() { builder.add(s) }
            builder.end()
            var a = Path(), b = Path()
            builder.appendOutline(to: &a)
            var outliner = Outliner()
            outliner.appendOutline(of: builder.samples, to: &b)
            #expect(a == b)
            #expect(builder.samples == samples)
        }
    }

    @Test func outlineIsCompact() {
        // A 170-sample signature must not need more than about 2.5 commands per sample.
        guard let sig = RealInk.hwrt("292934.json") else { Issue.record("missing real ink"); return }
        let path = sig.outlinePath()
        #expect(Double(path.elements.count) <= 2.5 * Double(sig.samples.count) + 12 * Double(sig.strokeCount))
    }
}
