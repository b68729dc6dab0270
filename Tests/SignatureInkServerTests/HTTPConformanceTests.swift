// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import InkTestSupport
import Logging
import NIOCore
import NIOPosix
@testable import SignatureInkServer
import Testing

/// An answer as it came off the socket.
struct RawResponse {
    /// The status code of the status line.
    var status: Int
    /// Each header field by its lowercased name (repeated fields joined with `, `).
    var headers: [String: String]
    /// The bytes after the header section, to the next answer or the connection's end.
    var body: [UInt8]

    /// The body read as JSON, or an empty object.
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }

    /// The answers in `bytes`, in order; a body is as long as its `Content-Length` (all the rest without one).
    /// - Parameters:
    ///   - bytes: what the server sent.
    ///   - headRequests: how many of the first answers answer a `HEAD`, whose body is empty whatever its length says.
    static func parse(_ bytes: [UInt8], headRequests: Int = 0) -> [RawResponse] {
        var answers: [RawResponse] = []
        var rest = bytes[...]
        let separator = Array("\r\n\r\n".utf8)
        while let end = rest.firstRange(of: separator) {
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let statusLine = lines[0].split(separator: " ")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            rest = rest[end.upperBound...]
            var length = headers["content-length"].flatMap { Int($0) } ?? rest.count
            if answers.count < headRequests { length = 0 }
            let body = Array(rest.prefix(length))
            rest = rest.dropFirst(length)
            answers.append(RawResponse(status: statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, headers: headers, body: body))
        }
        return answers
    }
}

/// Requests written byte for byte to a live server on loopback, as a tester's raw socket sends them.
enum RawHTTP {
    /// Starts the server, as `signature-ink-server` runs it, on a free port for the length of `test`.
    static func withServer<Value: Sendable>(_ test: @escaping @Sendable (Int) async throws -> Value) async throws -> Value {
        var logger = Logger(label: "test")
        logger.logLevel = .error
        let app = try SignatureInkServer.application(configuration: ServerConfiguration(port: 0), logger: logger)
        return try await app.withLiveServer(test)
    }

    /// Sends `request` as it is and reads until the server closes the connection.
    ///
    /// The server is expected to close: after an answer to `Connection: close` or a refusal. A connection still open
    /// after 20 seconds is a hang, and fails the test rather than waiting for ever.
    static func exchange(_ request: String, port: Int) async throws -> [UInt8] {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "localhost", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: request))
                    var bytes: [UInt8] = []
                    do {
                        for try await chunk in inbound { bytes += chunk.readableBytesView }
                    } catch let error as IOError where error.errnoCode == ECONNRESET {
                        // A reset after the answer still leaves the answer read.
                    }
                    return bytes
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let bytes = first else {
                try? await channel.channel.close()
                throw CancellationError()
            }
            return bytes
        }
    }

    /// The one answer to `request`.
    static func answer(_ request: String, port: Int, head: Bool = false) async throws -> RawResponse {
        let answers = RawResponse.parse(try await exchange(request, port: port), headRequests: head ? 1 : 0)
        #expect(answers.count == 1, "\(answers.count) answers to \(request.prefix(40))")
        return answers.first ?? RawResponse(status: 0, headers: [:], body: [])
    }
}

/// HTTP/1.1 as RFC 9110 and 9112 ask of a server, over real sockets: broken framing, `Host`, `HEAD`, 405 and 415,
/// and the security headers on every answer.
@Suite struct HTTPConformanceTests {
    /// Expects the JSON error answer of `status`, with the security headers.
    static func expectRefusal(_ answer: RawResponse, _ status: Int, closes: Bool = false,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == status, sourceLocation: sourceLocation)
        #expect(answer.headers["content-type"] == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        #expect(answer.json["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect((answer.json["error"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        expectSecurityHeaders(answer, sourceLocation: sourceLocation)
        #expect(answer.headers["date"]?.hasSuffix(" GMT") == true, sourceLocation: sourceLocation)
        if closes { #expect(answer.headers["connection"] == "close", sourceLocation: sourceLocation) }
    }

    /// Expects every security header with its value.
    static func expectSecurityHeaders(_ answer: RawResponse, path: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        for field in SecurityHeaderFields.fields(for: path) {
            #expect(answer.headers[field.name.rawName.lowercased()] == field.value, "\(field.name)", sourceLocation: sourceLocation)
        }
    }

    @Test func aChunkSizeThatIsNoNumberIs400NotAServerError() async throws {
        try await RawHTTP.withServer { port in
            let answer = try await RawHTTP.answer(
                "POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "zz\r\n{}\r\n0\r\n\r\n", port: port)
            Self.expectRefusal(answer, 400, closes: true)
            #expect((answer.json["error"] as? String)?.contains("chunk size") == true)
        }
    }

    @Test func anUnknownTransferCodingIs400() async throws {
        try await RawHTTP.withServer { port in
            let answer = try await RawHTTP.answer(
                "POST /signatures HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n"
                    + "{}", port: port)
            Self.expectRefusal(answer, 400, closes: true)
        }
    }

    @Test(arguments: ["GARBAGE\r\n\r\n", "GET /\u{1} HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/9.9x\r\nHost: x\r\n\r\n",
                      "GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
                      "POST /render HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"])
    func aHeadTheParserRefusesIs400WithTheSecurityHeaders(_ request: String) async throws {
        try await RawHTTP.withServer { port in
            Self.expectRefusal(try await RawHTTP.answer(request, port: port), 400, closes: true)
        }
    }

    @Test func aBrokenRequestAfterAGoodOneIsAnsweredAfterIt() async throws {
        try await RawHTTP.withServer { port in
            let answers = RawResponse.parse(try await RawHTTP.exchange(
                "GET /openapi.yaml HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n", port: port))
            #expect(answers.map(\.status) == [200, 400])
            #expect(answers.first?.headers["content-type"]?.hasPrefix("application/yaml") == true)
            if let refusal = answers.last { Self.expectRefusal(refusal, 400, closes: true) }
        }
    }

    @Test func aRouteThatAnsweredBeforeTheBodyBrokeIsTheOnlyAnswer() async throws {
        try await RawHTTP.withServer { port in
            // The page is answered without reading the body; the broken chunk then closes the connection, with no
            // second answer to the same request.
            let answers = RawResponse.parse(try await RawHTTP.exchange(
                "GET /openapi.yaml HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", port: port))
            #expect(answers.map(\.status) == [200])
        }
    }

    @Test func anHTTP11RequestWithoutHostIs400() async throws {
        try await RawHTTP.withServer { port in
            Self.expectRefusal(try await RawHTTP.answer("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", port: port), 400, closes: true)
            Self.expectRefusal(try await RawHTTP.answer("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", port: port), 400, closes: true)
            // HTTP/1.0 has no Host of its own: such a request is served.
            let old = try await RawHTTP.answer("GET /openapi.yaml HTTP/1.0\r\nConnection: close\r\n\r\n", port: port)
            #expect(old.status == 200)
        }
    }

    @Test(arguments: ["/", "/consent", "/openapi.yaml", "/assets/form-cell.js", "/assets/consent.js", "/assets/form-cell.css",
                      "/consent/document"])
    func headAnswersWithTheHeadersOfGetAndNoBody(_ path: String) async throws {
        try await RawHTTP.withServer { port in
            let get = try await RawHTTP.answer("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            let bytes = try await RawHTTP.exchange("HEAD \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            let head = RawResponse.parse(bytes, headRequests: 1)
            #expect(get.status == 200 && head.first?.status == 200)
            #expect(!get.body.isEmpty)
            #expect(head.first?.headers["content-length"] == String(get.body.count))
            #expect(head.first?.headers["content-type"] == get.headers["content-type"])
            // Nothing follows the header section.
            #expect(bytes.suffix(4) == Array("\r\n\r\n".utf8))
            if let head = head.first { Self.expectSecurityHeaders(head, path: path) }
        }
    }

    @Test func headOfAnUnknownPathIs404WithoutABody() async throws {
        try await RawHTTP.withServer { port in
            let bytes = try await RawHTTP.exchange("HEAD /no-such-page HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            let head = RawResponse.parse(bytes, headRequests: 1)
            #expect(head.first?.status == 404)
            #expect(bytes.suffix(4) == Array("\r\n\r\n".utf8))
        }
    }

    /// A method a routed path does not take, and the `Allow` it gets.
    static let otherMethods: [(HTTPRequest.Method, String, String)] = [
        (.delete, "/render", "POST"), (.put, "/render", "POST"), (.get, "/render", "POST"), (.patch, "/signatures", "GET, HEAD, POST"),
        (.post, "/", "GET, HEAD"), (.delete, "/consent", "GET, HEAD"), (.put, "/assets/form-cell.js", "GET, HEAD"),
        (.post, "/consent/document", "GET, HEAD"), (.get, "/consent/sign", "POST"), (.options, "/openapi.yaml", "GET, HEAD"),
        (.delete, "/consents/some-id", "GET, HEAD"), (.get, "/consents/some-id/withdrawal", "POST"), (.post, "/store/verify", "GET, HEAD"),
    ]

    @Test(arguments: otherMethods.indices)
    func anotherMethodOnARoutedPathIs405WithAllow(_ index: Int) async throws {
        let (method, path, allow) = Self.otherMethods[index]
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: path, method: method, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(ServerFixture.json(response.body)["status"] as? Int == 405)
                #expect(response.headers[HTTPFields.Element.Name("Content-Security-Policy")!]
                        == SecurityHeaderFields.fields(for: path)[HTTPFields.Element.Name("Content-Security-Policy")!])
            }
        }
    }

    /// Only the consent walk-through may be framed, and only by the server's own pages (the shared device's page frames
    /// it); every other page, the device's included, is framed by nothing.
    @Test func onlyTheWalkThroughMayBeFramedAndOnlyByTheServersOwnPages() async throws {
        try await ServerFixture.app().withRouterClient { client in
            for path in ["/consent", "/device", "/", "/openapi.yaml", "/no/such/path"] {
                try await client.execute(uri: path, method: .get) { response in
                    let framed = path == "/consent"
                    #expect(response.headers[HTTPFields.Element.Name("X-Frame-Options")!] == (framed ? "SAMEORIGIN" : "DENY"), "\(path)")
                    let policy = response.headers[HTTPFields.Element.Name("Content-Security-Policy")!] ?? ""
                    #expect(policy.contains(framed ? "frame-ancestors 'self'" : "frame-ancestors 'none'"), "\(path)")
                    #expect(policy.contains("frame-src 'self'"))
                }
            }
        }
    }

    @Test func aMethodNotAllowedIsAnsweredOnTheWireWithAllow() async throws {
        try await RawHTTP.withServer { port in
            let answer = try await RawHTTP.answer("DELETE /render HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            Self.expectRefusal(answer, 405)
            #expect(answer.headers["allow"] == "POST")
        }
    }

    @Test func anUnknownPathIs404AsJSON() async throws {
        try await ServerFixture.app().withRouterClient { client in
            for method in [HTTPRequest.Method.get, .post, .delete] {
                try await client.execute(uri: "/no/such/path", method: method) { response in
                    #expect(response.status == .notFound)
                    #expect(response.headers[.allow] == nil)
                    #expect(ServerFixture.json(response.body)["status"] as? Int == 404)
                    #expect(response.headers[HTTPFields.Element.Name("X-Frame-Options")!] == "DENY")
                }
            }
        }
    }

    @Test(arguments: ["/consent/sign", "/signatures"])
    func aBodyDeclaredAsAnotherTypeIs415(_ path: String) async throws {
        try await ServerFixture.app().withRouterClient { client in
            for type in ["application/x-www-form-urlencoded", "text/plain", "application/json; charset=latin1", "application/jsonx"] {
                try await client.execute(uri: path, method: .post, headers: [.contentType: type], body: ByteBuffer(string: "{}")) { response in
                    #expect(response.status == .unsupportedMediaType, "\(type)")
                    #expect(ServerFixture.json(response.body)["status"] as? Int == 415)
                }
            }
            // JSON, with or without a charset, and a body of no declared type are read (and refused for what they hold).
            for type in ["application/json", "Application/JSON; charset=UTF-8", nil] {
                let headers: HTTPFields = type.map { [.contentType: $0] } ?? [:]
                try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: "[]")) { response in
                    #expect(response.status != .unsupportedMediaType, "\(type ?? "none")")
                    #expect(response.status.code / 100 == 4)
                }
            }
        }
    }

    @Test func renderTakesEveryDocumentedBodyType() async throws {
        try await ServerFixture.app().withRouterClient { client in
            // curl --data-binary's default type, as the README's examples send it.
            for type in ["application/x-www-form-urlencoded", "application/json", "text/plain", "application/octet-stream"] {
                try await client.execute(uri: "/render", method: .post, headers: [.contentType: type],
                                         body: ByteBuffer(bytes: ServerFixture.signaturePad)) { response in
                    #expect(response.status == .ok, "\(type)")
                }
            }
        }
    }

    /// A `/render` query parameter's bounds as the description states them.
    struct DescribedBounds: Sendable, CustomStringConvertible {
        /// The parameter's name.
        var name: String
        /// `minimum`, the least value taken.
        var minimum: Double?
        /// `exclusiveMinimum`, the greatest value refused below the range.
        var exclusiveMinimum: Double?
        /// `maximum`, the greatest value taken.
        var maximum: Double?
        /// `maxLength`, the most characters taken.
        var maxLength: Int?
        /// The parameter's name, as the test's argument is shown.
        var description: String { name }
    }

    /// The bounds of every `/render` query parameter in openapi.yaml that has any (each parameter is one line there).
    static let describedBounds: [DescribedBounds] = {
        let url = TestData.repositoryRoot.appendingPathComponent("Sources/SignatureInkServer/Public/openapi.yaml")
        let whole = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        // The /render operation only: from its path to the next path.
        let yaml = whole.components(separatedBy: "\n  /render:").dropFirst().first?.components(separatedBy: "\n  /signatures:").first ?? ""
        func number(_ line: Substring, _ key: String) -> Double? {
            guard let range = line.range(of: key + ": ") else { return nil }
            return Double(line[range.upperBound...].prefix { "0123456789.e+-".contains($0) })
        }
        var bounds: [DescribedBounds] = []
        for line in yaml.split(separator: "\n") where line.contains("in: query") {
            guard let start = line.range(of: "{ name: "), let schema = line.range(of: "schema: {") else { continue }
            let name = String(line[start.upperBound...].prefix { $0 != "," })
            let part = line[schema.upperBound...]
            let entry = DescribedBounds(name: name, minimum: number(part, " minimum"), exclusiveMinimum: number(part, "exclusiveMinimum"),
                                        maximum: number(part, "maximum"), maxLength: number(part, "maxLength").map { Int($0) })
            if entry.minimum != nil || entry.exclusiveMinimum != nil || entry.maximum != nil || entry.maxLength != nil { bounds.append(entry) }
        }
        return bounds
    }()

    @Test func everyNumberAndTextParameterStatesItsBounds() {
        let named = Set(Self.describedBounds.map(\.name))
        #expect(named == ["scale", "width", "height", "padding", "pen-width", "min-width", "max-width", "opacity", "watermark",
                          "timestamp-pattern", "dpi"])
    }

    /// The bounds the description states are the server's: a value just outside is refused with 400 naming the
    /// parameter and its range, the bound itself is not refused for its range (it may be for a rule between options).
    @Test(arguments: describedBounds)
    func theDescribedBoundsOfARenderParameterAreTheServers(_ bounds: DescribedBounds) async throws {
        var inside: [String] = [], outside: [String] = []
        if let maximum = bounds.maximum {
            inside.append(String(maximum))
            outside.append(String(maximum + max(1e-6 * maximum, 0.001)))
        }
        if let minimum = bounds.minimum {
            inside.append(String(minimum))
            outside.append(String(minimum - 0.001))
        }
        if let exclusive = bounds.exclusiveMinimum {
            inside.append(String(exclusive + 0.001))
            outside.append(String(exclusive))
        }
        if let length = bounds.maxLength {
            // Digits: a watermark may be any text, and a timestamp pattern copies them.
            inside.append(String(repeating: "1", count: length))
            outside.append(String(repeating: "1", count: length + 1))
        }
        let cases = [(inside, false), (outside, true)]
        try await ServerFixture.app().withRouterClient { client in
            for (values, refused) in cases {
                for value in values {
                    let query = "format=svg&\(bounds.name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
                    try await client.execute(uri: "/render?" + query, method: .post, body: ByteBuffer(bytes: ServerFixture.native)) { response in
                        let error = ServerFixture.json(response.body)["error"] as? String ?? ""
                        let outOfRange = response.status == .badRequest && error.hasPrefix(bounds.name)
                            && (error.contains("outside") || error.contains("longer than"))
                        #expect(outOfRange == refused, "\(query): \(response.status) \(error)")
                    }
                }
            }
        }
    }

    @Test func anHTTPDateIsInTheFormatOfRFC9110() {
        #expect(HTTP1ConformanceHandler.httpDate(Date(timeIntervalSince1970: 1_795_634_717)) == "Wed, 25 Nov 2026 19:25:17 GMT")
    }

    @Test(arguments: [("application/json", true), ("application/json;charset=utf-8", true), (" application/json ; charset=\"UTF-8\"", true),
                      ("application/json; foo=bar", true), ("application/json; charset=utf-16", false), ("text/json", false),
                      ("application/json-seq", false), ("", false), ("application/json;", true), ("application/json; charset", false)])
    func jsonMediaTypes(_ type: String, _ isJSON: Bool) {
        #expect(Request.isJSON(type) == isJSON, "\(type)")
    }
}
