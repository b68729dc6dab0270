// SPDX-License-Identifier: Apache-2.0
// PNG encoding of rendered signature coverage: the sparse-deflate indexed writer against libpng.
import Benchmark
import Foundation
import SignatureInkRender

/// A coverage image (one byte a pixel) loaded from `Benchmarks/Fixtures/coverage-<name>.png`, whose
/// palette entry `i` is grey `i`.
struct Coverage: Sendable {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    init(_ name: String) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/coverage-\(name).png")
        guard let data = try? Data(contentsOf: url), let png = try? DecodedPNG(Array(data)) else {
            fatalError("cannot read the fixture \(url.path)")
        }
        width = png.width
        height = png.height
        bytes = stride(from: 0, to: png.rgba.count, by: 4).map { png.rgba[$0] }
    }
}

/// Holds one encoder across the samples of a benchmark, which run one after another.
final class ReusedEncoder: @unchecked Sendable {
    var encoder = CoveragePNGEncoder()
}

/// Navy ink on a transparent background, the renderer's usual case.
let palette = CoveragePNGEncoder.palette(ink: Color(red: 26, green: 35, blue: 126))
let metadata = PNGMetadata(pixelsPerInch: 96, text: [("Software", "signature-ink")])

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 10_000)

    // Names have no spaces: the thresholds files are found by name (package-benchmark 1.x writes spaces as
    // underscores but reads them as they are).
    for name in ["real@1x", "real@2x", "cursive@1x", "cursive@2x"] {
        let image = Coverage(name)

        // One encoder for every sample, as a batch would use it: its buffers are reused.
        let reused = ReusedEncoder()
        // Committed thresholds (Benchmarks/Thresholds/, `swift package benchmark thresholds check`): one
        // allocation exactly (the returned array), and a p90 time at most twice the recorded one, generous
        // because the build machines are shared and noisy.
        let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            .mallocCountTotal: .strict,
            .wallClock: BenchmarkThresholds(relative: [.p90: 100]),
        ]
        let checked = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], thresholds: thresholds)
        Benchmark("CoveragePNGEncoder_\(name)", configuration: checked) { benchmark in
            try image.bytes.withUnsafeBufferPointer { pixels in
                for _ in benchmark.scaledIterations {
                    blackHole(try reused.encoder.encode(coverage: pixels, width: image.width, height: image.height,
                                                        stride: image.width, palette: palette, metadata: metadata))
                }
            }
        }

        Benchmark("libpng_indexed_level1_RLE_nofilter_\(name)") { benchmark in
            var encoder = LibPNGEncoder()
            encoder.compressionLevel = 1
            encoder.strategy = LibPNGEncoder.runLengthStrategy
            encoder.filters = LibPNGEncoder.noFilter
            try image.bytes.withUnsafeBufferPointer { pixels in
                for _ in benchmark.scaledIterations {
                    blackHole(try encoder.encode(width: image.width, height: image.height,
                                                 color: .indexed(palette: palette), pixels: pixels,
                                                 stride: image.width, metadata: metadata))
                }
            }
        }

        // What cairo_surface_write_to_png does with the same pixels: straight RGBA, level 6, all filters.
        Benchmark("libpng_RGBA_level6_allfilters_\(name)", configuration: .init(maxIterations: 200)) { benchmark in
            var rgba: [UInt8] = []
            rgba.reserveCapacity(image.bytes.count * 4)
            for v in image.bytes {
                let c = palette[Int(v)]
                rgba += [c.red, c.green, c.blue, c.alpha]
            }
            benchmark.startMeasurement()
            try rgba.withUnsafeBufferPointer { pixels in
                for _ in benchmark.scaledIterations {
                    blackHole(try LibPNGEncoder().encode(width: image.width, height: image.height, color: .rgba,
                                                         pixels: pixels, stride: image.width * 4,
                                                         metadata: metadata))
                }
            }
        }
    }
}
