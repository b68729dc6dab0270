// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Writes a W3C InkML document that ``InkMLDecoder`` reads back without loss.
///
/// ```xml
/// <ink xmlns="http://www.w3.org/2003/InkML">
/// <annotation type="signature-ink:canvas">600 300 96</annotation>
/// <definitions>
/// <context xml:id="ctx0"><traceFormat>
///   <channel name="X" type="decimal"/><channel name="Y" type="decimal"/>
///   <channel name="T" type="decimal" units="ms" respectTo="#ts0"/>
///   <channel name="F" type="decimal" min="0" max="1"/>
/// </traceFormat></context>
/// <brush xml:id="br0"><brushProperty name="color" value="black"/></brush>
/// <timestamp xml:id="ts0" time="1763781117123"/>
/// </definitions>
/// <traceGroup contextRef="#ctx0" brushRef="#br0">
/// <trace>10 20 0 0.5, '2 '1 '8 0.52</trace>
/// </traceGroup>
/// </ink>
/// ```
/// X and Y are canvas units (no `units`), T milliseconds after the `<timestamp>` holding the start time,
/// F `0...1`, OE (altitude) and OA (azimuth) radians; F, OE and OA appear when any sample has them, and a
/// sample without one writes `?`. After a trace's first point, each X, Y and T value is a first difference
/// (`'`) when that reads back exactly and is no longer, else explicit (`!`). Numbers
/// are the shortest text that reads back as the same value. Each distinct pen (`Signature.pens`) becomes a
/// `<brush>` (see ``brushProperties(_:)``): colour, transparency, width and tip for any InkML reader, and the whole
/// pen in a `signature-ink:pen` property when those do not say it all, so every pen reads back as it was. Metadata
/// becomes `<annotation type="key">value</annotation>`.
struct InkMLEncoder {
    func encode(_ signature: Signature) throws(FormatError) -> String {
        let samples = signature.samples
        let hasF = samples.contains { $0.pressure != nil }
        let hasOE = samples.contains { $0.altitude != nil }
        let hasOA = samples.contains { $0.azimuth != nil }

        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ink xmlns=\"http://www.w3.org/2003/InkML\">\n"
        if let c = signature.canvas {
            try checkFinite(c.width, "canvas.width"); try checkFinite(c.height, "canvas.height")
            try checkFinite(c.unitsPerInch, "canvas.unitsPerInch")
            out += "<annotation type=\"\(InkMLDecoder.canvasAnnotation)\">"
            out += "\(JSONText.number(c.width)) \(JSONText.number(c.height)) \(JSONText.number(c.unitsPerInch))</annotation>\n"
        }
        if signature.metadata[InkMLDecoder.canvasAnnotation] != nil {
            throw .unencodable("metadata key \(InkMLDecoder.canvasAnnotation) is reserved for the canvas")
        }
        for (key, value) in signature.metadata.sorted(by: { $0.key < $1.key }) {
            out += "<annotation type=\"\(try Self.escape(key, attribute: true))\">\(try Self.escape(value, attribute: false))</annotation>\n"
        }

        out += "<definitions>\n<context xml:id=\"ctx0\">\n<traceFormat>\n"
        out += "<channel name=\"X\" type=\"decimal\"/>\n<channel name=\"Y\" type=\"decimal\"/>\n"
        out += "<channel name=\"T\" type=\"decimal\" units=\"ms\""
        out += signature.startTime == nil ? "/>\n" : " respectTo=\"#ts0\"/>\n"
        if hasF { out += "<channel name=\"F\" type=\"decimal\" min=\"0\" max=\"1\"/>\n" }
        if hasOE { out += "<channel name=\"OE\" type=\"decimal\" units=\"rad\"/>\n" }
        if hasOA { out += "<channel name=\"OA\" type=\"decimal\" units=\"rad\"/>\n" }
        out += "</traceFormat>\n</context>\n"

        // One brush per distinct pen, the first stroke's as br0; a stroke without a recorded pen gets the default one.
        var brushes: [Pen] = []
        var strokeBrush: [Int] = []
        if !signature.pens.isEmpty {
            for i in 0..<signature.strokeCount {
                let pen = signature.pen(ofStroke: i) ?? Pen()
                if let k = brushes.firstIndex(of: pen) {
                    strokeBrush.append(k)
                } else {
                    strokeBrush.append(brushes.count)
                    brushes.append(pen)
                }
            }
        } else {
            strokeBrush = Array(repeating: 0, count: signature.strokeCount)
        }
        for (k, pen) in brushes.enumerated() {
            out += "<brush xml:id=\"br\(k)\">" + (try Self.brushProperties(pen)) + "</brush>\n"
        }
        if let start = signature.startTime {
            try checkFinite(start, "startTime")
            out += "<timestamp xml:id=\"ts0\" time=\"\(JSONText.number(start))\"/>\n"
        }
        out += "</definitions>\n<traceGroup contextRef=\"#ctx0\"\(brushes.isEmpty ? "" : " brushRef=\"#br0\"")>\n"

        for (i, stroke) in signature.strokes.enumerated() {
            out += strokeBrush[i] == 0 ? "<trace>" : "<trace brushRef=\"#br\(strokeBrush[i])\">"
            let x = try Self.column(stroke.map(\.x), "x")
            let y = try Self.column(stroke.map(\.y), "y")
            let t = try Self.column(stroke.map(\.t), "t")
            for (j, s) in stroke.enumerated() {
                if j > 0 { out += ", " }
                out += x[j] + " " + y[j] + " " + t[j]
                if hasF { out += " " + (try Self.optional(s.pressure, "pressure")) }
                if hasOE { out += " " + (try Self.optional(s.altitude, "altitude")) }
                if hasOA { out += " " + (try Self.optional(s.azimuth, "azimuth")) }
            }
            out += "</trace>\n"
        }
        out += "</traceGroup>\n</ink>\n"
        return out
    }

    /// The `<brushProperty>` elements of a brush drawing with `pen`: `color` (`#rrggbb`), `transparency` (255 minus
    /// the colour's alpha, when it is not opaque), `width` (the pen's constant width, else the mean of its widths,
    /// for other readers), `tip` when it is not round; and, when these do not give back exactly `pen`, the whole pen
    /// as the native format's pen object under ``InkMLDecoder/penProperty``.
    static func brushProperties(_ pen: Pen) throws(FormatError) -> String {
        var opaque = pen.color
        opaque.alpha = 255
        var out = "<brushProperty name=\"color\" value=\"\(opaque)\"/>"
        let transparency = pen.color.alpha == 255 ? nil : Double(255 - pen.color.alpha)
        if let transparency { out += "<brushProperty name=\"transparency\" value=\"\(JSONText.number(transparency))\"/>" }
        var width = pen.constantWidth
        if width == nil, let lo = pen.minWidth, let hi = pen.maxWidth, lo.isFinite, hi.isFinite, lo > 0, hi > 0 {
            width = (lo + hi) / 2
        }
        if let w = width {
            guard w.isFinite, w > 0 else { throw .unencodable("pen width \(w) is not a finite number > 0") }
            out += "<brushProperty name=\"width\" value=\"\(JSONText.number(w))\"/>"
        }
        if pen.tip != .ellipse { out += "<brushProperty name=\"tip\" value=\"\(pen.tip.rawValue)\"/>" }
        let standard = InkMLDecoder.pen(color: opaque, width: width, transparency: transparency,
                                        tip: pen.tip == .ellipse ? nil : pen.tip)
        if standard != pen {
            let json = try NativePen.json(pen)
            out += "<brushProperty name=\"\(InkMLDecoder.penProperty)\" value=\"\(try escape(json, attribute: true))\"/>"
        }
        return out
    }

    /// The text of one channel's values in a trace. After the first, each value is written as a first
    /// difference (`'`) when adding the written difference to the previous value gives back exactly the
    /// value and the text is no longer than the value's own, else explicitly (`!`).
    private static func column(_ values: [Double], _ name: String) throws(FormatError) -> [String] {
        var out: [String] = []
        out.reserveCapacity(values.count)
        for (j, v) in values.enumerated() {
            try checkFinite(v, name)
            let explicit = JSONText.number(v)
            if j == 0 {
                out.append(explicit)
                continue
            }
            let d = v - values[j - 1]
            let difference = JSONText.number(d)
            if d.isFinite, values[j - 1] + d == v, difference.utf8.count <= explicit.utf8.count {
                out.append("'" + difference)
            } else {
                out.append("!" + explicit)
            }
        }
        return out
    }

    private static func optional(_ v: Float?, _ name: String) throws(FormatError) -> String {
        guard let v else { return "?" }
        guard v.isFinite else { throw .unencodable("\(name) is \(v); InkML holds finite numbers only") }
        return JSONText.number(v)
    }

    /// `text` with the characters XML reserves written as references; in an attribute also white space
    /// other than a space, which a reader would otherwise turn into spaces.
    /// - Throws: ``FormatError/unencodable(_:)`` for a NUL character, which XML 1.0 cannot hold.
    static func escape(_ text: String, attribute: Bool) throws(FormatError) -> String {
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "\u{0}": throw .unencodable("a NUL character in metadata; XML cannot hold it")
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            case "\r": out += "&#13;"
            case "\n" where attribute: out += "&#10;"
            case "\t" where attribute: out += "&#9;"
            case _ where u.value < 0x20 && u != "\n" && u != "\t":
                out += "&#\(u.value);"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
