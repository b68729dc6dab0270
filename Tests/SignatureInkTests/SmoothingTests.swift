// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk

@Suite struct SmoothingTests {
    @Test func oneEuroFilterPassesAConstantAndFollowsAStep() {
        var f = OneEuroFilter()
        for _ in 0..<10 { #expect(f.filter(Point(3, 4), interval: 0.01) == Point(3, 4)) }
        var last = Point(3, 4)
        for _ in 0..<200 {
            let v = f.filter(Point(13, 4), interval: 0.01)
            #expect(v.x >= last.x - 1e-12 && v.x <= 13 + 1e-12)
            last = v
        }
        #expect(abs(last.x - 13) < 1e-3)
    }

    @Test func theSpeedEstimateComesFromRawPositions() {
        // A steady ramp of 0.5 units/ms at 100 Hz: the filtered position lags, but the speed estimate, taken from
        // consecutive raw positions, settles on the true 500 units/s (from filtered positions it would overshoot
        // by the lag over the interval).
        var f = OneEuroFilter()
        var lag = 0.0
        for i in 0..<400 {
            let x = Double(i) * 5
            lag = x - f.filter(Point(x, 0), interval: 0.01).x
        }
        #expect(lag > 0.5)
        #expect(abs(f.velocity.x - 500) < 1e-6, "velocity \(f.velocity.x)")
        #expect(f.velocity.y == 0)
    }

    @Test func samplesOneByOneAndInRunsGiveTheSameInk() {
        // Real ink, and a long spiral (a run of many blocks) with a sample here and there that has no position.
        let spiral = (0..<3000).map { i -> InkSample in
            let a = Double(i) * 0.05, r = 20 + Double(i) * 0.05
            return InkSample(x: i % 97 == 5 ? .nan : 300 + r * cos(a), y: 300 + r * sin(a), t: Double(i) * 8)
        }
        for (name, sig) in RealInk.all(wacomStrokes: 100) + [("spiral", Signature(strokes: [spiral]))] {
            var single = InkStream(), whole = InkStream(), pieces = InkStream()
            for stroke in sig.strokes {
                single.reset(); whole.reset(); pieces.reset()
                for s in stroke { single.append(s) }
                stroke.withUnsafeBufferPointer { whole.append(contentsOf: $0) }
                var i = stroke.startIndex
                var k = 0
                while i < stroke.endIndex {
                    let j = min(stroke.endIndex, i + 1 + k % 4)
                    pieces.append(contentsOf: stroke[i..<j])
                    i = j
                    k += 1
                }
                single.finish(); whole.finish(); pieces.finish()
                #expect(whole.points == single.points, "\(name)")
                #expect(pieces.points == single.points, "\(name)")
                #expect(whole.isDot == single.isDot && pieces.isDot == single.isDot)
            }
        }
    }

    @Test func infiniteCutoffTurnsTheFilterOff() {
        var f = OneEuroFilter(minCutoff: .infinity, beta: 0, derivativeCutoff: 1)
        _ = f.filter(Point(0, 0), interval: 0.01)
        #expect(f.filter(Point(5, 7), interval: 0.01) == Point(5, 7))
    }

    @Test func slowJitterIsReduced() {
        // A slow straight line (0.05 units/ms) with +-0.5 units of seeded jitter at 100 Hz.
        var g = SeededGenerator(seed: 3)
        let raw = (0..<300).map { i in
            InkSample(x: Double(i) * 0.5, y: 100 + g.range(-0.5, 0.5), t: Double(i) * 10)
        }
        var outliner = Outliner(style: PenStyle(minimumSpacing: 0))
        let ink = outliner.inkPoints(of: raw)
        func rms(_ ys: [Double]) -> Double { (ys.map { ($0 - 100) * ($0 - 100) }.reduce(0, +) / Double(ys.count)).squareRoot() }
        let before = rms(raw.map(\.y)), after = rms(ink.dropFirst(10).dropLast(10).map(\.y))
        #expect(after < before * 0.6, "jitter rms \(before) -> \(after)")
    }

    @Test func smoothedInkStaysCloseToTheRealInk() {
        // Measured: how far each raw sample is from the drawn centre line, on every real file.
        var worst = 0.0, sum = 0.0, count = 0
        for (_, sig) in RealInk.all(wacomStrokes: 100) {
            var outliner = Outliner()
            for stroke in sig.strokes {
                let centre = outliner.inkPoints(of: stroke).map(\.location)
                for s in stroke {
                    let d = Geometry.polylineDistance(centre, s.location)
                    worst = max(worst, d); sum += d; count += 1
                }
            }
        }
        let mean = sum / Double(count)
        // The default filter's lag at speed is about 1 / (2 pi beta) = 1.6 units.
        #expect(count > 5000)
        #expect(mean < 0.6, "mean deviation \(mean)")
        #expect(worst < 6, "worst deviation \(worst)")
    }

    @Test(arguments: 0..<16)
    func inkPointsKeepTimeMonotonicAndEndsInPlace(seed: Int) {
        var samples = RandomInk.stroke(seed: UInt64(seed) + 500)
        // Duplicate and backwards timestamps as devices deliver them.
        if samples.count > 6 { samples[3].t = samples[2].t; samples[5].t = samples[4].t - 3 }
        var outliner = Outliner()
        let ink = outliner.inkPoints(of: samples)
        #expect(zip(ink, ink.dropFirst()).allSatisfy { $0.t <= $1.t && $0.distance <= $1.distance })
        #expect(ink.first!.location == samples.first!.location)
        if ink.count > 1 { #expect(ink.last!.location == samples.last!.location) }
        #expect(ink.allSatisfy { $0.radius > 0 && $0.radius.isFinite })
    }

    @Test func sparseSamplesAreJoinedByCurves() {
        // A fast circle sampled at 25 Hz: 12 samples a turn. The chords miss the circle by 1.7 units; the
        // drawn curve must follow it within 0.35.
        let style = PenStyle(smoothingMinCutoff: .infinity, minimumSpacing: 0)
        let samples = (0...24).map { i -> InkSample in
            let a = Double(i) * Double.pi / 6
            return InkSample(x: 100 + 50 * cos(a), y: 100 + 50 * sin(a), t: Double(i) * 40)
        }
        var outliner = Outliner(style: style)
        let ink = outliner.inkPoints(of: samples)
        #expect(ink.count > 3 * samples.count)
        // Away from the two ends, where the end tangents are one-sided.
        for p in ink.dropFirst(ink.count / 12).dropLast(ink.count / 12) {
            #expect(abs(p.location.distance(to: Point(100, 100)) - 50) < 0.35)
        }
        // Consecutive ink points are close enough for the outline to have no gaps or facets.
        #expect(zip(ink, ink.dropFirst()).allSatisfy { $0.location.distance(to: $1.location) < 8 })
    }

    @Test func sharpCornersStayCorners() {
        // An L drawn at 100 Hz: the corner is not rounded by more than the filter's lag.
        let style = PenStyle(minimumSpacing: 0)
        var samples: [InkSample] = []
        for i in 0..<50 { samples.append(InkSample(x: Double(i), y: 0, t: Double(i) * 10)) }
        for i in 1..<50 { samples.append(InkSample(x: 49, y: Double(i), t: 490 + Double(i) * 10)) }
        var outliner = Outliner(style: style)
        let ink = outliner.inkPoints(of: samples).map(\.location)
        let nearest = ink.map { $0.distance(to: Point(49, 0)) }.min()!
        #expect(nearest < 1.0)
    }
}
