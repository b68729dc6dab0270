// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import SignatureInkServer
import Testing

/// The render API's query parameters are the render request's options under their names.
@Suite struct RenderQueryTests {
    static let penFile = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1/Cell-Structure-1-19.json")
    static let eraserFile = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1/Hello-World-1-07.json")

    /// Each option of the one table, alone or beside the option that shows it, on a file with pens and one with an
    /// eraser: the server answers what the library's request for the same values draws.
    @Test(arguments: RenderOptionTable.rows, [penFile, eraserFile])
    func eachQueryParameterIsTheRequestsOption(_ row: RenderOptionTable.Row, _ file: URL) async throws {
        let rows = RenderOptionTable.showing(row)
        let values = try rows.map { (try #require(RenderRequest.Option(rawValue: $0.option)), $0.value ?? "true") }
        var configured = try RenderRequest(values: values)
        configured.limits = ServerConfiguration().renderLimits
        let request = configured
        let body = Array(try Data(contentsOf: file))
        let expected = try request.render(try InkDecoder().decode(Data(body)).signature)
        let query = rows.map(\.queryItem).joined(separator: "&")
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/render?" + query, method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
                #expect(response.headers[.contentType] == request.outputFormat.mediaType)
                #expect(Array(response.body.readableBytesView) == expected, "\(query)")
            }
        }
    }

    @Test func oneSideTakesTheOtherFromTheCanvasAndThePointsStayWhereTheyWereDrawn() async throws {
        let native = try InkDecoder().decode(Data(ServerFixture.native)).signature
        let canvas = try #require(native.canvas)
        let body = Array(try Data(contentsOf: Self.penFile))
        let pad = try InkDecoder().decode(Data(body)).signature
        try await ServerFixture.app().withRouterClient { client in
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
        try await ServerFixture.app().withRouterClient { client in
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
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/render?" + query, method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                #expect(response.status == .badRequest, "\(query): \(response.status)")
                let message = ServerFixture.json(response.body)["error"] as? String ?? ""
                #expect(!message.isEmpty && !message.contains("<"), "\(query): \(message)")
            }
        }
    }
}
