// SPDX-License-Identifier: Apache-2.0

/// Small helpers to write JSON text by hand: shortest round-trip numbers and escaped strings.
public enum JSONText {
    /// The shortest text that reads back as exactly `v`; integers without a fraction. `v` must be finite.
    public static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 9.007_199_254_740_992e15 {
            return v == 0 ? "0" : String(Int64(v))
        }
        return v.description
    }

    /// The shortest text that reads back as exactly `v` when parsed as a `Float`. `v` must be finite.
    public static func number(_ v: Float) -> String {
        if v == v.rounded(), abs(v) < 16_777_216 { return v == 0 ? "0" : String(Int32(v)) }
        return v.description
    }

    /// Appends the UTF-8 text of ``number(_:)-(Double)`` to `out`: an integer, or a number with at most four digits
    /// after the point, without making a `String` of it.
    public static func appendNumber(_ v: Double, to out: inout [UInt8]) {
        if v == v.rounded(), abs(v) < 9.007_199_254_740_992e15 { return appendInteger(v == 0 ? 0 : Int64(v), to: &out) }
        if let (m, k) = shortFraction(v) { return appendFraction(UInt64(m), digits: k, negative: v < 0, to: &out) }
        var text = v.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends the UTF-8 text of ``number(_:)-(Float)`` to `out`, as the `Double` form does.
    public static func appendNumber(_ v: Float, to out: inout [UInt8]) {
        if v == v.rounded(), abs(v) < 16_777_216 { return appendInteger(v == 0 ? 0 : Int64(Int32(v)), to: &out) }
        if let (m, k) = shortFraction(v) { return appendFraction(UInt64(m), digits: k, negative: v < 0, to: &out) }
        var text = v.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// `|v| * 10^k` as a whole number `m`, and `k`, when one to four digits after the point are the shortest text that
    /// reads back as `v` (a coordinate in hundredths, a time in thousandths of a millisecond); `nil` for any other
    /// value. `m / 10^k` is then the text `v.description` writes.
    ///
    /// The text with `k` digits after the point nearest to `v` is `m / 10^k` with `m = (v * 10^k).rounded()`; it
    /// reads back as `v` exactly when `m / 10^k == v` in the type, since `m` and `10^k` are exact and IEEE division
    /// rounds correctly, as a correct reader does. The first `k` that reads back gives the fewest digits, and of the
    /// texts of `k` digits it is the nearest to `v`: the text `description` picks too (the shortest, then the
    /// nearest). Below 2^50 (2^21 for `Float`), the product and the quotient are far from the integers' limit.
    /// `description` made a `String` of each number: 717 instructions a number for a consent's two signatures
    /// (2,706 numbers).
    @inline(__always)
    private static func shortFraction<F: BinaryFloatingPoint>(_ v: F) -> (m: F, k: Int)? {
        let limit: F = F.significandBitCount > 23 ? 0x1p50 : 0x1p21
        let magnitude = v.magnitude
        var scale: F = 1
        for k in 1...4 {
            scale *= 10
            let m = (magnitude * scale).rounded()
            guard m < limit else { return nil }
            if m / scale == magnitude { return (m, k) }
        }
        return nil
    }

    /// Appends `m / 10^k` with its `k` digits after the point, negated when `negative`.
    private static func appendFraction(_ m: UInt64, digits k: Int, negative: Bool, to out: inout [UInt8]) {
        if negative { out.append(UInt8(ascii: "-")) }
        var unit: UInt64 = 1
        for _ in 0..<k { unit *= 10 }
        appendDigits(m / unit, width: 1, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(m % unit, width: k, to: &out)
    }

    /// Appends `n` in decimal, as `String(n)` writes it.
    private static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(n.magnitude, width: 1, to: &out)
    }

    /// Appends `m` in decimal, with zeros before it to make at least `width` digits (at most 20).
    ///
    /// The digits are set down in a buffer on the stack and appended at once: reversing them in place through a
    /// slice of `out` made a copy of `out`, 795 instructions a number for a consent's record.
    private static func appendDigits(_ m: UInt64, width: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var i = 20, rest = m
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0 || 20 - i < width
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i...]))
        }
    }

    /// `s` as a quoted JSON string.
    public static func string(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` to `out` as a quoted JSON string, as the `[UInt8]` form does.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendString($0, to: &out) }
    }

    /// Appends the UTF-8 text `utf8` to `out` as a quoted JSON string: `"` and `\` escaped, `\n`, `\r` and `\t` by
    /// name, other control characters as `\u00XX`, everything else (`/` and all of Unicode) as it is.
    ///
    /// Written here rather than with Foundation's `JSONEncoder` because its string writer was 21 % of the server's
    /// time answering one consent, whose record is 27 KB of JSON text (BENCHMARKS.md has the figures): this one
    /// copies each run of bytes without an escape whole.
    public static func appendString(_ utf8: [UInt8], to out: inout [UInt8]) {
        utf8.withUnsafeBufferPointer { appendString($0, to: &out) }
    }

    private static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + utf8.count + 2)
        out.append(UInt8(ascii: "\""))
        var run = 0
        for i in 0..<utf8.count {
            let byte = utf8[i]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            }
            run = i + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        out.append(UInt8(ascii: "\""))
    }
}
