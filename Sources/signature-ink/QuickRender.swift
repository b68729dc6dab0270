// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInkFormats
import SignatureInkRender

/// The command lines people run most, read without ArgumentParser: `render INPUT -o OUTPUT` (or `--output`), what a
/// script or a form renderer runs once per signature, and the batch `render INPUT... --out-dir DIR` with `--jobs N`
/// (a folder, or the files a shell's pattern lists), each with `--quiet` and any render flag, in any order.
///
/// ArgumentParser finds a command's options by reflection: for `render`, with its forty options, parsing took
/// 2.3 ms of a 6.0 ms process (measured with `perf` over 300 runs), more than drawing and writing the signature,
/// and 24 M instructions of a 158-file batch (4 % of it). These command lines need none of it. A render flag is a
/// `RenderRequest.Option` under its one name (`--scale 2`, `--scale=2`, `--fit`), read by the same
/// `RenderRequest.set(_:to:)` and checked by the same `RenderRequest.validate()` that the parsed flags go through
/// (`RenderFlags`), so the options live in one place and both paths draw the same. Any other command line goes
/// through ArgumentParser as before, and so does any doubt: help, a flag of another kind (limits, input format),
/// a flag given twice, a value that looks like a flag, a value or a combination the request refuses (the parser
/// says why, in its words), `-o` with a folder or with several inputs.
///
/// Nine signature_pad files named on the command line cost 30.7 M instructions of ArgumentParser's parse before
/// this path took several inputs, against 23.9 M for rendering and writing all nine (callgrind).
enum QuickRender {
    /// The job `arguments` (without the program name) ask for, or `nil` when they are not of this form.
    static func job(for arguments: [String]) -> RenderJob? {
        guard arguments.count >= 4, arguments[0] == "render" else { return nil }
        var inputs: [String] = []
        var output: String?
        var outDir: String?
        var jobs: Int?
        var quiet = false
        var request = RenderRequest()
        var given: [RenderRequest.Option] = []  // an array, not a set: no generic set type for a new process to build
        var penColor: String?
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
                if argument.hasPrefix("--") {
                    let flag = argument.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let option = RenderRequest.Option(rawValue: String(flag[0])), !given.contains(option) else { return nil }
                    given.append(option)
                    let text: String
                    if option.isSwitch {
                        guard flag.count == 1 else { return nil }
                        text = "true"
                    } else if flag.count == 2 {
                        text = String(flag[1])
                    } else {
                        guard let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                        text = value
                    }
                    do { try request.set(option, to: text) } catch { return nil }
                    if option == .penColor { penColor = text }
                } else {
                    guard !argument.isEmpty, !argument.hasPrefix("-") else { return nil }
                    inputs.append(argument)
                }
            }
        }
        guard let first = inputs.first else { return nil }
        switch (output, outDir) {
        case let (output?, nil):
            // One file to one file; --jobs belongs to --out-dir.
            guard inputs.count == 1, !output.isEmpty, !output.hasPrefix("-"), jobs == nil,
                  !InputExpander.isDirectory(first) else { return nil }
        case let (nil, outDir?):
            guard !outDir.isEmpty, !outDir.hasPrefix("-") else { return nil }
        default:
            return nil
        }
        do { try request.validate() } catch { return nil }
        return RenderJob(inputs: inputs, loader: InputLoader(limits: .default, format: nil),
                         output: OutputTarget(output: output, outDir: outDir), request: request,
                         penColorText: penColor, batch: BatchSettings(jobs: jobs, quiet: quiet), frames: nil, ndjson: false)
    }
}
