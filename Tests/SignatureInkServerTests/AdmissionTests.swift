// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import SignatureInkRender
@testable import SignatureInkServer
import Testing

/// Admission control: a bounded pool of workers and a bounded queue, refusals answered at once, work stopped when
/// its client hangs up or its time is up.
@Suite struct AdmissionTests {
    /// One stroke zigzagging across a 600 x 300 canvas, `samples` samples from side to side, in the native format.
    static func zigzag(samples: Int) -> ByteBuffer {
        let points = (0..<samples).map { i in
            "[\(i % 2 == 0 ? 10 : 590),\(10 + 280 * Double(i) / Double(samples - 1)),\(4 * i)]"
        }
        return ByteBuffer(string: #"{"format":"signature-ink","version":1,"canvas":{"width":600,"height":300},"#
                          + #""channels":["x","y","t"],"strokes":[["# + points.joined(separator: ",") + "]]}")
    }

    @Test func thePoolAdmitsItsWorkersAndQueueAndNoMore() {
        let pool = WorkPool(workers: 2, queueLength: 1)
        var tickets = (0..<3).compactMap { _ in pool.admit() }
        #expect(tickets.count == 3 && pool.inFlight == 3)
        #expect(pool.admit() == nil)
        tickets.removeLast()
        #expect(pool.inFlight == 2)
        #expect(pool.admit() != nil)
    }

    @Test func workStoppedBeforeItStartsNeverRuns() async throws {
        let pool = WorkPool(workers: 1, queueLength: 0)
        let stop = RenderStop()
        stop.stop(.clientGone)
        await #expect(throws: RenderError.stopped(.clientGone)) { try await pool.run(stop: stop) { 1 } }
        #expect(try await pool.run(stop: RenderStop()) { 2 } == 2)
    }

    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/render"))

    @Test func aClientThatHangsUpMidRequestStopsItsWork() async throws {
        let channel = EmbeddedChannel(handlers: [HangUpHandler()])
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        let stop = RenderStop()
        await HangUpHandler.watch(channel, stop: stop) {
            channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
        #expect(stop.reason == .clientGone)
        #expect(!channel.isActive)
    }

    @Test func aClientThatClosesAfterItsAnswerStopsNothing() async throws {
        let channel = EmbeddedChannel(handlers: [HangUpHandler()])
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        let stop = RenderStop()
        await HangUpHandler.watch(channel, stop: stop) {
            channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
        #expect(stop.reason == nil)
        #expect(channel.isActive)
        _ = try? channel.finish()
    }

    /// The server's count of requests read and not yet answered, which admission control weighs with how long a
    /// request waited: up at each request's head, down at its answer's end, and down by what a closed connection
    /// left unanswered.
    @Test func theServersLoadCountsRequestsFromTheirHeadToTheirAnswer() async throws {
        let load = ServerLoad()
        let channels = [EmbeddedChannel(handlers: [HangUpHandler(load: load)]), EmbeddedChannel(handlers: [HangUpHandler(load: load)])]
        for channel in channels {
            try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
            try channel.writeInbound(Self.head)
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }
        try channels[0].writeInbound(Self.head)
        #expect(load.outstanding == 3)
        #expect(HangUpHandler.waited(channels[0]) >= .zero && HangUpHandler.waited(channels[0]) < .seconds(5))
        try channels[0].writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channels[0].writeOutbound(HTTPResponsePart.end(nil))
        #expect(load.outstanding == 2)
        // An answer written for a request this handler never read (one refused before it) counts nothing.
        try channels[1].writeOutbound(HTTPResponsePart.end(nil))
        try channels[1].writeOutbound(HTTPResponsePart.end(nil))
        #expect(load.outstanding == 1)
        _ = try? channels[0].finish()
        #expect(load.outstanding == 0)
        #expect(HangUpHandler.waited(channels[0]) == .zero)
        _ = try? channels[1].finish()
    }

    @Test func aBusyServerRefusesAtOnce() async throws {
        // One worker and no queue; the test takes the one place itself, so the probe below meets a busy pool
        // whatever the machine's timing.
        let configuration = ServerConfiguration(workers: 1, queueLength: 0)
        let pool = WorkPool(workers: 1, queueLength: 0)
        let router = try SignatureInkServer.router(configuration: configuration, consentDocument: nil, store: nil,
                                                   adminToken: nil, pool: pool)
        try await Application(router: router).withRouterClient { client in
            do {
                let held = pool.admit()
                #expect(held != nil)
                // Even a render small enough to be drawn where it arrives is refused before its body is read.
                for format in ["svg", "png"] {
                    try await client.execute(uri: "/render?format=\(format)", method: .post, body: Self.zigzag(samples: 10)) {
                        #expect($0.status == .serviceUnavailable)
                        #expect($0.headers[.retryAfter] == "1")
                        #expect(String(buffer: $0.body).contains("busy"))
                    }
                }
                withExtendedLifetime(held) {}
            }
            // The place given back, the same request is answered.
            #expect(pool.inFlight == 0)
            try await client.execute(uri: "/render?format=svg", method: .post, body: Self.zigzag(samples: 10)) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test func aRenderPastItsTimeIsStoppedAndFreesItsWorker() async throws {
        // One worker, no queue, one second of work at most, and a budget that admits a render of many seconds.
        var limits = ServerConfiguration.defaultRenderLimits
        limits.maxWork = 1 << 40
        let configuration = ServerConfiguration(renderLimits: limits, workers: 1, queueLength: 0, workTimeout: 1)
        try await ServerFixture.app(configuration).withRouterClient { client in
            try await client.execute(uri: "/render?scale=8&pen-width=300", method: .post, body: Self.zigzag(samples: 2000)) {
                let text = String(buffer: $0.body)
                #expect($0.status == .serviceUnavailable && text.contains("deadline"), "\($0.status) \(text)")
                #expect($0.headers[.retryAfter] == "1")
            }
            // The worker is free again.
            try await client.execute(uri: "/render", method: .post, body: Self.zigzag(samples: 10)) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test func aRenderOverTheWorkBudgetIs422NamingTheKnob() async throws {
        try await ServerFixture.app().withRouterClient { client in
            try await client.execute(uri: "/render?scale=5&pen-width=300", method: .post, body: Self.zigzag(samples: 2000)) {
                #expect($0.status == .unprocessableContent)
                let text = String(buffer: $0.body)
                #expect(text.contains("budget") && text.contains("pen-width"), "\(text)")
            }
        }
    }
}
