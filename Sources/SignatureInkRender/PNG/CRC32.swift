// SPDX-License-Identifier: Apache-2.0

/// The CRC-32 of ISO 3309 / ITU-T V.42 (reflected polynomial 0xEDB88320) that guards every PNG chunk.
///
/// Computed eight bytes at a time with eight 256-entry tables ("slicing-by-8", Kounavis and Berry,
/// "A Systematic Approach to Building High Performance Software-Based CRC Generators", 2005).
enum CRC32 {
    /// The reflected generator polynomial (PNG specification, annex D).
    static let polynomial: UInt32 = 0xEDB8_8320

    /// Eight tables of 256 entries, one after the other: table k advances a byte k positions further.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? polynomial ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = (previous >> 8) ^ t[Int(previous & 0xff)]
            }
        }
        return t
    }()

    /// Continues a CRC over `bytes`.
    /// - Parameters:
    ///   - crc: the CRC of the bytes before, 0 to start.
    ///   - bytes: the bytes to add.
    /// - Returns: the CRC of everything so far.
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard var p = bytes.baseAddress, !bytes.isEmpty else { return crc }
        var c = ~crc
        var n = bytes.count
        tables.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            while n >= 8 {
                let word = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ c
                let high = UInt32(truncatingIfNeeded: word >> 32)
                c = t[7 * 256 + Int(low & 0xff)] ^ t[6 * 256 + Int(low >> 8 & 0xff)]
                    ^ t[5 * 256 + Int(low >> 16 & 0xff)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xff)] ^ t[2 * 256 + Int(high >> 8 & 0xff)]
                    ^ t[1 * 256 + Int(high >> 16 & 0xff)] ^ t[Int(high >> 24)]
                p += 8
                n -= 8
            }
            while n > 0 {
                c = t[Int((c ^ UInt32(p.load(as: UInt8.self))) & 0xff)] ^ (c >> 8)
                p += 1
                n -= 1
            }
        }
        return ~c
    }

    /// The CRC of `bytes` alone.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBytes { update(0, $0) }
    }
}
