// SPDX-License-Identifier: Apache-2.0
import CPNG
public import SignatureInk

/// Writes 8-bit PNGs through libpng with a chosen colour type, zlib level, strategy and row filters.
///
/// The general path for any pixels; for one ink colour's coverage, ``CoveragePNGEncoder`` is several times
/// faster. The defaults (level 6, default strategy, all filters) are what `cairo_surface_write_to_png` uses.
public struct LibPNGEncoder: Sendable {
    /// PNG colour types this writer produces, all 8 bits per channel.
    public enum ColorType: Sendable {
        /// One palette index a pixel; the palette and its alpha table come with it.
        case indexed(palette: [Color])
        /// Grey and alpha, two bytes a pixel.
        case greyAlpha
        /// Red, green, blue, alpha: four bytes a pixel.
        case rgba

        var bytesPerPixel: Int {
            switch self {
            case .indexed: 1
            case .greyAlpha: 2
            case .rgba: 4
            }
        }
    }

    /// zlib level 0...9, default 6. Level 6, the zlib default, balances size and time for full-colour images.
    public var compressionLevel: Int32 = 6
    /// zlib strategy: ``defaultStrategy`` (the default) or ``runLengthStrategy``.
    public var strategy: Int32 = LibPNGEncoder.defaultStrategy
    /// Mask of the row filters libpng may choose from: ``allFilters`` (the default) or ``noFilter``.
    public var filters: Int32 = LibPNGEncoder.allFilters

    /// zlib's `Z_DEFAULT_STRATEGY`: LZ77 matches at any distance.
    public static let defaultStrategy: Int32 = 0
    /// zlib's `Z_RLE`: matches at distance 1 only, fast on images with long runs.
    public static let runLengthStrategy: Int32 = 3
    /// `PNG_ALL_FILTERS`: libpng picks a filter per row by the sum of absolute differences.
    public static let allFilters = Int32(sink_png_filter_all)
    /// `PNG_FILTER_NONE`: every row stored as it is.
    public static let noFilter = Int32(sink_png_filter_none)

    /// Creates an encoder with zlib level 6, the default strategy and all row filters.
    public init() {}

    /// Encodes an image as a PNG.
    /// - Parameters:
    ///   - width: pixels per row, >= 1.
    ///   - height: rows, >= 1.
    ///   - color: the colour type, and for ``ColorType/indexed(palette:)`` the palette (1...256 entries).
    ///   - pixels: rows of `stride` bytes, each starting with `width` pixels of the colour type's size.
    ///   - stride: bytes from one row to the next, >= `width` times the bytes per pixel.
    ///   - metadata: resolution for `pHYs` and text chunks (at most 16 entries; invalid keywords are skipped).
    /// - Returns: the PNG file's bytes.
    /// - Throws: ``RenderError/png(_:)`` when the sizes do not match the buffer, the palette is out of range,
    ///   or libpng fails.
    public func encode(width: Int, height: Int, color: ColorType, pixels: UnsafeBufferPointer<UInt8>, stride: Int,
                metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        guard width > 0, height > 0, stride >= width * color.bytesPerPixel, pixels.count >= stride * height,
              let base = pixels.baseAddress
        else { throw .png("pixel buffer does not match \(width)x\(height)") }

        var palette: [UInt8] = []
        var alpha: [UInt8] = []
        var colorType = PNG_COLOR_TYPE_RGBA
        switch color {
        case let .indexed(entries):
            guard (1...256).contains(entries.count) else { throw .png("palette must have 1...256 entries") }
            colorType = PNG_COLOR_TYPE_PALETTE
            for c in entries { palette += [c.red, c.green, c.blue] }
            alpha = entries.map(\.alpha)
            while alpha.last == 255 { alpha.removeLast() }  // trailing opaque entries need no tRNS byte
        case .greyAlpha: colorType = PNG_COLOR_TYPE_GRAY_ALPHA
        case .rgba: colorType = PNG_COLOR_TYPE_RGBA
        }

        let entries = metadata.text.prefix(16).filter { (1...79).contains($0.key.utf8.count) }
        var keys = entries.map { strdup($0.key) }
        var values = entries.map { strdup($0.value) }
        defer { keys.forEach { free($0) }; values.forEach { free($0) } }

        var out = sink_png_buffer()
        defer { free(out.data) }
        let status: Int32 = palette.withUnsafeBufferPointer { pal in
            alpha.withUnsafeBufferPointer { alp in
                keys.withUnsafeMutableBufferPointer { k in
                    values.withUnsafeMutableBufferPointer { v in
                        k.withMemoryRebound(to: UnsafePointer<CChar>?.self) { kc in
                            v.withMemoryRebound(to: UnsafePointer<CChar>?.self) { vc in
                                var p = sink_png_params()
                                p.width = UInt32(width)
                                p.height = UInt32(height)
                                p.bit_depth = 8
                                p.color_type = colorType
                                p.pixels = base
                                p.stride = stride
                                p.palette_rgb = pal.baseAddress
                                p.palette_count = Int32(pal.count / 3)
                                p.palette_alpha = alp.baseAddress
                                p.alpha_count = Int32(alp.count)
                                p.pixels_per_metre = metadata.pixelsPerMetre
                                p.text_keys = UnsafePointer(kc.baseAddress)
                                p.text_values = UnsafePointer(vc.baseAddress)
                                p.text_count = Int32(kc.count)
                                p.compression_level = compressionLevel
                                p.compression_strategy = strategy
                                p.filters = filters
                                return sink_png_encode(&p, &out)
                            }
                        }
                    }
                }
            }
        }
        guard status == 0 else {
            let message = withUnsafeBytes(of: out.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .png(message)
        }
        guard let data = out.data else { throw .png("libpng produced no data") }
        return Array(UnsafeBufferPointer(start: data, count: out.size))
    }
}
