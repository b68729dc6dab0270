// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation

/// Where outputs go: one file, or a directory with one file per input named after the input's stem.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")], help: "Output file (one input only).")
    var output: String?

    @Option(name: .customLong("out-dir"), help: "Output directory; each output is named after its input's stem.")
    var outDir: String?

    func validate(inputCount: Int) throws {
        switch (output, outDir) {
        case (nil, nil): throw ValidationError("Give an output: -o FILE or --out-dir DIR.")
        case (.some, .some): throw ValidationError("Give either -o FILE or --out-dir DIR, not both.")
        case (.some, nil) where inputCount > 1:
            throw ValidationError("Several inputs need --out-dir DIR.")
        default: break
        }
    }

    /// Pairs each input with its output path. An input whose output would clash with another's, or overwrite an
    /// input, is returned as a failure instead.
    func plan(inputs: [String], fileExtension: String) throws -> [(input: String, output: Result<String, InputFailure>)] {
        if let output { return [(inputs[0], plannedOutput(output, inputs: inputs, for: inputs[0]))] }
        guard let outDir else { return [] }
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        var firstUse: [String: String] = [:]
        return inputs.map { input in
            let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            let path = URL(fileURLWithPath: outDir).appendingPathComponent(stem + "." + fileExtension).path
            if let other = firstUse[path] {
                return (input, .failure(InputFailure(path: input, reason: "output \(path) would also be written from \(other); rename one of them")))
            }
            firstUse[path] = input
            return (input, plannedOutput(path, inputs: inputs, for: input))
        }
    }

    private func plannedOutput(_ path: String, inputs: [String], for input: String) -> Result<String, InputFailure> {
        let target = OutputWriter.canonical(path)
        if inputs.contains(where: { OutputWriter.canonical($0) == target }) {
            return .failure(InputFailure(path: input, reason: "output \(path) is an input; refusing to overwrite it"))
        }
        return .success(path)
    }
}
