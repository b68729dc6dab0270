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

    /// `s` as a quoted JSON string.
    public static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
