// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import SignatureInk
import SignatureInkRender

/// The flags that say how a signature is drawn, shared by every command that renders: each is a
/// `RenderRequest.Option` under its name, and ``request()`` maps what they say onto a `RenderRequest`, which holds
/// every rule.
struct RenderFlags: ParsableArguments {
    typealias Name = RenderRequest.Option

    @Option(name: .customLong(Name.format.name),
            help: "Output format: png, svg or pdf (default: from the -o file's extension, else png).")
    var format: String?

    @Option(name: .customLong(Name.scale.name), help: "Output pixels per output unit, > 0 and <= 16 (2 for HiDPI). PNG only.")
    var scale: Double?

    @Option(name: .customLong(Name.penColor.name), help: ArgumentHelp(
        "Ink colour as a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()); replaces the colours the file records (default: the file's, else black).",
        valueName: "colour"))
    var penColor: String?

    @Option(name: .customLong(Name.background.name), help: "transparent (the default), or a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl()).")
    var background: String?

    @Option(name: .customLong(Name.penWidth.name), help: "One constant pen width in output units, > 0; replaces the widths the file records (default: the file's, else 1 to 3 by pressure or speed).")
    var penWidth: Double?

    @Option(name: .customLong(Name.minWidth.name), help: "Thinnest line in output units, where the pen moves fastest or presses least; replaces the file's widths (default: the file's, else 1).")
    var minWidth: Double?

    @Option(name: .customLong(Name.maxWidth.name), help: "Thickest line in output units, where the pen moves slowest or presses hardest; replaces the file's widths (default: the file's, else 3).")
    var maxWidth: Double?

    @Option(name: .customLong(Name.width.name), help: "Output box width in output units (pixels at scale 1); default: the canvas width.")
    var width: Double?

    @Option(name: .customLong(Name.height.name), help: "Output box height in output units; default: the canvas height.")
    var height: Double?

    @Flag(name: .customLong(Name.fit.name), help: "Fit the ink plus padding into the box (default 600x300 without a canvas), keeping its aspect.")
    var fit = false

    @Flag(name: .customLong(Name.crop.name), help: "Crop the output to the ink bounds plus padding.")
    var crop = false

    @Option(name: .customLong(Name.padding.name), help: "Space around cropped or fitted ink in output units, 0...10000 (default 16).")
    var padding: Double?

    @Flag(name: .customLong(Name.viewMode.name), help: "Draw the signature read-only and semi-transparent, as one group.")
    var viewMode = false

    @Option(name: .customLong(Name.opacity.name), help: "Opacity of the whole signature in 0...1 (default 0.5 with --view-mode, else 1).")
    var opacity: Double?

    @Flag(name: .customLong(Name.signatureLine.name), help: "Draw a signature line under the ink.")
    var signatureLine = false

    @Flag(name: .customLong(Name.xMark.name), help: "Draw an X at the start of the signature line.")
    var xMark = false

    @Option(name: .customLong(Name.watermark.name), help: "Draw this text large and faint behind the ink.")
    var watermark: String?

    @Flag(name: .customLong(Name.timestamp.name), help: "Write the capture time (UTC, ISO 8601) under the line; nothing when the input has no start time.")
    var timestamp = false

    @Option(name: .customLong(Name.timestampPattern.name),
            help: "Write the capture time with this pattern, such as 'dd.MM.yyyy HH:mm' (implies --timestamp; 'YYYY' is refused).")
    var timestampPattern: String?

    @Option(name: .customLong(Name.dpi.name), help: "Output resolution in pixels per inch: the PNG pHYs chunk and the physical size of SVG and PDF (default 96 x scale).")
    var dpi: Double?

    @Flag(name: .customLong(Name.pathPerStroke.name), help: "SVG: one <path> per stroke instead of one per signature.")
    var pathPerStroke = false

    /// What the flags say, as a render request (not yet checked as a whole: see `RenderRequest.validate()`).
    /// - Throws: `ValidationError` when a value is not of its flag's kind.
    func request() throws -> RenderRequest {
        var request = RenderRequest()
        do {
            for (name, text) in [(Name.format, format), (.penColor, penColor), (.background, background),
                                 (.watermark, watermark), (.timestampPattern, timestampPattern)] {
                if let text { try request.set(name, to: text) }
            }
            for (name, on) in [(Name.fit, fit), (.crop, crop), (.viewMode, viewMode), (.signatureLine, signatureLine),
                               (.xMark, xMark), (.timestamp, timestamp), (.pathPerStroke, pathPerStroke)] where on {
                try request.set(name, to: "true")
            }
        } catch {
            throw ValidationError(error.description(prefix: "--"))
        }
        if let scale { request.scale = scale }
        request.penWidth = penWidth
        request.minWidth = minWidth
        request.maxWidth = maxWidth
        request.box = RenderRequest.Box(width: width, height: height)
        if let padding { request.padding = padding }
        request.opacity = opacity
        request.dpi = dpi
        return request
    }

    func validate() throws {
        do { try request().validate() } catch let error as RenderRequest.Invalid {
            throw ValidationError(error.description(prefix: "--"))
        }
    }
}
