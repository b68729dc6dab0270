// SPDX-License-Identifier: Apache-2.0
public import SignatureInk
import CHeap

/// Renders signatures to PNG, SVG and PDF through one geometry, so the three outputs agree.
///
/// ```swift
/// let renderer = SignatureRenderer(options: RenderOptions(scale: 2, penColor: Color(hex: "#1a237e")!))
/// let png: [UInt8] = try renderer.png(signature)
/// let svg: String = try renderer.svg(signature)
/// let pdf: [UInt8] = try renderer.pdf(signature)
/// ```
///
/// Every output is deterministic: the same signature and options give byte-identical files. Times written
/// into them (the PNG `Creation Time`, the PDF dates, the timestamp decoration) come from the signature's
/// `startTime`, never from the clock.
public struct SignatureRenderer: Sendable {
    /// How signatures are drawn.
    public var options: RenderOptions
    /// Bounds checked before any pixel is allocated.
    public var limits: RenderLimits

    /// The `Software` text written into PNG and the creator written into PDF.
    public static let software = "signature-ink"

    /// The engine's version, as `signature-ink --version` prints it. It is not written into output files, so that
    /// files stay the same from one version to the next when their content does.
    public static let version = "0.9.0"

    /// Creates a renderer.
    /// - Parameters:
    ///   - options: how signatures are drawn, default ``RenderOptions/init(scale:penColor:background:penStyle:penWidth:padding:box:framing:opacity:decorations:dpi:)``.
    ///   - limits: bounds on the output, default ``RenderLimits/default``.
    public init(options: RenderOptions = RenderOptions(), limits: RenderLimits = .default) {
        self.options = options
        self.limits = limits
    }

    /// The output resolution in pixels per inch: ``RenderOptions/dpi``, else the canvas's units per inch (96
    /// without a canvas) times the scale.
    func pixelsPerInch(for signature: Signature) -> Double {
        options.dpi ?? (signature.canvas?.unitsPerInch ?? Canvas.cssPixelsPerInch) * options.scale
    }

    /// The capture time as ISO 8601, or `nil` when the signature has none.
    static func captureTime(of signature: Signature) -> String? {
        signature.startTime.flatMap { TimestampFormat.iso8601.string(millisecondsSince1970: $0) }
    }

    // MARK: PNG

    /// Renders `signature` and encodes it as a PNG.
    ///
    /// One ink colour (erasers included, which only take coverage away) with no decorations is drawn as coverage
    /// (one byte a pixel: the pixel's area inside the outline) and written as an indexed PNG whose palette blends
    /// the ink, at its opacity, over the background; anything else is drawn by Cairo as ARGB32, un-premultiplied
    /// and written as RGBA, or as grey and alpha when every colour painted is a grey (grey alone when the
    /// background is opaque). Both are filled or drawn and encoded a band of rows at a time, so that a render holds
    /// about 64 KiB of coverage or 128 KiB of colour, whatever the image's size.
    ///
    /// Its cost is estimated before any pixel is allocated, and a render above ``RenderLimits/maxWork`` is refused.
    /// - Parameters:
    ///   - signature: the signature to draw.
    ///   - stop: a switch that stops the render between its steps (and between the bands of a large fill), or
    ///     `nil`.
    /// - Returns: the bytes of a PNG file, 8 bits a channel, with a `pHYs` chunk for the resolution, a `Software`
    ///   text and, when the capture time is known, a `Creation Time` text in ISO 8601.
    /// - Throws: ``RenderError`` when an option or limit is out of range, the render would cost more than the
    ///   budget, it was stopped, or Cairo or libpng fails.
    public func png(_ signature: Signature, stop: RenderStop? = nil) throws(RenderError) -> [UInt8] {
        try options.validate(limits: limits)
        try stop?.check()
        let scene = Scene(signature, options: options)
        let size = try scene.layout.pixelSize(scale: options.scale, limits: limits)
        try stop?.check()
        var text: [(key: String, value: String)] = [("Software", Self.software)]
        if let time = Self.captureTime(of: signature) { text.append(("Creation Time", time)) }
        let metadata = PNGMetadata(pixelsPerInch: pixelsPerInch(for: signature), text: text)
        if scene.isInkOnly {
            return try coveragePNG(scene, width: size.width, height: size.height, metadata: metadata, stop: stop)
        }
        let channels = colourChannels(for: scene)
        // The fills are prepared and their cost checked once, for the bands or, failing them, the whole image.
        let prepared = try colourFills(scene, width: size.width, height: size.height)
        if let png = try colourPNGInBands(scene, width: size.width, height: size.height, channels: channels,
                                          metadata: metadata, stop: stop, prepared: prepared) {
            return png
        }
        let surface = try colourSurface(scene, width: size.width, height: size.height, prepared: prepared)
        try stop?.check()
        return try encodeARGB(surface, channels: channels, metadata: metadata)
    }

    /// The channels a colour image of `scene` is written in: grey alone when every colour painted is a grey and the
    /// background is opaque, grey and alpha when the colours are greys, RGBA otherwise.
    func colourChannels(for scene: Scene) -> CoveragePNGEncoder.Channels {
        !scene.paintsGreysOnly ? .rgba : options.background.alpha == 255 ? .grey : .greyAlpha
    }

    /// Most ink fills a colour image is drawn in bands for (``colourPNGInBands(_:width:height:channels:metadata:stop:prepared:)``):
    /// each fill keeps a rasterizer and a mask one band high while the bands are drawn. More (translucent
    /// signature_pad ink is filled curve by curve) are drawn on one surface of the whole image.
    static let bandedFillLimit = 8

    /// Rows of an image filled or drawn and encoded together: about `bytes` of rows of `rowBytes` each, a whole
    /// number of the rasterizer's bands (``AreaRasterizer/bandRows``), at least one. Coverage takes 64 KiB at a time,
    /// ARGB32 colour 128 KiB.
    static func bandRows(bytes: Int, rowBytes: Int) -> Int {
        let bands = Swift.max(1, bytes / Swift.max(1, rowBytes) / AreaRasterizer.bandRows)
        return bands * AreaRasterizer.bandRows
    }

    /// Draws `scene` with Cairo a band of rows at a time, on one ARGB32 surface a band high, and encodes each band as
    /// it is drawn: the bytes of ``colourSurface(_:width:height:prepared:)`` encoded by ``encodeARGB(_:channels:metadata:)``,
    /// without a surface of the whole image. A new process takes a page fault for every 4 KiB it first writes (about
    /// 2 us each on this kind of machine), and that surface was 720 KB at 600 x 300.
    /// - Parameter prepared: the scene's fills as ``colourFills(_:width:height:)`` prepares them, when the caller has
    ///   them already.
    /// - Returns: the PNG, or `nil` when the scene has more than ``bandedFillLimit`` fills or the image would be stored
    ///   rather than compressed (noise): the caller then draws the whole image.
    func colourPNGInBands(_ scene: Scene, width: Int, height: Int, channels: CoveragePNGEncoder.Channels,
                          metadata: PNGMetadata, stop: RenderStop?,
                          prepared: (fills: [RasterFill], window: RasterWindow)? = nil) throws(RenderError) -> [UInt8]? {
        let (fills, window) = if let prepared { prepared } else { try colourFills(scene, width: width, height: height) }
        guard fills.count <= Self.bandedFillLimit else { return nil }
        let bandRows = Self.bandRows(bytes: 131_072, rowBytes: 4 * width)
        let surface = try CairoSurface(image: .argb32, width: width, height: Swift.min(bandRows, height))
        let context = try CairoContext(surface: surface)
        let ink = try BandedInk(fills, window: window, bandRows: bandRows)
        // The texts are shaped once, for every band.
        let texts = try scene.decorationTexts()
        let stride = surface.stride, rowBytes = width * channels.rawValue
        return try EncoderPool.shared.withEncoder(pixels: width * height * channels.rawValue) { (encoder) throws(RenderError) in
            try encoder.encode(width: width, height: height, channels: channels,
                               metadata: metadata) { (planner) throws(RenderError) in
                var top = 0
                while top < height {
                    try stop?.check()
                    let rows = Swift.min(bandRows, height - top)
                    ink.band = top..<(top + rows)
                    // Every pixel of the band is set: the rows before were converted in place.
                    context.clear(to: options.background)
                    context.save()
                    context.translate(0, -Double(top))
                    context.scale(options.scale, options.scale)
                    try scene.draw(on: context, bands: ink, texts: texts)
                    context.restore()
                    try context.check()
                    try surface.withMutablePixels { (pixels) throws(RenderError) in
                        Unpremultiply.convert(pixels, stride: stride, width: width, height: rows, to: channels,
                                              into: pixels)
                        planner.add(rows: pixels.assumingMemoryBound(to: UInt8.self), count: rows, stride: rowBytes)
                    }
                    top += rows
                }
            }
        }
    }

    /// The scene's ink fills prepared for a colour image of `width` x `height` pixels, and the window they were
    /// prepared for, once their cost and the image's are checked against ``RenderLimits/maxWork``.
    private func colourFills(_ scene: Scene, width: Int, height: Int) throws(RenderError)
        -> (fills: [RasterFill], window: RasterWindow) {
        let window = RasterWindow(width: width, height: height, scale: options.scale, offset: .zero,
                                  tolerance: Scene.coverageTolerance)
        let fills = scene.inkFills.map { window.fill($0.elements) }
        try limits.checkWork(pixels: width * height, colour: true, fill: fills.reduce(RasterCost()) { $0 + $1.cost })
        return (fills, window)
    }

    /// Draws `scene` with Cairo on an ARGB32 image of `width` x `height` pixels over the background, after checking
    /// the cost of its fills against ``RenderLimits/maxWork``.
    /// - Parameter prepared: the scene's fills as ``colourFills(_:width:height:)`` prepares them, when the caller has
    ///   them already.
    func colourSurface(_ scene: Scene, width: Int, height: Int,
                       prepared: (fills: [RasterFill], window: RasterWindow)? = nil) throws(RenderError) -> CairoSurface {
        let (fills, window) = if let prepared { prepared } else { try colourFills(scene, width: width, height: height) }
        let surface = try CairoSurface(image: .argb32, width: width, height: height)
        if options.background.alpha == 0 {
            // A new surface is transparent, in fresh pages that are mapped on first use: the first drawing over one
            // read it (a page fault) and then wrote it (another). Written once first, each page faults once: 681 ->
            // 514 page faults, for a 600 x 300 render with a signature line and an "X" (3.5 % less time).
            try surface.withMutablePixels { (pixels) throws(RenderError) in
                _ = pixels.initializeMemory(as: UInt8.self, repeating: 0, count: surface.stride * height)
            }
        }
        let context = try CairoContext(surface: surface)
        context.clear(to: options.background)
        context.scale(options.scale, options.scale)
        try scene.draw(on: context, raster: (fills, window))
        try context.check()
        return surface
    }

    /// Fills the ink as coverage (one byte a pixel, by ``AreaRasterizer``) and writes it as an indexed PNG.
    ///
    /// Only the ink's pixel bounds are filled: the coverage covers them alone, shifted by whole pixels, and the
    /// encoder writes the empty rows and margins around them as runs of zeros without reading any.
    /// - Parameters:
    ///   - inkBoundsOnly: `false` fills the whole image instead (for tests), default `true`; the PNG is the same.
    ///   - stop: the render's switch, looked at between fills and between bands of rows, or `nil`.
    func coveragePNG(_ scene: Scene, width: Int, height: Int, metadata: PNGMetadata, inkBoundsOnly: Bool = true,
                     stop: RenderStop? = nil) throws(RenderError) -> [UInt8] {
        // The opacity fades the ink, not the background: the same as painting the ink as one group.
        // Ink filled in several fills (signature_pad's curves) builds up where they overlap: each fill goes in at
        // the ink's own opacity, and the palette maps the built-up coverage to the opaque colour.
        // Erasers take coverage away in drawing order, so ink with erasers is filled run by run too.
        let layered = !scene.ink.fillBreaks.isEmpty || scene.ink.erases
        var inkColor = scene.inkColor
        let fillAlpha = inkColor.alpha
        if layered { inkColor.alpha = 255 }
        let ink = inkColor.withOpacity(options.opacity), background = options.background
        let pixels = width * height
        // Every fill is prepared, and its cost checked, before any pixel is allocated; the pass that measures
        // the cost also measures the ink's extent, which gives the window.
        let image = RasterWindow(width: width, height: height, scale: options.scale, offset: .zero,
                                 tolerance: Scene.coverageTolerance)
        let fills: [(fill: RasterFill, alpha: UInt8, erases: Bool)]
        if layered {
            fills = scene.ink.paints.flatMap { run in
                // An eraser removes coverage in proportion to its own opacity (canvas `destination-out`).
                scene.ink.fills(of: run).map {
                    (image.fill(scene.ink.path.elements[$0]), run.blend == .erase ? run.color.alpha : fillAlpha,
                     run.blend == .erase)
                }
            }
        } else {
            fills = [(image.fill(scene.ink.path.elements[...]), 255, false)]
        }
        let cost = fills.reduce(RasterCost()) { $0 + $1.fill.cost }
        try limits.checkWork(pixels: pixels, fill: cost)
        let window = inkBoundsOnly
            ? InkGeometry.pixelBounds(minX: cost.minX, minY: cost.minY, maxX: cost.maxX, maxY: cost.maxY,
                                      width: width, height: height)
            : (x: 0, y: 0, width: width, height: height)
        guard window.width > 0, window.height > 0 else {
            // No ink in the image: nothing to draw.
            return try EncoderPool.shared.withEncoder(pixels: pixels) { (encoder) throws(RenderError) in
                let palette = encoder.palette(ink: ink, background: background)
                return try encoder.encode(ByteRows.blank(width: width, height: height), palette: palette,
                                          metadata: metadata)
            }
        }
        // The path is placed in the window's pixels as it is handed over; the context's matrix stays the identity.
        let raster = RasterWindow(width: window.width, height: window.height, scale: options.scale,
                                  offset: Point(-Double(window.x), -Double(window.y)), tolerance: Scene.coverageTolerance)
        var rasterizers: [(rasterizer: AreaRasterizer, blend: AreaRasterizer.Blend)] = []
        for (fill, alpha, erases) in fills {
            var rasterizer = AreaRasterizer(width: window.width, height: window.height, edges: fill.cost.edges)
            rasterizer.add(fill.elements, scale: raster.scale, offset: raster.offset, tolerance: raster.tolerance)
            rasterizers.append((rasterizer, erases ? .erase(alpha: alpha) : .over(alpha: alpha)))
        }
        try stop?.check()
        // The coverage is filled and encoded a band of rows at a time, every fill in turn over each band: the
        // memory a 1,200 x 600 image would take (one page fault for every 4 KiB first written, about 2 us each on
        // this kind of machine) is one band's, used again and again while it is in the cache.
        let bandRows = Self.bandRows(bytes: 65_536, rowBytes: window.width)
        guard let memory = malloc(bandRows * window.width) else {
            throw .png("no memory for \(bandRows) rows of \(window.width) coverage bytes")
        }
        defer { free(memory) }
        let band = memory.assumingMemoryBound(to: UInt8.self)
        let sweeps = rasterizers.map { AreaRasterizer.Sweep($0.rasterizer) }
        let sums = AreaRasterizer.Sums(width: window.width)
        let banded = try EncoderPool.shared.withEncoder(pixels: pixels) { (encoder) throws(RenderError) in
            let palette = encoder.palette(ink: ink, background: background)
            return try encoder.encode(width: width, height: height, window: window, palette: palette,
                                      metadata: metadata) { (planner) throws(RenderError) in
                var top = 0
                while top < window.height {
                    try stop?.check()
                    let end = Swift.min(window.height, top + bandRows)
                    band.update(repeating: 0, count: (end - top) * window.width)
                    for (k, r) in rasterizers.enumerated() {
                        try r.rasterizer.fill(sweeps[k], sums: sums, until: end, into: band, firstRow: top,
                                              stride: window.width, blend: r.blend, blank: k == 0, stop: stop)
                    }
                    planner.add(rows: band, count: end - top, stride: window.width)
                    top = end
                }
            }
        }
        if let banded { return banded }
        // Stored rather than compressed (an image of noise), which reads the rows again: the whole image.
        let count = window.width * window.height
        guard let whole = calloc(count, 1) else {
            throw .png("no memory for a \(window.width) x \(window.height) coverage image")
        }
        defer { free(whole) }
        let coverage = whole.assumingMemoryBound(to: UInt8.self)
        for (k, r) in rasterizers.enumerated() {
            try stop?.check()
            try r.rasterizer.fill(into: coverage, stride: window.width, blend: r.blend, blank: k == 0, stop: stop)
        }
        let rows = ByteRows(base: coverage, width: width, height: height, stride: window.width, window: window)
        return try EncoderPool.shared.withEncoder(pixels: pixels) { (encoder) throws(RenderError) in
            let palette = encoder.palette(ink: ink, background: background)
            return try encoder.encode(rows, palette: palette, metadata: metadata)
        }
    }

    /// Un-premultiplies an ARGB32 surface into rows of `channels`, in the surface's own memory, and writes them as
    /// a PNG: decorated images are mostly one background colour, which the coverage encoder's deflate takes as runs
    /// once each row is Sub-filtered (``CoveragePNGEncoder/encode(_:channels:width:height:metadata:)``). The
    /// surface's pixels are overwritten: no second image buffer, whose pages a new process would fault in.
    /// - Parameter channels: `.rgba`, or `.grey` or `.greyAlpha` when every pixel is grey (and, for `.grey`,
    ///   opaque), which the caller knows from the colours it painted (``Scene/paintsGreysOnly``).
    func encodeARGB(_ surface: CairoSurface, channels: CoveragePNGEncoder.Channels = .rgba,
                    metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        let width = surface.width, height = surface.height, stride = surface.stride
        return try surface.withMutablePixels { (pixels) throws(RenderError) in
            Unpremultiply.convert(pixels, stride: stride, width: width, height: height, to: channels, into: pixels)
            let converted = UnsafeBufferPointer(start: pixels.assumingMemoryBound(to: UInt8.self),
                                                count: width * height * channels.rawValue)
            // The pool keeps encoders by their buffers' size: the bytes of the pixels here.
            return try EncoderPool.shared.withEncoder(pixels: converted.count) { (encoder) throws(RenderError) in
                try encoder.encode(converted, channels: channels, width: width, height: height, metadata: metadata)
            }
        }
    }

    // MARK: SVG

    /// The largest SVG box side, in output units and in CSS pixels: far beyond any signature, small enough that
    /// every number in the document is printed exactly (1e9 with 4 decimals fits an `Int`).
    static let maxSVGSize = 1e9

    /// Renders `signature` as a standalone SVG document.
    ///
    /// The `viewBox` is the output box in output units; `width` and `height` give its physical size in CSS
    /// pixels (the box at 96 per inch unless ``RenderOptions/dpi`` says otherwise). The ink is the same shape
    /// the PNG fills, as compact relative path data rounded to `decimals`; filled outlines (ink and text) are
    /// written as whole numbers of that step under a `scale` transform (`scale(0.1)` at one decimal).
    /// - Parameters:
    ///   - signature: the signature to draw.
    ///   - pathPerStroke: one `<path>` per stroke (in one group) instead of one for the whole signature;
    ///     default `false`.
    ///   - decimals: digits kept after the decimal point, 0...4; default 1 (at most 0.05 units off per axis).
    /// - Returns: the SVG document, UTF-8 text ending in a newline.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` when an option is out of range, or the physical
    ///   size is over 1e9 CSS pixels (a canvas built through the API with absurd units per inch);
    ///   ``RenderError/limitExceeded(what:limit:actual:)`` when the box at this scale is over ``limits``.
    public func svg(_ signature: Signature, pathPerStroke: Bool = false, decimals: Int = 1) throws(RenderError) -> String {
        try options.validate(limits: limits)
        guard (0...4).contains(decimals) else {
            throw .invalidOption(option: "decimals", message: "\(decimals) is outside 0...4")
        }
        let scene = Scene(signature, options: options)
        _ = try scene.layout.pixelSize(scale: options.scale, limits: limits)
        let cssPixelsPerUnit = Canvas.cssPixelsPerInch * options.scale / pixelsPerInch(for: signature)
        // A canvas built through the API can have absurd units per inch; every SVG number must stay printable.
        let w = scene.layout.width, h = scene.layout.height
        guard [w, h, w * cssPixelsPerUnit, h * cssPixelsPerUnit].allSatisfy({ $0 > 0 && $0 <= Self.maxSVGSize }) else {
            throw .invalidOption(option: "size", message: "SVG size \(w) x \(h) units (\(w * cssPixelsPerUnit) x "
                                 + "\(h * cssPixelsPerUnit) CSS pixels) is outside (0, \(Self.maxSVGSize)]")
        }
        let writer = SVGWriter(pathData: SVGPathData(decimals: decimals), pathPerStroke: pathPerStroke,
                               cssPixelsPerUnit: cssPixelsPerUnit)
        return try writer.document(scene)
    }

    // MARK: PDF

    /// Renders `signature` as a one-page vector PDF whose page is the output box.
    ///
    /// The page measures the output box at 72 points per inch: output units x 72 x scale / dpi, so a CSS-pixel
    /// canvas of 600 x 300 becomes a 450 x 225 pt page. The document's creation and modification dates are the
    /// capture time, or 2000-01-01T00:00:00Z when it is unknown, so the bytes do not depend on the clock. Ink
    /// alone is written by the engine itself, anything more through Cairo.
    /// - Parameter signature: the signature to draw.
    /// - Returns: the bytes of a PDF file.
    /// - Throws: ``RenderError`` when an option is out of range or Cairo fails.
    public func pdf(_ signature: Signature) throws(RenderError) -> [UInt8] {
        try options.validate(limits: limits)
        let scene = Scene(signature, options: options)
        _ = try scene.layout.pixelSize(scale: options.scale, limits: limits)
        let pointsPerUnit = 72 * options.scale / pixelsPerInch(for: signature)
        let date = Self.captureTime(of: signature) ?? PDFDocument.defaultCreationDate
        if let ink = try InkPDF.document(scene, pointsPerUnit: pointsPerUnit, background: options.background,
                                         creationDate: date) {
            return ink
        }
        let document = PDFDocument(creationDate: date)
        try document.addRenderedPage(width: scene.layout.width * pointsPerUnit, height: scene.layout.height * pointsPerUnit) {
            (target) throws(RenderError) in
            let context = try CairoContext(borrowing: target.unsafeContext)
            context.save()
            context.scale(pointsPerUnit, pointsPerUnit)
            if options.background.alpha > 0 {
                context.fill(Rect(x: 0, y: 0, width: scene.layout.width, height: scene.layout.height),
                             with: options.background)
            }
            try scene.draw(on: context)
            context.restore()
            try context.check()
        }
        return try document.finish()
    }
}
