// SPDX-License-Identifier: Apache-2.0

/// An sRGB colour with straight (not premultiplied) alpha, 8 bits a channel: the ink and background colours.
public struct Color: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the `#` is optional, case-insensitive); `nil` for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6 || s.count == 8, s.allSatisfy(\.isHexDigit), let v = UInt32(s, radix: 16) else {
            return nil
        }
        if s.count == 6 {
            self.init(red: UInt8(v >> 16 & 0xff), green: UInt8(v >> 8 & 0xff), blue: UInt8(v & 0xff))
        } else {
            self.init(red: UInt8(v >> 24), green: UInt8(v >> 16 & 0xff), blue: UInt8(v >> 8 & 0xff),
                      alpha: UInt8(v & 0xff))
        }
    }

    /// Opaque black, the default ink.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var description: String {
        func h(_ v: UInt8) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        return "#" + h(red) + h(green) + h(blue) + (alpha == 255 ? "" : h(alpha))
    }

    /// The same colour with its opacity multiplied by `factor` (clamped to 0...1).
    public func withOpacity(_ factor: Double) -> Color {
        let f = Swift.min(1, Swift.max(0, factor.isNaN ? 1 : factor))
        return Color(red: red, green: green, blue: blue, alpha: UInt8((Double(alpha) * f).rounded()))
    }
}
