// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
@testable import SignatureInkRender
import Testing

/// Premultiplied ARGB32 to straight RGBA: every pixel as the formula gives it, whether it stands in a run of
/// transparent pixels (cleared as a run), right after one (black, whose colour bytes are zero too), at a row's end,
/// or beside the padding of a stride wider than the row; into a buffer of its own or in place.
@Suite struct UnpremultiplyTests {
    @Test(arguments: [1, 3, 4, 7, 61])
    func everyPixelIsTheFormulasWhateverRunsItStandsIn(width: Int) {
        var random = SeededRandom(seed: UInt64(width))
        let height = 9, stride = (width + 3) * 4
        var words = [UInt32](repeating: 0xDEAD_BEEF, count: stride / 4 * height)  // the padding is not zero
        for y in 0..<height {
            for x in 0..<width {
                let kind = (x / 5 + y) % 4  // runs of transparent, opaque and partly covered pixels
                let a = kind == 0 || y == 4 ? 0 : kind == 1 ? 255 : UInt32.random(in: 1...254, using: &random)
                // Black among them: its colour bytes are zero, as a transparent pixel's are, and only its alpha is not.
                let black = x % 2 == 0
                let channel = { black ? 0 : UInt32.random(in: 0...a, using: &random) }
                words[y * stride / 4 + x] = a << 24 | channel() << 16 | channel() << 8 | channel()
            }
        }
        var rgba = [UInt8](repeating: 7, count: width * height * 4)
        let bytes = words.withUnsafeBytes { Array($0) }
        bytes.withUnsafeBufferPointer { Unpremultiply.argb32($0, stride: stride, width: width, height: height, into: &rgba) }
        for y in 0..<height {
            for x in 0..<width {
                let px = words[y * stride / 4 + x], a = px >> 24
                let expected: [UInt8] = a == 0 ? [0, 0, 0, 0] : [16, 8, 0].map { shift in
                    UInt8(min(255, ((px >> shift & 0xff) * 255 + a / 2) / a))
                } + [UInt8(a)]
                let o = (y * width + x) * 4
                #expect(Array(rgba[o..<o + 4]) == expected, "pixel \(x), \(y)")
            }
        }
        // In place, as a surface is converted: the same bytes at the start of the image's memory.
        var inPlace = bytes
        inPlace.withUnsafeMutableBytes {
            Unpremultiply.convert($0.baseAddress!, stride: stride, width: width, height: height, to: .rgba, into: $0.baseAddress!)
        }
        #expect(Array(inPlace.prefix(rgba.count)) == rgba)
    }

    /// Grey pixels give the same grey and alpha as through RGBA, in the same runs; opaque ones, one grey byte.
    @Test(arguments: [1, 3, 4, 7, 61])
    func greyPixelsGiveTheirRGBAGreyAndAlpha(width: Int) {
        var random = SeededRandom(seed: UInt64(width))
        let height = 9, stride = (width + 3) * 4
        var translucent = [UInt32](repeating: 0xDEAD_BEEF, count: stride / 4 * height), opaque = translucent
        for y in 0..<height {
            for x in 0..<width {
                let kind = (x / 5 + y) % 4
                let a = kind == 0 || y == 4 ? 0 : kind == 1 ? 255 : UInt32.random(in: 1...254, using: &random)
                let g = x % 2 == 0 ? 0 : UInt32.random(in: 0...a, using: &random)
                translucent[y * stride / 4 + x] = a << 24 | g << 16 | g << 8 | g
                let o = UInt32.random(in: 0...255, using: &random)
                opaque[y * stride / 4 + x] = 0xff00_0000 | o << 16 | o << 8 | o
            }
        }
        for (words, alpha) in [(translucent, true), (opaque, false)] {
            let bytes = words.withUnsafeBytes { Array($0) }
            var rgba = [UInt8](repeating: 7, count: width * height * 4)
            bytes.withUnsafeBufferPointer { Unpremultiply.argb32($0, stride: stride, width: width, height: height, into: &rgba) }
            let channels = alpha ? 2 : 1
            var grey = [UInt8](repeating: 7, count: width * height * channels)
            bytes.withUnsafeBytes { src in
                grey.withUnsafeMutableBytes {
                    Unpremultiply.convert(src.baseAddress!, stride: stride, width: width, height: height,
                                          to: alpha ? .greyAlpha : .grey, into: $0.baseAddress!)
                }
            }
            // In place, as a surface is converted: the same bytes at the start of the image's memory.
            var inPlace = bytes
            inPlace.withUnsafeMutableBytes {
                Unpremultiply.convert($0.baseAddress!, stride: stride, width: width, height: height,
                                      to: alpha ? .greyAlpha : .grey, into: $0.baseAddress!)
            }
            #expect(Array(inPlace.prefix(grey.count)) == grey, "in place, alpha \(alpha)")
            for i in 0..<width * height {
                let expected = alpha ? [rgba[i * 4 + 1], rgba[i * 4 + 3]] : [rgba[i * 4 + 1]]
                #expect(Array(grey[i * channels..<(i + 1) * channels]) == expected, "pixel \(i), alpha \(alpha)")
            }
        }
    }
}
