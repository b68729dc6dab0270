// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInkFormats
import SignatureInkRender

/// The two command lines people run most, read without ArgumentParser: `render INPUT -o OUTPUT` (or `--output`,
/// in either order), what a script or a form renderer runs once per signature, and the batch `render INPUT
/// --out-dir DIR`, with `--jobs N` and `--quiet` or neither, in any order.
///
/// ArgumentParser finds a command's options by reflection: for `render`, with its forty options, parsing took
/// 2.3 ms of a 6.0 ms process (measured with `perf` over 300 runs), more than drawing and writing the signature,
/// and 24 M instructions of a 158-file batch (4 % of it). These command lines need none of it: every other option
/// keeps its default (`RenderRequest()`, what the flags left out say), so they are answered
/// directly. Any other command line, including help, another flag, a value ArgumentParser would refuse, `-o` with
/// a folder, or several inputs, goes through ArgumentParser as before.
enum QuickRender {
    /// The job `arguments` (without the program name) ask for, or `nil` when they are not of this form.
    static func job(for arguments: [String]) -> RenderJob? {
        guard (4...7).contains(arguments.count), arguments[0] == "render" else { return nil }
        var input: String?
        var output: String?
        var outDir: String?
        var jobs: Int?
        var quiet = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "-o", "--output":
                guard output == nil, let path = rest.popFirst() else { return nil }
                output = path
            case "--out-dir":
                guard outDir == nil, let path = rest.popFirst() else { return nil }
                outDir = path
            case "--jobs":
                // Digits only and within --jobs's range: anything else gets ArgumentParser's own message.
                guard jobs == nil, let value = rest.popFirst(), !value.isEmpty, value.utf8.count <= 4,
                      value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                      let n = Int(value), (1...1024).contains(n) else { return nil }
                jobs = n
            case "--quiet":
                guard !quiet else { return nil }
                quiet = true
            default:
                guard input == nil else { return nil }
                input = argument
            }
        }
        guard let input, !input.isEmpty, !input.hasPrefix("-") else { return nil }
        switch (output, outDir) {
        case let (output?, nil):
            // One file to one file; the batch flags belong to --out-dir.
            guard !output.isEmpty, !output.hasPrefix("-"), jobs == nil, !quiet,
                  !InputExpander.isDirectory(input) else { return nil }
        case let (nil, outDir?):
            guard !outDir.isEmpty, !outDir.hasPrefix("-") else { return nil }
        default:
            return nil
        }
        return RenderJob(inputs: [input], loader: InputLoader(limits: .default, format: nil),
                         output: OutputTarget(output: output, outDir: outDir), request: RenderRequest(),
                         penColorText: nil, batch: BatchSettings(jobs: jobs, quiet: quiet), frames: nil, ndjson: false)
    }
}
