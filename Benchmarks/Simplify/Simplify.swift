// SPDX-License-Identifier: Apache-2.0
import Benchmark
import BenchmarkFixtures
import SignatureInk

// One iteration simplifies or fits every stroke of the real-ink fixture once, so
// samples per second = Fixtures.sampleCount * throughput (iterations per second).
let benchmarks: @Sendable () -> Void = {
    let lines = Fixtures.polylines
    let n = Fixtures.sampleCount
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .throughput, .mallocCountTotal]
    let config = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 1000)

    Benchmark("RDP 0.5 px, reused buffers (\(n) samples)", configuration: config) { benchmark in
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

    Benchmark("RDP 0.5 px, [Point] -> [Point] (\(n) samples)", configuration: config) { benchmark in
        for line in lines { blackHole(RamerDouglasPeucker.simplify(line, tolerance: 0.5)) }
    }

    Benchmark("Visvalingam-Whyatt 0.5 px (\(n) samples)", configuration: config) { benchmark in
        for line in lines { blackHole(VisvalingamWhyatt.simplifiedIndices(line, tolerance: 0.5)) }
    }

    Benchmark("Curve fitting 0.5 px, reused fitter (\(n) samples)", configuration: config) { benchmark in
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
