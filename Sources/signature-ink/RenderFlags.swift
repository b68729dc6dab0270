// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import SignatureInk
import SignatureInkRender

/// The flags that say how a signature is drawn, shared by every command that renders.
struct RenderFlags: ParsableArguments {
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
        guard format == "png" else { throw ValidationError("Unknown --format \(format); expected png.") }
        _ = try renderer()
    }

    /// The file name extension of the output.
    var fileExtension: String { format }

    /// A renderer configured by these flags.
    func renderer() throws -> SignatureRenderer {
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
        return SignatureRenderer(options: options)
    }

    /// Renders one signature to the bytes of the output file.
    func render(_ signature: Signature, with renderer: SignatureRenderer) throws(RenderError) -> [UInt8] {
        try renderer.png(signature)
    }
}
