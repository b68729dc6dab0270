// SPDX-License-Identifier: Apache-2.0
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes
import SignatureInkRender

/// Notices a client that hangs up while its request is being worked on, and stops that work.
///
/// The server lets a client close its sending side (HTTP/1.1 allows it), so a hang-up arrives as the end of the
/// input rather than as a closed connection. When the input ends while a request has not been answered, the client
/// has gone (as nginx and others take it): the connection is closed and the request's ``RenderStop`` stopped, so
/// its worker is free within one band of its fill. A request registers its stop with ``watch(_:stop:)`` for as
/// long as it works.
final class HangUpHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The stops of the requests at work, by connection.
    private static let working = NIOLockedValueBox<[ObjectIdentifier: RenderStop]>([:])

    /// Requests read and not yet answered on this connection.
    private var unanswered = 0

    /// Runs `body` with `stop` stopped should the client of `channel` hang up meanwhile.
    static func watch<T>(_ channel: any Channel, stop: RenderStop, _ body: () async throws -> T) async rethrows -> T {
        let key = ObjectIdentifier(channel)
        working.withLockedValue { $0[key] = stop }
        defer { _ = working.withLockedValue { $0.removeValue(forKey: key) } }
        return try await body()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { unanswered += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered = Swift.max(0, unanswered - 1) }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, unanswered > 0 {
            hungUp(context.channel)
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if unanswered > 0 { hungUp(context.channel) }
        context.fireChannelInactive()
    }

    private func hungUp(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        Self.working.withLockedValue { $0[key] }?.stop(.clientGone)
    }
}
