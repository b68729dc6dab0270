// SPDX-License-Identifier: Apache-2.0

extension Color {
    /// The CSS name of the colour, such as `crimson`, when it is opaque and one of the 148 named colours is exactly
    /// it; where two names give one colour (`gray` and `grey`, `aqua` and `cyan`), the first in alphabetical order.
    /// `nil` for any other colour. `Color(css:)` reads the name back as the same colour.
    public var cssName: String? {
        guard alpha == 255 else { return nil }
        return Self.namesByValue[UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)]
    }

    /// Each named colour's value to its alphabetically first name.
    private static let namesByValue: [UInt32: String] = {
        var names: [UInt32: String] = [:]
        // In byte order, so the first name a value gets is its alphabetically first.
        for (name, value) in CSSNamedColors.entries where names[value] == nil { names[value] = name.description }
        return names
    }()
}
