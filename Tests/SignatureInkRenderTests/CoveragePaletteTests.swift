// SPDX-License-Identifier: Apache-2.0
import SignatureInk
@testable import SignatureInkRender
import Testing

@Suite struct CoveragePaletteTests {
    static let cases: [(ink: Color, background: Color, opacity: Double)] = [
        (.black, .clear, 1),
        (Color(hex: "#1a237e")!, .clear, 1),
        (Color(hex: "#1a237e")!, .white, 1),
        (Color(hex: "#ff000080")!, Color(hex: "#fafad2")!, 1),
        (Color(hex: "#00ff0080")!, Color(hex: "#0000ff40")!, 1),
        (Color(hex: "#1a237e")!, .white, 0.5),
        (Color(hex: "#3366cc")!, .clear, 0.3),
    ]

    /// A 256 x 1 image whose pixel `x` has coverage `x`.
    static let ramp = ByteImage("ramp", width: 256, height: 1) { x, _ in UInt8(x) }

    @Test(arguments: cases.indices)
    func everyCoverageDecodesToInkOverBackground(index: Int) throws {
        let (ink, background, opacity) = Self.cases[index]
        let palette = CoveragePNGEncoder.palette(ink: ink, background: background, opacity: opacity)
        #expect(palette.count == 256)
        let decoded = try DecodedPNG(encode(Self.ramp, palette: palette))
        for i in 0..<256 {
            let c = decoded.pixel(x: i, y: 0)
            #expect(c == palette[i], "coverage \(i)")
            // Independent check of the compositing, in integers: alpha of ink over background, scaled.
            let inkAlpha = Double(ink.alpha) * Double(i) / 255
            let alpha = inkAlpha + Double(background.alpha) * (1 - inkAlpha / 255)
            #expect(abs(Double(c.alpha) - alpha * opacity) <= 0.5 + 1e-9, "alpha at coverage \(i)")
        }
        if opacity == 1 {
            #expect(decoded.pixel(x: 0, y: 0) == (background.alpha == 0 ? .clear : background))
            if ink.alpha == 255 { #expect(decoded.pixel(x: 255, y: 0) == ink) }
        }
        if background.alpha == 0 {
            // Over nothing, every visible entry is the ink's own colour.
            for i in 1..<256 where palette[i].alpha > 0 {
                #expect(palette[i].red == ink.red && palette[i].green == ink.green && palette[i].blue == ink.blue)
            }
        }
    }

    @Test func opaqueBackgroundsNeedNoAlphaTable() throws {
        let palette = CoveragePNGEncoder.palette(ink: .black, background: .white)
        #expect(palette.allSatisfy { $0.alpha == 255 })
        #expect(palette[128] == Color(red: 127, green: 127, blue: 127))  // 255 * (1 - 128/255) = 127
        let png = try encode(Self.ramp, palette: palette)
        #expect(png.firstRange(of: Array("tRNS".utf8)) == nil)
    }

    @Test func opacityOutsideZeroToOneIsClamped() {
        let ink = Color(hex: "#1a237e")!
        #expect(CoveragePNGEncoder.palette(ink: ink, opacity: 7) == CoveragePNGEncoder.palette(ink: ink))
        #expect(CoveragePNGEncoder.palette(ink: ink, opacity: .nan) == CoveragePNGEncoder.palette(ink: ink))
        #expect(CoveragePNGEncoder.palette(ink: ink, background: .white, opacity: -1).allSatisfy { $0 == .clear })
    }

    /// The palette shows what Cairo's own ARGB32 path shows for the same coverage, after un-premultiplying,
    /// within that path's 8-bit rounding.
    @Test(arguments: cases.indices.filter { cases[$0].opacity == 1 })
    func matchesCairoARGB32Compositing(index: Int) throws {
        let (ink, background, _) = Self.cases[index]
        let palette = CoveragePNGEncoder.palette(ink: ink, background: background)
        let surface = try CairoSurface(image: .argb32, width: 256, height: 1)
        let context = try CairoContext(surface: surface)
        context.clear(to: background)
        for i in 0..<256 {
            context.save()
            context.rectangle(Rect(x: Double(i), y: 0, width: 1, height: 1))
            context.clip()
            context.pushGroup()
            context.clear(to: ink)
            context.popGroupAndPaint(alpha: Double(i) / 255)
            context.restore()
        }
        try context.check()
        var rgba = [UInt8](repeating: 0, count: 256 * 4)
        try surface.withPixels { src in
            Unpremultiply.argb32(src, stride: surface.stride, width: 256, height: 1, into: &rgba)
        }
        for i in 0..<256 {
            let cairo = Color(red: rgba[4 * i], green: rgba[4 * i + 1], blue: rgba[4 * i + 2], alpha: rgba[4 * i + 3])
            let ours = palette[i]
            #expect(abs(Int(cairo.alpha) - Int(ours.alpha)) <= 1, "alpha at coverage \(i): \(cairo) vs \(ours)")
            guard ours.alpha > 0, cairo.alpha > 0 else { continue }
            // Premultiplied 8-bit storage loses up to 255 / (2 * alpha) per channel, plus one for rounding.
            let tolerance = 255 / (2 * Int(min(cairo.alpha, ours.alpha))) + 2
            for (a, b) in [(cairo.red, ours.red), (cairo.green, ours.green), (cairo.blue, ours.blue)] {
                #expect(abs(Int(a) - Int(b)) <= tolerance, "coverage \(i): \(cairo) vs \(ours)")
            }
        }
    }

    /// An encoder keeps the last palette it made: every call, in any order of colours and on a copy of the
    /// encoder too, answers what the palette function gives for those colours.
    @Test func anEncodersKeptPaletteIsTheOneForItsColours() {
        var encoder = CoveragePNGEncoder()
        let calls = Self.cases.map { ($0.ink, $0.background) } + Self.cases.reversed().map { ($0.ink, $0.background) }
        for (ink, background) in calls + calls {
            #expect(encoder.palette(ink: ink, background: background)
                    == CoveragePNGEncoder.palette(ink: ink, background: background))
            var copy = encoder
            #expect(copy.palette(ink: background, background: ink)
                    == CoveragePNGEncoder.palette(ink: background, background: ink))
            #expect(encoder.palette(ink: ink, background: background)
                    == CoveragePNGEncoder.palette(ink: ink, background: background))
        }
    }
}
