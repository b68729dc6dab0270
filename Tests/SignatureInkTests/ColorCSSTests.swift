// SPDX-License-Identifier: Apache-2.0
import SignatureInk
import Testing

/// `Color(css:)`: every form of CSS colour a web page gives signature_pad as `penColor`.
@Suite struct ColorCSSTests {
    static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> Color { Color(red: r, green: g, blue: b, alpha: a) }

    @Test(arguments: [
        ("black", rgb(0, 0, 0)), ("navy", rgb(0, 0, 128)), ("crimson", rgb(220, 20, 60)),
        ("RebeccaPurple", rgb(102, 51, 153)), ("  grey ", rgb(128, 128, 128)), ("lightgoldenrodyellow", rgb(250, 250, 210)),
        ("transparent", rgb(0, 0, 0, 0)),
        ("#000", rgb(0, 0, 0)), ("#1e88e5", rgb(30, 136, 229)), ("#C0392B80", rgb(192, 57, 43, 128)), ("#f008", rgb(255, 0, 0, 136)),
        ("rgb(13, 26, 102)", rgb(13, 26, 102)), ("rgb(13 26 102)", rgb(13, 26, 102)),
        ("rgba(0, 100, 0, 0.75)", rgb(0, 100, 0, 191)), ("rgb(0 100 0 / 75%)", rgb(0, 100, 0, 191)),
        ("rgb(100%, 50%, 0%)", rgb(255, 128, 0)), ("rgb(300, -5, 12.4)", rgb(255, 0, 12)),
        ("hsl(210, 80%, 30%)", rgb(15, 77, 138)), ("hsl(210deg 80% 30% / 0.5)", rgb(15, 77, 138, 128)),
        ("hsla(0.5turn, 100%, 50%, 1)", rgb(0, 255, 255)), ("hsl(-120, 100%, 50%)", rgb(0, 0, 255)),
    ])
    func readsTheForm(_ text: String, _ expected: Color) {
        #expect(Color(css: text) == expected, "\(text)")
    }

    @Test(arguments: ["", "bluish", "#12", "#12345", "#ggg", "rgb(1, 2)", "rgb(1 2 3 4)", "rgb(1, 2, 3) x",
                      "rgb(1px, 2, 3)", "hsl(10, 20%)", "lab(50% 40 59)", "currentcolor", "rgb(1, 2, 3, 0.5, 1)",
                      "rgb(1 2 3 / 4 / 5)", "rgb(nan, 1, 2)"])
    func refusesWhatIsNotACSSColour(_ text: String) {
        #expect(Color(css: text) == nil, "\(text)")
    }

    @Test func everyNamedColourIsKnownAndDistinctNamesAgreeWithTheirAliases() {
        // The aliases CSS defines (grey/gray, aqua/cyan, fuchsia/magenta) name the same colour.
        for (a, b) in [("grey", "gray"), ("darkslategrey", "darkslategray"), ("aqua", "cyan"), ("fuchsia", "magenta")] {
            #expect(Color(css: a) != nil && Color(css: a) == Color(css: b))
        }
        // A few whose CSS value differs from the X11 one of the same name.
        #expect(Color(css: "green") == Self.rgb(0, 128, 0))
        #expect(Color(css: "maroon") == Self.rgb(128, 0, 0))
        #expect(Color(css: "purple") == Self.rgb(128, 0, 128))
    }

    /// The names at both ends of the table, names that are prefixes of others, and their neighbours, read and named
    /// back; a name one letter off is not a colour.
    @Test func namesAtTheEndsAndPrefixesOfOthersAreFound() {
        let named: [(String, UInt32)] = [
            ("aliceblue", 0xF0F8FF), ("antiquewhite", 0xFAEBD7), ("aqua", 0x00FFFF), ("aquamarine", 0x7FFFD4),
            ("black", 0x000000), ("blue", 0x0000FF), ("blueviolet", 0x8A2BE2), ("navy", 0x000080), ("red", 0xFF0000),
            ("white", 0xFFFFFF), ("whitesmoke", 0xF5F5F5), ("yellow", 0xFFFF00), ("yellowgreen", 0x9ACD32),
        ]
        for (name, rgb) in named {
            let colour = Self.rgb(UInt8(rgb >> 16), UInt8(rgb >> 8 & 0xff), UInt8(rgb & 0xff))
            #expect(Color(css: name) == colour, "\(name)")
            #expect(Color(css: name.uppercased()) == colour, "\(name)")
            if name != "aqua" { #expect(colour.cssName == name, "\(name)") }
        }
        for text in ["aliceblu", "yellowgreenn", "a", "zzz", "blac", "blackk", "aquamarin"] {
            #expect(Color(css: text) == nil, "\(text)")
        }
    }

    @Test func hexFormsAgreeWithTheHexInitialiser() {
        for text in ["#000000", "#1a237e", "#1a237e80", "#FFFFFF"] {
            #expect(Color(css: text) == Color(hex: text))
            #expect(Color(css: Color(hex: text)!.description) == Color(hex: text))
        }
    }
}
