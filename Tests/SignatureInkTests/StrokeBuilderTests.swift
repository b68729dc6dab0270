// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import InkTestSupport
import SignatureInk

@Suite struct StrokeBuilderTests {
    static func build(_ samples: [InkSample], repair: InputRepair = .default) -> StrokeBuilder {
        var b = StrokeBuilder(repair: repair)
        guard let first = samples.first else { return b }
        b.begin(first)
        for s in samples.dropFirst() { b.add(s) }
        b.end()
        return b
    }

    @Test func keepsEveryCleanSampleUnchanged() {
        for (name, sig) in RealInk.all(wacomStrokes: 30) {
            for stroke in sig.strokes {
                let b = Self.build(Array(stroke))
                // Clean files keep every sample except exact duplicates (Wacom repeats its last sample).
                let expected = Array(stroke).enumerated().filter { i, s in
                    i == 0 || !(s.x == stroke[stroke.startIndex + i - 1].x && s.y == stroke[stroke.startIndex + i - 1].y
                                && s.t == stroke[stroke.startIndex + i - 1].t)
                }.map(\.1)
                #expect(b.samples == expected, "\(name)")
            }
        }
    }

    @Test func samplesOfRealInkHaveMonotonicTime() {
        for (name, sig) in RealInk.all(wacomStrokes: 200) {
            for stroke in sig.strokes {
                let b = Self.build(Array(stroke))
                #expect(zip(b.samples, b.samples.dropFirst()).allSatisfy { $0.t <= $1.t }, "\(name)")
                #expect(zip(b.inkPoints, b.inkPoints.dropFirst()).allSatisfy { $0.t <= $1.t }, "\(name)")
            }
        }
    }

    @Test func repairsTheCorruptedWriteMathFiles() throws {
        let clean = try #require(RealInk.hwrt("97705.json")).strokes[0]
        // A zero interval: kept, time repaired to be non-decreasing.
        let dupe = Self.build(Array(try #require(RealInk.hwrt("97705-dupe-time.json")).strokes[0]))
        #expect(dupe.samples.count == clean.count)
        // A 3e11 ms clock jump: absorbed, the rest keeps its rhythm.
        let low = Self.build(Array(try #require(RealInk.hwrt("97705-low-time.json")).strokes[0]))
        #expect(low.repairs.clockJumps == 1)
        #expect(low.samples.count == clean.count)
        #expect(low.samples.last!.t < 10_000)
        // The corrupted file moves sample 1 onto the jump itself; from sample 2 on the rhythm must match.
        let lowIntervals = zip(low.samples.dropFirst(3), low.samples.dropFirst(2)).map { $0.t - $1.t }
        let cleanIntervals = zip(clean.dropFirst(3), clean.dropFirst(2)).map { $0.t - $1.t }
        #expect(lowIntervals == cleanIntervals)
        // A wild point at (1000, 1000): dropped.
        let wild = Self.build(Array(try #require(RealInk.hwrt("97705-wild-point.json")).strokes[0]))
        #expect(wild.repairs.wildPoints == 1)
        #expect(!wild.samples.contains { $0.x == 1000 && $0.y == 1000 })
        #expect(wild.samples.count == clean.count)
        var path = Path()
        var w = wild
        w.appendOutline(to: &path)
        #expect(path.controlBounds!.maxX < 400)
    }

    @Test func dropsDuplicatesAndClampsBackwardsTime() {
        let input = [InkSample(x: 0, y: 0, t: 0), InkSample(x: 1, y: 0, t: 10), InkSample(x: 1, y: 0, t: 10),
                     InkSample(x: 2, y: 0, t: 5), InkSample(x: 3, y: 0, t: 30), InkSample(x: 3, y: 0, t: 40)]
        let b = Self.build(input)
        #expect(b.repairs.duplicates == 1)
        #expect(b.repairs.backwardsTimes == 1)
        #expect(b.samples.map(\.x) == [0, 1, 2, 3, 3])
        #expect(b.samples.map(\.t) == [0, 10, 10, 30, 40])
    }

    @Test func randomGarbageNeverBreaksIt() {
        var g = SeededGenerator(seed: 99)
        for _ in 0..<200 {
            var b = StrokeBuilder()
            var path = Path()
            for _ in 0..<Int(g.range(0, 40)) {
                let pick = g.next() % 10
                let x: Double = pick == 0 ? .nan : pick == 1 ? 1e300 : g.range(-10, 10)
                let t: Double = pick == 2 ? .nan : pick == 3 ? -1e9 : g.range(-5, 50)
                let s = InkSample(x: x, y: g.range(-10, 10), t: t, pressure: pick == 4 ? .nan : Float(g.unit()))
                let phase: PointerEvent.Phase = [.down, .move, .move, .move, .up, .cancel][Int(g.next() % 6)]
                b.handle(PointerEvent(phase, pointer: Int(g.next() % 2), sample: s))
                b.appendNewGeometry(to: &path)
            }
            b.end(nil, pointer: b.activePointer ?? 0)
            b.appendOutline(to: &path)
            #expect(zip(b.samples, b.samples.dropFirst()).allSatisfy { $0.t <= $1.t })
            #expect(b.samples.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.t.isFinite })
        }
    }

    @Test func aSecondPointerIsIgnored() {
        var b = StrokeBuilder()
        let r1 = b.handle(PointerEvent(.down, pointer: 7, sample: InkSample(x: 0, y: 0, t: 0)))
        #expect(r1)
        let r2 = b.handle(PointerEvent(.down, pointer: 8, sample: InkSample(x: 50, y: 50, t: 1)))
        #expect(!r2)
        let r3 = b.handle(PointerEvent(.move, pointer: 8, sample: InkSample(x: 51, y: 50, t: 2)))
        #expect(!r3)
        let r4 = b.handle(PointerEvent(.move, pointer: 7, sample: InkSample(x: 5, y: 0, t: 10)))
        #expect(r4)
        let r5 = b.handle(PointerEvent(.up, pointer: 8, sample: InkSample(x: 52, y: 50, t: 12)))
        #expect(!r5)
        #expect(b.isDrawing)
        let r6 = b.handle(PointerEvent(.up, pointer: 7, sample: InkSample(x: 10, y: 0, t: 20)))
        #expect(r6)
        #expect(!b.isDrawing && b.isFinished)
        #expect(b.samples.map(\.x) == [0, 5, 10])
        #expect(b.repairs.ignoredEvents == 3)
        // Moves with no stroke in progress are ignored too.
        let r7 = b.add(InkSample(x: 1, y: 1, t: 30))
        #expect(!r7)
    }

    @Test func cancelDiscardsTheStroke() {
        var b = StrokeBuilder()
        b.begin(InkSample(x: 0, y: 0, t: 0))
        b.add(InkSample(x: 5, y: 0, t: 10))
        b.handle(PointerEvent(.cancel, sample: InkSample(x: 5, y: 0, t: 10)))
        #expect(b.samples.isEmpty && !b.isDrawing)
    }

    @Test func coalescedBatchesLoseNothingAndAreSorted() {
        let stroke = RandomInk.stroke(seed: 5, count: 120)
        var a = StrokeBuilder(), b = StrokeBuilder()
        a.begin(stroke[0]); b.begin(stroke[0])
        for s in stroke.dropFirst() { a.add(s) }
        var rest = Array(stroke.dropFirst())
        while !rest.isEmpty {
            let n = min(rest.count, 4)
            b.add(coalesced: rest.prefix(n))
            rest.removeFirst(n)
        }
        a.end(); b.end()
        #expect(a.samples == b.samples)
        #expect(a.samples.count == stroke.count)
        // A batch delivered in reverse order is sorted by time.
        var c = StrokeBuilder()
        c.begin(stroke[0])
        c.add(coalesced: stroke[1...4].reversed())
        c.end()
        #expect(c.samples.map(\.t) == stroke[0...4].map(\.t))
        #expect(c.repairs.sortedBatches == 1)
    }

    @Test func liveGeometryArrivesIncrementallyAndCoversTheInk() {
        let stroke = RandomInk.stroke(seed: 11, count: 80)
        var b = StrokeBuilder(repair: InputRepair(dropsWildPoints: false))
        var live = Path()
        var pieces = 0
        b.begin(stroke[0])
        if b.appendNewGeometry(to: &live) { pieces += 1 }
        for s in stroke.dropFirst() {
            b.add(s)
            if b.appendNewGeometry(to: &live) { pieces += 1 }
            // Nothing new: nothing drawn.
            let r8 = b.appendNewGeometry(to: &live)
            #expect(!r8)
        }
        b.end()
        b.appendNewGeometry(to: &live)
        #expect(pieces > 40)
        // Every ink point of the final stroke lies inside the live drawing, and so does the whole final shape
        // (live pieces have the untapered widths, at least the final ones): no gaps at the joints.
        let polys = Geometry.polygons(live)
        for p in b.inkPoints { #expect(Winding.number(polys, p.location) != 0) }
        let box = Rect(bounding: b.inkPoints.map(\.location))!.outsetBy(3)
        var gaps = 0
        let step = max(0.3, (box.width * box.height / 15000).squareRoot())
        for y in stride(from: box.minY, through: box.maxY, by: step) {
            for x in stride(from: box.minX, through: box.maxX, by: step) {
                let q = Point(x, y)
                if Geometry.capsuleDistance(b.inkPoints, q) < -OutlinerTests.coverageTolerance
                    && Winding.number(polys, q) == 0 { gaps += 1 }
            }
        }
        #expect(gaps == 0)
    }

    @Test func theInkIsTheSameHoweverOftenItIsAskedFor() {
        // Live geometry after every sample, every third sample, or never; ink points read mid-stroke.
        for (name, sig) in RealInk.all(wacomStrokes: 100) {
            for stroke in sig.strokes.prefix(40) {
                let samples = Array(stroke)
                let quiet = Self.build(samples)
                for every in [1, 3] {
                    var b = StrokeBuilder()
                    var live = Path()
                    b.begin(samples[0])
                    for (i, s) in samples.dropFirst().enumerated() {
                        b.add(s)
                        if i % every == 0 { b.appendNewGeometry(to: &live) }
                        if i == samples.count / 2 {
                            // Read without asking for geometry: the points so far. Up to the last knot, which
                            // the rest of the curve may still bend, they lie where the final ones do (the end taper
                            // changes only radii).
                            let now = b.inkPoints
                            var reference = StrokeBuilder()
                            reference.begin(samples[0])
                            for r in samples.dropFirst().prefix(i + 1) { reference.add(r) }
                            #expect(now == reference.inkPoints, "\(name)")
                            let settled = max(0, now.count - 2)
                            let place = { (p: InkPoint) in [p.x, p.y, p.t, p.distance] }
                            #expect(now.prefix(settled).map(place) == quiet.inkPoints.prefix(settled).map(place),
                                    "\(name)")
                        }
                    }
                    b.end()
                    #expect(b.inkPoints == quiet.inkPoints, "\(name) every \(every)")
                    var a = Path(), c = Path()
                    b.appendOutline(to: &a)
                    var q = quiet
                    q.appendOutline(to: &c)
                    #expect(a == c, "\(name)")
                }
            }
        }
    }

    @Test func aTapShowsAsADotLiveAndFinal() {
        var b = StrokeBuilder()
        var live = Path()
        b.begin(InkSample(x: 10, y: 10, t: 0))
        b.end(InkSample(x: 10, y: 10, t: 50))
        let r9 = b.appendNewGeometry(to: &live)
        #expect(r9)
        var final = Path()
        b.appendOutline(to: &final)
        #expect(final.elements.count == 6)
        #expect(b.samples.count == 2)
    }

    @Test func zeroOneAndTwoSamples() {
        var b = StrokeBuilder()
        b.begin(InkSample(x: .nan, y: 0, t: 0))
        b.end()
        var p = Path()
        b.appendOutline(to: &p)
        #expect(p.isEmpty && b.samples.isEmpty)
        let two = Self.build([InkSample(x: 0, y: 0, t: 0), InkSample(x: 20, y: 0, t: 10)])
        #expect(two.samples.count == 2)
        var b2 = two
        b2.appendOutline(to: &p)
        #expect(p.controlBounds!.width > 20)
    }
}

@Suite struct PredictionTests {
    @Test func predictionLeadsTheInkAndIsNeverSaved() {
        var b = StrokeBuilder()
        let stroke = (0..<30).map { InkSample(x: Double($0) * 2, y: 10, t: Double($0) * 8) }
        b.begin(stroke[0])
        for s in stroke.dropFirst() { b.add(s) }
        let before = b.samples
        let inkBefore = b.inkPoints
        var predicted = Path()
        let drew = b.appendPredictedGeometry(lookahead: 16, to: &predicted)
        #expect(drew)
        #expect(b.samples == before && b.inkPoints == inkBefore)
        // Moving right at 0.25 units/ms: the prediction reaches beyond the newest ink point, to the right.
        let box = predicted.controlBounds!
        #expect(box.maxX > inkBefore.last!.x + 2)
        #expect(box.maxX < inkBefore.last!.x + StrokeBuilder.maximumPredictionLength + 3)
        b.end()
        let drewAfterEnd = b.appendPredictedGeometry(to: &predicted)
        #expect(!drewAfterEnd)
        #expect(b.samples.count == stroke.count)
    }
}
