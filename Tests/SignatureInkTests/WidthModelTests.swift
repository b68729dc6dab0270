// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk

@Suite struct WidthModelTests {
    @Test func slowIsThickFastIsThin() {
        let style = PenStyle(startTaper: 0, endTaper: 0)
        func meanRadius(speed: Double) -> Double {
            let samples = (0..<100).map { InkSample(x: Double($0) * speed * 10, y: 0, t: Double($0) * 10) }
            var o = Outliner(style: style)
            let r = o.inkPoints(of: samples).dropFirst(20).map(\.radius)
            return r.reduce(0, +) / Double(r.count)
        }
        let slow = meanRadius(speed: 0.05), mid = meanRadius(speed: 1), fast = meanRadius(speed: 8)
        #expect(slow > mid && mid > fast)
        // width = min + (max - min) / (1 + v / speedAtMidWidth), so v = 1 unit/ms gives the mean width.
        #expect(abs(mid * 2 - 2) < 0.05, "mid width \(mid * 2)")
        #expect(slow * 2 > 2.85 && fast * 2 < 1.3)
    }

    @Test func pressureSetsTheWidth() {
        let style = PenStyle(startTaper: 0, endTaper: 0)
        for p: Float in [0.1, 0.5, 1] {
            let samples = (0..<60).map { InkSample(x: Double($0) * 3, y: 0, t: Double($0) * 10, pressure: p) }
            var o = Outliner(style: style)
            let r = o.inkPoints(of: samples).dropFirst(10).map(\.radius)
            let expected = (1 + 2 * Double(p)) / 2
            #expect(r.allSatisfy { abs($0 - expected) < 1e-9 }, "pressure \(p)")
        }
        // Zero pressure means no pressure (mice report 0): the velocity model applies.
        let zero = (0..<60).map { InkSample(x: Double($0) * 50, y: 0, t: Double($0) * 10, pressure: 0) }
        var o = Outliner(style: style)
        #expect(o.inkPoints(of: zero).last!.radius < 0.8)
    }

    @Test func widthsStayInRangeOnRealInk() {
        for (name, sig) in RealInk.all(wacomStrokes: 100) {
            let style = PenStyle.default
            var o = Outliner(style: style)
            for stroke in sig.strokes {
                let ink = o.inkPoints(of: stroke)
                if ink.count == 1 { #expect(ink[0].radius == style.effectiveDotWidth / 2); continue }
                for p in ink {
                    // Both tapers overlap on strokes shorter than the two taper lengths.
                    #expect(p.radius >= style.minWidth * style.taperFraction * style.taperFraction / 2 - 1e-9,
                            "\(name)")
                    #expect(p.radius <= style.maxWidth / 2 + 1e-9, "\(name)")
                }
                // The outline needs the width to change more slowly than the distance.
                for (a, b) in zip(ink, ink.dropFirst()) {
                    #expect(abs(b.radius - a.radius) <= 0.9 * (b.distance - a.distance) + 1e-9)
                }
            }
        }
    }

    @Test func tapersThinTheEnds() {
        let style = PenStyle(minWidth: 2, maxWidth: 2, startTaper: 10, endTaper: 20, taperFraction: 0.25)
        let samples = (0..<100).map { InkSample(x: Double($0), y: 0, t: Double($0) * 10) }
        var o = Outliner(style: style)
        let ink = o.inkPoints(of: samples)
        #expect(abs(ink.first!.radius - 0.25) < 1e-9)
        #expect(abs(ink.last!.radius - 0.25) < 1e-9)
        #expect(ink.filter { $0.distance > 12 && $0.distance < 75 }.allSatisfy { abs($0.radius - 1) < 1e-9 })
        #expect(WidthModel.taper(distance: 5, length: 10, fraction: 0.25) == 0.625)
        #expect(WidthModel.taper(distance: 11, length: 10, fraction: 0.25) == 1)
    }

    @Test func sanitizedStyleIsValid() {
        let s = PenStyle(minWidth: -1, maxWidth: .nan, dotWidth: 0, speedAtMidWidth: 0, velocitySmoothing: .nan,
                         pressureExponent: -2, startTaper: -3, endTaper: .infinity, taperFraction: 7,
                         smoothingMinCutoff: 0, smoothingBeta: -1, smoothingDerivativeCutoff: .nan,
                         minimumSpacing: -1, curveTolerance: 0).sanitized
        #expect(s.minWidth > 0 && s.maxWidth >= s.minWidth && s.dotWidth! > 0)
        #expect(s.speedAtMidWidth > 0 && s.velocitySmoothing >= 0 && s.pressureExponent > 0)
        #expect(s.startTaper == 0 && s.endTaper == 0 && s.taperFraction == 1)
        #expect(s.smoothingMinCutoff > 0 && s.smoothingBeta >= 0 && s.curveTolerance > 0)
        let path = Signature(strokes: [RandomInk.stroke(seed: 1, count: 50)]).outlinePath(style: s)
        #expect(!path.isEmpty)
    }

    @Test func styleRoundTripsThroughCodable() throws {
        let s = PenStyle(minWidth: 0.7, maxWidth: 4, dotWidth: 3, endTaper: 9)
        let data = try JSONEncoder().encode(s)
        #expect(try JSONDecoder().decode(PenStyle.self, from: data) == s)
    }
}
