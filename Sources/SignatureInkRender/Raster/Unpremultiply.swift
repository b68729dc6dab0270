// SPDX-License-Identifier: Apache-2.0

/// Converts Cairo's premultiplied pixels to the straight alpha PNG stores.
enum Unpremultiply {
    /// Reads native-endian premultiplied ARGB32 words and writes straight R, G, B, A bytes.
    ///
    /// Each colour channel becomes `round(c * 255 / a)`, clamped to 255; a fully transparent pixel becomes
    /// 0, 0, 0, 0.
    static func argb32(_ src: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int,
                       into dst: inout [UInt8]) {
        dst.withUnsafeMutableBufferPointer { out in
            argb32(src, stride: stride, width: width, height: height, into: out)
        }
    }

    /// ``argb32(_:stride:width:height:into:)`` into `width * height * 4` bytes that need not be initialised.
    static func argb32(_ src: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int,
                       into out: UnsafeMutableBufferPointer<UInt8>) {
        convert(src, stride: stride, width: width, height: height, to: .rgba, into: out)
    }

    /// Reads native-endian premultiplied ARGB32 words and writes each pixel as `channels`, straight alpha:
    /// R, G, B, A bytes (as ``argb32(_:stride:width:height:into:)``), or, for pixels whose colour is grey (red,
    /// green and blue equal), grey and alpha bytes, or one grey byte when every pixel is opaque too.
    /// - Parameter out: `width * height * channels.rawValue` bytes; they need not be initialised.
    static func convert(_ src: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int,
                        to channels: CoveragePNGEncoder.Channels, into out: UnsafeMutableBufferPointer<UInt8>) {
        let bytesPerPixel = channels.rawValue
        precondition(out.count >= width * height * bytesPerPixel, "\(out.count) bytes do not hold \(width) x \(height) pixels")
        // Each case is its own copy of the loop, with the channels a constant in it.
        switch channels {
        case .rgba: walk(src, stride: stride, width: width, height: height, to: .rgba, into: out)
        case .greyAlpha: walk(src, stride: stride, width: width, height: height, to: .greyAlpha, into: out)
        case .grey:
            // Every pixel opaque: no runs of transparent ones to look for, and nothing to divide.
            src.withMemoryRebound(to: UInt32.self) { words in
                for y in 0..<height {
                    let row = y * stride / 4, o = y * width
                    for x in 0..<width { out[o + x] = UInt8(truncatingIfNeeded: UInt32(littleEndian: words[row + x]) >> 8) }
                }
            }
        }
    }

    /// The conversion of pixels that may be transparent, inlined into each caller with `channels` a constant.
    @inline(__always)
    private static func walk(_ src: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int,
                             to channels: CoveragePNGEncoder.Channels, into out: UnsafeMutableBufferPointer<UInt8>) {
        let bytesPerPixel = channels.rawValue
        let raw = UnsafeMutableRawPointer(out.baseAddress!)
        let base = src.baseAddress!
        src.withMemoryRebound(to: UInt32.self) { words in
            let wordsPerRow = stride / 4
            var o = 0
            for y in 0..<height {
                let row = y * wordsPerRow
                var x = 0
                while x < width {
                    let px = UInt32(littleEndian: words[row + x])
                    if px == 0 {
                        // Most of a signature's image is transparent: the run of such pixels is found eight bytes at
                        // a time and cleared at once. Opaque and partly covered pixels pay nothing for it.
                        let start = (row + x) * 4
                        let end = Tokenizer.endOfRun(base, from: start, to: (row + width) * 4, value: 0)
                        let pixels = (end - start) / 4
                        (raw + o).initializeMemory(as: UInt8.self, repeating: 0, count: pixels * bytesPerPixel)
                        o += pixels * bytesPerPixel
                        x += pixels
                        continue
                    }
                    let a = px >> 24
                    switch channels {
                    case .rgba where a == 255:
                        // The channels as they are, one store, red and blue swapped into R, G, B, A byte order.
                        let rgba = (px & 0xff00_ff00) | (px >> 16 & 0xff) | (px & 0xff) << 16
                        raw.storeBytes(of: UInt32(littleEndian: rgba), toByteOffset: o, as: UInt32.self)
                    case .rgba:
                        out[o] = straight(px >> 16, a)
                        out[o + 1] = straight(px >> 8, a)
                        out[o + 2] = straight(px, a)
                        out[o + 3] = UInt8(a)
                    case .greyAlpha where a == 255:
                        out[o] = UInt8(truncatingIfNeeded: px >> 8)
                        out[o + 1] = 255
                    case .greyAlpha:
                        out[o] = straight(px >> 8, a)
                        out[o + 1] = UInt8(a)
                    case .grey:
                        out[o] = UInt8(truncatingIfNeeded: px >> 8)
                    }
                    o += bytesPerPixel
                    x += 1
                }
            }
        }
    }

    /// The low byte of `channel`, premultiplied by `alpha`, as straight colour: `round(c * 255 / a)`, clamped to
    /// 255; 0 where `alpha` is 0.
    @inline(__always) private static func straight(_ channel: UInt32, _ alpha: UInt32) -> UInt8 {
        alpha == 0 ? 0 : UInt8(Swift.min(255, ((channel & 0xff) * 255 + alpha / 2) / alpha))
    }
}
