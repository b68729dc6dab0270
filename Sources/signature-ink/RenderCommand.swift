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
        Read one signature per line of standard input (native or signature_pad JSON, or {"id": ID, "signature": ...} \
        to have the result carry the record's id) and write one JSON line per input to standard output, in input \
        order: the output path (with --out-dir) or the output as base64.
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
        var request = try flags.request()
        request.limits = limits.applied(to: request.limits)
        let job = RenderJob(inputs: inputs, loader: input.loader, output: output.target, request: request,
                            penColorText: flags.penColor, batch: batch.settings, frames: frames, ndjson: ndjson)
        try job.run()
    }
}

/// One `render` run, as plain values: what ``RenderCommand`` parsed, or what ``QuickRender`` read from a command
/// line that gives one input, `-o` or `--out-dir`, and no render flag.
struct RenderJob: Sendable {
    var inputs: [String]
    var loader: InputLoader
    var output: OutputTarget
    /// How each signature is drawn, with the bounds on the output image (`--max-pixels`, `--max-side`).
    var request: RenderRequest
    /// The text given to `--pen-color`, repeated in the note that says what it replaces.
    var penColorText: String?
    var batch: BatchSettings
    var frames: Int?
    var ndjson: Bool

    func run() throws {
        var request = self.request
        if request.format == nil { request.format = output.output.flatMap(RenderRequest.Format.init(fileName:)) ?? .png }
        let renderer: SignatureRenderer
        do { renderer = try request.renderer() } catch { throw ValidationError(error.description(prefix: "--")) }
        for (decoration, characters) in try renderer.options.decorations.missingCharacters() {
            FileDescriptorIO.standardError("warning: the \(decoration) has characters no installed font can draw, shown as boxes: "
                                           + TextCoverage.describe(characters) + "\n")
        }
        let draw = Draw(request: request, renderer: renderer, penColorText: penColorText)
        let decorations = renderer.options.decorations
        // Text on every worker at once: every face opened once for good, or the text is set one worker at a time. (The
        // count of workers last: for one file, the count of cores is not looked up at all.)
        if !(decorations.watermark ?? "").isEmpty || decorations.timestamp != nil,
           ndjson || inputs.count > 1 || inputs.first.map(InputExpander.isDirectory) == true, batch.workerCount > 1 {
            try? ProjectFonts.openEveryFace()
        }
        let frames = self.frames
        let fileExtension = request.outputFormat.fileExtension
        if ndjson {
            let stream = NDJSONStream(loader: loader, jobs: batch.workerCount, outDir: output.outDir,
                                      fileExtension: fileExtension) { try draw($0) }
            if stream.run() > 0 { throw ExitCode.failure }
            return
        }
        try BatchJob.run(inputs: inputs, loader: loader, output: output, batch: batch,
                         fileExtension: fileExtension) { signature, path in
            guard let frames else { return try draw(signature) }
            try Self.writeFrames(of: signature, count: frames, basePath: path, draw: draw)
            return nil
        }
    }

    /// Draws one signature with the job's request, saying on standard error what a pen flag replaces of the file's
    /// own pen, never silently.
    struct Draw: Sendable {
        var request: RenderRequest
        var renderer: SignatureRenderer
        var penColorText: String?

        func callAsFunction(_ signature: Signature) throws(RenderError) -> [UInt8] {
            for override in request.overrides(of: signature) {
                let note = override.sentence { option in
                    option == .penColor ? "--pen-color " + (penColorText ?? "") : "--" + option.name
                }
                Diagnostics.error("note: \(note)")
            }
            return try request.render(signature, with: renderer)
        }
    }

    /// Writes `count` frames: frame k shows the ink drawn by k/count of the signature's duration.
    static func writeFrames(of signature: Signature, count: Int, basePath: String, draw: Draw) throws {
        let base = URL(fileURLWithPath: basePath).deletingPathExtension().path
        let digits = max(3, String(count).count)
        let first = signature.samples.first?.t ?? 0
        for k in 1...count {
            let time = first + signature.duration * Double(k) / Double(count)
            let frame = signature.drawn(through: time)
            let number = String(repeating: "0", count: digits - String(k).count) + String(k)
            try OutputWriter.write(try draw(frame), to: "\(base)-\(number).\(draw.request.outputFormat.fileExtension)")
        }
    }
}
