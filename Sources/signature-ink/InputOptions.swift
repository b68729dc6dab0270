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

    @OptionGroup(title: "Limits on untrusted input")
    var limits: DecodingLimitOptions

    /// A loader for these options.
    var loader: InputLoader { InputLoader(limits: limits.decodingLimits, format: inputFormat) }
}

/// The bounds on each input, checked before the work they guard (see `DecodingLimits`).
struct DecodingLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-input-bytes"), help: ArgumentHelp(
        "Refuse an input file (or --ndjson line) larger than this many bytes, before reading it.", valueName: "n"))
    var maxBytes = DecodingLimits.default.maxBytes

    @Option(name: .customLong("max-strokes"), help: ArgumentHelp("Refuse an input with more strokes.", valueName: "n"))
    var maxStrokes = DecodingLimits.default.maxStrokes

    @Option(name: .customLong("max-stroke-samples"), help: ArgumentHelp(
        "Refuse an input with more samples in one stroke.", valueName: "n"))
    var maxSamplesPerStroke = DecodingLimits.default.maxSamplesPerStroke

    @Option(name: .customLong("max-samples"), help: ArgumentHelp("Refuse an input with more samples in all.", valueName: "n"))
    var maxSamples = DecodingLimits.default.maxSamples

    @Option(name: .customLong("max-coordinate"), help: ArgumentHelp(
        "Refuse an input with a coordinate larger than this in magnitude, in canvas units.", valueName: "units"))
    var maxCoordinate = DecodingLimits.default.maxCoordinate

    func validate() throws {
        for (flag, value) in [("--max-input-bytes", maxBytes), ("--max-strokes", maxStrokes),
                              ("--max-stroke-samples", maxSamplesPerStroke), ("--max-samples", maxSamples)] {
            guard value > 0 else { throw ValidationError("\(flag) must be > 0.") }
        }
        guard maxCoordinate.isFinite, maxCoordinate > 0 else { throw ValidationError("--max-coordinate must be finite and > 0.") }
    }

    /// The limits these flags give.
    var decodingLimits: DecodingLimits {
        DecodingLimits(maxBytes: maxBytes, maxStrokes: maxStrokes, maxSamplesPerStroke: maxSamplesPerStroke,
                       maxSamples: maxSamples, maxCoordinate: maxCoordinate)
    }
}
