// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// The ink of a colour image drawn a band of rows at a time (``SignatureRenderer``'s decorated PNGs): for each of a
/// scene's fills, the coverage of its pixels filled by ``AreaRasterizer`` as the bands come, into an A8 mask one band
/// high, and painted through it as ``Scene/draw(on:raster:bands:texts:)`` paints the whole fill's coverage. The
/// coverage of every pixel is the whole fill's, so the image is the same.
final class BandedInk {
    /// One fill: its rasterizer over the fill's pixel box, from the top of the rasterizer's band that holds the
    /// box's first row (so that the image's bands end where the rasterizer's do), its sweep, its sums and its mask.
    private struct Part {
        var rasterizer: AreaRasterizer
        let sweep: AreaRasterizer.Sweep
        let sums: AreaRasterizer.Sums
        let mask: CairoSurface
        /// The box's first column, the rasterizer's first row, and the rows below it to the box's last.
        let x: Int, y: Int, height: Int
    }

    /// Each fill's part, `nil` for a fill whose ink lies beyond the image.
    private var parts: [Part?]
    /// The rows of the image being drawn: set before each band, top to bottom.
    var band: Range<Int> = 0..<0

    /// Prepares `fills` (a scene's ``Scene/inkFills`` prepared for `window`) to be drawn in bands of `bandRows`
    /// rows, a multiple of ``AreaRasterizer/bandRows``.
    init(_ fills: [RasterFill], window: RasterWindow, bandRows: Int) throws(RenderError) {
        precondition(bandRows > 0 && bandRows % AreaRasterizer.bandRows == 0, "bands of \(bandRows) rows")
        parts = []
        for fill in fills {
            let cost = fill.cost
            let box = InkGeometry.pixelBounds(minX: cost.minX, minY: cost.minY, maxX: cost.maxX, maxY: cost.maxY,
                                              width: window.width, height: window.height)
            guard box.width > 0, box.height > 0 else {
                parts.append(nil)
                continue
            }
            let top = box.y / AreaRasterizer.bandRows * AreaRasterizer.bandRows
            let height = box.y + box.height - top
            var rasterizer = AreaRasterizer(width: box.width, height: height, edges: cost.edges)
            rasterizer.add(fill.elements, scale: window.scale,
                           offset: Point(window.offset.x - Double(box.x), window.offset.y - Double(top)),
                           tolerance: Scene.coverageTolerance)
            // A new image surface is cleared to 0; each band clears the rows it wrote.
            let mask = try CairoSurface(image: .a8, width: box.width, height: Swift.min(bandRows, height))
            parts.append(Part(rasterizer: rasterizer, sweep: AreaRasterizer.Sweep(rasterizer),
                              sums: AreaRasterizer.Sums(width: box.width), mask: mask, x: box.x, y: top,
                              height: height))
        }
    }

    /// Fills fill `i`'s coverage for the rows of ``band`` and paints the context's source through it, onto a surface
    /// whose first row is the band's.
    func paint(_ i: Int, on context: CairoContext) throws(RenderError) {
        guard let part = parts[i] else { return }
        let first = Swift.max(band.lowerBound, part.y), last = Swift.min(band.upperBound, part.y + part.height)
        guard first < last else { return }
        let stride = part.mask.stride
        let written = try part.mask.withMutablePixels { (pixels) throws(RenderError) -> Range<Int> in
            try part.rasterizer.fill(part.sweep, sums: part.sums, until: last - part.y,
                                     into: pixels.assumingMemoryBound(to: UInt8.self), firstRow: first - part.y,
                                     stride: stride, blend: .over(alpha: 255), blank: true)
        }
        guard !written.isEmpty else { return }
        context.mask(part.mask, atPixelX: part.x, y: first - band.lowerBound)
        // The rows written are cleared for the next band: blank fills write into zeros.
        try part.mask.withMutablePixels { (pixels) throws(RenderError) in
            let from = written.lowerBound - (first - part.y)
            (pixels + from * stride).initializeMemory(as: UInt8.self, repeating: 0, count: written.count * stride)
        }
    }
}
