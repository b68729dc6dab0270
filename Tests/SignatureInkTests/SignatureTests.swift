// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import Testing

@Suite struct SignatureTests {
    let a = InkSample(x: 1, y: 2, t: 0)
    let b = InkSample(x: 5, y: -3, t: 10, pressure: 0.5)
    let c = InkSample(x: 9, y: 7, t: 30)

    @Test func emptyStrokesAreNotStored() {
        let s = Signature(strokes: [[], [a], []])
        #expect(s.strokeCount == 1)
        #expect(s.samples == [a])
    }

    @Test func strokesAreSlicesOfOneContiguousArray() {
        let s = Signature(strokes: [[a, b], [c]])
        #expect(s.strokeEnds == [2, 3])
        #expect(Array(s.strokes[0]) == [a, b])
        #expect(Array(s.strokes[1]) == [c])
        #expect(s.sampleRange(ofStroke: 1) == 2..<3)
    }

    @Test func removingTheLastStrokeReturnsItsSamples() {
        var s = Signature(strokes: [[a, b], [c]])
        #expect(s.removeLastStroke() == [c])
        #expect(s.removeLastStroke() == [a, b])
        #expect(s.removeLastStroke() == nil)
        #expect(s.isEmpty)
    }

    @Test func boundsDurationAndPressure() throws {
        let s = Signature(strokes: [[a, b], [c]])
        let r = try #require(s.bounds)
        #expect(r == Rect(minX: 1, minY: -3, maxX: 9, maxY: 7))
        #expect(s.duration == 30)
        #expect(s.hasPressure)
        #expect(Signature().bounds == nil)
        #expect(Signature().duration == 0)
        #expect(!Signature(strokes: [[a]]).hasPressure)
    }

    @Test func samplingRateIsTheInverseOfTheMedianInterval() throws {
        let stroke = (0..<11).map { InkSample(x: Double($0), y: 0, t: Double($0) * 8) }
        let rate = try #require(Signature(strokes: [stroke]).samplingRate)
        #expect(abs(rate - 125) < 1e-9)
        // Equal and backwards timestamps are not intervals.
        #expect(Signature(strokes: [[a, a]]).samplingRate == nil)
        #expect(Signature(strokes: [[c, a]]).samplingRate == nil)
    }

    @Test(arguments: 0..<50) func randomSignaturesKeepTheirStrokes(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let s = Signature.random(using: &rng)
        let rebuilt = Signature(strokes: s.strokes.map(Array.init), canvas: s.canvas, startTime: s.startTime,
                                metadata: s.metadata)
        #expect(rebuilt == s)
        #expect(s.strokeEnds.last == s.samples.count)
        #expect(zip(s.strokeEnds, s.strokeEnds.dropFirst()).allSatisfy { $0 < $1 })
    }
}

@Suite struct GeometryTests {
    @Test func pointArithmetic() {
        let p = Point(3, 4)
        #expect(p.length == 5)
        #expect(p.normalized == Point(0.6, 0.8))
        #expect(Point.zero.normalized == nil)
        #expect(p.perpendicular.dot(p) == 0)
        #expect(p.lerp(Point(5, 8), 0.5) == Point(4, 6))
        #expect(Point(1, 0).cross(Point(0, 1)) == 1)
    }

    @Test func rectangles() throws {
        let r = Rect(minX: 5, minY: 6, maxX: 1, maxY: 2)
        #expect(r.minX == 1 && r.maxX == 5 && r.width == 4 && r.height == 4)
        #expect(r.outsetBy(1) == Rect(minX: 0, minY: 1, maxX: 6, maxY: 7))
        #expect(r.insetBy(10).width == 0)
        let b = try #require(Rect(bounding: [Point(1, 1), Point(-1, 3)]))
        #expect(b == Rect(minX: -1, minY: 1, maxX: 1, maxY: 3))
        #expect(Rect(bounding: [Point]()) == nil)
        #expect(b.contains(Point(0, 2)) && !b.contains(Point(2, 2)))
    }

    @Test func pathControlBounds() throws {
        var path = Path()
        #expect(path.controlBounds == nil)
        path.move(to: Point(0, 0))
        path.curve(to: Point(10, 0), control1: Point(2, -5), control2: Point(8, 5))
        path.close()
        #expect(try #require(path.controlBounds) == Rect(minX: 0, minY: -5, maxX: 10, maxY: 5))
    }
}

/// The pen model: the fields a format records beyond colour and widths, and their defaults.
@Suite struct PenModelTests {
    @Test func aPenDecodedWithoutTheLaterFieldsGetsTheirDefaults() throws {
        let old = #"{"color":{"red":220,"green":20,"blue":60,"alpha":255},"minWidth":1,"maxWidth":3,"widthModel":{"pressureOrSpeed":{}},"blend":"erase"}"#
        let pen = try JSONDecoder().decode(Pen.self, from: Data(old.utf8))
        #expect(pen == Pen(color: Color(red: 220, green: 20, blue: 60), minWidth: 1, maxWidth: 3, blend: .erase))
        #expect(pen.tip == .ellipse && pen.compositeOperation == nil)
        let full = Pen(color: .white, dotWidth: 2, widthModel: .signaturePad(velocityFilterWeight: 0.4), tip: .rectangle,
                       compositeOperation: "multiply")
        #expect(try JSONDecoder().decode(Pen.self, from: JSONEncoder().encode(full)) == full)
    }

    @Test func heldMakesACompositeOperationTheBlendItNames() {
        #expect(Pen(compositeOperation: "destination-out").held == Pen(blend: .erase))
        #expect(Pen(blend: .erase, compositeOperation: "source-over").held == Pen())
        #expect(Pen(compositeOperation: "").held == Pen())
        #expect(Pen(compositeOperation: "multiply").held.compositeOperation == "multiply")
    }

    @Test func aNamedColourHasItsCSSName() {
        #expect(Color(red: 220, green: 20, blue: 60).cssName == "crimson")
        #expect(Color.black.cssName == "black")
        #expect(Color(red: 128, green: 128, blue: 128).cssName == "gray")  // gray and grey: the first
        #expect(Color(red: 220, green: 20, blue: 61).cssName == nil)
        #expect(Color(red: 220, green: 20, blue: 60, alpha: 254).cssName == nil)
        for name in ["crimson", "navy", "rebeccapurple", "white"] {
            #expect(Color(css: name)?.cssName == name)
        }
    }

    @Test func aConstantWidthIsOneWidthThatFollowsNothing() {
        #expect(Pen.constant(color: .black, width: 2.5).constantWidth == 2.5)
        #expect(Pen(minWidth: 2.5, maxWidth: 2.5).constantWidth == nil)  // its dot is the mean: no dot width given
        #expect(Pen(minWidth: 2, maxWidth: 2, dotWidth: 2, widthModel: .signaturePad(velocityFilterWeight: 0.7)).constantWidth == nil)
        #expect(Pen(minWidth: 1, maxWidth: 3, dotWidth: 1).constantWidth == nil)
    }
}
