// SPDX-License-Identifier: Apache-2.0
import SignatureInk
@testable import SignatureInkRender
import Testing

/// The saved look: the whole signature at one opacity, so where strokes cross it is no darker.
@Suite struct ViewModeTests {
    let ink = Color(hex: "#1a237e")!

    func png(_ o: RenderOptions) throws -> DecodedPNG { try DecodedPNG(SignatureRenderer(options: o).png(Fixtures.cross)) }

    @Test func theCoveragePathScalesTheAlphaOnceAndOverlapsDoNotDarken() throws {
        let p = try png(RenderOptions(penColor: ink, penWidth: 4).viewMode())
        #expect(p.colorType == .indexed)
        let crossing = p.pixel(x: 50, y: 25), single = p.pixel(x: 30, y: 15)
        #expect(single.alpha == 128)
        #expect(crossing == single)
        #expect(crossing.red == ink.red && crossing.green == ink.green && crossing.blue == ink.blue)
    }

    @Test func theColourPathPaintsOneGroupAndOverlapsDoNotDarken() throws {
        // A signature line forces the ARGB path.
        let p = try png(RenderOptions(penColor: ink, penWidth: 4, opacity: 0.4,
                                      decorations: Decorations(signatureLine: true)))
        #expect(p.colorType == .rgba)
        let crossing = p.pixel(x: 50, y: 25), single = p.pixel(x: 30, y: 15)
        #expect(abs(Int(single.alpha) - 102) <= 1)
        #expect(crossing == single)
    }

    @Test func overAnOpaqueBackgroundTheInkIsBlendedOnce() throws {
        let p = try png(RenderOptions(penColor: .black, background: .white, penWidth: 4).viewMode(opacity: 0.5))
        #expect(p.pixel(x: 50, y: 25) == p.pixel(x: 30, y: 15))
        #expect(abs(Int(p.pixel(x: 30, y: 15).red) - 128) <= 1)
        #expect(p.pixel(x: 30, y: 15).alpha == 255)
        #expect(p.pixel(x: 2, y: 2) == .white)
    }

    @Test func aTranslucentPenDoesNotDarkenOverlapsEither() throws {
        let p = try png(RenderOptions(penColor: Color(red: 200, green: 0, blue: 0, alpha: 100), penWidth: 4))
        #expect(p.pixel(x: 50, y: 25) == p.pixel(x: 30, y: 15))
        #expect(p.pixel(x: 30, y: 15).alpha == 100)
    }

    @Test func zeroOpacityDrawsNothing() throws {
        let p = try png(RenderOptions(penWidth: 4).viewMode(opacity: 0))
        #expect(p.rgba.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [-0.1, 1.5, Double.nan])
    func opacityOutsideZeroToOneIsRefused(opacity: Double) {
        #expect(throws: RenderError.self) { try SignatureRenderer(options: RenderOptions(opacity: opacity)).png(Fixtures.cross) }
    }

    @Test func coverageAndColourPathsAgree() throws {
        // An invisible watermark (a space) sends the same ink down the ARGB path.
        for o in [RenderOptions(penColor: ink, penWidth: 3), RenderOptions(penColor: ink, background: Color(hex: "#fafad2")!, penWidth: 3).viewMode()] {
            let coverage = try png(o)
            var argb = o
            argb.decorations.watermark = " "
            let colour = try png(argb)
            #expect(coverage.colorType == .indexed && colour.colorType == .rgba)
            var worst = 0, inkA = 0, inkB = 0
            // Compared premultiplied: straight colour is imprecise where there is almost no alpha.
            for i in stride(from: 0, to: coverage.rgba.count, by: 4) {
                let a = Int(coverage.rgba[i + 3]), b = Int(colour.rgba[i + 3])
                var pixel = abs(a - b)
                for c in 0..<3 { pixel = max(pixel, abs(Int(coverage.rgba[i + c]) * a - Int(colour.rgba[i + c]) * b) / 255) }
                worst = max(worst, pixel)
                inkA += a
                inkB += b
            }
            // The coverage path computes each pixel's area exactly (AreaRasterizer), the colour path samples it
            // in fifteen sub-rows (Cairo): edge pixels differ by up to two sub-rows' coverage, and the ink's area
            // is the same.
            #expect(worst <= 2 * 255 / 15, "largest channel difference \(worst)")
            #expect(abs(inkA - inkB) * 200 < inkB, "ink \(inkA) vs \(inkB)")
        }
    }
}
