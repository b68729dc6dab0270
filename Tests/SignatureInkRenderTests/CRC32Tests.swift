// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
@testable import SignatureInkRender
import Testing

@Suite struct CRC32Tests {
    @Test func knownVectors() {
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)  // the standard check value
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)  // every PNG ends with this CRC
    }

    /// The sizes the PNG writer feeds: `IEND`'s type alone, `IHDR`, a palette, text, and image data of a few
    /// hundred bytes to tens of kilobytes (including lengths that are not multiples of a machine word).
    @Test(arguments: [1, 7, 8, 9, 17, 100, 777, 4096, 8191, 40_001])
    func agreesWithABitwiseReferenceAndContinuesAcrossParts(count: Int) {
        var random = SeededRandom(seed: UInt64(count))
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        var bitwise: UInt32 = 0xffff_ffff
        for b in bytes {
            bitwise ^= UInt32(b)
            for _ in 0..<8 { bitwise = bitwise & 1 != 0 ? 0xEDB8_8320 ^ (bitwise >> 1) : bitwise >> 1 }
        }
        #expect(CRC32.checksum(bytes) == ~bitwise, "\(count) bytes")
        // Continuing over parts equals one pass, as the PNG writer continues over a chunk's type and data.
        let split = count / 3
        let first = bytes[..<split].withUnsafeBytes { CRC32.update(0, $0) }
        let both = bytes[split...].withUnsafeBytes { CRC32.update(first, $0) }
        #expect(both == ~bitwise)
        // An empty part changes nothing.
        #expect([UInt8]().withUnsafeBytes { CRC32.update(both, $0) } == both)
    }
}

@Suite struct Adler32Tests {
    func adler(_ bytes: [UInt8]) -> UInt32 {
        var a = Adler32()
        bytes.withUnsafeBufferPointer { a.add($0) }
        return a.value
    }

    @Test func knownVectors() {
        #expect(adler([]) == 1)
        #expect(adler(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(adler(Array("abc".utf8)) == 0x024D_0127)
        // 5552 bytes of 255 is zlib's largest block between reductions; 100,000 forces many reductions.
        #expect(adler([UInt8](repeating: 255, count: 100_000)) == 0x149A_302C)
    }

    @Test func sparseBytesEqualByteByByte() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<200 {
            let count = Int.random(in: 0...300, using: &random)
            let density = Double.random(in: 0...0.3, using: &random)
            let bytes = (0..<count).map { _ in
                Double.random(in: 0...1, using: &random) < density ? UInt8.random(in: 1...255, using: &random) : 0
            }
            var sparse = Adler32()
            sparse.add(3)
            bytes.withUnsafeBufferPointer { sparse.add(sparse: $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: count) }
            sparse.reduce()
            #expect(sparse.value == adler([3] + bytes))
        }
    }

    @Test(arguments: [0, 1, 2, 3, 258, 5552, 65521, 65522, 1 << 17])
    func runsInConstantTimeEqualByteByByte(count: Int) {
        for value: UInt8 in [0, 1, 128, 255] {
            var folded = Adler32()
            folded.add(7)
            folded.add(run: value, count: count)
            folded.add(9)
            folded.reduce()
            #expect(folded.value == adler([7] + [UInt8](repeating: value, count: count) + [9]))
        }
    }
}
