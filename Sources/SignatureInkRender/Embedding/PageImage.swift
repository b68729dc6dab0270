// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// A page drawn as a PNG image, for a review screen that previews what a PDF page will show.
///
/// The same drawing code that fills a ``PDFDocument`` page fills the image: `draw` gets a ``CairoTarget`` whose
/// user space is in points, origin at the top left, so a composer draws a page once and sends it to either.
public enum PageImage {
    /// Draws a page into an image and returns it as a PNG (RGBA, with the resolution in its `pHYs` chunk).
    /// - Parameters:
    ///   - width: page width in points, > 0.
    ///   - height: page height in points, > 0.
    ///   - dpi: pixels per inch of the image, in `18...1200`; a point is `dpi / 72` pixels. Default 96.
    ///   - background: what the page is drawn over; default white, as paper.
    ///   - limits: the largest image allowed; default ``RenderLimits/default``.
    ///   - draw: draws the page.
    /// - Returns: the PNG file.
    /// - Throws: ``RenderError`` for a bad size or resolution, an image past `limits`, or what `draw` throws
    ///   (a ``RenderError``).
    public static func png(width: Double, height: Double, dpi: Double = 96, background: Color = .white,
                           limits: RenderLimits = .default,
                           draw: (CairoTarget) throws(RenderError) -> Void) throws(RenderError) -> [UInt8] {
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw .invalidOption(option: "page size", message: "\(width) x \(height) pt; both must be positive")
        }
        guard (18...1200).contains(dpi) else { throw .invalidOption(option: "dpi", message: "\(dpi) is outside 18...1200") }
        let scale = dpi / 72
        let pixelWidth = Int((width * scale).rounded(.up)), pixelHeight = Int((height * scale).rounded(.up))
        guard pixelWidth <= limits.maxSide, pixelHeight <= limits.maxSide else {
            throw .limitExceeded(what: "image side in pixels", limit: limits.maxSide, actual: Swift.max(pixelWidth, pixelHeight))
        }
        guard pixelWidth * pixelHeight <= limits.maxPixels else {
            throw .limitExceeded(what: "image pixels", limit: limits.maxPixels, actual: pixelWidth * pixelHeight)
        }
        let surface = try CairoSurface(image: .argb32, width: pixelWidth, height: pixelHeight)
        let context = try CairoContext(surface: surface)
        context.clear(to: background)
        context.scale(scale, scale)
        try draw(CairoTarget(context: context))
        try context.check()
        let metadata = PNGMetadata(pixelsPerInch: dpi, text: [("Software", SignatureRenderer.software)])
        return try SignatureRenderer().encodeARGB(surface, metadata: metadata)
    }
}
