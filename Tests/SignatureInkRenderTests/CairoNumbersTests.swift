// SPDX-License-Identifier: Apache-2.0
import CCairoNumbers
import Glibc
import InkTestSupport
import Testing

/// The release build's Cairo prints a PDF's numbers with `si_format_fixed` and `si_format_integer` instead of glibc's
/// snprintf (Scripts/link-release): every character must be glibc's, or the release build's PDFs would differ from
/// the development build's (Tests/Release/agreement.sh compares them too).
@Suite struct CairoNumbersTests {
    /// The text before a buffer's first NUL.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// glibc's `snprintf(buffer, size, "%.*f", precision, value)`: the text, and the length it reports.
    static func glibc(_ value: Double, precision: Int, size: Int = 128) -> (text: String, length: Int32) {
        var buffer = [CChar](repeating: 0, count: Swift.max(size, 1))
        let length = withVaList([Int32(precision), value]) { vsnprintf(&buffer, size, "%.*f", $0) }
        return (Self.text(buffer), length)
    }

    /// `si_format_fixed`'s text and length, or `nil` where it hands the number back to glibc.
    static func ours(_ value: Double, precision: Int, size: Int = 128) -> (text: String, length: Int32)? {
        var buffer = [CChar](repeating: 0, count: Swift.max(size, 1))
        let length = si_format_fixed(&buffer, size, value, Int32(precision))
        return length < 0 ? nil : (Self.text(buffer), length)
    }

    /// Ties at every precision (0.5, 0.125, 2.5e-7: halfway between two outputs, which go to the even one), values
    /// just beside them, negative zero and values that round to it, the smallest subnormal, the largest doubles below
    /// 2^63, and the kinds of numbers a PDF holds.
    static let edges: [Double] = [
        0, -0.0, 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, -0.625, 2.5e-7, 5e-7, 1.5e-6, 1e-7, -1e-7, -4e-7,
        0.5.nextUp, 0.5.nextDown, 1.0.nextDown, 0.1, 0.015, 0.025, 0.045, 123.456, 595.2756, 841.8898, 1e15,
        4_503_599_627_370_496.5, 999_999.999_999_5, 9_223_372_036_854_774_784, -9_223_372_036_854_774_784,
        Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, 1e-300, 0.1 + 0.2, 1 / 3.0, -2 / 3.0,
    ]

    @Test func theEdgesAreWrittenAsGlibcWritesThem() throws {
        for value in Self.edges {
            for precision in 0...18 {
                let ours = try #require(Self.ours(value, precision: precision), "\(value) at precision \(precision)")
                #expect(ours == Self.glibc(value, precision: precision), "\(value) at precision \(precision)")
            }
        }
    }

    /// Random doubles of every kind: any bit pattern, coordinates in thousandths and in binary fractions, and
    /// magnitudes from 2^-110 to 2^10, at random precisions and at Cairo's own (6, 18 and 3).
    @Test func randomNumbersAreWrittenAsGlibcWritesThem() {
        var random = SeededRandom(seed: 36)
        var checked = 0, differing: [String] = []
        for i in 0..<200_000 {
            let value: Double
            switch i % 4 {
            case 0: value = Double(bitPattern: random.next())
            case 1: value = Double(Int.random(in: -500_000...500_000, using: &random)) / 1000
            case 2: value = Double(sign: Bool.random(using: &random) ? .minus : .plus,
                                   exponent: Int.random(in: -110...10, using: &random),
                                   significand: Double.random(in: 1..<2, using: &random))
            default: value = Double(Int.random(in: 0...100_000_000, using: &random)) / 1_000_000
                + Double(Int.random(in: -1...1, using: &random)) * 5e-7
            }
            let precision = [6, 18, 3, Int.random(in: 0...18, using: &random)][i % 4]
            guard let ours = Self.ours(value, precision: precision) else {
                // Handed back only when glibc must write it: not finite, or too large for 64 bits.
                #expect(!value.isFinite || value.magnitude >= 0x1p63, "\(value) was handed back")
                continue
            }
            checked += 1
            if ours != Self.glibc(value, precision: precision), differing.count < 10 {
                differing.append("\(value) at \(precision): \(ours.text), glibc \(Self.glibc(value, precision: precision).text)")
            }
        }
        #expect(differing.isEmpty, "\(differing)")
        // A random bit pattern is 2^63 or more about half the time.
        #expect(checked > 150_000)
    }

    @Test func whatItCannotWriteIsHandedBack() {
        for value in [Double.nan, .infinity, -.infinity, 0x1p63, -0x1p63, 1e300] {
            #expect(Self.ours(value, precision: 6) == nil, "\(value)")
        }
        #expect(Self.ours(1.5, precision: 19) == nil)
        #expect(Self.ours(1.5, precision: -1) == nil)
    }

    /// A buffer too small keeps what fits and a NUL, and the length is the whole text's, as snprintf reports it.
    @Test func aShortBufferIsCutAsSnprintfCutsIt() throws {
        for size in [0, 1, 2, 5, 10, 11] {
            let ours = try #require(Self.ours(-123.456, precision: 6, size: size))
            let glibc = Self.glibc(-123.456, precision: 6, size: size)
            #expect(ours.length == glibc.length && ours.length == 11)
            if size > 0 { #expect(ours.text == glibc.text, "size \(size)") }
        }
    }

    @Test func integersAreWrittenAsGlibcWritesThem() {
        var random = SeededRandom(seed: 7)
        let values = [0, 1, -1, 9, 10, -10, 99, 100, Int(Int32.max), Int(Int32.min), Int.max, Int.min]
            + (0..<10_000).map { _ in Int(truncatingIfNeeded: random.next()) >> Int.random(in: 0...63, using: &random) }
        for value in values {
            var ours = [CChar](repeating: 0, count: 32), glibc = [CChar](repeating: 0, count: 32)
            let length = si_format_integer(&ours, 32, value)
            let glibcLength = withVaList([value]) { vsnprintf(&glibc, 32, "%ld", $0) }
            #expect(Self.text(ours) == Self.text(glibc) && length == glibcLength, "\(value)")
        }
    }
}
