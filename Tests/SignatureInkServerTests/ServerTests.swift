// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender
import SignatureInkServer
import Testing

enum ServerFixture {
    static func app(_ configuration: ServerConfiguration = ServerConfiguration()) throws -> some ApplicationProtocol {
        Application(router: try SignatureInkServer.router(configuration: configuration))
    }

    /// A real signature_pad `toData()` recording.
    static var signaturePad: [UInt8] {
        let folder = TestData.realInk.appendingPathComponent("signature-pad")
        let name = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted().first { $0.hasSuffix(".json") } ?? ""
        return Array((try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data())
    }

    static var native: [UInt8] {
        Array((try? Data(contentsOf: TestData.sampleStrokes.appendingPathComponent("long-name.json"))) ?? Data())
    }

    static func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }
}

@Suite struct ServerTests {
    @Test func pagesCarryAStrictContentSecurityPolicy() async throws {
        try await ServerFixture.app().withRouterClient { client in
            for (uri, type) in [("/", "text/html"), ("/consent", "text/html"), ("/assets/form-cell.js", "text/javascript"),
                                ("/assets/form-cell.css", "text/css"), ("/openapi.yaml", "application/yaml")] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(uri)")
                    let csp = response.headers[HTTPFields.Element.Name("Content-Security-Policy")!] ?? ""
                    #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && !csp.contains("unsafe"))
                    #expect(response.headers[HTTPFields.Element.Name("X-Content-Type-Options")!] == "nosniff")
                }
            }
        }
    }

    @Test(arguments: ["/assets/../Package.swift", "/assets/%2e%2e%2fPackage.swift", "/assets/..%2FPackage.swift",
                      "/../Package.swift", "/assets/index.html", "/assets/openapi.yaml", "/assets/", "/Package.swift",
                      "/assets/%2e%2e/%2e%2e/etc/passwd"])
    func nothingOutsideTheAssetsCanBeRead(_ uri: String) async throws {
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound, "\(uri): \(response.status)")
                let text = String(buffer: response.body)
                #expect(!text.contains("swift-tools-version") && !text.contains("root:"), "\(uri)")
            }
        }
    }

    @Test func rendersARealSignaturePadBodyInEveryFormat() async throws {
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/render?format=png&scale=2", method: .post, body: ByteBuffer(bytes: ServerFixture.signaturePad)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let png = try DecodedPNG(Array(response.body.readableBytesView))
                #expect(png.width > 100 && png.height > 50)
            }
            try await client.execute(uri: "/render?format=svg&width=300&height=100", method: .post, body: ByteBuffer(bytes: ServerFixture.signaturePad)) { response in
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(String(buffer: response.body).hasPrefix("<svg") || String(buffer: response.body).hasPrefix("<?xml"))
            }
            try await client.execute(uri: "/render?format=pdf", method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                #expect(response.headers[.contentType] == "application/pdf")
                let problems = try PDFCheck.qpdfProblems(Array(response.body.readableBytesView))
                #expect(problems == nil)
            }
        }
    }

    @Test func theFilesPenIsHonouredAndAQueryOverrideIsSaid() async throws {
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/render?pen-color=%23ff0000", method: .post, body: ByteBuffer(bytes: ServerFixture.signaturePad)) { response in
                #expect(response.status == .ok)
                let png = try DecodedPNG(Array(response.body.readableBytesView))
                let inked = (0..<png.height).flatMap { y in (0..<png.width).map { png.pixel(x: $0, y: y) } }.filter { $0.alpha > 200 }
                #expect(!inked.isEmpty && inked.allSatisfy { $0.red > 200 && $0.green < 60 })
            }
        }
    }

    /// Each bad request, and the status it must get; the answer is JSON and never HTML.
    static let badRequests: [(String, [UInt8], HTTPResponse.Status)] = [
        ("/render?format=gif", Array("{}".utf8), .badRequest),
        ("/render?fromat=png", Array("{}".utf8), .badRequest),
        ("/render?scale=1e9", Array("{}".utf8), .badRequest),
        ("/render", Array("<script>alert(1)</script>".utf8), .unprocessableContent),
        ("/render", Array("{\"format\":\"signature-ink\",\"version\":1,\"channels\":[\"x\",\"y\",\"t\"],\"strokes\":[[[1,2,@]]]}".utf8), .unprocessableContent),
        ("/render", [], .unprocessableContent),
        ("/signatures", Array("[1,2,3]".utf8), .unprocessableContent),
        ("/consent/sign", Array("{\"decisions\": 5}".utf8), .badRequest),
    ]

    @Test(arguments: badRequests.indices)
    func badRequestsGetA4xxAsJSON(_ index: Int) async throws {
        let (uri, body, status) = Self.badRequests[index]
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: uri, method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == status, "\(uri): \(response.status)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let error = ServerFixture.json(response.body)["error"] as? String
                #expect(error?.isEmpty == false)
            }
        }
    }

    @Test func limitsAreEnforcedBeforeDecoding() async throws {
        let small = ServerConfiguration(maxBody: 1000, maxSamples: 50)
        try await ServerFixture.app(small).withRouterClient { client in
            // A declared length past the limit is refused before the body is read.
            try await client.execute(uri: "/render", method: .post, headers: [.contentLength: "5000"],
                                     body: ByteBuffer(bytes: [UInt8](repeating: 32, count: 5000))) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(uri: "/render", method: .post, body: ByteBuffer(bytes: [UInt8](repeating: 32, count: 5000))) { response in
                #expect(response.status == .contentTooLarge)
            }
            var strokes: [String] = []
            for i in 0..<60 { strokes.append("[\(i),\(i),\(i)]") }
            let many = "{\"format\":\"signature-ink\",\"version\":1,\"channels\":[\"x\",\"y\",\"t\"],\"strokes\":[[\(strokes.joined(separator: ","))]]}"
            try await client.execute(uri: "/render", method: .post, body: ByteBuffer(string: many)) { response in
                #expect(response.status == .unprocessableContent)
                #expect((ServerFixture.json(response.body)["error"] as? String)?.contains("50") == true)
            }
        }
    }

    @Test func savingASignatureAnswersItsRecord() async throws {
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/signatures", method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                #expect(response.status == .ok)
                let answer = ServerFixture.json(response.body)
                let signature = try InkDecoder().decode(Data(ServerFixture.native)).signature
                #expect(answer["digest"] as? String == SignatureRecord.digest(of: signature))
                #expect(answer["strokes"] as? Int == signature.strokeCount)
                #expect((answer["png"] as? String)?.hasPrefix("data:image/png;base64,") == true)
                // The stored signature reads back to the same samples, whose digest is the one answered.
                let stored = try InkDecoder().decode(Data((answer["signature"] as? String ?? "").utf8), as: .native).signature
                #expect(stored.samples.count == signature.samples.count)
                #expect(SignatureRecord.digest(of: stored) == answer["digest"] as? String)
            }
        }
    }

    @Test func savingATypedNameAnswersATypedRecord() async throws {
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/signatures", method: .post, body: ByteBuffer(string: #"{"typed": "  Ada Lovelace\n"}"#)) { response in
                #expect(response.status == .ok)
                let answer = ServerFixture.json(response.body)
                #expect(answer["kind"] as? String == "typed")
                #expect(answer["typedSignature"] as? String == "Ada Lovelace")
                #expect(answer["digest"] as? String == HexDigest.sha256(Array("Ada Lovelace".utf8)))
                #expect(answer["format"] as? String == "signature-ink" && answer["savedAt"] is Double)
                for drawnOnly in ["signature", "png", "strokes", "samples"] { #expect(answer[drawnOnly] == nil, "\(drawnOnly)") }
            }
            try await client.execute(uri: "/signatures", method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                #expect(ServerFixture.json(response.body)["kind"] as? String == "drawn")
                #expect(ServerFixture.json(response.body)["typedSignature"] == nil)
            }
        }
    }

    /// What a typed signature may not be: the limits of a consent's typed signature, and nothing but `typed`.
    @Test(arguments: [
        (#"{"typed": ""}"#, "typed: must not be empty"),
        (#"{"typed": " \t "}"#, "typed: must not be empty"),
        (#"{"typed": "Ada\u0007"}"#, "control character"),
        ("{\"typed\": \"\(String(repeating: "é", count: 201))\"}", "201 exceeds the limit of 200"),
        (#"{"typed": 5}"#, "typed: expected a string"),
        (#"{"typed": null}"#, "typed"),
        (#"{"typed": "Ada", "ink": "x"}"#, "unknown field 'ink'"),
    ])
    func aTypedNameOutsideTheLimitsIsRefused(body: String, message: String) async throws {
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/signatures", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .unprocessableContent)
                let error = ServerFixture.json(response.body)["error"] as? String ?? ""
                #expect(error.contains(message), "\(error)")
            }
        }
    }

    @Test func theOpenAPIDescriptionMatchesTheRoutes() async throws {
        let router = try SignatureInkServer.router()
        let served = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
        let url = TestData.repositoryRoot.appendingPathComponent("Sources/SignatureInkServer/Public/openapi.yaml")
        let yaml = try String(contentsOf: url, encoding: .utf8)
        var described = Set<String>(), path = "", renderParameters = Set<String>()
        for line in yaml.split(separator: "\n") {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") { path = String(line.dropFirst(2).dropLast()) }
            for method in ["get", "post", "delete"] where line == "    \(method):" { described.insert("\(method.uppercased()) \(path)") }
            if path == "/render", let r = line.range(of: "{ name: ") {
                renderParameters.insert(String(line[r.upperBound...].prefix { $0 != "," }))
            }
        }
        #expect(described == served, "described \(described.sorted()), served \(served.sorted())")
        // The parameters /render reads, as the route itself lists them when it refuses an unknown one.
        let accepted: Set<String> = try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/render?no-such-parameter=1", method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                #expect(response.status == .badRequest)
                let message = ServerFixture.json(response.body)["error"] as? String ?? ""
                let list = message.components(separatedBy: "expected one of ").last ?? ""
                return Set(list.components(separatedBy: ", "))
            }
        }
        #expect(accepted.count > 5)
        #expect(renderParameters == accepted, "described \(renderParameters.sorted()), read \(accepted.sorted())")
    }

    @Test func theEmbeddedConsentDocumentIsTheSample() throws {
        let embedded = try Data(contentsOf: TestData.repositoryRoot.appendingPathComponent("Sources/SignatureInkServer/Public/study-consent.json"))
        let sample = try Data(contentsOf: TestData.sampleStrokes.appendingPathComponent("consent/study-consent.json"))
        #expect(embedded == sample)
    }

    @Test func aConsentIsSignedThroughTheFlowAndVerifies() async throws {
        let ink = String(decoding: ServerFixture.native, as: UTF8.self)
        @Sendable func submission(_ decisions: [[String: String]], sharing: String? = "broadly") -> ByteBuffer {
            var body: [String: Any] = ["decisions": decisions, "utcOffsetMinutes": 60,
                                       "signers": [["slot": "participant", "name": "Ada Lovelace", "ink": ink],
                                                   ["slot": "investigator", "name": "Charles Babbage", "ink": ink]]]
            if let sharing { body["sharing"] = sharing }
            return ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: body))
        }
        let allowed = [["form": "study", "decision": "allowed"], ["form": "newsletter", "decision": "notNow"]]
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/consent/sign", method: .post, body: submission(allowed)) { response in
                #expect(response.status == .ok)
                let answer = ServerFixture.json(response.body)
                let pdf = Array(Data(base64Encoded: answer["pdf"] as? String ?? "") ?? Data())
                let problems = try PDFCheck.qpdfProblems(pdf)
                #expect(problems == nil)
                let record = try ConsentRecord(json: Array((answer["record"] as? String ?? "").utf8))
                #expect(record.verify(pdf: pdf).isEmpty)
                #expect(record.decisions.map(\.decision) == [.allowed, .notNow])
                #expect(record.sharing == .broadly)
                #expect(record.signers.map(\.name) == ["Ada Lovelace", "Charles Babbage"])
            }
            let denied = [["form": "study", "decision": "denied"], ["form": "newsletter", "decision": "allowed"]]
            try await client.execute(uri: "/consent/sign", method: .post, body: submission(denied)) { response in
                #expect(response.status == .unprocessableContent)
                #expect((ServerFixture.json(response.body)["error"] as? String)?.contains("consent is required") == true)
            }
            try await client.execute(uri: "/consent/sign", method: .post, body: submission(allowed, sharing: nil)) { response in
                #expect(response.status == .unprocessableContent)
            }
        }
    }
}
