// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// How a signature is drawn: size, colours and pen.
public struct RenderOptions: Sendable, Hashable {
    /// Output pixels per canvas unit, > 0 and <= ``RenderLimits/maxScale``; default 1. Use 2 or 3 for HiDPI.
    public var scale: Double
    /// Ink colour; default opaque black.
    public var penColor: Color
    /// Background; default ``Color/clear`` (transparent).
    public var background: Color
    /// Pen width in canvas units, > 0; default 2.5.
    public var penWidth: Double
    /// Space around the ink in canvas units when the image is cropped to the ink, >= 0; default 16.
    public var padding: Double

    /// Creates options; every argument defaults to the documented default.
    public init(scale: Double = 1, penColor: Color = .black, background: Color = .clear,
                penWidth: Double = 2.5, padding: Double = 16) {
        self.scale = scale
        self.penColor = penColor
        self.background = background
        self.penWidth = penWidth
        self.padding = padding
    }

    /// Throws when an option is out of range.
    public func validate(limits: RenderLimits = .default) throws(RenderError) {
        guard scale.isFinite, scale > 0, scale <= limits.maxScale else {
            throw .invalidOption(option: "scale", message: "\(scale) is outside (0, \(limits.maxScale)]")
        }
        guard penWidth.isFinite, penWidth > 0, penWidth <= 1000 else {
            throw .invalidOption(option: "pen width", message: "\(penWidth) is outside (0, 1000]")
        }
        guard padding.isFinite, padding >= 0, padding <= 10_000 else {
            throw .invalidOption(option: "padding", message: "\(padding) is outside [0, 10000]")
        }
    }
}

/// Bounds on what one render may cost, checked before any pixel is allocated.
public struct RenderLimits: Sendable, Hashable {
    /// Most output pixels (width x height); default 64 megapixels (256 MiB as ARGB).
    public var maxPixels: Int
    /// Longest output side in pixels; default 32767, Cairo's own limit.
    public var maxSide: Int
    /// Largest scale; default 16.
    public var maxScale: Double

    /// Creates limits; every argument defaults to the documented default.
    public init(maxPixels: Int = 64 << 20, maxSide: Int = 32767, maxScale: Double = 16) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxScale = maxScale
    }

    /// The defaults.
    public static let `default` = RenderLimits()
}
