// SPDX-License-Identifier: Apache-2.0
import SignatureInk
@testable import SignatureInkRender
import Testing

@Suite struct LayoutTests {
    /// Ink from (100, 50) to (300, 150): 200 x 100.
    let ink = Signature(strokes: [[InkSample(x: 100, y: 50, t: 0), InkSample(x: 300, y: 150, t: 16)]])

    func layout(_ s: Signature, _ o: RenderOptions) -> Layout { Layout.make(for: s, options: o) }

    @Test func aCanvasMapsUnchangedOntoTheOutput() {
        var s = ink
        s.canvas = Canvas(width: 600, height: 300)
        #expect(layout(s, RenderOptions()) == Layout(width: 600, height: 300, inkScale: 1, offset: .zero))
    }

    @Test func aBoxReplacesTheCanvasWithoutMovingThePoints() {
        var s = ink
        s.canvas = Canvas(width: 600, height: 300)
        let l = layout(s, RenderOptions(box: OutputSize(width: 320, height: 120)))
        #expect(l == Layout(width: 320, height: 120, inkScale: 1, offset: .zero))
        // Without a canvas too: points land where they were drawn.
        #expect(layout(ink, RenderOptions(box: OutputSize(width: 400, height: 200))).apply(Point(100, 50)) == Point(100, 50))
    }

    @Test func withNeitherCanvasNorBoxTheInkIsCroppedWithPaddingAndHalfThePen() {
        let l = layout(ink, RenderOptions(penWidth: 4, padding: 10))
        #expect(l.width == 200 + 24 && l.height == 100 + 24)
        #expect(l.inkScale == 1)
        #expect(l.apply(Point(100, 50)) == Point(12, 12))
    }

    @Test func cropIgnoresTheCanvas() {
        var s = ink
        s.canvas = Canvas(width: 600, height: 300)
        let l = layout(s, RenderOptions(penWidth: 2, padding: 16, framing: .crop))
        #expect(l.width == 234 && l.height == 134)
        #expect(l.apply(Point(300, 150)) == Point(217, 117))
    }

    @Test func fitScalesTheInkIntoTheBoxKeepingItsAspectCentred() {
        let o = RenderOptions(penWidth: 2, padding: 9, box: OutputSize(width: 300, height: 300), framing: .fit)
        let l = layout(ink, o)
        #expect(l.width == 300 && l.height == 300)
        // 200 x 100 of ink into 300 - 2 * 10 = 280 of room: the width decides.
        #expect(abs(l.inkScale - 1.4) < 1e-12)
        let a = l.apply(Point(100, 50)), b = l.apply(Point(300, 150))
        #expect(abs(a.x - 10) < 1e-9 && abs(b.x - 290) < 1e-9)
        #expect(abs((a.y + b.y) / 2 - 150) < 1e-9)
    }

    @Test func fitWithoutABoxUsesTheCanvasElseTheDefaultBox() {
        var s = ink
        s.canvas = Canvas(width: 400, height: 400)
        #expect(layout(s, RenderOptions(framing: .fit)).width == 400)
        let l = layout(ink, RenderOptions(framing: .fit))
        #expect(l.width == Layout.defaultBox.width && l.height == Layout.defaultBox.height)
    }

    @Test func hugeTabletInkWithoutACanvasIsFittedIntoTheDefaultBox() {
        let tablet = Signature(strokes: [[InkSample(x: 1000, y: 2000, t: 0), InkSample(x: 9000, y: 6000, t: 16)]])
        let l = layout(tablet, RenderOptions())
        #expect(l.width == 600 && l.height == 300)
        #expect(l.inkScale < 0.1)
        let a = l.apply(Point(1000, 2000)), b = l.apply(Point(9000, 6000))
        #expect(a.x >= 17 && b.x <= 583 && a.y >= 17 && b.y <= 283)
    }

    @Test func aSingleDotFitsWithoutScaling() {
        let dot = Signature(strokes: [[InkSample(x: 5, y: 5, t: 0)]])
        let l = layout(dot, RenderOptions(box: OutputSize(width: 100, height: 50), framing: .fit))
        #expect(l.inkScale == 1)
        #expect(l.apply(Point(5, 5)) == Point(50, 25))
    }

    @Test func anEmptySignatureStillHasASize() throws {
        let l = layout(Signature(), RenderOptions(padding: 16))
        #expect(l.width > 0 && l.height > 0)
        let png = try DecodedPNG(SignatureRenderer().png(Signature()))
        #expect(png.width == 35 && png.rgba.allSatisfy { $0 == 0 })
    }

    @Test func nonFiniteSamplesAreLeftOutAndHugeInkIsRefusedInEveryFormat() throws {
        let odd = Signature(strokes: [[InkSample(x: .nan, y: 5, t: 0), InkSample(x: 10, y: 10, t: 8),
                                       InkSample(x: .infinity, y: 0, t: 16), InkSample(x: 40, y: 30, t: 24)]])
        let l = layout(odd, RenderOptions(penWidth: 2, padding: 5))
        #expect(l.width == 42 && l.height == 32)
        let r = SignatureRenderer()
        #expect(try DecodedPNG(r.png(odd)).width == 30 + 2 * 17 + 1)
        #expect(try r.svg(odd).contains("viewBox"))
        #expect(try !r.pdf(odd).isEmpty)

        // Beyond the auto-fit threshold the ink is fitted; with --crop it is refused before any allocation.
        let huge = Signature(strokes: [[InkSample(x: -1e300, y: 0, t: 0), InkSample(x: 1e300, y: 1, t: 8)]])
        let crop = SignatureRenderer(options: RenderOptions(framing: .crop))
        #expect(throws: RenderError.self) { try crop.png(huge) }
        #expect(throws: RenderError.self) { try crop.svg(huge) }
        #expect(throws: RenderError.self) { try crop.pdf(huge) }
        #expect(try DecodedPNG(r.png(huge)).width == 600)
    }

    @Test func theRasterIsTheBoxTimesTheScale() throws {
        let o = RenderOptions(scale: 2, box: OutputSize(width: 150.5, height: 80), framing: .fit)
        let png = try DecodedPNG(SignatureRenderer(options: o).png(ink))
        #expect(png.width == 301 && png.height == 160)
    }

    @Test func paddingThatLeavesNoRoomIsRefused() {
        let o = RenderOptions(padding: 30, box: OutputSize(width: 100, height: 50), framing: .fit)
        #expect(throws: RenderError.self) { try SignatureRenderer(options: o).png(ink) }
    }

    @Test(arguments: [0.0, -5, .nan, .infinity, 40000])
    func badBoxesAreRefused(side: Double) {
        let o = RenderOptions(box: OutputSize(width: side, height: 100))
        #expect(throws: RenderError.self) { try SignatureRenderer(options: o).png(ink) }
    }
}
