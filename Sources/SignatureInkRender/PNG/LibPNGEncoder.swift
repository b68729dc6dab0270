// SPDX-License-Identifier: Apache-2.0
import CPNG
import SignatureInk

/// Writes 8-bit PNGs through libpng with a chosen colour type, zlib level, strategy and row filters.
struct LibPNGEncoder {
    /// PNG colour types this writer produces, all 8 bits per channel.
    enum ColorType {
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

    /// zlib level 0...9. Level 6, the zlib default, balances size and time for full-colour images.
    var compressionLevel: Int32 = 6
    /// zlib strategy, such as `Z_DEFAULT_STRATEGY` (0) or `Z_RLE` (3).
    var strategy: Int32 = 0
    /// `PNG_FILTER_*` mask of the row filters libpng may choose from.
    var filters: Int32 = Int32(sink_png_filter_all)

    /// Encodes rows of `stride` bytes, each starting with `width * bytesPerPixel` pixel bytes.
    func encode(width: Int, height: Int, color: ColorType, pixels: UnsafeBufferPointer<UInt8>, stride: Int,
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
