// swift-tools-version: 6.1
// Benchmarks of the SignatureInk core, run with `swift package benchmark` from this folder.
import PackageDescription

import struct Foundation.URL

// The main package is the folder above; SwiftPM names a path dependency after its folder, which differs
// between clones (a worktree, a CI checkout), so the name is read from the path.
let core = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "SignatureInkBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkFixtures",
            dependencies: [.product(name: "SignatureInk", package: core)],
            path: "Sources/BenchmarkFixtures"),
        .executableTarget(
            name: "Capture",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "SignatureInk", package: core),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Capture",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Simplify",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "SignatureInk", package: core),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Simplify",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "PNG",
            dependencies: [
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkRender", package: core),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "PNG",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The end-to-end fixture set (Fixtures/signatures) and Cairo bound for the fill stage alone.
        .systemLibrary(
            name: "CBenchCairo", path: "Sources/CBenchCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        .target(
            name: "SignatureSet",
            dependencies: [
                "CBenchCairo",
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkFormats", package: core),
            ],
            path: "Sources/SignatureSet"),
        .executableTarget(
            name: "Raster",
            dependencies: [
                "SignatureSet",
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkFormats", package: core),
                .product(name: "SignatureInkRender", package: core),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Raster",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Vector",
            dependencies: [
                "SignatureSet",
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkRender", package: core),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Vector",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Batch",
            dependencies: [
                "SignatureSet",
                .product(name: "SignatureInkFormats", package: core),
                .product(name: "SignatureInkRender", package: core),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Batch",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // Signs the benchmark consent document into its PDF and record, for Benchmarks/document/compare.py.
        .executableTarget(
            name: "document-timing",
            dependencies: [
                "SignatureSet",
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkFormats", package: core),
                .product(name: "SignatureInkConsent", package: core),
                .product(name: "SignatureInkRender", package: core),
            ],
            path: "Sources/document-timing"),
        // What a digital signature adds to a consent and to a form, for Benchmarks/signing/compare.py.
        .executableTarget(
            name: "seal-timing",
            dependencies: [
                "SignatureSet",
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkFormats", package: core),
                .product(name: "SignatureInkConsent", package: core),
                .product(name: "SignatureInkRender", package: core),
                .product(name: "SignatureInkForms", package: core),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/seal-timing"),
        // Signs a ten-page PDF form, for Benchmarks/forms/compare.py.
        .executableTarget(
            name: "form-timing",
            dependencies: [
                "SignatureSet",
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkFormats", package: core),
                .product(name: "SignatureInkForms", package: core),
            ],
            path: "Sources/form-timing"),
        // Times the library on the fixture set for Benchmarks/peers/peers.py (not a package-benchmark suite).
        .executableTarget(
            name: "ink-timing",
            dependencies: [
                "SignatureSet",
                .product(name: "SignatureInk", package: core),
                .product(name: "SignatureInkFormats", package: core),
                .product(name: "SignatureInkRender", package: core),
            ],
            path: "Sources/ink-timing"),
    ]
)
