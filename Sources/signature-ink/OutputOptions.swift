// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where outputs go: one file, or a directory with one file per input named after the input's stem.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")], help: "Output file (one input only).")
    var output: String?

    @Option(name: .customLong("out-dir"), help: "Output directory; each output is named after its input's stem.")
    var outDir: String?

    /// Where the outputs go, as plain values.
    var target: OutputTarget { OutputTarget(output: output, outDir: outDir) }

    /// Checks that the outputs fit the inputs: several inputs, or a directory, need `--out-dir`.
    func validate(inputs: [String]) throws { try target.validate(inputs: inputs) }
}

/// Where the outputs go: one file (`-o`), or a folder (`--out-dir`) where each is named after its input.
struct OutputTarget: Sendable {
    var output: String?
    var outDir: String?

    /// Checks that the outputs fit the inputs: several inputs, or a directory, need `--out-dir`.
    func validate(inputs: [String]) throws {
        switch (output, outDir) {
        case (nil, nil): throw ValidationError("Give an output: -o FILE or --out-dir DIR.")
        case (.some, .some): throw ValidationError("Give either -o FILE or --out-dir DIR, not both.")
        case (.some, nil) where inputs.count > 1 || inputs.contains(where: InputExpander.isDirectory):
            throw ValidationError("Several inputs need --out-dir DIR.")
        default: break
        }
    }

    /// Pairs each input with its output path. An input whose output would clash with another's, or overwrite an
    /// input, gets a failure instead.
    func plan(_ inputs: [BatchInput], fileExtension: String) -> [PlannedOutput] {
        if inputs.count == 1, let output {
            // One input and one output: the only clash is with the input itself. (No set or dictionary of paths,
            // which a new process would first have to build the generic types of.)
            let input = inputs[0].path
            guard OutputWriter.canonical(output) != OutputWriter.canonical(input) else {
                return [PlannedOutput(input: input, output: output, refusal: Self.overwrites(input: input, output: output))]
            }
            return [PlannedOutput(input: input, output: output)]
        }
        var paths = CanonicalPaths()
        let inputPaths = Set(inputs.map { paths.canonical($0.path, knownNotLink: $0.foundInFolder) })
        var firstUse: [String: String] = [:]
        // The folder's absolute path once; each output's path is a string joined to it.
        let folder = OutputWriter.standardized(outDir ?? ".")
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return inputs.map { input in
            let path: String
            if let output {
                path = output
            } else {
                path = prefix + input.relativeStem + "." + fileExtension
            }
            let target = paths.canonical(path)
            if inputPaths.contains(target) {
                return PlannedOutput(input: input.path, output: path, refusal: Self.overwrites(input: input.path, output: path))
            }
            if let other = firstUse[target] {
                return PlannedOutput(input: input.path, output: path, refusal: InputFailure(
                    path: input.path, reason: "output \(path) would also be written from \(other); rename one of them"))
            }
            firstUse[target] = input.path
            return PlannedOutput(input: input.path, output: path, foundInFolder: input.foundInFolder)
        }
    }

    /// The failure of an input whose output path is an input.
    private static func overwrites(input: String, output: String) -> InputFailure {
        InputFailure(path: input, reason: "output \(output) is an input; refusing to overwrite it")
    }
}

/// An input and the path of its output, or why it gets none.
struct PlannedOutput: Sendable {
    var input: String
    var output: String
    /// Why the input is not converted (its output would overwrite an input, or another input's output).
    var refusal: InputFailure?
    /// Whether the input was found in a folder, so is known to be a regular file.
    var foundInFolder = false
}
