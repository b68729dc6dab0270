// SPDX-License-Identifier: Apache-2.0
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import ServiceLifecycle

// The server's tests reach its application in two ways, written here on Hummingbird's public API rather than with
// HummingbirdTesting: that module brings AsyncHTTPClient, and with it SwiftNIO's HTTP/2, swift-configuration and
// swift-distributed-tracing, about 80,000 lines of Swift that no other part of the project uses, into every debug
// build of `make test`.

/// An answer as the application gave it: its head and its whole body.
struct TestResponse: Sendable {
    /// The status line and the header fields.
    var head: HTTPResponse
    /// Every byte of the body.
    var body: ByteBuffer

    /// The status of the answer.
    var status: HTTPResponse.Status { head.status }
    /// The header fields of the answer.
    var headers: HTTPFields { head.headerFields }
}

/// Hands requests to an application's responder in this process, as its server does with each request it reads:
/// the request is routed through every middleware, and an error that is no HTTP answer becomes a 500, as
/// `Application` makes it. No socket is opened, so what the channel handlers do (the request deadline, a client that
/// hangs up) is tested with a live server instead (``ApplicationProtocol/withLiveServer(_:)``).
struct RouterClient: Sendable {
    /// Answers one request.
    let respond: @Sendable (Request) async -> Response

    /// Sends a request with `body` (and its `Content-Length`, which replaces any given in `headers`) and returns the
    /// answer with its whole body.
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws
        -> TestResponse {
        var fields = headers
        if let body { fields[.contentLength] = String(body.readableBytes) }
        let head = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: fields)
        let response = await respond(Request(head: head, body: RequestBody(buffer: body ?? ByteBuffer())))
        let collected = Collected()
        try await response.body.write(collected)
        return TestResponse(head: response.head, body: collected.bytes.withLockedValue { $0 })
    }

    /// Sends a request as ``execute(uri:method:headers:body:)`` does and hands its answer to `check`.
    @discardableResult
    func execute<Value>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                        _ check: (TestResponse) async throws -> Value) async throws -> Value {
        try await check(execute(uri: uri, method: method, headers: headers, body: body))
    }

    /// Gathers a response body as it is written.
    private struct Collected: ResponseBodyWriter {
        let bytes = NIOLockedValueBox(ByteBuffer())

        func write(_ buffer: ByteBuffer) async throws {
            bytes.withLockedValue { _ = $0.writeImmutableBuffer(buffer) }
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

/// A request that the test client could not make.
struct TestServerError: Error, CustomStringConvertible {
    var description: String
}

extension ApplicationProtocol {
    /// Runs `test` with a client that hands requests straight to this application's responder (``RouterClient``),
    /// after the processes the application runs before its server starts.
    ///
    /// The application must have no services of its own: they would not be running.
    func withRouterClient<Value>(_ test: (RouterClient) async throws -> Value) async throws -> Value {
        guard services.isEmpty else { throw TestServerError(description: "the application has services; test it live") }
        for process in processesRunBeforeServerStart { try await process() }
        let responder = try await self.responder
        let logger = self.logger
        return try await test(RouterClient { request in
            let context = Responder.Context(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
            do {
                return try await responder.respond(to: request, context: context)
            } catch {
                return Response(status: .internalServerError)
            }
        })
    }

    /// Runs this application's server, with its services, as `signature-ink-server` runs it, and `test` with the port
    /// it listens on (configure port 0 for a free one); the server is shut down gracefully when `test` ends.
    func withLiveServer<Value: Sendable>(_ test: @Sendable (Int) async throws -> Value) async throws -> Value {
        let (ports, reported) = AsyncStream.makeStream(of: Int.self)
        let reporting = PortReporting(base: self, reported: reported)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(configuration: .init(services: [reporting], logger: logger))
            group.addTask {
                defer { reported.finish() }
                try await services.run()
            }
            guard let port = await ports.first(where: { _ in true }) else {
                try await group.next()
                throw TestServerError(description: "the server stopped before it listened")
            }
            do {
                let value = try await test(port)
                await services.triggerGracefulShutdown()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

/// An application as it is, that also reports the port its server listens on once it is running.
private struct PortReporting<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder

    let base: Base
    let reported: AsyncStream<Int>.Continuation

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        reported.yield(channel.localAddress?.port ?? 0)
    }
}
