// SPDX-License-Identifier: Apache-2.0
public import Hummingbird
public import NIOCore

/// The server's request context: Hummingbird's own, and the connection the request came on, so that a request
/// whose client hangs up can stop its work.
public struct ServerContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connection.
    public let channel: any Channel
    /// The signed-in user's session, when the request carries a session cookie that is open (``SessionGate``).
    var session: Session?
    /// The session cookie's identifier, with ``session``.
    var sessionID: String?
    /// Whether the request carries a session cookie whose session has ended (signed out, replaced, idle too long).
    var sessionEnded = false

    /// The context of a request arriving on `source`'s connection.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
