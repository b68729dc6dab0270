// SPDX-License-Identifier: Apache-2.0
import Benchmark
import BenchmarkFixtures
import SignatureInk

// One iteration processes every sample of the real-ink fixture once, so
// samples per second = Fixtures.sampleCount * throughput (iterations per second).
let benchmarks: @Sendable () -> Void = {
    let signatures = Fixtures.signatures
    let n = Fixtures.sampleCount
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .instructions]
    let config = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 1000)

    // The whole streaming path, sample by sample: repair, 1 Euro filter, width, curve, live outline pieces
    // after every sample, then the final outline.
    Benchmark("Streaming: builder + smoothing + width + live and final outline (\(n) samples)",
              configuration: config) { benchmark in
        var builder = StrokeBuilder()
        var live = Path()
        var final = Path()
        live.reserveCapacity(1 << 16)
        final.reserveCapacity(1 << 16)
        // Warm the buffers so the measured loop is the steady state.
        for sig in signatures { for stroke in sig.strokes { run(stroke, &builder, &live, &final) } }
        benchmark.startMeasurement()
        for sig in signatures {
            for stroke in sig.strokes { run(stroke, &builder, &live, &final) }
        }
        benchmark.stopMeasurement()
        blackHole(final)
    }

    // Whole strokes at once, as the renderer does for a saved signature.
    Benchmark("Outliner: saved strokes to one outline path (\(n) samples)", configuration: config) { benchmark in
        var outliner = Outliner()
        var path = Path()
        path.reserveCapacity(1 << 17)
        for sig in signatures { for stroke in sig.strokes { outliner.appendOutline(of: stroke, to: &path) } }
        benchmark.startMeasurement()
        for sig in signatures {
            path.removeAll(keepingCapacity: true)
            for stroke in sig.strokes { outliner.appendOutline(of: stroke, to: &path) }
        }
        benchmark.stopMeasurement()
        blackHole(path)
    }

    // The convenience API, allocating its result.
    Benchmark("Signature.outlinePath() (\(n) samples)", configuration: config) { benchmark in
        for sig in signatures { blackHole(sig.outlinePath()) }
    }
}

@inline(__always)
func run(_ stroke: ArraySlice<InkSample>, _ builder: inout StrokeBuilder, _ live: inout Path, _ final: inout Path) {
    live.removeAll(keepingCapacity: true)
    final.removeAll(keepingCapacity: true)
    var it = stroke.makeIterator()
    guard let first = it.next() else { return }
    builder.begin(first)
    builder.appendNewGeometry(to: &live)
    while let s = it.next() {
        builder.add(s)
        builder.appendNewGeometry(to: &live)
    }
    builder.end()
    builder.appendNewGeometry(to: &live)
    builder.appendOutline(to: &final)
}
