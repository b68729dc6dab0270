// SPDX-License-Identifier: Apache-2.0

/// The Adler-32 checksum that ends a zlib stream (RFC 1950, section 8.2), folded in as the deflater scans.
///
/// Runs of one byte value are added in constant time: after `n` more bytes of value `v`,
/// `s2 += n * s1 + v * n * (n + 1) / 2` and `s1 += n * v`. The sums are kept unreduced in 64 bits and
/// reduced modulo 65521 by ``reduce()``, which the caller invokes at least every 2^24 bytes (then
/// `s1 < 2^33` and `s2 < 2^57`, so nothing overflows).
struct Adler32 {
    /// The largest prime below 2^16 (RFC 1950).
    static let modulus: UInt64 = 65521
    /// Most bytes that may be added between calls to ``reduce()`` without overflowing 64 bits.
    static let bytesBetweenReductions = 1 << 24

    /// Sum of the bytes plus one, not yet reduced.
    var s1: UInt64 = 1
    /// Sum of the running `s1` values, not yet reduced.
    var s2: UInt64 = 0

    /// Adds one byte.
    @inline(__always) mutating func add(_ byte: UInt8) {
        s1 &+= UInt64(byte)
        s2 &+= s1
    }

    /// Adds `count` bytes that all have value `byte`.
    @inline(__always) mutating func add(run byte: UInt8, count: Int) {
        let n = UInt64(count)
        s2 &+= n &* s1 &+ UInt64(byte) &* (n &* (n &+ 1) / 2)
        s1 &+= n &* UInt64(byte)
    }

    /// Adds `bytes`.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < bytes.count {
            let end = Swift.min(bytes.count, i + 5552)  // zlib's NMAX: s2 stays below 2^32 per step
            while i < end { add(bytes[i]); i += 1 }
            reduce()
        }
    }

    /// Adds `count` bytes at `p`, 32 or 8 zeros at a time in constant time; `count` at most
    /// ``bytesBetweenReductions`` since the last ``reduce()``.
    mutating func add(sparse p: UnsafePointer<UInt8>, count: Int) {
        @inline(__always) func word(_ i: Int) -> UInt64 { UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) }
        var i = 0
        while i + 8 <= count {
            if i + 32 <= count, word(i) | word(i + 8) | word(i + 16) | word(i + 24) == 0 {
                s2 &+= 32 &* s1
                i += 32
                continue
            }
            if word(i) == 0 {
                s2 &+= 8 &* s1
            } else {
                for k in i..<(i + 8) { add(p[k]) }
            }
            i += 8
        }
        while i < count {
            add(p[i])
            i += 1
        }
    }

    /// Reduces both sums modulo 65521.
    @inline(__always) mutating func reduce() {
        s1 %= Self.modulus
        s2 %= Self.modulus
    }

    /// The checksum of everything added: `s2 << 16 | s1`, both reduced.
    var value: UInt32 {
        UInt32(s2 % Self.modulus) << 16 | UInt32(s1 % Self.modulus)
    }
}
