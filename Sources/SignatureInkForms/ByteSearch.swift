// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding bytes in a file's bytes, fast: what signing does to find its placeholders, and a sealed consent to find
/// the field it fills in its record.
package enum ByteSearch {
    /// The offset of `needle` in `bytes` at or after `start`: `memchr` for its first byte, `memcmp` for the rest. The
    /// collections' generic `firstRange(of:)` (Foundation's, for byte arrays) took 2.5 ms to find a signature's
    /// placeholder in a 70 KB consent PDF, longer than the rest of the seal.
    package static func offset(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start >= 0 else { return nil }
        return bytes.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { pattern -> Int? in
                guard let base = haystack.baseAddress, let rest = pattern.baseAddress else { return nil }
                var at = start
                while at + pattern.count <= haystack.count {
                    guard let hit = memchr(base + at, Int32(first), haystack.count - pattern.count + 1 - at) else { return nil }
                    at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + at, rest, pattern.count) == 0 { return at }
                    at += 1
                }
                return nil
            }
        }
    }
}
