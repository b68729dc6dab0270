// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import SignatureInk
import SignatureInkRender

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render stroke files to images.",
        discussion: """
            Without a canvas in the input, the image is cropped to the ink plus padding. Outputs are written to a \
            temporary name and renamed, so a failure never leaves a truncated file.
            """)

    @Argument(help: "Stroke files to render.")
    var inputs: [String]

    @OptionGroup var output: OutputOptions

    @Option(help: "Output format: png.")
    var format: String = "png"

    @Option(help: "Output pixels per canvas unit, > 0 and <= 16 (2 for HiDPI).")
    var scale: Double = 1

    @Option(name: .customLong("pen-color"), help: "Ink colour as #RRGGBB or #RRGGBBAA.")
    var penColor: String = "#000000"

    @Option(help: "transparent, or a colour as #RRGGBB or #RRGGBBAA.")
    var background: String = "transparent"

    @Option(name: .customLong("pen-width"), help: "Pen width in canvas units, > 0.")
    var penWidth: Double = 2.5

    func validate() throws {
        try output.validate(inputCount: inputs.count)
        guard format == "png" else { throw ValidationError("Unknown --format \(format); expected png.") }
        _ = try renderOptions()
    }

    func renderOptions() throws -> RenderOptions {
        guard let pen = Color(hex: penColor) else {
            throw ValidationError("--pen-color \(penColor) is not #RRGGBB or #RRGGBBAA.")
        }
        let back: Color
        if background == "transparent" {
            back = .clear
        } else if let c = Color(hex: background) {
            back = c
        } else {
            throw ValidationError("--background \(background) is not transparent, #RRGGBB or #RRGGBBAA.")
        }
        let options = RenderOptions(scale: scale, penColor: pen, background: back, penWidth: penWidth)
        do { try options.validate() } catch { throw ValidationError("\(error)") }
        return options
    }

    func run() throws {
        let renderer = SignatureRenderer(options: try renderOptions())
        let loader = InputLoader()
        var failed = 0
        for (input, planned) in try output.plan(inputs: inputs, fileExtension: format) {
            do {
                let path = try planned.get()
                let signature = try loader.load(input)
                let bytes: [UInt8]
                do { bytes = try renderer.png(signature) } catch { throw InputFailure(path: input, reason: "\(error)") }
                try OutputWriter.write(bytes, to: path)
            } catch let failure as InputFailure {
                Diagnostics.error(failure.description)
                failed += 1
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }
}
