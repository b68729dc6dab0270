// SPDX-License-Identifier: Apache-2.0

extension Color {
    /// Parses a CSS colour as web pages write a pen colour (CSS Color Level 4, sRGB forms).
    ///
    /// Accepted, case-insensitive, with surrounding white space ignored:
    /// - the 148 named colours (`navy`, `crimson`, `rebeccapurple`, ...) and `transparent`;
    /// - `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`;
    /// - `rgb()` / `rgba()` with commas or spaces, channels as numbers `0...255` or percentages, and the
    ///   alpha as a fourth comma argument or after `/`, as a number `0...1` or a percentage;
    /// - `hsl()` / `hsla()` with the hue in degrees (a bare number, or `deg`, `rad`, `grad`, `turn`) and
    ///   saturation and lightness as percentages (or bare numbers, read as percentages), alpha as for `rgb()`.
    ///
    /// Out-of-range channels are clamped, as browsers do; channels are rounded to the nearest 8-bit value.
    /// `currentcolor`, system colours and other colour spaces (`lab()`, `color()`, ...) are refused.
    /// - Parameter css: the colour text, such as `rgb(13, 26, 102)` or `hsl(210 80% 30% / 0.5)`.
    /// - Returns: the colour, or `nil` when the text is not one of the forms above.
    public init?(css: String) {
        let text = css.lowercased().trimmingWhiteSpace
        guard !text.isEmpty else { return nil }
        if text.first == "#" {
            guard let c = Color.parseHex(text.dropFirst()) else { return nil }
            self = c
        } else if let open = text.firstIndex(of: "("), text.last == ")" {
            let name = String(text[..<open]).trimmingWhiteSpace
            let body = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            guard let c = Color.parseFunction(String(name), body) else { return nil }
            self = c
        } else if text == "transparent" {
            self = .clear
        } else if let rgb = CSSNamedColors.value(named: String(text)) {
            self.init(red: UInt8(rgb >> 16), green: UInt8(rgb >> 8 & 0xff), blue: UInt8(rgb & 0xff))
        } else {
            return nil
        }
    }

    /// `rgb`, `rgba`, `rrggbb` or `rrggbbaa` hex digits (without the `#`).
    private static func parseHex(_ s: Substring) -> Color? {
        guard [3, 4, 6, 8].contains(s.count), s.allSatisfy(\.isHexDigit) else { return nil }
        let digits = s.compactMap(\.hexDigitValue).map(UInt8.init)
        if s.count <= 4 {
            let c = digits.map { $0 * 17 }
            return Color(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 255)
        }
        let c = stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 255)
    }

    /// `rgb()`, `rgba()`, `hsl()` or `hsla()` with their argument text.
    private static func parseFunction(_ name: String, _ body: String) -> Color? {
        guard let args = CSSArguments(body) else { return nil }
        let alpha: Double
        if let a = args.alpha {
            guard let v = a.percent.map({ $0 / 100 }) ?? a.plain else { return nil }
            alpha = v
        } else {
            alpha = 1
        }
        switch name {
        case "rgb", "rgba":
            var channels: [Double] = []
            for v in args.values {
                if let p = v.percent { channels.append(p / 100) } else if let n = v.plain { channels.append(n / 255) } else { return nil }
            }
            return Color(unit: channels, alpha: alpha)
        case "hsl", "hsla":
            guard let hue = args.values[0].degrees else { return nil }
            guard let s = args.values[1].percent ?? args.values[1].plain,
                  let l = args.values[2].percent ?? args.values[2].plain else { return nil }
            return Color(unit: hslToRGB(hue: hue, saturation: s / 100, lightness: l / 100), alpha: alpha)
        default:
            return nil
        }
    }

    /// The sRGB channels, `0...1` each, of a colour given as hue (degrees), saturation and lightness (`0...1`),
    /// following CSS Color 4's `hslToRgb`.
    private static func hslToRGB(hue: Double, saturation: Double, lightness: Double) -> [Double] {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        let s = Swift.min(1, Swift.max(0, saturation)), l = Swift.min(1, Swift.max(0, lightness))
        func channel(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * Swift.min(l, 1 - l)
            return l - a * Swift.max(-1, Swift.min(k - 3, 9 - k, 1))
        }
        return [channel(0), channel(8), channel(4)]
    }

    /// A colour from three channels and an alpha in `0...1` (clamped; NaN reads as 0), rounded to 8 bits.
    private init?(unit channels: [Double], alpha: Double) {
        guard channels.count == 3, channels.allSatisfy(\.isFinite), alpha.isFinite else { return nil }
        func byte(_ v: Double) -> UInt8 { UInt8((Swift.min(1, Swift.max(0, v)) * 255).rounded()) }
        self.init(red: byte(channels[0]), green: byte(channels[1]), blue: byte(channels[2]), alpha: byte(alpha))
    }
}

/// The arguments of a CSS colour function: three values and an optional alpha, in the comma syntax
/// (`1, 2, 3` or `1, 2, 3, 0.5`) or the space syntax (`1 2 3` or `1 2 3 / 0.5`).
private struct CSSArguments {
    /// One argument: a number with an optional unit (`%`, `deg`, ...).
    struct Value {
        var number: Double
        var unit: Substring

        init?(_ text: Substring) {
            // The unit is the run of letters or `%` at the end; what comes before it must be a number.
            var split = text.endIndex
            while split > text.startIndex {
                let c = text[text.index(before: split)]
                guard c.isLetter || c == "%" else { break }
                split = text.index(before: split)
            }
            // Read from a String: `Double`'s generic reading of a Substring runs unspecialized, and its first use
            // looks a witness up by name, a scan of every protocol conformance in the binary (0.4 M instructions).
            guard let v = Double(String(text[..<split])), v.isFinite else { return nil }
            number = v
            unit = text[split...]
        }

        /// The value as a bare number; `nil` when it has a unit.
        var plain: Double? { unit.isEmpty ? number : nil }
        /// The value of a percentage; `nil` when it is not one.
        var percent: Double? { unit == "%" ? number : nil }
        /// A hue in degrees: a bare number or one with an angle unit.
        var degrees: Double? {
            let n = number
            switch unit {
            case "", "deg": return n
            case "rad": return n * 180 / Double.pi
            case "grad": return n * 0.9
            case "turn": return n * 360
            default: return nil
            }
        }
    }

    var values: [Value]
    var alpha: Value?

    init?(_ body: String) {
        let text = Substring(body).trimmingWhiteSpace
        var parts: [Substring]
        var alphaText: Substring?
        if text.contains(",") {
            parts = text.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmingWhiteSpace)
            guard parts.count == 3 || parts.count == 4 else { return nil }
            if parts.count == 4 { alphaText = parts.removeLast() }
        } else {
            let halves = text.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count <= 2 else { return nil }
            parts = halves[0].split(whereSeparator: \.isWhitespace)
            guard parts.count == 3 else { return nil }
            if halves.count == 2 { alphaText = halves[1].trimmingWhiteSpace }
        }
        var values: [Value] = []
        for p in parts {
            guard let v = Value(p) else { return nil }
            values.append(v)
        }
        self.values = values
        if let alphaText {
            guard let a = Value(alphaText), a.unit.isEmpty || a.unit == "%" else { return nil }
            alpha = a
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space.
    fileprivate var trimmingWhiteSpace: Substring {
        let s = Substring(self)
        guard let first = s.firstIndex(where: { !$0.isWhitespace }),
              let last = s.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return s[first...last]
    }
}
