// SPDX-License-Identifier: Apache-2.0
import Hummingbird
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
@testable import SignatureInkServer
import Testing

/// Keeps the errors that reach it, and passes nothing on.
final class CaughtErrors: ChannelInboundHandler {
    typealias InboundIn = HTTPRequestPart
    var errors: [any Error] = []
    var parts = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { parts += 1 }
    func errorCaught(context: ChannelHandlerContext, error: any Error) { errors.append(error) }
}

/// The request deadline on the embedded event loop's own clock: no real time passes.
@Suite struct RequestDeadlineTests {
    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/render"))

    @Test func aBodyUnfinishedAtTheDeadlineEndsTheRequestWithATimeout() throws {
        let caught = CaughtErrors()
        let channel = EmbeddedChannel(handlers: [RequestDeadlineHandler(seconds: 10), caught])
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "[{")))
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(caught.errors.isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(caught.errors.count == 1)
        #expect((caught.errors.first as? RequestBodyTimeout)?.seconds == 10)
        #expect(caught.parts == 2)
    }

    @Test func aRequestThatEndsInTimeIsLeftAlone() throws {
        let caught = CaughtErrors()
        let channel = EmbeddedChannel(handlers: [RequestDeadlineHandler(seconds: 10), caught])
        for _ in 0..<3 {
            try channel.writeInbound(Self.head)
            channel.embeddedEventLoop.advanceTime(by: .seconds(6))
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "[]")))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            // Between requests the connection is idle: that is the idle timeout's business, not the deadline's.
            channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        }
        #expect(caught.errors.isEmpty)
        #expect(caught.parts == 9)
    }
}
