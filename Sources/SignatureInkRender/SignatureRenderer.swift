// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// Renders signatures to images through Cairo.
///
/// ```swift
/// let renderer = SignatureRenderer(options: RenderOptions(scale: 2, penColor: Color(hex: "#1a237e")!))
/// let png: [UInt8] = try renderer.png(signature)
/// ```
public struct SignatureRenderer: Sendable {
    /// How signatures are drawn.
    public var options: RenderOptions
    /// Bounds checked before any pixel is allocated.
    public var limits: RenderLimits

    /// Creates a renderer.
    public init(options: RenderOptions = RenderOptions(), limits: RenderLimits = .default) {
        self.options = options
        self.limits = limits
    }

    /// Renders `signature` and encodes it as a PNG.
    /// - Returns: the bytes of a PNG file, 8 bits a channel, with a `pHYs` chunk for the canvas resolution.
    /// - Throws: ``RenderError`` when an option or limit is out of range, or Cairo or libpng fails.
    public func png(_ signature: Signature) throws(RenderError) -> [UInt8] {
        let layout = try Layout.make(for: signature, options: options, limits: limits)
        let surface = try CairoSurface(image: .argb32, width: layout.width, height: layout.height)
        let context = try CairoContext(surface: surface)
        context.clear(to: options.background)
        draw(signature, layout: layout, into: context)
        try context.check()
        let ppi = (signature.canvas?.unitsPerInch ?? Canvas.cssPixelsPerInch) * layout.scale
        return try encodeARGB(surface, metadata: PNGMetadata(
            pixelsPerInch: ppi, text: [("Software", "signature-ink")]))
    }

    /// Draws every stroke of `signature` in the pen colour.
    func draw(_ signature: Signature, layout: Layout, into context: CairoContext) {
        context.save()
        context.translate(layout.offset.x, layout.offset.y)
        context.scale(layout.scale, layout.scale)
        context.setSource(options.penColor)
        for stroke in signature.strokes {
            guard let first = stroke.first else { continue }
            context.moveTo(first.location)
            // A lone sample becomes a zero-length segment, which round caps draw as a dot.
            if stroke.count == 1 { context.lineTo(first.location) }
            for s in stroke.dropFirst() { context.lineTo(s.location) }
        }
        context.strokeRound(width: options.penWidth)
        context.restore()
    }

    /// Un-premultiplies an ARGB32 surface into RGBA rows and writes them with libpng.
    func encodeARGB(_ surface: CairoSurface, metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        let width = surface.width, height = surface.height
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        try surface.withPixels { (src) throws(RenderError) in
            Unpremultiply.argb32(src, stride: surface.stride, width: width, height: height, into: &rgba)
        }
        return try rgba.withUnsafeBufferPointer { (buf) throws(RenderError) in
            try LibPNGEncoder().encode(width: width, height: height, color: .rgba, pixels: buf,
                                       stride: width * 4, metadata: metadata)
        }
    }
}
