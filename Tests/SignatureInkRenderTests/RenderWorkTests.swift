// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk
@testable import SignatureInkRender
import Testing

/// The work budget of a render (``RenderLimits/maxWork``), the outline's parts beyond the image collapsed
/// (``RasterFill``), and a render stopped through its ``RenderStop``.
@Suite struct RenderWorkTests {
    /// One stroke zigzagging across a 600 x 300 canvas, `samples` samples from side to side.
    static func zigzag(samples: Int) -> Signature {
        let stroke = (0..<samples).map { i -> InkSample in
            let x: Double = i % 2 == 0 ? 10 : 590
            let y: Double = 10 + 280 * Double(i) / Double(samples - 1)
            return InkSample(x: x, y: y, t: 4 * Double(i))
        }
        return Signature(strokes: [stroke], canvas: Canvas(width: 600, height: 300))
    }

    /// Coverage of `elements` filled into a `width` x `height` A8 image, each point at `p * scale + offset`.
    static func coverage(_ elements: ArraySlice<Path.Element>, width: Int, height: Int, scale: Double,
                         offset: Point) throws -> [UInt8] {
        let surface = try CairoSurface(image: .a8, width: width, height: height)
        let context = try CairoContext(surface: surface)
        context.setSource(.black)
        context.append(elements, scale: scale, offset: offset)
        context.fillNonZero()
        try context.check()
        return try surface.withPixels { Array($0) }
    }

    @Test(arguments: [(pen: 1000.0, scale: 1.0), (pen: 300, scale: 0.5), (pen: 40, scale: 2), (pen: 5, scale: 1)])
    func collapsingWhatLiesBeyondTheImageKeepsTheCoverage(pen: Double, scale: Double) throws {
        // The ink drawn into a window that cuts through it on every side, so runs lie beyond each side and
        // curves pass round the corners.
        let scene = Scene(Self.zigzag(samples: 40), options: RenderOptions(penWidth: pen))
        let elements = scene.ink.path.elements[...]
        let offset = Point(-150 * scale, -60 * scale)
        let window = RasterWindow(width: Int(300 * scale), height: Int(180 * scale), scale: scale, offset: offset,
                                  tolerance: RasterWindow.cairoTolerance)
        let fill = window.fill(elements)
        let uncollapsed = RasterCost(elements, scale: scale, offset: offset, width: window.width, height: window.height,
                                     tolerance: window.tolerance)
        if pen >= 40 { #expect(fill.cost.edges < uncollapsed.edges) }
        let whole = try Self.coverage(elements, width: window.width, height: window.height, scale: scale, offset: offset)
        let collapsed = try Self.coverage(fill.elements, width: window.width, height: window.height, scale: scale,
                                          offset: offset)
        let differing = whole.indices.filter { whole[$0] != collapsed[$0] }
        let largest = differing.map { abs(Int(whole[$0]) - Int(collapsed[$0])) }.max() ?? 0
        // Rows whose collapsed edges no longer end inside them are computed exactly by Cairo instead of in fifteen
        // sub-rows: a pixel may move by one sub-row's coverage, never more.
        #expect(largest <= 255 / 15, "\(differing.count) of \(whole.count) pixels differ, by up to \(largest) levels")
        #expect(differing.count * 50 < whole.count)
        #expect(whole.contains { $0 != 0 })
    }

    @Test func aThickPenOverAZigzagCostsWhatLiesInTheImage() {
        // A pen far wider than the canvas: its arcs lie almost wholly beyond the image, and are collapsed.
        let scene = Scene(Self.zigzag(samples: 400), options: RenderOptions(scale: 4, penWidth: 1000))
        let window = RasterWindow(width: 2400, height: 1200, scale: 4, offset: .zero, tolerance: RasterWindow.cairoTolerance)
        let collapsed = window.fill(scene.ink.path.elements[...]).cost
        let whole = RasterCost(scene.ink.path.elements[...], scale: 4, offset: .zero, width: 2400, height: 1200,
                               tolerance: RasterWindow.cairoTolerance)
        #expect(collapsed.edges * 10 < whole.edges)
        #expect(collapsed.work < whole.work)
    }

    @Test func theBudgetRefusesACostlyRenderBeforeAllocatingAndNamesTheKnobs() throws {
        let signature = Self.zigzag(samples: 400)
        let thick = SignatureRenderer(options: RenderOptions(scale: 4, penWidth: 200), limits: RenderLimits(maxWork: 1 << 24))
        let error = #expect(throws: RenderError.self) { try thick.png(signature) }
        guard case let .overBudget(work, budget, pixels, pixelWork, edges, edgeRows)? = error else {
            Issue.record("expected overBudget, got \(String(describing: error))")
            return
        }
        #expect(budget == 1 << 24 && work > budget && pixels == 2400 * 1200 && pixelWork == pixels && edges > 0 && edgeRows > 0)
        #expect(error?.description.contains("pen-width") == true)
        // The same ink with a thin pen costs its pixels and little more: it is drawn.
        let thin = SignatureRenderer(options: RenderOptions(scale: 4, penWidth: 2), limits: RenderLimits(maxWork: 1 << 24))
        #expect(try DecodedPNG(thin.png(signature)).width == 2400)
        // A large image of thin ink is refused for its pixels, and the message asks for a smaller image.
        let largeRenderer = SignatureRenderer(options: RenderOptions(scale: 16, penWidth: 2),
                                              limits: RenderLimits(maxWork: 1 << 24))
        let large = #expect(throws: RenderError.self) { try largeRenderer.png(signature) }
        #expect(large?.description.contains("smaller scale") == true)
        #expect(large?.description.contains("pen-width") == false)
    }

    @Test func colourPixelsCostMoreThanCoverage() throws {
        let signature = Self.zigzag(samples: 10)
        let limits = RenderLimits(maxWork: 600 * 300 * 4)
        // Coverage: drawn. With a signature line the image is colour (ARGB), sixteen units a pixel: refused.
        _ = try SignatureRenderer(options: RenderOptions(penWidth: 2), limits: limits).png(signature)
        var lined = RenderOptions(penWidth: 2)
        lined.decorations.signatureLine = true
        #expect(throws: RenderError.self) { try SignatureRenderer(options: lined, limits: limits).png(signature) }
    }

    @Test func aStoppedRenderThrowsWithItsReason() {
        let stop = RenderStop()
        stop.stop(.deadline)
        stop.stop(.clientGone)
        #expect(stop.reason == .deadline)
        #expect(throws: RenderError.stopped(.deadline)) { try SignatureRenderer().png(Self.zigzag(samples: 10), stop: stop) }
    }

    @Test func aRenderPastItsDeadlineStopsByItself() {
        let late = RenderStop(deadline: .now - .seconds(1))
        #expect(late.reason == .deadline)
        #expect(throws: RenderError.stopped(.deadline)) { try SignatureRenderer().png(Self.zigzag(samples: 10), stop: late) }
        let early = RenderStop(deadline: .now + .seconds(3600))
        #expect(early.reason == nil)
        #expect(throws: Never.self) { try SignatureRenderer().png(Self.zigzag(samples: 10), stop: early) }
    }

    @Test func aRenderThatMayBeStoppedGivesTheSamePNG() throws {
        let renderer = SignatureRenderer(options: RenderOptions(scale: 2, penWidth: 30))
        let scene = Scene(Self.zigzag(samples: 60), options: renderer.options)
        let metadata = PNGMetadata(pixelsPerInch: 192, text: [])
        let whole = try renderer.coveragePNG(scene, width: 1200, height: 600, metadata: metadata)
        let stoppable = try renderer.coveragePNG(scene, width: 1200, height: 600, metadata: metadata, stop: RenderStop())
        #expect(stoppable == whole)
    }

    @Test(arguments: [(pen: 1000.0, scale: 1.0), (pen: 40, scale: 2)])
    func collapsingKeepsTheCoveragePNGsCoverage(pen: Double, scale: Double) throws {
        // The coverage PNG's own rasterizer computes areas exactly: collapsing changes nothing but rounding.
        let scene = Scene(Self.zigzag(samples: 40), options: RenderOptions(penWidth: pen))
        let elements = scene.ink.path.elements[...]
        let offset = Point(-150 * scale, -60 * scale)
        let width = Int(300 * scale), height = Int(180 * scale)
        let window = RasterWindow(width: width, height: height, scale: scale, offset: offset,
                                  tolerance: RasterWindow.cairoTolerance)
        func coverage(_ elements: ArraySlice<Path.Element>) throws -> [UInt8] {
            var image = [UInt8](repeating: 0, count: width * height)
            var rasterizer = AreaRasterizer(width: width, height: height)
            rasterizer.add(elements, scale: scale, offset: offset, tolerance: window.tolerance)
            try image.withUnsafeMutableBufferPointer {
                try rasterizer.fill(into: $0.baseAddress!, stride: width, blend: .over(alpha: 255))
            }
            return image
        }
        let whole = try coverage(elements), collapsed = try coverage(window.fill(elements).elements)
        let largest = zip(whole, collapsed).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1)
        #expect(whole.contains(255))
    }
}
