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
            src.withMemoryRebound(to: UInt32.self) { words in
                let wordsPerRow = stride / 4
                var o = 0
                for y in 0..<height {
                    let row = y * wordsPerRow
                    for x in 0..<width {
                        let px = UInt32(littleEndian: words[row + x])
                        let a = px >> 24
                        if a == 255 {
                            out[o] = UInt8(truncatingIfNeeded: px >> 16)
                            out[o + 1] = UInt8(truncatingIfNeeded: px >> 8)
                            out[o + 2] = UInt8(truncatingIfNeeded: px)
                            out[o + 3] = 255
                        } else if a == 0 {
                            out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0
                        } else {
                            let half = a / 2
                            out[o] = UInt8(Swift.min(255, ((px >> 16 & 0xff) * 255 + half) / a))
                            out[o + 1] = UInt8(Swift.min(255, ((px >> 8 & 0xff) * 255 + half) / a))
                            out[o + 2] = UInt8(Swift.min(255, ((px & 0xff) * 255 + half) / a))
                            out[o + 3] = UInt8(a)
                        }
                        o += 4
                    }
                }
            }
        }
    }
}
