// SPDX-License-Identifier: Apache-2.0
import NIOCore
import NIOHTTPTypes

/// The error a request body's stream ends with when the body has not arrived within the request timeout.
struct RequestBodyTimeout: Error {
    /// The timeout in seconds.
    var seconds: Int64
}

/// Gives each request a deadline for its body: from its headers to its last byte at most `timeout`, else the
/// request's body stream ends with ``RequestBodyTimeout`` (answered with 408, and the connection is closed).
///
/// The idle timeout alone cannot stop a client that trickles a byte now and then to hold a connection. The deadline
/// is an event loop timer on the connection's own loop, scheduled at the head and cancelled at the end of each request,
/// so it costs the requests that arrive in time almost nothing.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    /// - Parameter seconds: the time a request may take from its headers to the end of its body, > 0.
    init(seconds: Int) {
        timeout = .seconds(Int64(seconds))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let seconds = timeout.nanoseconds / 1_000_000_000
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
                self?.deadline = nil
                context.fireErrorCaught(RequestBodyTimeout(seconds: seconds))
            }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
