// SPDX-License-Identifier: Apache-2.0
// PNG output of whole signatures: the Cairo fill alone, the PNG writer alone, and end to end, at scale 1 and 2.
import Benchmark
import Foundation
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import SignatureSet

// One iteration handles every signature of the fixture set once (SignatureSet: 158 files of ~170 real samples
// in a 600 x 300 canvas), so time per signature = time per iteration / count. Names leave the count out so the
// committed thresholds keep matching their benchmarks, and have no spaces: package-benchmark 1.38 writes a
// thresholds file with spaces as underscores but looks it up by the name as it is.
let benchmarks: @Sendable () -> Void = {
    let entries = SignatureSet.entries
    let count = entries.count
    let ci = ProcessInfo.processInfo.environment["SIGNATURE_INK_BENCH_CI"] != nil
    let bytesMetric = BenchmarkMetric.custom("PNG bytes per signature", polarity: .prefersSmaller,
                                             useScalingFactor: false)
    let tolerances: [BenchmarkMetric: BenchmarkThresholds] = [
        // Instruction counts move a little with the toolchain and libc: 3 % either way is a real change.
        .instructions: BenchmarkThresholds(relative: [.p90: 3.0]),
        // About 60-120 allocations a signature, mostly Cairo's and the encoder's tables, whose count moved by up to
        // 10 % between runs of the same build; 25 % still catches one allocation more per sample (+140 % or more).
        .mallocCountTotal: BenchmarkThresholds(relative: [.p90: 25.0]),
    ]
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
        warmupIterations: ci ? 1 : 3,
        maxDuration: .seconds(ci ? 1 : 5), maxIterations: ci ? 3 : 500, thresholds: tolerances)

    for scale in [1.0, 2.0] {
        let tag = "@\(Int(scale))x"
        let renderer = SignatureRenderer(options: RenderOptions(scale: scale))
        // The same outline the renderer fills: the default pen style, and the canvas framing places the ink 1:1.
        let outlines = entries.map { $0.signature.outlinePath(style: RenderOptions().penStyle) }
        let canvases = entries.map { (width: $0.signature.canvas?.width ?? 600, height: $0.signature.canvas?.height ?? 300) }

        Benchmark("Raster_fill_outline_into_Cairo_A8\(tag)", configuration: config) { benchmark in
            for i in 0..<count {
                guard let raster = CoverageRaster(width: canvases[i].width, height: canvases[i].height, scale: scale),
                      raster.fill(outlines[i]) else {
                    benchmark.error("Cairo failed on \(entries[i].name)")
                    return
                }
                blackHole(raster)
            }
        }

        // The coverage the fill produced, encoded as the renderer does: a fresh encoder, the renderer's palette
        // (black on transparent) and metadata.
        let coverages: [(width: Int, height: Int, bytes: [UInt8])] = (0..<count).map { i in
            guard let raster = CoverageRaster(width: canvases[i].width, height: canvases[i].height, scale: scale),
                  raster.fill(outlines[i]) else { fatalError("Cairo failed on \(entries[i].name)") }
            return (raster.width, raster.height, raster.coverage())
        }
        let palette = CoveragePNGEncoder.palette(ink: .black, background: .clear)
        let metadata = PNGMetadata(pixelsPerInch: 96 * scale, text: [("Software", "signature-ink"),
                                                                     ("Creation Time", "2021-03-10T10:15:53Z")])
        Benchmark("PNG_encoding_alone_coverage_to_PNG\(tag)",
                  configuration: config.adding(bytesMetric)) { benchmark in
            var bytes = 0
            for c in coverages {
                var encoder = CoveragePNGEncoder()
                let png = try c.bytes.withUnsafeBufferPointer { pixels in
                    try encoder.encode(coverage: pixels, width: c.width, height: c.height, stride: c.width,
                                       palette: palette, metadata: metadata)
                }
                bytes += png.count
            }
            benchmark.measurement(bytesMetric, bytes / count)
        }

        Benchmark("EndToEnd_Signature_to_PNG\(tag)",
                  configuration: config.adding(bytesMetric)) { benchmark in
            var bytes = 0
            for e in entries { bytes += try renderer.png(e.signature).count }
            benchmark.measurement(bytesMetric, bytes / count)
        }

        Benchmark("EndToEnd_file_bytes_decoded_to_PNG\(tag)", configuration: config) { benchmark in
            let decoder = InkDecoder()
            for e in entries { blackHole(try renderer.png(decoder.decode(e.data).signature)) }
        }
    }
}

extension Benchmark.Configuration {
    /// This configuration with one more metric.
    func adding(_ metric: BenchmarkMetric) -> Benchmark.Configuration {
        var c = self
        c.metrics.append(metric)
        return c
    }
}
