// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import Logging
import SignatureInkServer
import Synchronization
import Testing

/// Keeps every log event, for tests to read.
final class CapturedLog: Sendable {
    private let events = Mutex<[LogEvent]>([])

    var all: [LogEvent] { events.withLock { $0 } }

    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = .debug
        return logger
    }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { log.events.withLock { $0.append(event) } }
    }
}

@Suite struct LoggingTests {
    @Test func eachRequestAndEachRefusalIsAStructuredLogEntry() async throws {
        let log = CapturedLog()
        let app = Application(router: try SignatureInkServer.router(), logger: log.logger())
        try await app.withRouterClient { client in
            try await client.execute(uri: "/render?format=gif", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        let requests = log.all.filter { $0.message.description == "Request" }
        #expect(requests.map { $0.metadata?["hb.request.method"]?.description } == ["POST", "GET"])
        #expect(requests.first?.metadata?["hb.request.path"]?.description == "/render?format=gif")
        let refusals = log.all.filter { $0.message.description == "Refused" }
        #expect(refusals.count == 1)
        #expect(refusals.first?.metadata?["hb.response.status"]?.description == "400")
        #expect(refusals.first?.metadata?["reason"]?.description == "format must be png, svg or pdf")
    }
}
