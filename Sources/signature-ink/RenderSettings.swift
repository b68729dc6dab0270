// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import SignatureInk
import SignatureInkRender

/// How a signature is drawn, as plain values: what ``RenderFlags`` parsed, or the defaults for a command line
/// that gives no render flag (``QuickRender``). Each field is the flag of the same name; `nil` and `false` mean the flag
/// was not given.
struct RenderSettings: Equatable, Sendable {
    var format: String?
    var scale: Double = 1
    var penColor: String?
    var background: String = "transparent"
    var penWidth: Double?
    var minWidth: Double?
    var maxWidth: Double?
    var width: Double?
    var height: Double?
    var fit = false
    var crop = false
    var padding: Double = 16
    var viewMode = false
    var opacity: Double?
    var signatureLine = false
    var xMark = false
    var watermark: String?
    var timestamp = false
    var timestampPattern: String?
    var dpi: Double?
    var pathPerStroke = false

    /// Every flag left out.
    static let defaults = RenderSettings()

    /// The formats `--format` takes.
    static let formats = ["png", "svg", "pdf"]

    func validate() throws {
        if let format, !Self.formats.contains(format) {
            throw ValidationError("Unknown --format \(format); expected png, svg or pdf.")
        }
        if fit && crop { throw ValidationError("Give either --fit or --crop, not both.") }
        if crop && (width != nil || height != nil) {
            throw ValidationError("--crop sizes the output to the ink; use --fit to fit the ink into --width x --height.")
        }
        if let o = opacity, !(o.isFinite && (0...1).contains(o)) {
            throw ValidationError("--opacity \(o) is outside 0...1.")
        }
        if penWidth != nil && (minWidth != nil || maxWidth != nil) {
            throw ValidationError("Give either --pen-width or --min-width/--max-width, not both.")
        }
        for (name, v) in [("--pen-width", penWidth), ("--min-width", minWidth), ("--max-width", maxWidth)] {
            if let v, !(v.isFinite && v > 0 && v <= 1000) { throw ValidationError("\(name) \(v) is outside (0, 1000].") }
        }
        let style = penStyle
        if style.minWidth > style.maxWidth {
            throw ValidationError("--min-width \(style.minWidth) is larger than --max-width \(style.maxWidth).")
        }
        _ = try renderer()
    }

    /// The pen style: one constant width, or the default style with the widths given.
    var penStyle: PenStyle {
        if let penWidth { return .constant(penWidth) }
        var style = PenStyle.default
        if let minWidth { style.minWidth = minWidth }
        if let maxWidth { style.maxWidth = maxWidth }
        return style
    }

    /// The output format: `--format`, else the extension of `output` when it names one, else png.
    func resolvedFormat(output: String?) -> String {
        if let format { return format }
        if let output, let dot = output.utf8.lastIndex(of: UInt8(ascii: ".")),
           !output.utf8[dot...].contains(UInt8(ascii: "/")) {
            let ext = output[output.utf8.index(after: dot)...].lowercased()
            if Self.formats.contains(ext) { return ext }
        }
        return "png"
    }

    /// These flags with the format fixed from the output path.
    func resolved(output: String?) -> RenderSettings {
        var copy = self
        copy.format = resolvedFormat(output: output)
        return copy
    }

    /// The file name extension of the output.
    var fileExtension: String { format ?? "png" }

    /// What the file's pens still decide: all of it, less what a pen flag replaces.
    var recordedPen: RecordedPenParts {
        var parts = RecordedPenParts.all
        if penColor != nil { parts.remove(.color) }
        if penWidth != nil || minWidth != nil || maxWidth != nil { parts.remove(.widths) }
        return parts
    }

    /// What the pen flags replace in `signature`'s recorded pens, one line each; empty when they replace nothing
    /// the file says (no flag, or no recorded pen, or the same colour).
    func overrideNotes(for signature: Signature) -> [String] {
        guard !signature.pens.isEmpty else { return [] }
        var notes: [String] = []
        if let penColor, let color = Color(css: penColor) {
            var replaced: [Color] = []
            for pen in signature.pens where pen.blend == .normal && pen.color != color && !replaced.contains(pen.color) {
                replaced.append(pen.color)
            }
            if !replaced.isEmpty {
                notes.append("--pen-color \(penColor) replaces the pen colour\(replaced.count == 1 ? "" : "s") the file records: "
                             + replaced.map(\.description).joined(separator: ", "))
            }
        }
        let flags = [("--pen-width", penWidth), ("--min-width", minWidth), ("--max-width", maxWidth)].filter { $0.1 != nil }
        if !flags.isEmpty, signature.pens.contains(where: { $0.minWidth != nil || $0.maxWidth != nil }) {
            notes.append(flags.map(\.0).joined(separator: " and ") + " replace\(flags.count == 1 ? "s" : "") the pen widths the file records")
        }
        return notes
    }

    /// A renderer configured by these flags.
    func renderer() throws -> SignatureRenderer {
        var pen = Color.black
        if let penColor {
            guard let c = Color(css: penColor) else {
                throw ValidationError("--pen-color \(penColor) is not a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()).")
            }
            pen = c
        }
        let back: Color
        if background == "transparent" {
            back = .clear
        } else if let c = Color(css: background) {
            back = c
        } else {
            throw ValidationError("--background \(background) is not transparent or a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()).")
        }
        var stamp: TimestampFormat?
        if let pattern = timestampPattern {
            do { stamp = try TimestampFormat(pattern: pattern) } catch {
                throw ValidationError("--timestamp-pattern \(pattern): \(error)")
            }
        } else if timestamp {
            stamp = .iso8601
        }
        var box: OutputSize?
        if let width, let height { box = OutputSize(width: width, height: height) }
        let decorations = Decorations(signatureLine: signatureLine, xMark: xMark, watermark: watermark, timestamp: stamp)
        var options = RenderOptions(
            scale: scale, penColor: pen, background: back, penStyle: penStyle, padding: padding,
            box: box,
            framing: fit ? .fit : crop ? .crop : .canvas,
            opacity: opacity ?? (viewMode ? RenderOptions.defaultViewOpacity : 1),
            decorations: decorations, dpi: dpi)
        options.recordedPen = recordedPen
        do { try options.validate() } catch { throw ValidationError("\(error)") }
        return SignatureRenderer(options: options)
    }

    /// Renders one signature to the bytes of the output file.
    ///
    /// A box given by only `--width` or `--height` takes its other side from the canvas, or, without one, makes
    /// a 2:1 box (the usual signature pad shape).
    /// A pen flag that replaces what the file records is said on standard error, never silently.
    func render(_ signature: Signature, with renderer: SignatureRenderer) throws(RenderError) -> [UInt8] {
        for note in overrideNotes(for: signature) { Diagnostics.error("note: \(note)") }
        var renderer = renderer
        if renderer.options.box == nil, let given = width ?? height {
            let w = width ?? signature.canvas?.width ?? 2 * given
            let h = height ?? signature.canvas?.height ?? w / 2
            renderer.options.box = OutputSize(width: w, height: h)
            try renderer.options.validate(limits: renderer.limits)
        }
        switch format ?? "png" {
        case "svg": return Array(try renderer.svg(signature, pathPerStroke: pathPerStroke).utf8)
        case "pdf": return try renderer.pdf(signature)
        default: return try renderer.png(signature)
        }
    }
}
