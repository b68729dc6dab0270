// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SignatureInk",
    products: [
        .library(name: "SignatureInk", targets: ["SignatureInk"]),
        .library(name: "SignatureInkFormats", targets: ["SignatureInkFormats"]),
        .library(name: "SignatureInkRender", targets: ["SignatureInkRender"]),
        .library(name: "SignatureInkConsent", targets: ["SignatureInkConsent"]),
        .library(name: "SignatureInkForms", targets: ["SignatureInkForms"]),
        .library(name: "SignatureInkStore", targets: ["SignatureInkStore"]),
        .executable(name: "signature-ink", targets: ["signature-ink"]),
        .executable(name: "signature-ink-server", targets: ["signature-ink-server"]),
        .executable(name: "signature-ink-store", targets: ["signature-ink-store"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // Digital signatures of PDFs: keys and certificates (swift-certificates), the CMS written as DER (swift-asn1).
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // `swift package generate-documentation` for the DocC catalogs (`make docs`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        // The HTTP server (signature-ink-server) and its logs, with the FullFoundation trait only: the default trait
        // ConfigurationSupport would build swift-configuration, which the server does not use (its flags are its
        // configuration), into every build of it.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The server's request deadline and HTTP/1 checks are channel handlers: NIO's event loop timers, HTTP parts as
        // NIO's parser and Hummingbird see them.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        // SIGTERM's grace: the service group that runs the server, with a bound on the graceful shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.11.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        // The consent store's embedded database: SQLite (the system's libsqlite3) through GRDB.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // The consent store's shared database, for several servers: PostgreSQL through PostgresNIO.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // The geometry core: ink model, capture, processing. Swift only: no C, no Foundation.
        .target(
            name: "SignatureInk",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: strict),
        // Decoders and encoders of stroke files: Swift and FoundationEssentials, no C.
        .target(
            name: "SignatureInkFormats",
            dependencies: ["SignatureInk", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: strict),
        // C libraries, found through pkg-config.
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // zlib's CRC-32 for PNG chunks (libpng needs zlib anyway).
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CPango", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"]), .brew(["pango"])]),
        // glibc's allocator settings, for processes that make many outputs (HeapReuse).
        .systemLibrary(name: "CHeap"),
        .systemLibrary(
            name: "CQPDF", pkgConfig: "libqpdf",
            providers: [.apt(["libqpdf-dev"]), .brew(["qpdf"])]),
        // The numbers of Cairo's PDF output, written without glibc's general formatter; the release link points
        // Cairo at them (Scripts/link-release).
        .target(name: "CCairoNumbers"),
        // Hands the program's arguments to the Swift runtime at start, so that the release link can leave out the
        // runtime's own search for them (Scripts/link-release).
        .target(name: "CProgramArguments"),
        // Everything that touches Cairo, Pango or libpng, behind a Swift API with no C types in it.
        .target(
            name: "SignatureInkRender",
            dependencies: ["SignatureInk", "CCairo", "CPango", "CPNG", "CZlib", "CHeap", "CCairoNumbers"],
            swiftSettings: strict),
        // Consent documents: the model, the walk-through, the signed PDF and the consent record; the saved signature's
        // digest (SHA-256 from swift-crypto).
        .target(
            name: "SignatureInkConsent",
            dependencies: [
                "SignatureInk", "SignatureInkFormats", "SignatureInkRender", "SignatureInkForms",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        // Signing existing PDF forms: qpdf reads and writes the file, the renderer draws the ink; digital signatures
        // with keys and certificates from swift-certificates, the CMS written with swift-asn1, hashes from swift-crypto.
        .target(
            name: "SignatureInkForms",
            dependencies: [
                "SignatureInk", "SignatureInkRender", "CQPDF",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        // The consent store: every consent, document, saved signature and withdrawal, append-only and hash-chained;
        // users on shared devices, their enrolment codes and passcodes.
        .target(
            name: "SignatureInkStore",
            dependencies: [
                "SignatureInkConsent", "SignatureInkFormats",
                // Passcodes of users on shared devices: scrypt from _CryptoExtras, random salts and codes from Crypto.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "signature-ink",
            dependencies: [
                "SignatureInk", "SignatureInkFormats", "SignatureInkRender", "SignatureInkConsent", "SignatureInkForms",
                "CProgramArguments", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // Keeps what `signature-ink consent --store` signs. The store's databases and Foundation are linked into this
        // executable alone, so that the command-line tool stays small and quick to start.
        .executableTarget(
            name: "signature-ink-store",
            dependencies: [
                "SignatureInkConsent", "SignatureInkStore", "CProgramArguments",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // The HTTP server's routes, pages and limits; a separate executable keeps the command-line tool small.
        .target(
            name: "SignatureInkServer",
            dependencies: [
                "SignatureInk", "SignatureInkFormats", "SignatureInkRender", "SignatureInkConsent", "SignatureInkStore",
                "SignatureInkForms", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            resources: [.copy("Public")],
            swiftSettings: strict),
        .executableTarget(
            name: "signature-ink-server",
            dependencies: [
                "SignatureInkServer", "SignatureInkConsent", "SignatureInkStore", "SignatureInkForms", "SignatureInkRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // The Swift examples of the README and the DocC articles as printed, compiled by every build
        // (Tests/README/readme_commands.py checks that they match).
        .executableTarget(
            name: "doc-examples",
            dependencies: [
                "SignatureInk", "SignatureInkFormats", "SignatureInkRender", "SignatureInkConsent", "SignatureInkForms",
                "SignatureInkServer", "SignatureInkStore", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/DocExamples",
            swiftSettings: strict),
        // Seeded random signatures, paths to test data and a throw-away PKI, shared by the test targets.
        .target(
            name: "InkTestSupport",
            dependencies: [
                "SignatureInk", .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/InkTestSupport",
            swiftSettings: strict),
        .testTarget(
            name: "SignatureInkTests", dependencies: ["SignatureInk", "InkTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SignatureInkFormatsTests", dependencies: ["SignatureInkFormats", "SignatureInkConsent", "InkTestSupport"],
            exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "SignatureInkRenderTests",
            dependencies: ["SignatureInkRender", "SignatureInkFormats", "InkTestSupport", "CCairoNumbers"],
            exclude: ["Goldens"],
            swiftSettings: strict),
        .testTarget(
            name: "SignatureInkConsentTests",
            dependencies: ["SignatureInkConsent", "SignatureInkFormats", "SignatureInkRender", "SignatureInkForms", "InkTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "SignatureInkFormsTests",
            dependencies: [
                "SignatureInkForms", "SignatureInkFormats", "SignatureInkRender", "InkTestSupport",
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SignatureInkServerTests",
            dependencies: [
                "SignatureInkServer", "SignatureInkFormats", "SignatureInkRender", "SignatureInkStore", "SignatureInkForms",
                "InkTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SignatureInkStoreTests",
            dependencies: ["SignatureInkStore", "SignatureInkConsent", "SignatureInkFormats", "InkTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "SignatureInk", "SignatureInkConsent", "SignatureInkFormats", "SignatureInkRender", "SignatureInkStore",
                "InkTestSupport",
            ],
            swiftSettings: strict),
    ]
)
