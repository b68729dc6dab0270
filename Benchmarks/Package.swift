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
                .product(name: "SignatureInkRender", package: core),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "PNG",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
