// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import SignatureInk
import SignatureInkRender

/// The flags that say how a signature is drawn, shared by every command that renders; ``settings`` holds what
/// they say as plain values.
struct RenderFlags: ParsableArguments {
    @Option(help: "Output format: png, svg or pdf (default: from the -o file's extension, else png).")
    var format: String?

    @Option(help: "Output pixels per output unit, > 0 and <= 16 (2 for HiDPI). PNG only.")
    var scale: Double = RenderSettings.defaults.scale

    @Option(name: .customLong("pen-color"), help: ArgumentHelp(
        "Ink colour as a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()); replaces the colours the file records (default: the file's, else black).",
        valueName: "colour"))
    var penColor: String?

    @Option(help: "transparent, or a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()).")
    var background: String = RenderSettings.defaults.background

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
    var padding: Double = RenderSettings.defaults.padding

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

    /// What the flags say, as plain values.
    var settings: RenderSettings {
        RenderSettings(
            format: format, scale: scale, penColor: penColor, background: background, penWidth: penWidth,
            minWidth: minWidth, maxWidth: maxWidth, width: width, height: height, fit: fit, crop: crop,
            padding: padding, viewMode: viewMode, opacity: opacity, signatureLine: signatureLine, xMark: xMark,
            watermark: watermark, timestamp: timestamp, timestampPattern: timestampPattern, dpi: dpi,
            pathPerStroke: pathPerStroke)
    }

    func validate() throws { try settings.validate() }
}
