// SPDX-License-Identifier: Apache-2.0

/// A canonical byte encoding of a signature's strokes and samples: the input of a record's digest
/// (``SignatureRecord/canonicalSamples``).
///
/// Layout, all little-endian: the ASCII tag `signature-ink samples 1`, the stroke count (UInt32), then per stroke
/// its sample count (UInt32) and per sample the IEEE 754 bits of x, y and t (UInt64 each) followed by pressure,
/// altitude and azimuth, each as a presence byte (0 or 1) and, when present, its Float bits (UInt32); negative
/// zero is written as zero, since the model treats them as equal. Any change
/// to any sample changes the encoding; the same samples always give the same bytes, whatever file they came from.
public enum CanonicalSamples {
    /// The encoding of `signature`'s strokes.
    public static func encode(_ signature: Signature) -> [UInt8] {
        var out = Array("signature-ink samples 1".utf8)
        out.reserveCapacity(out.count + 4 + signature.strokeCount * 4 + signature.samples.count * 39)
        func put32(_ v: UInt32) { for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
        func put64(_ v: UInt64) { for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func putDouble(_ v: Double) { put64(v == 0 ? 0 : v.bitPattern) }
        func putOptional(_ v: Float?) {
            if let v { out.append(1); put32(v == 0 ? 0 : v.bitPattern) } else { out.append(0) }
        }
        put32(UInt32(truncatingIfNeeded: signature.strokeCount))
        for stroke in signature.strokes {
            put32(UInt32(truncatingIfNeeded: stroke.count))
            for s in stroke {
                putDouble(s.x); putDouble(s.y); putDouble(s.t)
                putOptional(s.pressure); putOptional(s.altitude); putOptional(s.azimuth)
            }
        }
        return out
    }
}
