// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
@testable import SignatureInkRender
import Testing

@Suite struct PNGRenderTests {
    /// A horizontal stroke from (20, 25) to (80, 25) on a 100 x 50 canvas.
    let line = Signature(strokes: [[InkSample(x: 20, y: 25, t: 0), InkSample(x: 50, y: 25, t: 8),
                                    InkSample(x: 80, y: 25, t: 16)]],
                         canvas: Canvas(width: 100, height: 50))

    func render(_ s: Signature, _ options: RenderOptions = RenderOptions()) throws -> DecodedPNG {
        try DecodedPNG(SignatureRenderer(options: options).png(s))
    }

    @Test func inkWhereTheStrokeIsAndTransparentElsewhere() throws {
        let png = try render(line, RenderOptions(penColor: Color(hex: "#3366cc")!, penWidth: 4))
        #expect(png.width == 100 && png.height == 50)
        #expect(png.pixel(x: 50, y: 25) == Color(hex: "#3366cc"))
        #expect(png.pixel(x: 20, y: 24) == Color(hex: "#3366cc"))
        #expect(png.pixel(x: 50, y: 5).alpha == 0)
        #expect(png.pixel(x: 5, y: 25).alpha == 0)
        #expect(png.pixel(x: 95, y: 45).alpha == 0)
        // Round caps reach past the end points by half the width.
        #expect(png.pixel(x: 81, y: 25).alpha > 0)
        #expect(png.pixel(x: 85, y: 25).alpha == 0)
    }

    @Test func edgesAreAntiAliasedWithStraightAlpha() throws {
        let png = try render(line, RenderOptions(penColor: Color(hex: "#ff0000")!, penWidth: 3))
        // The stroke spans y 23.5 ... 26.5, so rows 23 and 26 are half covered, in pure red.
        let edge = png.pixel(x: 50, y: 23)
        #expect(edge.alpha > 100 && edge.alpha < 160)
        #expect(edge.red == 255 && edge.green == 0 && edge.blue == 0)
    }

    @Test func backgroundColourFillsTheImage() throws {
        let png = try render(line, RenderOptions(background: Color(hex: "#fafad2")!, penWidth: 3))
        #expect(png.pixel(x: 2, y: 2) == Color(hex: "#fafad2"))
        #expect(png.pixel(x: 50, y: 25) == .black)
    }

    @Test(arguments: [1.0, 1.5, 2.0, 3.0])
    func scaleMultipliesTheSizeAndResolution(scale: Double) throws {
        let png = try render(line, RenderOptions(scale: scale, penWidth: 3))
        #expect(png.width == Int((100 * scale).rounded(.up)))
        #expect(png.height == Int((50 * scale).rounded(.up)))
        #expect(abs((png.pixelsPerInch ?? 0) - 96 * scale) < 0.05)
        #expect(png.pixel(x: Int(50 * scale), y: Int(25 * scale)).alpha == 255)
        #expect(png.text["Software"] == "signature-ink")
    }

    @Test func aSingleSampleIsARoundDot() throws {
        let dot = Signature(strokes: [[InkSample(x: 10, y: 10, t: 0)]], canvas: Canvas(width: 20, height: 20))
        let png = try render(dot, RenderOptions(penWidth: 6))
        #expect(png.pixel(x: 10, y: 10).alpha == 255)
        #expect(png.pixel(x: 11, y: 10).alpha == 255)
        #expect(png.pixel(x: 10, y: 14).alpha == 0)
        #expect(png.pixel(x: 13, y: 13).alpha < 128)  // round, not square
    }

    @Test func withoutACanvasTheImageIsCroppedToTheInkPlusPadding() throws {
        let s = Signature(strokes: [[InkSample(x: 100, y: 100, t: 0), InkSample(x: 160, y: 130, t: 8)]])
        let png = try render(s, RenderOptions(penWidth: 2, padding: 10))
        #expect(png.width == 60 + 2 * 11)
        #expect(png.height == 30 + 2 * 11)
        #expect(png.pixel(x: 11, y: 11).alpha == 255)
    }

    @Test func hugeOutputsAreRefusedBeforeAnyAllocation() {
        let s = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0)]], canvas: Canvas(width: 100_000, height: 100_000))
        #expect(throws: RenderError.limitExceeded(what: "output side in pixels", limit: 32767, actual: 100_000)) {
            try SignatureRenderer().png(s)
        }
        let wide = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0)]], canvas: Canvas(width: 20000, height: 20000))
        #expect(throws: RenderError.limitExceeded(what: "output pixels", limit: 64 << 20, actual: 400_000_000)) {
            try SignatureRenderer().png(wide)
        }
    }

    @Test(arguments: [0.0, -1, .nan, .infinity, 17])
    func badScalesAreRefused(scale: Double) {
        #expect(throws: RenderError.self) { try SignatureRenderer(options: RenderOptions(scale: scale)).png(line) }
    }

    @Test func colorsParseFromHex() {
        #expect(Color(hex: "#0a0B0c") == Color(red: 10, green: 11, blue: 12))
        #expect(Color(hex: "0a0b0c80") == Color(red: 10, green: 11, blue: 12, alpha: 128))
        #expect(Color(hex: "#12345") == nil)
        #expect(Color(hex: "#gggggg") == nil)
        #expect(Color(red: 1, green: 2, blue: 255, alpha: 16).description == "#0102ff10")
    }

    @Test func decodingGarbageIsAnError() {
        #expect(throws: RenderError.self) { try DecodedPNG([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }
    }
}

@Suite struct PNGOutputTests {
    @Test func oneInkWithoutDecorationsIsAnIndexedCoverageImage() throws {
        for background in [Color.clear, .white, Color(hex: "#fafad280")!] {
            let p = try DecodedPNG(SignatureRenderer(options: RenderOptions(background: background)).png(Fixtures.cross))
            #expect(p.colorType == .indexed)
            #expect(p.pixel(x: 1, y: 1) == (background.alpha == 0 ? .clear : background))
        }
    }

    @Test func decorationsInColourGiveAnRGBAImage() throws {
        let navy = Color(red: 0x1a, green: 0x23, blue: 0x7e)
        for o in [RenderOptions(penColor: navy, decorations: Decorations(xMark: true)),
                  RenderOptions(decorations: Decorations(xMark: true, lineColor: navy)),
                  RenderOptions(background: Color(red: 250, green: 250, blue: 210, alpha: 128),
                                decorations: Decorations(signatureLine: true))] {
            #expect(try DecodedPNG(SignatureRenderer(options: o).png(Fixtures.cross)).colorType == .rgba)
        }
    }

    /// Decorations in greys (the default colours) over a clear, white or grey background: the PNG has one colour
    /// channel, and alpha only where the background is not opaque; its pixels are exactly those of the same
    /// surface written as RGBA.
    @Test func inkOverDecorationsHasTheCoverageOfInkAlone() throws {
        // A curving stroke above the signature line: drawn in colour over the line, it is the same coverage as
        // drawn alone (one rasterizer fills both), wherever the line is not.
        let samples = (0..<40).map { i in
            InkSample(x: 20 + Double(i) * 6, y: 45 + 25 * sin(Double(i) * 0.4), t: Double(i) * 10)
        }
        let s = Signature(strokes: [samples], canvas: Canvas(width: 300, height: 150))
        let plain = try DecodedPNG(SignatureRenderer(options: RenderOptions(penWidth: 3)).png(s))
        var options = RenderOptions(penWidth: 3)
        options.decorations.signatureLine = true
        let lined = try DecodedPNG(SignatureRenderer(options: options).png(s))
        let lineY = Int(DecorationLayout(width: 300, height: 150).lineY)
        var differing = 0, inked = 0, partial = 0
        for y in 0..<150 where abs(y - lineY) > 3 {
            for x in 0..<300 {
                let a = plain.pixel(x: x, y: y).alpha
                if lined.pixel(x: x, y: y).alpha != a { differing += 1 }
                if a > 0 { inked += 1 }
                if a > 0 && a < 255 { partial += 1 }
            }
        }
        #expect(differing == 0)
        #expect(inked > 500 && partial > 200)
        #expect(lined.pixel(x: 150, y: lineY).alpha > 0 && plain.pixel(x: 150, y: lineY).alpha == 0)
    }

    @Test(arguments: [Color.clear, .white, Color(red: 128, green: 128, blue: 128, alpha: 100)])
    func decorationsInGreysGiveAGreyImageOfTheSamePixels(background: Color) throws {
        let o = RenderOptions(penColor: Color(red: 40, green: 40, blue: 40, alpha: 200), background: background,
                              decorations: Decorations(signatureLine: true, xMark: true, watermark: "Void", timestamp: .iso8601))
        let renderer = SignatureRenderer(options: o)
        let grey = try DecodedPNG(renderer.png(Fixtures.cross))
        #expect(grey.colorType == (background.alpha == 255 ? .grey : .greyAlpha))
        let scene = Scene(Fixtures.cross, options: o)
        let size = try scene.layout.pixelSize(scale: o.scale, limits: renderer.limits)
        let surface = try renderer.colourSurface(scene, width: size.width, height: size.height)
        let rgba = try DecodedPNG(renderer.encodeARGB(surface, channels: .rgba, metadata: PNGMetadata()))
        #expect(rgba.colorType == .rgba)
        #expect(grey.width == rgba.width && grey.height == rgba.height)
        #expect(grey.rgba == rgba.rgba)
        // Not a blank image: the line, the X, the text and the ink are there, in more than one grey.
        #expect(Set(stride(from: 0, to: rgba.rgba.count, by: 4).map { rgba.rgba[$0] }).count > 16)
    }

    /// A decorated image drawn a band of rows at a time is byte for byte the image drawn on one surface and encoded
    /// whole: greys with and without alpha, colour, text, a translucent group, scales and sizes whose height is no
    /// whole number of bands.
    @Test func decoratedImagesDrawnInBandsAreTheWholeImagesBytes() throws {
        let navy = Color(red: 0x1a, green: 0x23, blue: 0x7e)
        let options = [
            RenderOptions(decorations: Decorations(signatureLine: true, xMark: true)),
            RenderOptions(background: .white, decorations: Decorations(signatureLine: true)),
            RenderOptions(penColor: navy, background: Color(red: 250, green: 250, blue: 210, alpha: 128),
                          decorations: Decorations(xMark: true, lineColor: navy)),
            RenderOptions(scale: 2.3, decorations: Decorations(signatureLine: true, watermark: "Copy", timestamp: .iso8601)),
            RenderOptions(box: OutputSize(width: 1000, height: 123), opacity: 0.6,
                          decorations: Decorations(signatureLine: true, xMark: true, watermark: "Ωmega")),
        ]
        for sample in ["long-name", "dotted-i", "past-the-edge"] {
            let signature = try Fixtures.sample(sample)
            for o in options {
                let renderer = SignatureRenderer(options: o)
                let scene = Scene(signature, options: o)
                let size = try scene.layout.pixelSize(scale: o.scale, limits: renderer.limits)
                let channels = renderer.colourChannels(for: scene)
                let drawn = try renderer.colourPNGInBands(scene, width: size.width, height: size.height,
                                                          channels: channels, metadata: PNGMetadata(), stop: nil)
                let banded = try #require(drawn, "\(sample) \(o) was not drawn in bands")
                let whole = try renderer.encodeARGB(renderer.colourSurface(scene, width: size.width, height: size.height),
                                                    channels: channels, metadata: PNGMetadata())
                #expect(banded == whole, "\(sample) \(o)")
            }
        }
    }

    @Test func aTimestampWithoutACaptureTimeIsLeftOut() throws {
        var s = Fixtures.cross
        s.startTime = nil
        let o = RenderOptions(decorations: Decorations(timestamp: .iso8601))
        let p = try DecodedPNG(SignatureRenderer(options: o).png(s))
        #expect(p.colorType == .indexed)
        #expect(p.text["Creation Time"] == nil)
    }

    @Test func resolutionAndTextChunks() throws {
        let p = try DecodedPNG(SignatureRenderer(options: RenderOptions(scale: 2)).png(Fixtures.cross))
        #expect(abs((p.pixelsPerInch ?? 0) - 192) < 0.05)
        #expect(p.text["Software"] == "signature-ink")
        #expect(p.text["Creation Time"] == "2024-12-30T12:00:00Z")
        let q = try DecodedPNG(SignatureRenderer(options: RenderOptions(scale: 2, dpi: 300)).png(Fixtures.cross))
        #expect(abs((q.pixelsPerInch ?? 0) - 300) < 0.05)
        #expect(q.width == 200)
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let o = RenderOptions(decorations: Decorations(signatureLine: true, xMark: true, watermark: "VOID", timestamp: .iso8601))
        let s = try Fixtures.sample("long-name")
        #expect(try SignatureRenderer(options: o).png(s) == SignatureRenderer(options: o).png(s))
        #expect(try SignatureRenderer().png(s) == SignatureRenderer().png(s))
    }
}
