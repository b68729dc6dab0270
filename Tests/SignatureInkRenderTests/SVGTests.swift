// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
@testable import SignatureInkRender
import Testing

@Suite struct SVGPathDataTests {
    let writer = SVGPathData(decimals: 1)

    @Test func numbersAreShortest() {
        #expect(writer.format(0) == "0")
        #expect(writer.format(5) == ".5")
        #expect(writer.format(-5) == "-.5")
        #expect(writer.format(30) == "3")
        #expect(writer.format(-12) == "-1.2")
        #expect(SVGPathData(decimals: 2).format(1205) == "12.05")
        #expect(SVGPathData(decimals: 2).format(1250) == "12.5")
    }

    @Test func commandsAreRelativeAndCompact() {
        var p = Path()
        p.move(to: Point(10, 20))
        p.line(to: Point(15, 20))       // h
        p.line(to: Point(15, 10.5))     // v
        p.line(to: Point(14.5, 10))     // l with two negative numbers
        p.line(to: Point(15, 10.5))     // implicit l: ".5.5"
        p.line(to: Point(15.02, 10.51)) // rounds to no move: left out
        p.curve(to: Point(25, 10.5), control1: Point(18, 5), control2: Point(22, 5))
        p.close()
        p.move(to: Point(12, 22))
        p.line(to: Point(13, 23))
        #expect(writer.encode(p) == "m10 20h5v-9.5l-.5-.5.5.5c3-5.5 7-5.5 10 0zm2 2 1 1")
        // The same rounding in whole steps, for a `scale(0.1)` transform.
        #expect(SVGPathData(decimals: 1, inSteps: true).encode(p) == "m100 200h50v-95l-5-5 5 5c30-55 70-55 100 0zm20 20 10 10")
    }

    @Test func wholeStepsCarryTheScaleBack() {
        #expect(SVGPathData(decimals: 1, inSteps: true).transform == " transform=\"scale(0.1)\"")
        #expect(SVGPathData(decimals: 3, inSteps: true).transform == " transform=\"scale(0.001)\"")
        #expect(SVGPathData(decimals: 0, inSteps: true).transform == "")
        #expect(writer.transform == "")
    }

    @Test func zeroAfterAFractionGetsASeparator() {
        var p = Path()
        p.move(to: Point(1.5, 0))
        p.line(to: Point(1.5, 2.5))
        p.line(to: Point(3, 2.5))
        p.line(to: Point(3.5, 3))
        p.line(to: Point(3.5, 10))
        p.line(to: Point(-1, 10.5))
        #expect(writer.encode(p) == "m1.5 0v2.5h1.5l.5.5v7l-4.5.5")
        var q = Path()
        q.move(to: Point(0.5, 0))
        #expect(writer.encode(q) == "m.5 0")
        #expect(SVGPathData(decimals: 2).encode(Path([.move(Point(0.05, 12.05)), .line(Point(0.1, 100))])) == "m.05 12.05.05 87.95")
        #expect(SVGPathData(decimals: 0).encode(Path([.move(Point(10.4, -3.6)), .line(Point(0, 0))])) == "m10-4-10 4")
    }

    @Test func aLoneMoveAndZeroLineKeepsADot() {
        let p = Path([.move(Point(3, 4)), .line(Point(3, 4))])
        #expect(writer.encode(p) == "m3 4 0 0")
    }

    @Test func roundingNeverAccumulates() {
        var rng = SeededRandom(seed: 7)
        for decimals in 0...3 {
            let w = SVGPathData(decimals: decimals), inSteps = SVGPathData(decimals: decimals, inSteps: true)
            var p = Path()
            var at = Point(rng.uniform(0...600), rng.uniform(0...300))
            p.move(to: at)
            for i in 0..<3000 {
                // At least 1.5 units a step, so no command rounds to nothing and is left out.
                let dx = (1.5 + abs(rng.gaussian(deviation: 3))) * (Bool.random(using: &rng) ? 1 : -1)
                at += Point(dx, rng.gaussian(deviation: 3))
                if i % 3 == 0 {
                    p.curve(to: at, control1: at + Point(1.13, -2.71), control2: at + Point(-0.37, 0.77))
                } else {
                    p.line(to: at)
                }
            }
            let back = SVGInspection.polylines(w.encode(p), segments: 1).joined()
            let steps = SVGInspection.polylines(inSteps.encode(p), segments: 1).joined().map { $0 * w.step }
            #expect(steps.count == back.count && zip(steps, back).allSatisfy { $0.distance(to: $1) < 1e-9 })
            let ends = p.endPoints
            let bound = 0.5 * w.step * 2.0.squareRoot() + 1e-9
            // With one segment per cubic the read-back holds exactly one point per command end.
            #expect(back.count == ends.count)
            var worst = 0.0
            for (a, b) in zip(back, ends) { worst = max(worst, a.distance(to: b)) }
            #expect(worst <= bound, "decimals \(decimals): \(worst) > \(bound)")
        }
    }
}

@Suite struct SVGDocumentTests {
    @Test func oneCanvasSizedDocumentWithOnePathByDefault() throws {
        let s = try Fixtures.sample("long-name")
        let svg = SVGInspection(try SignatureRenderer().svg(s))
        #expect(svg.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"300\" viewBox=\"0 0 600 300\">"))
        #expect(svg.pathData.count == 1)
        #expect(!svg.text.contains("<g"))
    }

    @Test func aStraightStrokeIsAHandfulOfCommands() throws {
        let samples = (0...400).map { InkSample(x: 20 + Double($0) * 0.5, y: 40, t: Double($0)) }
        let svg = SVGInspection(try SignatureRenderer(options: RenderOptions(penStyle: .constant(4)))
            .svg(Signature(strokes: [samples])))
        let commands = svg.pathData.joined().filter(\.isLetter).count
        #expect(commands <= 14, "\(svg.pathData)")
    }

    @Test func onePathPerStrokeOnRequest() throws {
        let s = try Fixtures.sample("long-name")
        let svg = SVGInspection(try SignatureRenderer().svg(s, pathPerStroke: true))
        #expect(svg.pathData.count == s.strokeCount)
    }

    @Test(arguments: ["long-name", "fast-scribble", "dotted-i", "pressure"])
    func theSVGOutlineIsWithinAQuarterUnitOfTheRasterOutline(sample: String) throws {
        let s = try Fixtures.sample(sample)
        let svg = SVGInspection(try SignatureRenderer().svg(s))
        let drawn = svg.polylines(segments: 12)
        let filled = Scene(s, options: RenderOptions()).ink.path.flattened(segments: 12)
        #expect(drawn.count == filled.count)
        let whole = Scene(s, options: RenderOptions()).ink.path
        #expect(svg.pathData[0].count < SVGPathData(decimals: 1, inSteps: true).encode(whole).count)
        // Both ways: every point of each outline is near the other.
        let a = drawn.joined().map { Self.distance(from: $0, to: filled) }.max() ?? .infinity
        let b = filled.joined().map { Self.distance(from: $0, to: drawn) }.max() ?? .infinity
        #expect(a <= 0.25 && b <= 0.25, "\(a), \(b)")
    }

    /// Distance from `p` to the nearest segment of any polyline.
    static func distance(from p: Point, to polylines: [[Point]]) -> Double {
        var best = Double.infinity
        for line in polylines {
            for (a, b) in zip(line, line.dropFirst()) {
                let ab = b - a, l2 = ab.lengthSquared
                let t = l2 > 0 ? max(0, min(1, (p - a).dot(ab) / l2)) : 0
                best = min(best, p.distance(to: a + ab * t))
            }
            if line.count == 1 { best = min(best, p.distance(to: line[0])) }
        }
        return best
    }

    @Test func croppedAndFittedDocumentsHaveTheLayoutsBox() throws {
        let s = try Fixtures.sample("long-name")
        let crop = SVGInspection(try SignatureRenderer(options: RenderOptions(framing: .crop)).svg(s))
        let layout = Layout.make(for: s, options: RenderOptions(framing: .crop))
        #expect(crop.viewBox.count == 4)
        #expect(abs(crop.viewBox[2] - layout.width) < 0.01 && abs(crop.viewBox[3] - layout.height) < 0.01)
        let points = crop.polylines().joined()
        let bounds = try #require(Rect(bounding: points))
        // The outline reaches at most the widest half-width (1.5) past the samples, which sit at 16 + 1.5.
        #expect(bounds.minX >= 15.95 && bounds.minX <= 17.55 && bounds.minY >= 15.95 && bounds.minY <= 17.55)

        let fit = SVGInspection(try SignatureRenderer(options: RenderOptions(box: OutputSize(width: 200, height: 200), framing: .fit)).svg(s))
        #expect(fit.viewBox == [0, 0, 200, 200])
        let fb = try #require(Rect(bounding: fit.polylines().joined()))
        #expect(fb.minX >= 15.95 && fb.maxX <= 184.05 && fb.minY >= 15.95 && fb.maxY <= 184.05)
        #expect(fb.minX < 17.55 || fb.minY < 17.55)
    }

    @Test func viewModeIsAnOpacityGroup() throws {
        let s = try Fixtures.sample("short-name")
        let svg = try SignatureRenderer(options: RenderOptions().viewMode()).svg(s, pathPerStroke: true)
        #expect(svg.contains("<g opacity=\"0.5\">"))
        let translucent = try SignatureRenderer(options: RenderOptions(penColor: Color(hex: "#00000080")!)).svg(s, pathPerStroke: true)
        #expect(translucent.contains("opacity=\"0.502\""))
    }

    @Test func decorationsAndEscapedText() throws {
        let o = RenderOptions(background: .white, decorations: Decorations(
            signatureLine: true, xMark: true, watermark: "<Draft & \"copy\">", timestamp: .iso8601))
        let svg = SVGInspection(try SignatureRenderer(options: o).svg(Fixtures.cross))
        // Text is drawn as outlines named by the text, escaped.
        #expect(svg.text.contains("aria-label=\"&lt;Draft &amp; &quot;copy&quot;&gt;\""))
        #expect(svg.text.contains("aria-label=\"2024-12-30T12:00:00Z\""))
        #expect(!svg.text.contains("<text"))
        #expect(svg.text.contains("<rect width=\"100\" height=\"50\" fill=\"#ffffff\"/>"))
        #expect(svg.pathData.count == 5)  // watermark, line, X, timestamp, ink
        // Filled outlines are written in tenths under a scale; the stroked line and X in units, as their widths are.
        #expect(svg.paths.map(\.scale) == [0.1, 1, 1, 0.1, 0.1])
        let drawn = try #require(Rect(bounding: svg.polylines().joined()))
        #expect(drawn.minX >= 0 && drawn.maxX <= 100 && drawn.minY >= 0 && drawn.maxY <= 50, "\(drawn)")
        #expect(drawn.maxX > 50 && drawn.maxY > 25)
    }

    @Test func physicalSizeFollowsTheResolution() throws {
        let svg = try SignatureRenderer(options: RenderOptions(dpi: 192)).svg(Fixtures.cross)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"50\" height=\"25\" viewBox=\"0 0 100 50\">"))
    }

    @Test func theSameInputGivesTheSameText() throws {
        let s = try Fixtures.sample("long-name")
        #expect(try SignatureRenderer().svg(s) == SignatureRenderer().svg(s))
    }

    /// A signature_pad recording with an opaque pen: each stroke's dot lies under its first curve, so the SVG leaves
    /// it out (the raster keeps it), and what the SVG draws still covers every dot.
    @Test func signaturePadDotsUnderTheirCurvesAreLeftOut() throws {
        let folder = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1")
        func recording(_ name: String) throws -> Signature {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(name).json"))
            return try InkDecoder().decode(data, as: .signaturePad).signature
        }
        let options = RenderOptions(box: OutputSize(width: 600, height: 300))
        let signature = try recording("Hello-World-1-00")
        let ink = Scene(signature, options: options).ink
        let curved = signature.strokes.filter { $0.count >= 3 }.count
        #expect(curved > 0 && ink.coveredDots.count == curved)
        let svg = SVGInspection(try SignatureRenderer(options: options).svg(signature))
        let drawn = svg.polylines(segments: 12)
        let filled = ink.path.flattened(segments: 12)
        #expect(drawn.count == filled.count - ink.coveredDots.count)
        for dot in ink.coveredDots {
            // The dot's outline pulled a quarter unit towards its centre lies inside what the SVG fills.
            let ring = Path(Array(ink.path.elements[dot])).flattened(segments: 12).joined()
            let centre = ring.reduce(Point(0, 0)) { $0 + $1 } * (1 / Double(ring.count))
            for p in ring {
                let inner = p + (centre - p) * (0.25 / max(0.25, p.distance(to: centre)))
                #expect(Winding.number(drawn, inner) != 0, "\(inner) is outside the SVG's ink")
            }
        }
        // Translucent ink builds up where the dot and the curve overlap: its dots stay.
        #expect(Scene(try recording("Cell-Structure-1-19"), options: options).ink.coveredDots.isEmpty)
    }
}
