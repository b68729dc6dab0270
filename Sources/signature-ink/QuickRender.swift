// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInkFormats
import SignatureInkRender

/// The command line a script or a form renderer runs once per signature, `render INPUT -o OUTPUT` (or `--output`,
/// in either order) with no other flag, read without ArgumentParser.
///
/// ArgumentParser finds a command's options by reflection: for `render`, with its forty options, parsing took
/// 2.3 ms of a 6.0 ms process (measured with `perf` over 300 runs), more than drawing and writing the signature.
/// This command line needs none of it: every option keeps its default (``RenderSettings/defaults``, the same
/// values the flags default to), so it is answered directly. Any other command line, including help, a flag, a
/// folder or several inputs, goes through ArgumentParser as before.
enum QuickRender {
    /// The job `arguments` (without the program name) ask for, or `nil` when they are not of this form.
    static func job(for arguments: [String]) -> RenderJob? {
        guard arguments.count == 4, arguments[0] == "render" else { return nil }
        var input: String?
        var output: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "-o" || argument == "--output" {
                guard output == nil, let path = rest.popFirst() else { return nil }
                output = path
            } else {
                guard input == nil else { return nil }
                input = argument
            }
        }
        guard let input, let output, !input.isEmpty, !output.isEmpty, !input.hasPrefix("-"), !output.hasPrefix("-"),
              !InputExpander.isDirectory(input) else { return nil }
        return RenderJob(inputs: [input], loader: InputLoader(limits: .default, format: nil),
                         output: OutputTarget(output: output, outDir: nil), settings: .defaults, batch: BatchSettings(),
                         limits: .default, frames: nil, ndjson: false)
    }
}
