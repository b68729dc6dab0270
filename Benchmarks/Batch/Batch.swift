// SPDX-License-Identifier: Apache-2.0
// Many signatures through the library's file -> PNG conversion, on one worker and on every core.
//
// The CLI's batch runner lives in the `signature-ink` executable target, which a package cannot import, so this
// suite drives the same library calls the runner makes (decode the bytes, render PNG) from worker threads.
// The real CLI, with its file I/O, is measured by Benchmarks/batch/batch.sh (hyperfine and /usr/bin/time).
import Benchmark
import Foundation
import SignatureInkFormats
import SignatureInkRender
import SignatureSet

let benchmarks: @Sendable () -> Void = {
    let entries = SignatureSet.entries
    let ci = ProcessInfo.processInfo.environment["SIGNATURE_INK_BENCH_CI"] != nil
    // Five passes over the fixture set per iteration: enough work per iteration that starting threads is noise.
    let passes = 5
    let jobs = entries.count * passes
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .cpuTotal, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(ci ? 1 : 10), maxIterations: ci ? 2 : 200)

    for workers in Set([1, 2, cores]).sorted() {
        Benchmark("Batch_file_bytes_to_PNG_\(jobs)_files_on_\(workers)_workers", configuration: config) {
            benchmark in
            // Worker w converts files w, w + workers, w + 2 workers, ...: the same share for each, no shared
            // state. Plain threads: Dispatch's concurrentPerform ran both shares on one core here.
            let done = DispatchGroup()
            for w in 0..<workers {
                done.enter()
                let thread = Thread {
                    let decoder = InkDecoder()
                    let renderer = SignatureRenderer()
                    for i in stride(from: w, to: jobs, by: workers) {
                        let entry = entries[i % entries.count]
                        do {
                            blackHole(try renderer.png(decoder.decode(entry.data).signature))
                        } catch {
                            fatalError("\(entry.name): \(error)")
                        }
                    }
                    done.leave()
                }
                thread.start()
            }
            done.wait()
        }
    }
}
