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

    @OptionGroup var flags: RenderFlags

    func validate() throws {
        try output.validate(inputCount: inputs.count)
    }

    func run() throws {
        let flags = self.flags.resolved(output: output.output)
        let renderer = try flags.renderer()
        let loader = InputLoader()
        var failed = 0
        for (input, planned) in try output.plan(inputs: inputs, fileExtension: flags.fileExtension) {
            do {
                let path = try planned.get()
                let signature = try loader.load(input)
                let bytes: [UInt8]
                do { bytes = try flags.render(signature, with: renderer) } catch { throw InputFailure(path: input, reason: "\(error)") }
                try OutputWriter.write(bytes, to: path)
            } catch let failure as InputFailure {
                Diagnostics.error(failure.description)
                failed += 1
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }
}
