// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// What is drawn with the ink, as the SAP Fiori signature component offers: a signature line, an "X" mark,
/// a watermark text and a timestamp.
///
/// Positions are proportional to the output box so the same options suit any size: the line runs from 6 % to
/// 94 % of the width at 78 % of the height, the "X" sits on the line at its left end, the watermark is centred
/// behind the ink, and the timestamp is right-aligned under the line (or at the bottom without one).
public struct Decorations: Sendable, Hashable {
    /// Whether to draw the signature line; default `false`.
    public var signatureLine: Bool
    /// Whether to draw an "X" at the left end of the line; default `false`.
    public var xMark: Bool
    /// Text drawn large and faint behind the ink, or `nil` for none; default `nil`. At most 200 characters.
    public var watermark: String?
    /// How to write the capture time under the line, or `nil` for no timestamp; default `nil`. The time is the
    /// signature's `startTime`; a signature without one gets no timestamp (the render time would make the
    /// output differ from run to run).
    public var timestamp: TimestampFormat?
    /// Colour of the line and the "X"; default `#757575` (a mid grey that prints on white and dark paper).
    public var lineColor: Color
    /// Colour of the timestamp text; default `#616161`.
    public var textColor: Color
    /// Colour of the watermark text; default black at 12 % opacity.
    public var watermarkColor: Color

    /// Creates decorations; every argument defaults to the documented default (nothing drawn).
    /// - Parameters:
    ///   - signatureLine: draw the line, default `false`.
    ///   - xMark: draw the "X", default `false`.
    ///   - watermark: watermark text, at most 200 characters, default `nil`.
    ///   - timestamp: timestamp format, default `nil` (none).
    ///   - lineColor: line and "X" colour, default `#757575`.
    ///   - textColor: timestamp colour, default `#616161`.
    ///   - watermarkColor: watermark colour, default black at alpha 31 (12 %).
    public init(signatureLine: Bool = false, xMark: Bool = false, watermark: String? = nil,
                timestamp: TimestampFormat? = nil,
                lineColor: Color = Color(red: 0x75, green: 0x75, blue: 0x75),
                textColor: Color = Color(red: 0x61, green: 0x61, blue: 0x61),
                watermarkColor: Color = Color(red: 0, green: 0, blue: 0, alpha: 31)) {
        self.signatureLine = signatureLine
        self.xMark = xMark
        self.watermark = watermark
        self.timestamp = timestamp
        self.lineColor = lineColor
        self.textColor = textColor
        self.watermarkColor = watermarkColor
    }

    /// Whether anything would be drawn for a signature with or without a capture time.
    func isEmpty(hasCaptureTime: Bool) -> Bool {
        !signatureLine && !xMark && (watermark ?? "").isEmpty && (timestamp == nil || !hasCaptureTime)
    }

    /// Throws when the watermark is too long to be a watermark.
    func validate() throws(RenderError) {
        if let w = watermark, w.count > Self.maxWatermarkLength {
            throw .invalidOption(option: "watermark", message: "is longer than \(Self.maxWatermarkLength) characters")
        }
    }

    /// The decorations' texts whose characters no font of the project's set has: the watermark, and the
    /// timestamp pattern's literal text and names. Each entry names the decoration and lists the characters
    /// (``TextCoverage/describe(_:)`` writes them for a person); empty when everything can be drawn.
    /// - Throws: ``RenderError/text(_:)`` when the fonts cannot be loaded.
    public func missingCharacters() throws(RenderError) -> [(decoration: String, characters: [Unicode.Scalar])] {
        var out: [(String, [Unicode.Scalar])] = []
        if let watermark {
            let missing = try TextCoverage.missingCharacters(in: watermark, font: TextFont(size: 12, bold: true))
            if !missing.isEmpty { out.append(("watermark", missing)) }
        }
        // Any time shows the pattern's literals; the month and day names are ASCII.
        if let text = timestamp?.string(millisecondsSince1970: 0) {
            let missing = try TextCoverage.missingCharacters(in: text)
            if !missing.isEmpty { out.append(("timestamp", missing)) }
        }
        return out
    }

    /// Longest watermark in characters.
    static let maxWatermarkLength = 200
}

/// Where the decorations go in an output box, in output units. Shared by the Cairo and SVG writers so every
/// format puts them in the same place.
struct DecorationLayout {
    /// Output box width and height.
    var width: Double
    var height: Double

    /// Fraction of the height where the line sits.
    static let lineHeightFraction = 0.78
    /// Fraction of the width left empty at each end of the line.
    static let lineInsetFraction = 0.06
    /// Line width of the signature line in output units.
    static let lineWidth = 1.0
    /// Stroke width of the "X" in output units.
    static let xMarkWidth = 1.5
    /// Timestamp font size in output units: small print, as on a printed form.
    static let timestampFontSize = 11.0

    /// The y of the line's centre, on a half unit so a one-unit line is crisp at scale 1.
    var lineY: Double { (height * Self.lineHeightFraction).rounded(.down) + 0.5 }
    var lineStartX: Double { width * Self.lineInsetFraction }
    var lineEndX: Double { width * (1 - Self.lineInsetFraction) }

    /// Side of the "X" square: an eighth of the height, between 6 and 24 units.
    var xMarkSize: Double { Swift.min(24, Swift.max(6, height / 8)) }
    /// The two strokes of the "X", standing on the line at its left end.
    var xMarkSegments: [(Point, Point)] {
        let s = xMarkSize, x0 = lineStartX, y1 = lineY - 4, y0 = y1 - s
        return [(Point(x0, y0), Point(x0 + s, y1)), (Point(x0 + s, y0), Point(x0, y1))]
    }

    /// Em size at which the watermark is measured before it is scaled to fit.
    static let watermarkReferenceSize = 100.0

    /// The watermark in bold, as large as fits in 80 % of the width and at most a quarter of the height: its
    /// width is measured with the fonts it is drawn in.
    func watermarkLine(_ text: String) throws(RenderError) -> TextLine {
        let reference = TextLine(text: text, font: TextFont(size: Self.watermarkReferenceSize, bold: true))
        let measured = try reference.metrics().width
        let fitting = measured > 0 ? width * 0.8 * Self.watermarkReferenceSize / measured : height / 4
        return TextLine(text: text, font: TextFont(size: Swift.max(1, Swift.min(height / 4, fitting)), bold: true))
    }

    /// Font size of the timestamp: the standard size, smaller in a small box.
    var timestampFontSize: Double { Swift.min(Self.timestampFontSize, Swift.max(4, height / 8)) }
    /// Right end of the timestamp's baseline: under the line when there is one, else at the bottom.
    func timestampAnchor(belowLine: Bool) -> Point {
        let size = timestampFontSize
        let y = belowLine ? Swift.min(height - 2, lineY + size + 3) : height - Swift.max(2, size / 2)
        return Point(lineEndX, y)
    }
}
