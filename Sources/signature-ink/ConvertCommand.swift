// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
import SignatureInkFormats

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert stroke files between formats.",
        discussion: """
            Inputs in any readable format (detected from the content, or --input-format) are written in the \
            --to format without loss of what that format can hold; what it cannot hold of the strokes' pens is \
            said on stderr as a note. Inputs are files or directories; they are converted on every core, and a bad \
            input is reported as FILE: reason while the others are still written.
            """)

    @Argument(help: "Stroke files or directories to convert.")
    var inputs: [String] = []

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp(
        "Output format: \(InkFormat.allCases.filter(\.canEncode).map(\.rawValue).joined(separator: ", ")).",
        valueName: "format"))
    var to: InkFormat

    @OptionGroup var batch: BatchOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Give at least one input file or directory.") }
        guard to.canEncode else {
            throw ValidationError("--to \(to.rawValue): \(to.displayName) can be read but not written.")
        }
        try output.validate(inputs: inputs)
    }

    /// The file name extension for each writable format.
    static func fileExtension(of format: InkFormat) -> String { format == .inkml ? "inkml" : "json" }

    func run() throws {
        let format = to
        try BatchJob.run(inputs: inputs, loader: input.loader, output: output.target, batch: batch.settings,
                         fileExtension: Self.fileExtension(of: format)) { signature, path in
            // The pens are written from `Signature.pens`; what the target cannot hold of them is said, never
            // dropped silently.
            for loss in format.penLosses(of: signature) { Diagnostics.error("note: \(path): \(loss)") }
            return Array(try InkEncoder().encode(signature, as: format))
        }
    }
}
