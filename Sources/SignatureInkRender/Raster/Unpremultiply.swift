// SPDX-License-Identifier: Apache-2.0

/// Converts Cairo's premultiplied pixels to the straight alpha PNG stores.
enum Unpremultiply {
    /// Reads native-endian premultiplied ARGB32 words and writes straight R, G, B, A bytes.
    ///
    /// Each colour channel becomes `round(c * 255 / a)`, clamped to 255; a fully transparent pixel becomes
    /// 0, 0, 0, 0.
    static func argb32(_ src: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int,
                       into dst: inout [UInt8]) {
        precondition(dst.count >= width * height * 4, "\(dst.count) bytes do not hold \(width) x \(height) pixels")
        dst.withUnsafeMutableBytes { out in
            convert(UnsafeRawPointer(src.baseAddress!), stride: stride, width: width, height: height, to: .rgba,
                    into: out.baseAddress!)
        }
    }

    /// Reads native-endian premultiplied ARGB32 words and writes each pixel as `channels`, straight alpha, rows
    /// `width * channels.rawValue` bytes apart: R, G, B, A bytes (as ``argb32(_:stride:width:height:into:)``),
    /// or, for pixels whose colour is grey (red, green and blue equal), grey and alpha bytes, or one grey byte
    /// when every pixel is opaque too.
    ///
    /// `out` may be `src` itself: a pixel is written no further on than it was read, once it has been read, so
    /// the conversion of a Cairo surface needs no second buffer.
    /// - Parameter out: `width * height * channels.rawValue` bytes; they need not be initialised.
    static func convert(_ src: UnsafeRawPointer, stride: Int, width: Int, height: Int,
                        to channels: CoveragePNGEncoder.Channels, into out: UnsafeMutableRawPointer) {
        precondition(stride >= width * 4, "rows of \(width) pixels do not fit in \(stride) bytes")
        // Each case is its own copy of the loop, with the channels a constant in it.
        switch channels {
        case .rgba: walk(src, stride: stride, width: width, height: height, to: .rgba, into: out)
        case .greyAlpha: walk(src, stride: stride, width: width, height: height, to: .greyAlpha, into: out)
        case .grey:
            // Every pixel opaque: no runs of transparent ones to look for, and nothing to divide. The grey is the
            // green byte, bits 8...15 of the little-endian word, walked with pointers (indices cost overflow checks
            // where the loop is not inlined: 14 instructions a pixel).
            for y in 0..<height {
                var p = src + y * stride + 1
                var q = out + y * width
                for _ in 0..<width {
                    q.storeBytes(of: p.load(as: UInt8.self), as: UInt8.self)
                    p += 4
                    q += 1
                }
            }
        }
    }

    /// The conversion of pixels that may be transparent, inlined into each caller with `channels` a constant.
    @inline(__always)
    private static func walk(_ src: UnsafeRawPointer, stride: Int, width: Int, height: Int,
                             to channels: CoveragePNGEncoder.Channels, into out: UnsafeMutableRawPointer) {
        let bytesPerPixel = channels.rawValue
        let bytes = src.assumingMemoryBound(to: UInt8.self)
        var o = 0
        for y in 0..<height {
            let row = y * stride
            var x = 0
            while x < width {
                let px = UInt32(littleEndian: src.loadUnaligned(fromByteOffset: row + x * 4, as: UInt32.self))
                if px == 0 {
                    // Most of a signature's image is transparent: the run of such pixels is found eight bytes at a
                    // time and cleared at once. Opaque and partly covered pixels pay nothing for it.
                    let end = Tokenizer.endOfRun(bytes, from: row + x * 4, to: row + width * 4, value: 0)
                    let pixels = (end - row) / 4 - x
                    (out + o).initializeMemory(as: UInt8.self, repeating: 0, count: pixels * bytesPerPixel)
                    o += pixels * bytesPerPixel
                    x += pixels
                    continue
                }
                let a = px >> 24
                switch channels {
                case .rgba where a == 255:
                    // The channels as they are, one store, red and blue swapped into R, G, B, A byte order.
                    let rgba = (px & 0xff00_ff00) | (px >> 16 & 0xff) | (px & 0xff) << 16
                    out.storeBytes(of: UInt32(littleEndian: rgba), toByteOffset: o, as: UInt32.self)
                case .rgba:
                    out.storeBytes(of: UInt32(littleEndian: UInt32(straight(px >> 16, a)) | UInt32(straight(px >> 8, a)) << 8
                                                | UInt32(straight(px, a)) << 16 | a << 24),
                                   toByteOffset: o, as: UInt32.self)
                case .greyAlpha:
                    let grey = a == 255 ? UInt8(truncatingIfNeeded: px >> 8) : straight(px >> 8, a)
                    out.storeBytes(of: UInt16(littleEndian: UInt16(grey) | UInt16(a) << 8), toByteOffset: o, as: UInt16.self)
                case .grey:
                    out.storeBytes(of: UInt8(truncatingIfNeeded: px >> 8), toByteOffset: o, as: UInt8.self)
                }
                o += bytesPerPixel
                x += 1
            }
        }
    }

    /// The low byte of `channel`, premultiplied by `alpha`, as straight colour: `round(c * 255 / a)`, clamped to
    /// 255; 0 where `alpha` is 0.
    @inline(__always) private static func straight(_ channel: UInt32, _ alpha: UInt32) -> UInt8 {
        alpha == 0 ? 0 : UInt8(Swift.min(255, ((channel & 0xff) * 255 + alpha / 2) / alpha))
    }
}
