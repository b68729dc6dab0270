// SPDX-License-Identifier: Apache-2.0
import Benchmark
import Foundation
import BenchmarkFixtures
import SignatureInk

// One iteration simplifies or fits every stroke of the real-ink fixture once (40,985 samples), so
// samples per second = Fixtures.sampleCount * throughput (iterations per second).
let benchmarks: @Sendable () -> Void = {
    let lines = Fixtures.polylines
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
    // Committed thresholds (Thresholds/*.p90.json) hold the malloc counts only: exact, so they catch any allocation
    // creeping into the per-sample path; the tool's own bookkeeping varies by up to 2. Times on shared machines
    // are too noisy to gate on.
    let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 2])
    ]
    // CI (SIGNATURE_INK_BENCH_CI) checks only the allocation counts, which every iteration repeats: a short run.
    let ci = ProcessInfo.processInfo.environment["SIGNATURE_INK_BENCH_CI"] != nil
    let config = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(ci ? 1 : 5),
                                         maxIterations: ci ? 100 : 1000, thresholds: thresholds)

    Benchmark("RDP.reusedBuffers", configuration: config) { benchmark in
        var indices: [Int] = []
        var stack: [Int] = []
        indices.reserveCapacity(4096)
        stack.reserveCapacity(4096)
        benchmark.startMeasurement()
        var kept = 0
        for line in lines {
            indices.removeAll(keepingCapacity: true)
            line.withUnsafeBufferPointer {
                RamerDouglasPeucker.simplify($0, tolerance: 0.5, into: &indices, stack: &stack)
            }
            kept += indices.count
        }
        benchmark.stopMeasurement()
        blackHole(kept)
    }

    Benchmark("RDP.arrays", configuration: config) { benchmark in
        for line in lines { blackHole(RamerDouglasPeucker.simplify(line, tolerance: 0.5)) }
    }

    Benchmark("VisvalingamWhyatt", configuration: config) { benchmark in
        for line in lines { blackHole(VisvalingamWhyatt.simplifiedIndices(line, tolerance: 0.5)) }
    }

    Benchmark("CurveFitter.reusedFitter", configuration: config) { benchmark in
        var fitter = CurveFitter(tolerance: 0.5)
        var out: [CubicSegment] = []
        out.reserveCapacity(4096)
        for line in lines { line.withUnsafeBufferPointer { fitter.fit($0, into: &out) }; out.removeAll(keepingCapacity: true) }
        benchmark.startMeasurement()
        var count = 0
        for line in lines {
            out.removeAll(keepingCapacity: true)
            line.withUnsafeBufferPointer { fitter.fit($0, into: &out) }
            count += out.count
        }
        benchmark.stopMeasurement()
        blackHole(count)
    }
}
