// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import HummingbirdTesting
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import SignatureInkServer
import Testing

/// Runs the built `signature-ink` command-line tool, which `swift build --build-tests` builds beside the tests.
enum CommandLineTool {
    static let binary: URL? = {
        var dir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("signature-ink")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    /// `signature-ink render INPUT -o OUT.<format> ARGUMENTS`: the output file's bytes, or the error output.
    static func render(_ input: URL, format: String, arguments: [String]) throws -> (status: Int32, output: [UInt8], stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.\(format)")
        let process = Process()
        guard let binary else {
            Issue.record("the signature-ink binary is not built beside the tests")
            return (-1, [], "")
        }
        process.executableURL = binary
        process.arguments = ["render", input.path, "-o", output.path, "--quiet"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let bytes = (try? Data(contentsOf: output)).map { Array($0) } ?? []
        return (process.terminationStatus, bytes, String(decoding: stderr, as: UTF8.self))
    }
}

/// The render API's query parameters mean what the command line's render flags of the same names mean.
@Suite struct RenderQueryTests {
    static let penFile = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1/Cell-Structure-1-19.json")
    static let eraserFile = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1/Hello-World-1-07.json")

    /// A query and the command-line flags that must give the same file.
    static let equivalents: [(query: String, flags: [String])] = [
        ("", []),
        ("scale=2&pen-color=%231a237e", ["--scale", "2", "--pen-color", "#1a237e"]),
        ("fit=true&width=300&height=100&padding=8", ["--fit", "--width", "300", "--height", "100", "--padding", "8"]),
        ("crop=true&min-width=0.5&max-width=4", ["--crop", "--min-width", "0.5", "--max-width", "4"]),
        ("width=400&view-mode=true&background=%23ffffff", ["--width", "400", "--view-mode", "--background", "#ffffff"]),
        ("height=150&opacity=0.7&dpi=150", ["--height", "150", "--opacity", "0.7", "--dpi", "150"]),
        ("format=svg&pen-width=2&crop=true", ["--pen-width", "2", "--crop"]),
        ("format=pdf&fit=true&pen-color=navy", ["--fit", "--pen-color", "navy"]),
    ]

    @Test(arguments: equivalents.indices, [penFile, eraserFile])
    func theServerAnswersWhatTheCommandLineWrites(_ index: Int, _ file: URL) async throws {
        let (query, flags) = Self.equivalents[index]
        let format = query.split(separator: "&").first { $0.hasPrefix("format=") }.map { String($0.dropFirst(7)) } ?? "png"
        let cli = try CommandLineTool.render(file, format: format, arguments: flags)
        #expect(cli.status == 0, "\(flags): \(cli.stderr)")
        let body = Array(try Data(contentsOf: file))
        try await ServerFixture.app().test(.router) { client in
            try await client.execute(uri: "/render?" + query, method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
                let served = Array(response.body.readableBytesView)
                #expect(!served.isEmpty)
                #expect(served == cli.output, "\(query) differs from signature-ink render \(flags.joined(separator: " "))")
            }
        }
    }

    @Test func oneSideTakesTheOtherFromTheCanvasAndThePointsStayWhereTheyWereDrawn() async throws {
        let native = try InkDecoder().decode(Data(ServerFixture.native)).signature
        let canvas = try #require(native.canvas)
        let body = Array(try Data(contentsOf: Self.penFile))
        let pad = try InkDecoder().decode(Data(body)).signature
        try await ServerFixture.app().test(.router) { client in
            try await client.execute(uri: "/render?width=200", method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                let png = try DecodedPNG(Array(response.body.readableBytesView))
                #expect(png.width == 200 && Double(png.height) == canvas.height.rounded())
            }
            // No canvas: a 2:1 box, the usual signature pad shape.
            try await client.execute(uri: "/render?height=120", method: .post, body: ByteBuffer(bytes: body)) { response in
                let png = try DecodedPNG(Array(response.body.readableBytesView))
                #expect(png.width == 240 && png.height == 120)
            }
            // In a box and neither fitted nor cropped, the first point has ink at the same pixel.
            let first = pad.samples[0]
            try await client.execute(uri: "/render?width=600&height=300", method: .post, body: ByteBuffer(bytes: body)) { response in
                let png = try DecodedPNG(Array(response.body.readableBytesView))
                let near = (-3...3).flatMap { dy in (-3...3).map { dx in
                    png.pixel(x: Int(first.x) + dx, y: Int(first.y) + dy).alpha } }
                #expect(near.contains { $0 > 0 }, "no ink near the first point \(first.x), \(first.y)")
            }
        }
    }

    @Test func penParametersThatReplaceTheFilesPenAreSaid() async throws {
        let body = Array(try Data(contentsOf: Self.penFile))
        try await ServerFixture.app().test(.router) { client in
            try await client.execute(uri: "/render?min-width=0.5&max-width=6", method: .post, body: ByteBuffer(bytes: body)) { response in
                let note = response.headers[HTTPFields.Element.Name("Signature-Ink-Note")!] ?? ""
                #expect(note == "min-width and max-width replace the pen widths the file records")
            }
            try await client.execute(uri: "/render?pen-color=%230000ff", method: .post, body: ByteBuffer(bytes: body)) { response in
                let note = response.headers[HTTPFields.Element.Name("Signature-Ink-Note")!] ?? ""
                #expect(note == "pen-color replaces the pen colour the file records: #c0392b80", "\(note)")
            }
            try await client.execute(uri: "/render", method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.headers[HTTPFields.Element.Name("Signature-Ink-Note")!] == nil)
            }
        }
    }

    static let refused: [String] = [
        "fit=true&crop=true", "crop=true&width=300", "pen-width=2&min-width=1", "min-width=5", "max-width=0",
        "scale=0", "scale=17", "opacity=2", "dpi=-1", "fit=maybe", "width=5000", "pen-color=%3Cscript%3E",
        "fit=true&width=40&height=20&padding=30",
    ]

    @Test(arguments: refused)
    func contradictoryOrOutOfRangeParametersGet400(_ query: String) async throws {
        try await ServerFixture.app().test(.router) { client in
            try await client.execute(uri: "/render?" + query, method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                #expect(response.status == .badRequest, "\(query): \(response.status)")
                let message = ServerFixture.json(response.body)["error"] as? String ?? ""
                #expect(!message.isEmpty && !message.contains("<"), "\(query): \(message)")
            }
        }
    }
}
