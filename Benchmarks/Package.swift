// swift-tools-version: 6.1
// Benchmarks, kept out of the main package so using SignatureInk does not pull in package-benchmark.
// Run from this folder: `swift package benchmark` (or `--target PNG`).
import PackageDescription

let package = Package(
    name: "SignatureInkBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "SignatureInk", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PNG",
            dependencies: [
                .product(name: "SignatureInkRender", package: "SignatureInk"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PNG",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
