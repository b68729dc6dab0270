// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
import SignatureInkRender

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render stroke files to images.",
        discussion: """
            Inputs are files or directories (searched recursively; see --include). Inputs are rendered on every \
            core (--jobs); a bad input is reported as FILE: reason and the others are still written. Outputs are \
            written to a temporary name and renamed, so a failure never leaves a truncated file, and an input is \
            never overwritten. Without a canvas in the input, the image is cropped to the ink plus padding.
            """)

    @Argument(help: "Stroke files or directories to render.")
    var inputs: [String] = []

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var flags: RenderFlags

    @OptionGroup var batch: BatchOptions

    @OptionGroup(title: "Limits on the output")
    var limits: RenderLimitOptions

    @Option(help: "Write N frames of the signature being drawn over time, as STEM-001.png ... (needs --out-dir).")
    var frames: Int?

    @Flag(help: """
        Read one signature per line of standard input (native or signature_pad JSON) and write one JSON line per         input to standard output, in input order: the output path (with --out-dir) or the output as base64.
        """)
    var ndjson = false

    func validate() throws {
        if ndjson {
            guard inputs.isEmpty else { throw ValidationError("--ndjson reads standard input; give no input files.") }
            guard output.output == nil else { throw ValidationError("--ndjson writes to --out-dir or standard output, not -o.") }
            guard frames == nil else { throw ValidationError("--ndjson cannot write --frames.") }
            return
        }
        guard !inputs.isEmpty else { throw ValidationError("Give at least one input file or directory.") }
        try output.validate(inputs: inputs)
        if let frames {
            guard (1...10_000).contains(frames) else { throw ValidationError("--frames must be 1...10000.") }
            guard output.outDir != nil else { throw ValidationError("--frames needs --out-dir DIR.") }
        }
    }

    func run() throws {
        let job = RenderJob(inputs: inputs, loader: input.loader, output: output.target, settings: flags.settings,
                            batch: batch.settings, limits: limits.applied(to: .default), frames: frames,
                            ndjson: ndjson)
        try job.run()
    }
}

/// One `render` run, as plain values: what ``RenderCommand`` parsed, or what ``QuickRender`` read from a command
/// line that gives one input, `-o` or `--out-dir`, and no render flag.
struct RenderJob: Sendable {
    var inputs: [String]
    var loader: InputLoader
    var output: OutputTarget
    var settings: RenderSettings
    var batch: BatchSettings
    /// The bounds on the output image (`--max-pixels`, `--max-side`).
    var limits: RenderLimits
    var frames: Int?
    var ndjson: Bool

    func run() throws {
        let flags = settings.resolved(output: output.output)
        var configured = try flags.renderer()
        configured.limits = limits
        let renderer = configured
        for (decoration, characters) in try renderer.options.decorations.missingCharacters() {
            FileDescriptorIO.standardError("warning: the \(decoration) has characters no installed font can draw, shown as boxes: "
                                           + TextCoverage.describe(characters) + "\n")
        }
        let frames = self.frames
        if ndjson {
            let stream = NDJSONStream(loader: loader, jobs: batch.workerCount, outDir: output.outDir,
                                      fileExtension: flags.fileExtension) { try flags.render($0, with: renderer) }
            if stream.run() > 0 { throw ExitCode.failure }
            return
        }
        try BatchJob.run(inputs: inputs, loader: loader, output: output, batch: batch,
                         fileExtension: flags.fileExtension) { signature, path in
            guard let frames else { return try flags.render(signature, with: renderer) }
            try Self.writeFrames(of: signature, count: frames, basePath: path, flags: flags, renderer: renderer)
            return nil
        }
    }

    /// Writes `count` frames: frame k shows the ink drawn by k/count of the signature's duration.
    static func writeFrames(of signature: Signature, count: Int, basePath: String, flags: RenderSettings,
                            renderer: SignatureRenderer) throws {
        let base = URL(fileURLWithPath: basePath).deletingPathExtension().path
        let digits = max(3, String(count).count)
        let first = signature.samples.first?.t ?? 0
        for k in 1...count {
            let time = first + signature.duration * Double(k) / Double(count)
            let frame = signature.drawn(through: time)
            let number = String(repeating: "0", count: digits - String(k).count) + String(k)
            try OutputWriter.write(try flags.render(frame, with: renderer), to: "\(base)-\(number).\(flags.fileExtension)")
        }
    }
}
