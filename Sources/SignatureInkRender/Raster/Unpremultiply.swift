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
        precondition(out.count >= width * height * 4, "\(out.count) bytes do not hold \(width) x \(height) pixels")
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
                    let a = px >> 24
                    if a == 255 {
                        // The channels as they are, one store, red and blue swapped into R, G, B, A byte order.
                        let rgba = (px & 0xff00_ff00) | (px >> 16 & 0xff) | (px & 0xff) << 16
                        raw.storeBytes(of: UInt32(littleEndian: rgba), toByteOffset: o, as: UInt32.self)
                    } else if px == 0 {
                        // Most of a signature's image is transparent: the run of such pixels is found eight bytes at
                        // a time and cleared at once. Opaque and partly covered pixels pay nothing for it.
                        let start = (row + x) * 4
                        let end = Tokenizer.endOfRun(base, from: start, to: (row + width) * 4, value: 0)
                        let pixels = (end - start) / 4
                        (raw + o).initializeMemory(as: UInt8.self, repeating: 0, count: pixels * 4)
                        o += pixels * 4
                        x += pixels
                        continue
                    } else if a == 0 {
                        raw.storeBytes(of: 0, toByteOffset: o, as: UInt32.self)
                    } else {
                        let half = a / 2
                        out[o] = UInt8(Swift.min(255, ((px >> 16 & 0xff) * 255 + half) / a))
                        out[o + 1] = UInt8(Swift.min(255, ((px >> 8 & 0xff) * 255 + half) / a))
                        out[o + 2] = UInt8(Swift.min(255, ((px & 0xff) * 255 + half) / a))
                        out[o + 3] = UInt8(a)
                    }
                    o += 4
                    x += 1
                }
            }
        }
    }

    /// Reads native-endian premultiplied ARGB32 words whose colour is grey (red, green and blue equal) and writes
    /// one grey byte a pixel (`alpha` false: every pixel must be opaque) or grey and alpha bytes (`alpha` true,
    /// the grey unpremultiplied as ``argb32(_:stride:width:height:into:)`` does each channel).
    /// - Parameter out: `width * height` bytes, or twice that with `alpha`; they need not be initialised.
    static func grey(_ src: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int, alpha: Bool,
                     into out: UnsafeMutableBufferPointer<UInt8>) {
        let bytesPerPixel = alpha ? 2 : 1
        precondition(out.count >= width * height * bytesPerPixel, "\(out.count) bytes do not hold \(width) x \(height) pixels")
        let base = src.baseAddress!
        src.withMemoryRebound(to: UInt32.self) { words in
            let wordsPerRow = stride / 4
            var o = 0
            for y in 0..<height {
                let row = y * wordsPerRow
                guard alpha else {
                    for x in 0..<width { out[o + x] = UInt8(truncatingIfNeeded: UInt32(littleEndian: words[row + x]) >> 8) }
                    o += width
                    continue
                }
                var x = 0
                while x < width {
                    let px = UInt32(littleEndian: words[row + x])
                    let a = px >> 24
                    if a == 255 {
                        out[o] = UInt8(truncatingIfNeeded: px >> 8)
                        out[o + 1] = 255
                    } else if px == 0 {
                        // Runs of transparent pixels, found eight bytes at a time, as for RGBA.
                        let start = (row + x) * 4
                        let end = Tokenizer.endOfRun(base, from: start, to: (row + width) * 4, value: 0)
                        let pixels = (end - start) / 4
                        (out.baseAddress! + o).initialize(repeating: 0, count: pixels * 2)
                        o += pixels * 2
                        x += pixels
                        continue
                    } else if a == 0 {
                        out[o] = 0
                        out[o + 1] = 0
                    } else {
                        out[o] = UInt8(Swift.min(255, ((px >> 8 & 0xff) * 255 + a / 2) / a))
                        out[o + 1] = UInt8(a)
                    }
                    o += 2
                    x += 1
                }
            }
        }
    }
}
