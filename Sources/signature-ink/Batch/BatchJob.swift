// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
import SignatureInkConsent
import SignatureInkRender

/// The loop every many-input command shares: expand inputs, plan outputs, run on every core, report failures
/// and progress, write the manifest, and exit 1 when anything failed.
///
/// Which files are read: a file named on the command line always is, and fails when it is not a stroke file. A
/// file found while expanding a folder (and matching `--include`, when given) is skipped when its content has
/// the shape of no stroke format (``InkFormat/detect(_:)``, when no `--input-format` is given), such as a script
/// or a consent document kept beside the signatures: it is named on standard error as `FILE: skipped: reason`,
/// counted in the summary and written to the manifest with the status `skipped`. A damaged stroke file still
/// fails.
enum BatchJob {
    /// Makes the output of one decoded input. Returns the bytes to write to `outputPath`, or `nil` when it wrote
    /// its outputs itself (such as animation frames).
    typealias Make = @Sendable (_ signature: Signature, _ outputPath: String) throws -> [UInt8]?

    static func run(inputs: [String], loader: InputLoader, output: OutputTarget, batch: BatchSettings,
                    fileExtension: String, make: @escaping Make) throws {
        // The worker threads first, when there may be several inputs: their start-up overlaps the listing and
        // planning below.
        // (One file named alone asks neither for threads nor for the count of cores.)
        let mayBeMany = inputs.count > 1 || inputs.first.map(InputExpander.isDirectory) == true
        let workerCount = mayBeMany ? batch.workerCount : 1
        let crew = workerCount > 1 ? WorkerCrew(threads: workerCount - 1) : nil
        let planned = output.plan(InputExpander.expand(inputs, include: batch.include), fileExtension: fileExtension)
        let progress = Progress(total: planned.count, quiet: batch.quiet)
        let manifest = try batch.manifest.map { (path) throws(InputFailure) in
            // Its folder first (`--manifest out/manifest.jsonl` beside `--out-dir out`, neither made yet).
            try OutputWriter.makeFolder(of: path)
            return try ManifestWriter(path: path)
        }
        let wantsDigest = manifest != nil
        let failures = FailureCount()
        // One input needs no worker threads, nor reading ahead.
        let workers = planned.count <= 1 ? 1 : workerCount
        let readAhead = planned.count <= 1 ? nil : ReadAhead(inputs: planned, workers: workers)
        if planned.count > 1 { HeapReuse.keepFreedMemory() }

        BatchRunner(jobs: workers).run(count: planned.count, crew: crew, work: { i in
            let inputPath = planned[i].input, path = planned[i].output
            let start = Progress.now()
            let opened = readAhead?.take(i)
            var outcome = Outcome(input: inputPath, milliseconds: 0)
            do {
                if let refusal = planned[i].refusal { throw refusal }
                outcome.output = path
                let signature = try opened.map { (fd) throws(InputFailure) in try loader.load(inputPath, opened: fd) }
                    ?? loader.load(inputPath)
                let made: [UInt8]?
                do { made = try make(signature, path) } catch let failure as InputFailure { throw failure } catch {
                    throw InputFailure(path: inputPath, reason: "\(error)")
                }
                if let bytes = made {
                    try OutputWriter.write(bytes, to: path)
                    outcome.bytes = bytes.count
                    if wantsDigest { outcome.sha256 = HexDigest.sha256(bytes) }
                }
            } catch let failure as InputFailure where failure.notStrokes && planned[i].foundInFolder {
                outcome.output = nil
                outcome.skipped = failure.reason
            } catch let failure as InputFailure {
                outcome.error = failure.reason
            } catch {
                outcome.error = "\(error)"
            }
            outcome.milliseconds = (Progress.now() - start) * 1000
            return outcome
        }, report: { _, outcome in
            if let error = outcome.error {
                failures.value += 1
                progress.report(InputFailure(path: outcome.input, reason: error))
            } else if let reason = outcome.skipped {
                progress.report(InputFailure(path: outcome.input, reason: "skipped: " + reason))
            }
            manifest?.append(outcome)
            progress.finished(failed: outcome.failed, skipped: outcome.skipped != nil)
        })
        try manifest?.finish()
        progress.summary()
        if failures.value > 0 { throw ExitCode.failure }
    }
}

/// How many inputs failed. Only the batch's `report` closure changes it, and ``BatchRunner`` calls that one at a
/// time; it is read after the run. (A plain class rather than `Atomic<Int>`, whose metadata a new process had to
/// build, checking `Int`'s conformances, when the closure holding it was released.)
private final class FailureCount: @unchecked Sendable {
    var value = 0
}
