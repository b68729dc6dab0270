// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import SignatureInk
import SignatureInkRender

/// The flags that say how a signature is drawn, shared by every command that renders.
struct RenderFlags: ParsableArguments {
    @Option(help: "Output format: png, svg or pdf (default: from the -o file's extension, else png).")
    var format: String?

    @Option(help: "Output pixels per output unit, > 0 and <= 16 (2 for HiDPI). PNG only.")
    var scale: Double = 1

    @Option(name: .customLong("pen-color"), help: ArgumentHelp(
        "Ink colour as a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()); replaces the colours the file records (default: the file's, else black).",
        valueName: "colour"))
    var penColor: String?

    @Option(help: "transparent, or a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()).")
    var background: String = "transparent"

    @Option(name: .customLong("pen-width"), help: "One constant pen width in output units, > 0; replaces the widths the file records (default: the file's, else 1 to 3 by pressure or speed).")
    var penWidth: Double?

    @Option(name: .customLong("min-width"), help: "Thinnest line in output units, where the pen moves fastest or presses least; replaces the file's widths (default: the file's, else 1).")
    var minWidth: Double?

    @Option(name: .customLong("max-width"), help: "Thickest line in output units, where the pen moves slowest or presses hardest; replaces the file's widths (default: the file's, else 3).")
    var maxWidth: Double?

    @Option(help: "Output box width in output units (pixels at scale 1); default: the canvas width.")
    var width: Double?

    @Option(help: "Output box height in output units; default: the canvas height.")
    var height: Double?

    @Flag(help: "Fit the ink plus padding into the box (default 600x300 without a canvas), keeping its aspect.")
    var fit = false

    @Flag(help: "Crop the output to the ink bounds plus padding.")
    var crop = false

    @Option(help: "Space around cropped or fitted ink in output units, >= 0.")
    var padding: Double = 16

    @Flag(name: .customLong("view-mode"), help: "Draw the signature read-only and semi-transparent, as one group.")
    var viewMode = false

    @Option(help: "Opacity of the whole signature in 0...1 (default 0.5 with --view-mode, else 1).")
    var opacity: Double?

    @Flag(name: .customLong("signature-line"), help: "Draw a signature line under the ink.")
    var signatureLine = false

    @Flag(name: .customLong("x-mark"), help: "Draw an X at the start of the signature line.")
    var xMark = false

    @Option(help: "Draw this text large and faint behind the ink.")
    var watermark: String?

    @Flag(help: "Write the capture time (UTC, ISO 8601) under the line; nothing when the input has no start time.")
    var timestamp = false

    @Option(name: .customLong("timestamp-pattern"),
            help: "Write the capture time with this pattern, such as 'dd.MM.yyyy HH:mm' (implies --timestamp; 'YYYY' is refused).")
    var timestampPattern: String?

    @Option(help: "Output resolution in pixels per inch: the PNG pHYs chunk and the physical size of SVG and PDF (default 96 x scale).")
    var dpi: Double?

    @Flag(name: .customLong("path-per-stroke"), help: "SVG: one <path> per stroke instead of one per signature.")
    var pathPerStroke = false

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
        if let output, let dot = output.lastIndex(of: "."), !output[dot...].contains("/") {
            let ext = output[output.index(after: dot)...].lowercased()
            if Self.formats.contains(ext) { return ext }
        }
        return "png"
    }

    /// These flags with the format fixed from the output path.
    func resolved(output: String?) -> RenderFlags {
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
