// SPDX-License-Identifier: Apache-2.0
// Vector output of whole signatures, end to end, with the size of what is written as a custom metric.
import Benchmark
import Foundation
import SignatureInk
import SignatureInkRender
import SignatureSet

// One iteration handles every signature of the fixture set once, so time per signature = time per iteration /
// count. The byte metrics are the mean output size per signature (ANCHORS.md: signature_pad's toSVG averages
// 26 KiB).
let benchmarks: @Sendable () -> Void = {
    let signatures = SignatureSet.signatures
    let count = signatures.count
    let ci = ProcessInfo.processInfo.environment["SIGNATURE_INK_BENCH_CI"] != nil
    let svgBytes = BenchmarkMetric.custom("SVG bytes per signature", polarity: .prefersSmaller, useScalingFactor: false)
    let pdfBytes = BenchmarkMetric.custom("PDF bytes per signature", polarity: .prefersSmaller, useScalingFactor: false)
    let tolerances: [BenchmarkMetric: BenchmarkThresholds] = [
        .instructions: BenchmarkThresholds(relative: [.p90: 3.0]),
        // About 60-120 allocations a signature, mostly Cairo's and the encoder's tables, whose count moved by up to
        // 10 % between runs of the same build; 25 % still catches one allocation more per sample (+140 % or more).
        .mallocCountTotal: BenchmarkThresholds(relative: [.p90: 25.0]),
    ]
    func config(_ size: BenchmarkMetric) -> Benchmark.Configuration {
        .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions, size],
              warmupIterations: ci ? 1 : 3,
              maxDuration: .seconds(ci ? 1 : 5), maxIterations: ci ? 3 : 500, thresholds: tolerances)
    }
    let renderer = SignatureRenderer()

    Benchmark("SVG_EndToEnd_Signature_to_document_1_decimal", configuration: config(svgBytes)) {
        benchmark in
        var bytes = 0
        for s in signatures { bytes += try renderer.svg(s).utf8.count }
        benchmark.measurement(svgBytes, bytes / count)
    }

    Benchmark("PDF_EndToEnd_Signature_to_one_page_document", configuration: config(pdfBytes)) { benchmark in
        var bytes = 0
        for s in signatures { bytes += try renderer.pdf(s).count }
        benchmark.measurement(pdfBytes, bytes / count)
    }
}
