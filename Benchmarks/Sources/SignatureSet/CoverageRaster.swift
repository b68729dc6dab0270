// SPDX-License-Identifier: Apache-2.0
import CBenchCairo
import SignatureInk

/// The renderer's fill stage on its own: an outline path filled with the non-zero rule into a Cairo A8
/// (coverage) surface, as `SignatureRenderer.png` does for one ink colour. The library keeps its Cairo wrapper
/// internal, so the benchmarks repeat these few calls to time the stage without the PNG writer.
public final class CoverageRaster {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    private let surface: OpaquePointer
    private let context: OpaquePointer

    /// Creates a cleared surface of `width` x `height` pixels scaled by `scale`, or `nil` when Cairo fails.
    /// - Parameters:
    ///   - width: width in output units, > 0.
    ///   - height: height in output units, > 0.
    ///   - scale: pixels per output unit, > 0 (1 or 2 here).
    ///   - argb: an ARGB32 surface instead of A8 coverage, for Cairo's own PNG writer; default `false`.
    public init?(width: Double, height: Double, scale: Double, argb: Bool = false) {
        self.width = Int((width * scale).rounded(.up))
        self.height = Int((height * scale).rounded(.up))
        guard let s = cairo_image_surface_create(argb ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_A8,
                                                 Int32(self.width), Int32(self.height)) else { return nil }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, let c = cairo_create(s) else {
            cairo_surface_destroy(s)
            return nil
        }
        surface = s
        context = c
        guard cairo_status(c) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_scale(c, scale, scale)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Fills `path` in opaque black with the non-zero rule.
    /// - Returns: `false` when Cairo reports an error.
    @discardableResult
    public func fill(_ path: Path) -> Bool {
        cairo_set_source_rgba(context, 0, 0, 0, 1)
        for e in path.elements {
            switch e {
            case let .move(p): cairo_move_to(context, p.x, p.y)
            case let .line(p): cairo_line_to(context, p.x, p.y)
            case let .cubic(a, b, c): cairo_curve_to(context, a.x, a.y, b.x, b.y, c.x, c.y)
            case .close: cairo_close_path(context)
            }
        }
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
        cairo_fill(context)
        cairo_surface_flush(surface)
        return cairo_status(context) == CAIRO_STATUS_SUCCESS
    }

    /// The coverage bytes, one per pixel, rows packed without padding (A8 surfaces only).
    public func coverage() -> [UInt8] {
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { out[y * width + x] = data[y * stride + x] }
        }
        return out
    }

    /// The size of the PNG Cairo's own writer (`cairo_surface_write_to_png_stream`) makes of this surface.
    /// - Returns: the byte count, or `nil` when Cairo fails.
    public func cairoPNGSize() -> Int? {
        var count = 0
        let status = withUnsafeMutablePointer(to: &count) { counter in
            cairo_surface_write_to_png_stream(surface, { closure, _, length in
                closure!.assumingMemoryBound(to: Int.self).pointee += Int(length)
                return CAIRO_STATUS_SUCCESS
            }, counter)
        }
        return status == CAIRO_STATUS_SUCCESS ? count : nil
    }
}
