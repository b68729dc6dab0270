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

    /// The context of a request arriving on `source`'s connection.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
