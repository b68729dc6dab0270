// swift-tools-version: 6.1
// libFuzzer targets for the decoders and the render path. Kept out of the main package so that its default
// build has no unsafe flags; build and run them with `make fuzz` (see Fuzz/run.sh).
import PackageDescription

let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    // libFuzzer supplies `main`; the target only defines LLVMFuzzerTestOneInput.
    .unsafeFlags(["-parse-as-library"]),
]

/// One executable per fuzz target, named `fuzz-<name>`, whose source is `Sources/fuzz-<name>/`.
let names = ["native", "inkml", "signature-pad", "svc2004", "uim", "stroke-list", "detect", "render", "consent", "form"]

let package = Package(
    name: "SignatureInkFuzz",
    dependencies: [.package(name: "SignatureInk", path: "..")],
    targets: [
        // The limits and the invariants every decoded signature must satisfy, shared by the targets.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "SignatureInk", package: "SignatureInk"),
                .product(name: "SignatureInkFormats", package: "SignatureInk"),
                .product(name: "SignatureInkRender", package: "SignatureInk"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ] + names.map { name in
        .executableTarget(
            name: "fuzz-\(name)",
            dependencies: ["FuzzSupport"]
                + (name == "consent" ? [.product(name: "SignatureInkConsent", package: "SignatureInk")] : [])
                + (name == "form" ? [.product(name: "SignatureInkForms", package: "SignatureInk")] : []),
            swiftSettings: settings,
            // lld rather than the default gold: each target links the whole engine with its debug information, and gold
            // is single-threaded (the package's 190 MB debug test binary links in 15.3 s with gold, 5.2 s with lld).
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])])
    }
)
