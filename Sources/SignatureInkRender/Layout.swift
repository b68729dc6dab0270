// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Where a signature lands in the output: the output size in pixels and the map from canvas units to pixels.
struct Layout: Equatable {
    /// Output width in pixels.
    var width: Int
    /// Output height in pixels.
    var height: Int
    /// Pixels per canvas unit.
    var scale: Double
    /// Pixel position of the canvas origin.
    var offset: Point

    /// Maps a canvas point to output pixels.
    func apply(_ p: Point) -> Point { Point(p.x * scale + offset.x, p.y * scale + offset.y) }

    /// The layout for `signature`: its canvas at `options.scale`, or, without a canvas, its ink bounds grown by
    /// the padding and half the pen width.
    static func make(for signature: Signature, options: RenderOptions, limits: RenderLimits) throws(RenderError) -> Layout {
        try options.validate(limits: limits)
        let s = options.scale
        let area: Rect
        if let canvas = signature.canvas {
            area = canvas.rect
        } else if let ink = signature.bounds {
            area = ink.outsetBy(options.padding + options.penWidth / 2)
        } else {
            area = Rect(x: 0, y: 0, width: 2 * options.padding, height: 2 * options.padding)
        }
        let w = (area.width * s).rounded(.up), h = (area.height * s).rounded(.up)
        guard w.isFinite, h.isFinite else { throw .invalidOption(option: "size", message: "output size is not finite") }
        let width = Swift.max(1, Int(Swift.min(w, 1e9))), height = Swift.max(1, Int(Swift.min(h, 1e9)))
        guard width <= limits.maxSide, height <= limits.maxSide else {
            throw .limitExceeded(what: "output side in pixels", limit: limits.maxSide, actual: Swift.max(width, height))
        }
        guard width * height <= limits.maxPixels else {
            throw .limitExceeded(what: "output pixels", limit: limits.maxPixels, actual: width * height)
        }
        return Layout(width: width, height: height, scale: s, offset: Point(-area.minX * s, -area.minY * s))
    }
}
