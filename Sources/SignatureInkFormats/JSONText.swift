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

    /// Appends the UTF-8 text of ``number(_:)-(Double)`` to `out`, an integer without making a `String` of it.
    public static func appendNumber(_ v: Double, to out: inout [UInt8]) {
        if v == v.rounded(), abs(v) < 9.007_199_254_740_992e15 { return appendInteger(v == 0 ? 0 : Int64(v), to: &out) }
        var text = v.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends the UTF-8 text of ``number(_:)-(Float)`` to `out`, an integer without making a `String` of it.
    public static func appendNumber(_ v: Float, to out: inout [UInt8]) {
        if v == v.rounded(), abs(v) < 16_777_216 { return appendInteger(v == 0 ? 0 : Int64(Int32(v)), to: &out) }
        var text = v.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends `n` in decimal, as `String(n)` writes it.
    private static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        let start = out.count
        var m = n.magnitude
        repeat {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10))
            m /= 10
        } while m > 0
        out[start...].reverse()
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
