// SPDX-License-Identifier: Apache-2.0
public import ArgumentParser
public import SignatureInkFormats

extension InkFormat: ExpressibleByArgument {}

/// How inputs are read.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("input-format"), help: ArgumentHelp(
        "Read inputs as this format instead of detecting it: \(InkFormat.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "format"))
    var inputFormat: InkFormat?

    /// A loader for these options.
    var loader: InputLoader { InputLoader(format: inputFormat) }
}
