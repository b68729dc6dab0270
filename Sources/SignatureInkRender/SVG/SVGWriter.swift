// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Writes a ``Scene`` as a standalone SVG document whose `viewBox` is the output box in output units.
struct SVGWriter {
    /// The path data writer (precision) of the stroked decorations.
    var pathData = SVGPathData(decimals: 1)
    /// The path data writer of filled outlines (ink and text): the same precision, written in whole steps under
    /// a scale transform.
    private var fillData: SVGPathData { SVGPathData(decimals: pathData.decimals, inSteps: true) }
    /// One `<path>` per stroke instead of one for the whole signature.
    var pathPerStroke = false
    /// CSS pixels per output unit, for the `width` and `height` attributes.
    var cssPixelsPerUnit = 1.0

    /// The SVG document of `scene`.
    /// - Throws: ``RenderError/text(_:)`` when the decorations have text and the fonts cannot be loaded.
    func document(_ scene: Scene) throws(RenderError) -> String {
        let w = scene.layout.width, h = scene.layout.height
        let o = scene.options, d = o.decorations
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(w * cssPixelsPerUnit))\""
            + " height=\"\(Self.number(h * cssPixelsPerUnit))\" viewBox=\"0 0 \(Self.number(w)) \(Self.number(h))\">\n"
        if o.background.alpha > 0 {
            out += "<rect width=\"\(Self.number(w))\" height=\"\(Self.number(h))\"\(Self.paint("fill", o.background))/>\n"
        }
        // What an eraser may remove: the decorations and the ink, not the background.
        var body = ""
        let at = scene.decorationLayout
        let texts = try scene.decorationTexts()
        if let w = texts.watermark { body += try text(w) }
        if d.signatureLine {
            var line = Path()
            line.move(to: Point(at.lineStartX, at.lineY))
            line.line(to: Point(at.lineEndX, at.lineY))
            body += "<path fill=\"none\"\(Self.paint("stroke", d.lineColor)) stroke-width=\"\(Self.number(DecorationLayout.lineWidth))\""
                + " d=\"\(pathData.encode(line))\"/>\n"
        }
        if d.xMark {
            var x = Path()
            for (a, b) in at.xMarkSegments { x.move(to: a); x.line(to: b) }
            body += "<path fill=\"none\"\(Self.paint("stroke", d.lineColor)) stroke-width=\"\(Self.number(DecorationLayout.xMarkWidth))\""
                + " stroke-linecap=\"round\" d=\"\(pathData.encode(x))\"/>\n"
        }
        if let t = texts.timestamp { body += try text(t) }
        var defs = ""
        if scene.ink.isSinglePaint && scene.ink.fillBreaks.isEmpty {
            body += ink(scene.ink, color: scene.inkColor)
        } else {
            (defs, body) = paints(scene.ink, over: body, width: w, height: h)
        }
        if !defs.isEmpty { out += "<defs>\n" + defs + "</defs>\n" }
        if o.opacity < 1 {
            out += "<g opacity=\"\(Self.number(o.opacity, decimals: 3))\">\n" + body + "</g>\n"
        } else {
            out += body
        }
        out += "</svg>\n"
        return out
    }

    /// A line of text as its glyph outlines, filled, with the text itself as the element's accessible name.
    ///
    /// Outlines rather than `<text>`: a viewer draws them the same whether or not it has the fonts, and the
    /// shaping of Arabic or Devanagari is the one the PNG and PDF have, not the viewer's.
    private func text(_ t: Scene.PlacedText) throws(RenderError) -> String {
        let outline = try t.line.outline(anchor: t.anchor, at: t.point, through: t.shaped)
        return "<path role=\"img\" aria-label=\"\(Self.escape(t.line.text))\"\(Self.paint("fill", t.color))"
            + "\(fillData.transform) d=\"\(fillData.encode(outline))\"/>\n"
    }

    /// Farthest the SVG outline may be from the outline the PNG fills, in output units.
    static let maximumDeviation = 0.25

    /// The path data of ink, its straight runs simplified within what the rounding (half a step on each axis)
    /// leaves of ``maximumDeviation``, less a margin for the arithmetic: 0.15 units at one decimal, nothing at none.
    private func inkData(_ path: Path) -> String {
        let tolerance = Swift.max(0, Self.maximumDeviation - pathData.step * 0.5 * 2.0.squareRoot() - 0.03)
        return fillData.encode(path.simplifyingLines(tolerance: tolerance))
    }

    /// The ink as filled `<path>` elements, non-zero rule (SVG's default).
    private func ink(_ ink: InkGeometry, color: Color) -> String {
        let fill = "fill=\"\(Color(red: color.red, green: color.green, blue: color.blue).description)\""
        let opaque = color.alpha == 255
        let alpha = Self.number(Double(color.alpha) / 255, decimals: 3)
        let strokes = ink.strokeRanges.indices.filter { !ink.strokeRanges[$0].isEmpty }
        guard pathPerStroke, strokes.count > 1 else {
            guard !ink.path.isEmpty else { return "" }
            // One path: a translucent ink is one fill, so overlaps cannot darken.
            let opacity = opaque ? "" : " fill-opacity=\"\(alpha)\""
            return "<path \(fill)\(opacity)\(fillData.transform) d=\"\(inkData(ink.vectorPath(ink.path.elements.indices)))\"/>\n"
        }
        // Several paths: a translucent ink goes on a group, so overlaps between strokes cannot darken.
        var out = "<g \(fill)\(opaque ? "" : " opacity=\"\(alpha)\"")\(fillData.transform)>\n"
        for i in strokes { out += "<path d=\"\(inkData(ink.vectorPath(ink.strokeRanges[i])))\"/>\n" }
        return out + "</g>\n"
    }

    /// Ink of several colours, with erasers or with translucent signature_pad pens: one `<path>` per run of
    /// strokes with the same paint, in order (per curve for a translucent signature_pad pen, whose ink builds up
    /// where its curves overlap, as on the page).
    /// An erasing run becomes a mask over everything before it (white keeps, its path in black at the eraser's
    /// opacity removes), the same as canvas `destination-out`.
    /// - Parameter before: what is drawn before the ink (decorations), which an eraser may remove too.
    /// - Returns: the masks for `<defs>` (empty without erasers) and the body with the ink.
    private func paints(_ ink: InkGeometry, over before: String, width: Double, height: Double) -> (defs: String, body: String) {
        var body = before
        var masks = ""
        for (k, run) in ink.paints.enumerated() where !run.elements.isEmpty {
            switch run.blend {
            case .normal where ink.fills(of: run).count > 1:
                // Translucent signature_pad ink: one path per curve, so it builds up where they overlap.
                body += "<g\(Self.paint("fill", run.color))\(fillData.transform)>\n"
                for fill in ink.fills(of: run) {
                    body += "<path d=\"\(inkData(ink.vectorPath(fill)))\"/>\n"
                }
                body += "</g>\n"
            case .normal:
                body += "<path\(Self.paint("fill", run.color))\(fillData.transform) d=\"\(inkData(ink.vectorPath(run.elements)))\"/>\n"
            case .erase:
                let id = "erase\(k)"
                let alpha = run.color.alpha == 255 ? "" : " fill-opacity=\"\(Self.number(Double(run.color.alpha) / 255, decimals: 3))\""
                masks += "<mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"\(Self.number(width))\""
                    + " height=\"\(Self.number(height))\"><rect width=\"\(Self.number(width))\" height=\"\(Self.number(height))\""
                    + " fill=\"#ffffff\"/><path fill=\"#000000\"\(alpha)\(fillData.transform) d=\"\(inkData(ink.vectorPath(run.elements)))\"/></mask>\n"
                body = "<g mask=\"url(#\(id))\">\n" + body + "</g>\n"
            }
        }
        return (masks, body)
    }

    /// ` fill="#rrggbb"` (or stroke), with an opacity attribute when the colour is translucent.
    static func paint(_ attribute: String, _ c: Color) -> String {
        let rgb = Color(red: c.red, green: c.green, blue: c.blue).description
        let s = " \(attribute)=\"\(rgb)\""
        return c.alpha == 255 ? s : s + " \(attribute)-opacity=\"\(number(Double(c.alpha) / 255, decimals: 3))\""
    }

    /// A number with at most `decimals` decimals and no trailing zeros.
    static func number(_ v: Double, decimals: Int = 2) -> String {
        let ticks = (v * [1.0, 10, 100, 1000, 10000][decimals]).rounded()
        guard ticks.isFinite, abs(ticks) < 1e15 else { return "0" }  // never reached: layouts are checked first
        return SVGPathData(decimals: decimals).format(Int(ticks)).replacingLeadingDot()
    }

    /// Text escaped for XML character data and attribute values.
    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 has no control characters besides tab and newline.
                if ch.value < 0x20 && ch != "\t" && ch != "\n" { continue }
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}

private extension String {
    /// `.5` as `0.5` for attributes, which some XML tools read more happily; `-.5` as `-0.5`.
    func replacingLeadingDot() -> String {
        if hasPrefix(".") { return "0" + self }
        if hasPrefix("-.") { return "-0" + dropFirst() }
        return self
    }
}
