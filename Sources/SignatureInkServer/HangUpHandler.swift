// SPDX-License-Identifier: Apache-2.0
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes
import SignatureInkRender
import Synchronization

/// Notices a client that hangs up while its request is being worked on, and stops that work.
///
/// The server lets a client close its sending side (HTTP/1.1 allows it), so a hang-up arrives as the end of the
/// input rather than as a closed connection. When the input ends while a request has not been answered, the client
/// has gone (as nginx and others take it): the connection is closed and the request's ``RenderStop`` stopped, so
/// its worker is free within one band of its fill. A request registers its stop with ``watch(_:stop:)`` for as
/// long as it works.
///
/// It also notes when each request's head was read, so that the server can tell how long a request waited before
/// any of its code ran (``waited(_:)``): a queue that admission control must see, since the tasks waiting to run
/// have not been admitted yet.
final class HangUpHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What is known of a connection's latest request: when its head was read, and the stop of its work.
    private struct Latest {
        var arrival: ContinuousClock.Instant
        var stop: RenderStop?
    }

    /// The latest request of each open connection.
    private static let latest = NIOLockedValueBox<[ObjectIdentifier: Latest]>([:])

    /// Requests read and not yet answered on this connection.
    private var unanswered = 0
    /// The server's requests read and not yet answered, on every connection.
    private let load: ServerLoad

    /// A handler for one connection of the server whose requests `load` counts.
    init(load: ServerLoad = ServerLoad()) {
        self.load = load
    }

    /// Runs `body` with `stop` stopped should the client of `channel` hang up meanwhile.
    static func watch<T>(_ channel: any Channel, stop: RenderStop, _ body: () async throws -> T) async rethrows -> T {
        let key = ObjectIdentifier(channel)
        latest.withLockedValue { $0[key, default: Latest(arrival: .now)].stop = stop }
        defer { latest.withLockedValue { $0[key]?.stop = nil } }
        return try await body()
    }

    /// How long the latest request of `channel` has waited since its head was read: zero for a channel without this
    /// handler (a test's in-memory one).
    static func waited(_ channel: any Channel) -> Duration {
        guard let arrival = latest.withLockedValue({ $0[ObjectIdentifier(channel)]?.arrival }) else { return .zero }
        return .now - arrival
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            load.add(1)
            let key = ObjectIdentifier(context.channel)
            Self.latest.withLockedValue { $0[key] = Latest(arrival: .now, stop: $0[key]?.stop) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), unanswered > 0 {
            unanswered -= 1
            load.add(-1)
        }
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
        load.add(-unanswered)
        unanswered = 0
        _ = Self.latest.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(context.channel)) }
        context.fireChannelInactive()
    }

    private func hungUp(_ channel: any Channel) {
        Self.latest.withLockedValue { $0[ObjectIdentifier(channel)]?.stop }?.stop(.clientGone)
    }
}

/// The requests a server has read and not yet answered, on every connection: the demand that admission control
/// weighs, including the requests whose tasks wait to run (which have not been admitted, or even looked at, yet).
final class ServerLoad: Sendable {
    private let count = Atomic<Int>(0)

    /// Requests read and not yet answered.
    var outstanding: Int { count.load(ordering: .relaxed) }

    func add(_ requests: Int) { count.add(requests, ordering: .relaxed) }
}
