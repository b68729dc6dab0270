// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import Synchronization
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

    @OptionGroup var output: OutputOptions

    @OptionGroup var flags: RenderFlags

    @OptionGroup var batch: BatchOptions

    @Option(help: "Write N frames of the signature being drawn over time, as STEM-001.png ... (needs --out-dir).")
    var frames: Int?

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Give at least one input file or directory.") }
        let expandsToMany = inputs.count > 1 || inputs.contains { FileManager.default.isDirectory($0) }
        try output.validate(inputCount: expandsToMany ? 2 : 1)
        if let frames {
            guard (1...10_000).contains(frames) else { throw ValidationError("--frames must be 1...10000.") }
            guard output.outDir != nil else { throw ValidationError("--frames needs --out-dir DIR.") }
        }
    }

    func run() throws {
        let renderer = try flags.renderer()
        let flags = self.flags
        let frames = self.frames
        let loader = InputLoader()
        let planned = output.plan(InputExpander.expand(inputs, include: batch.include),
                                  fileExtension: flags.fileExtension)
        let progress = Progress(total: planned.count, quiet: batch.quiet)
        let manifest = try batch.manifest.map { (path) throws(InputFailure) in try ManifestWriter(path: path) }
        let wantsDigest = manifest != nil
        let failures = Atomic<Int>(0)

        BatchRunner(jobs: batch.workerCount).run(count: planned.count, work: { i in
            let (input, target) = planned[i]
            let start = Progress.now()
            var outcome = Outcome(input: input, milliseconds: 0)
            do {
                let path = try target.get()
                outcome.output = path
                let signature = try loader.load(input)
                let bytes: [UInt8]
                do {
                    if let frames {
                        try Self.writeFrames(of: signature, count: frames, basePath: path, flags: flags, renderer: renderer)
                        bytes = []
                    } else {
                        bytes = try flags.render(signature, with: renderer)
                    }
                } catch let error as RenderError {
                    throw InputFailure(path: input, reason: "\(error)")
                }
                if frames == nil {
                    try OutputWriter.write(bytes, to: path)
                    outcome.bytes = bytes.count
                    if wantsDigest { outcome.sha256 = SHA256.hex(SHA256.hash(bytes)) }
                }
            } catch let failure as InputFailure {
                outcome.error = failure.reason
            } catch {
                outcome.error = "\(error)"
            }
            outcome.milliseconds = (Progress.now() - start) * 1000
            return outcome
        }, report: { _, outcome in
            if let error = outcome.error {
                failures.add(1, ordering: .relaxed)
                progress.report(InputFailure(path: outcome.input, reason: error))
            }
            manifest?.append(outcome)
            progress.finished(failed: outcome.failed)
        })
        try manifest?.finish()
        progress.summary()
        if failures.load(ordering: .relaxed) > 0 { throw ExitCode.failure }
    }

    /// Writes `count` frames: frame k shows the ink drawn by k/count of the signature's duration.
    static func writeFrames(of signature: Signature, count: Int, basePath: String, flags: RenderFlags,
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

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
