// SPDX-License-Identifier: Apache-2.0
import Testing
import SignatureInk
import SignatureInkRender

/// Every bound in ``RenderLimits`` is checked before a pixel is allocated, and odd signatures built through the
/// API (not finite, huge, empty) give a typed error or a correct image, never a crash.
@Suite struct RenderLimitsTests {
    /// One short stroke on a canvas of the given size.
    private func signature(canvas width: Double, _ height: Double) -> Signature {
        Signature(strokes: [[InkSample(x: 1, y: 1, t: 0), InkSample(x: 5, y: 3, t: 8)]],
                  canvas: Canvas(width: width, height: height))
    }

    private func renderError(_ signature: Signature, options: RenderOptions = RenderOptions(),
                             limits: RenderLimits = .default) -> RenderError? {
        do {
            _ = try SignatureRenderer(options: options, limits: limits).png(signature)
            return nil
        } catch {
            return error
        }
    }

    @Test func aHundredThousandSquareCanvasIsRefusedBeforeAllocation() {
        let huge = signature(canvas: 100_000, 100_000)
        // The side is refused by the layout, not by Cairo (which would say so in a `.cairo` error) or by an
        // allocation of 40 GB.
        #expect(renderError(huge) == .limitExceeded(what: "output side in pixels", limit: 32767, actual: 100_000))
        // With the side allowed, the pixel count is still refused before anything is allocated.
        #expect(renderError(huge, limits: RenderLimits(maxSide: 100_000))
                == .limitExceeded(what: "output pixels", limit: 64 << 20, actual: 10_000_000_000))
    }

    @Test func maxPixelsIsTheLargestImageRendered() throws {
        let square = signature(canvas: 1000, 1000)
        #expect(renderError(square, limits: RenderLimits(maxPixels: 999_999))
                == .limitExceeded(what: "output pixels", limit: 999_999, actual: 1_000_000))
        let png = try DecodedPNG(SignatureRenderer(limits: RenderLimits(maxPixels: 1_000_000)).png(square))
        #expect(png.width == 1000 && png.height == 1000)
    }

    @Test func maxSideIsTheLongestSideRendered() throws {
        let wide = signature(canvas: 2000, 10)
        #expect(renderError(wide, limits: RenderLimits(maxSide: 1999))
                == .limitExceeded(what: "output side in pixels", limit: 1999, actual: 2000))
        let png = try DecodedPNG(SignatureRenderer(limits: RenderLimits(maxSide: 2000)).png(wide))
        #expect(png.width == 2000 && png.height == 10)
    }

    @Test func theScaleCountsTowardsTheLimits() {
        let small = signature(canvas: 600, 300)
        #expect(renderError(small, options: RenderOptions(scale: 4), limits: RenderLimits(maxPixels: 600 * 300 * 16 - 1))
                == .limitExceeded(what: "output pixels", limit: 600 * 300 * 16 - 1, actual: 600 * 300 * 16))
        #expect(renderError(signature(canvas: 3000, 1500), options: RenderOptions(scale: 16))
                == .limitExceeded(what: "output side in pixels", limit: 32767, actual: 48000))
    }

    @Test(arguments: [16.000001, 17, 1e300, 0, -1, Double.nan, Double.infinity, -Double.infinity])
    func aScaleOutsideItsRangeIsAnInvalidOption(scale: Double) {
        guard case let .invalidOption(option, _) = renderError(signature(canvas: 10, 10), options: RenderOptions(scale: scale)) else {
            Issue.record("scale \(scale): expected an invalid option")
            return
        }
        #expect(option == "scale")
    }

    @Test func maxScaleIsConfigurable() throws {
        let small = signature(canvas: 10, 10)
        guard case .invalidOption = renderError(small, options: RenderOptions(scale: 3), limits: RenderLimits(maxScale: 2)) else {
            Issue.record("expected an invalid option")
            return
        }
        let png = try DecodedPNG(SignatureRenderer(options: RenderOptions(scale: 2), limits: RenderLimits(maxScale: 2)).png(small))
        #expect(png.width == 20 && png.height == 20)
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        #expect(RenderLimits.default.maxPixels == 64 << 20)
        #expect(RenderLimits.default.maxSide == 32767)
        #expect(RenderLimits.default.maxScale == 16)
    }

    @Test(arguments: [Double.infinity, 1e300, Double.greatestFiniteMagnitude])
    func aCanvasThatIsInfiniteOrHugeIsATypedError(size: Double) {
        for sig in [signature(canvas: size, 100), signature(canvas: 100, size)] {
            switch renderError(sig) {
            case .invalidOption?, .limitExceeded?: break
            case let other: Issue.record("canvas \(size): expected a typed error, got \(String(describing: other))")
            }
        }
    }

    @Test(arguments: [Double.nan, 0, -100])
    func aCanvasWithNoSizeIsATypedErrorOrASmallImage(size: Double) throws {
        // The decoders refuse such a canvas; one built through the API must not crash the renderer.
        for sig in [signature(canvas: size, 100), signature(canvas: 100, size)] {
            switch renderError(sig) {
            case .invalidOption?, .limitExceeded?: break
            case nil:
                let png = try DecodedPNG(SignatureRenderer().png(sig))
                #expect(png.width <= 100 && png.height <= 100)
            case let other?: Issue.record("canvas \(size): unexpected \(other)")
            }
        }
    }

    @Test(arguments: [Double.nan, Double.infinity, -Double.infinity, 1e300, -1e300])
    func samplesThatAreNotFiniteOrHugeNeverCrash(value: Double) throws {
        let strokes: [[InkSample]] = [
            [InkSample(x: 1, y: 1, t: 0), InkSample(x: value, y: 2, t: 8), InkSample(x: 3, y: 3, t: 16)],
            [InkSample(x: 4, y: value, t: 30)],
            [InkSample(x: 5, y: 5, t: value), InkSample(x: 6, y: 6, t: 50)],
        ]
        let onCanvas = Signature(strokes: strokes, canvas: Canvas(width: 100, height: 50))
        if let error = renderError(onCanvas) {
            #expect(!error.description.isEmpty)
        } else {
            let png = try DecodedPNG(SignatureRenderer().png(onCanvas))
            #expect(png.width == 100 && png.height == 50)
        }
        // Without a canvas the ink bounds decide the size: a typed error or a bounded image.
        let cropped = Signature(strokes: strokes)
        if renderError(cropped) == nil {
            let png = try DecodedPNG(SignatureRenderer().png(cropped))
            #expect(png.width <= RenderLimits.default.maxSide && png.height <= RenderLimits.default.maxSide)
        }
    }

    @Test(arguments: [Double.nan, Double.infinity, 1e300, 0, -100])
    func vectorOutputOfAnOddCanvasIsATypedErrorOrADocument(size: Double) {
        // SVG and PDF allocate no pixels; an odd canvas built through the API must still not crash them.
        for sig in [signature(canvas: size, 100), signature(canvas: 100, size)] {
            do {
                let svg = try SignatureRenderer().svg(sig)
                #expect(svg.hasPrefix("<svg"))
            } catch {
                #expect(!error.description.isEmpty)
            }
            do {
                let pdf = try SignatureRenderer().pdf(sig)
                #expect(pdf.starts(with: Array("%PDF-".utf8)))
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test(arguments: [Double.nan, Double.infinity, -1e300, 1e300])
    func anOddStartTimeFromTheAPIRendersWithoutADate(start: Double) throws {
        let sig = Signature(strokes: [[InkSample(x: 1, y: 1, t: 0), InkSample(x: 5, y: 3, t: 8)]],
                            canvas: Canvas(width: 20, height: 10), startTime: start)
        let png = try DecodedPNG(SignatureRenderer().png(sig))
        #expect(png.text["Creation Time"] == nil)
        #expect(try SignatureRenderer().pdf(sig).starts(with: Array("%PDF-".utf8)))
    }

    @Test func anEmptySignatureRendersABlankImage() throws {
        let onCanvas = try DecodedPNG(SignatureRenderer().png(Signature(canvas: Canvas(width: 300, height: 150))))
        #expect(onCanvas.width == 300 && onCanvas.height == 150)
        #expect(onCanvas.rgba.allSatisfy { $0 == 0 })
        let bare = try DecodedPNG(SignatureRenderer().png(Signature()))
        #expect(bare.width > 0 && bare.height > 0)
        #expect(bare.rgba.allSatisfy { $0 == 0 })
    }

    @Test func pressureOutsideZeroToOneFromTheAPIRenders() throws {
        let sig = Signature(strokes: [[InkSample(x: 1, y: 1, t: 0, pressure: -3), InkSample(x: 30, y: 20, t: 8, pressure: 40),
                                       InkSample(x: 60, y: 10, t: 16, pressure: .nan)]],
                            canvas: Canvas(width: 80, height: 40))
        let png = try DecodedPNG(SignatureRenderer().png(sig))
        #expect(png.width == 80 && png.height == 40)
        #expect(png.rgba.contains { $0 != 0 }, "the ink is drawn")
    }
}
