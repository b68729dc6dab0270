// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk
@testable import SignatureInkRender
import Testing

/// Filling only the ink's pixel bounds, shifted by whole pixels, gives the PNG that filling the whole image gives.
@Suite struct InkBoundsTests {
    static let optionSets: [RenderOptions] = [
        RenderOptions(), RenderOptions(scale: 2), RenderOptions(scale: 1.37), RenderOptions(scale: 0.5),
        RenderOptions(framing: .crop), RenderOptions(box: OutputSize(width: 300, height: 120), framing: .fit),
        RenderOptions(background: .white, opacity: 0.6),
    ]

    /// The PNG of `signature` filled over the whole image and filled within the ink's bounds.
    func bothWays(_ signature: Signature, _ options: RenderOptions) throws -> (whole: [UInt8], bounded: [UInt8]) {
        let renderer = SignatureRenderer(options: options)
        let scene = Scene(signature, options: options)
        let size = try scene.layout.pixelSize(scale: options.scale, limits: renderer.limits)
        let metadata = PNGMetadata(pixelsPerInch: 96, text: [("Software", "test")])
        return (try renderer.coveragePNG(scene, width: size.width, height: size.height, metadata: metadata,
                                         inkBoundsOnly: false),
                try renderer.coveragePNG(scene, width: size.width, height: size.height, metadata: metadata))
    }

    @Test(arguments: optionSets.indices)
    func randomSignaturesGiveTheSameBytes(optionSet: Int) throws {
        var random = SeededRandom(seed: 77 + UInt64(optionSet))
        for trial in 0..<25 {
            let signature = Signature.random(using: &random)
            let png = try bothWays(signature, Self.optionSets[optionSet])
            #expect(png.bounded == png.whole, "trial \(trial)")
        }
    }

    @Test func inkPartlyOrWhollyOffTheCanvasGivesTheSameBytes() throws {
        let canvas = Canvas(width: 200, height: 100)
        func stroke(from a: Point, to b: Point) -> [InkSample] {
            (0...20).map { i in
                let t = Double(i) / 20
                return InkSample(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, t: Double(i) * 10)
            }
        }
        let cases: [[[InkSample]]] = [
            [stroke(from: Point(-30, 50), to: Point(60, 50))],    // off the left edge
            [stroke(from: Point(150, -20), to: Point(250, 120))],  // across the top, right and bottom
            [stroke(from: Point(-50, -50), to: Point(-10, -20))],  // wholly outside: an empty image
            [stroke(from: Point(0.5, 0.5), to: Point(199.5, 99.5))],  // corner to corner
            [[InkSample(x: 100, y: 50, t: 0)]],                    // a dot
        ]
        for strokes in cases {
            for options in [RenderOptions(), RenderOptions(scale: 3), RenderOptions(scale: 0.75)] {
                let png = try bothWays(Signature(strokes: strokes, canvas: canvas), options)
                #expect(png.bounded == png.whole, "\(strokes.first?.first.map { "\($0.x),\($0.y)" } ?? "")")
            }
        }
        let empty = try bothWays(Signature(strokes: [], canvas: canvas), RenderOptions())
        #expect(empty.bounded == empty.whole)
    }

    @Test func theBoundsHoldEveryInkedPixel() throws {
        var random = SeededRandom(seed: 5)
        for _ in 0..<20 {
            let options = RenderOptions(scale: random.uniform(0.5...3))
            let scene = Scene(Signature.random(using: &random), options: options)
            let size = try scene.layout.pixelSize(scale: options.scale, limits: .default)
            let bounds = scene.ink.pixelBounds(scale: options.scale, width: size.width, height: size.height)
            let surface = try CairoSurface(image: .a8, width: size.width, height: size.height)
            let context = try CairoContext(surface: surface)
            context.scale(options.scale, options.scale)
            context.append(scene.ink.path)
            context.fillNonZero()
            let stride = surface.stride
            let outside = try surface.withPixels { pixels in
                (0..<size.height).reduce(0) { count, y in
                    count + (0..<size.width).filter { x in
                        pixels[y * stride + x] != 0
                            && !(bounds.x..<(bounds.x + bounds.width) ~= x && bounds.y..<(bounds.y + bounds.height) ~= y)
                    }.count
                }
            }
            #expect(outside == 0)
        }
    }

    @Test func theBoundsOfUnboundableInkAreTheWholeImage() {
        var path = Path()
        path.move(to: Point(10, 10))
        path.line(to: Point(.nan, 20))
        path.line(to: Point(30, 40))
        path.close()
        let nan = InkGeometry(path: path, strokeRanges: [0..<4])
        #expect(nan.pixelBounds(scale: 1, width: 50, height: 60) == (0, 0, 50, 60))
        var far = Path()
        far.move(to: Point(10, 10))
        far.line(to: Point(1e12, 20))
        far.line(to: Point(30, 40))
        far.close()
        #expect(InkGeometry(path: far, strokeRanges: [0..<4]).pixelBounds(scale: 1, width: 50, height: 60)
                == (0, 0, 50, 60))
        #expect(InkGeometry(path: Path(), strokeRanges: []).pixelBounds(scale: 1, width: 50, height: 60) == (0, 0, 0, 0))
    }
}
