// SPDX-License-Identifier: Apache-2.0
public import SignatureInkRender

/// How the server listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// The address to bind; default `127.0.0.1`, this machine only.
    public var host: String
    /// The port; default 8080.
    public var port: Int
    /// Largest request body in bytes, refused with 413 before it is read in full; default 1 MiB.
    public var maxBody: Int
    /// Most samples in one signature, refused with 422 while decoding; default 100,000.
    public var maxSamples: Int
    /// Seconds a connection may stay idle (no request, or a request that stops sending) before it is closed;
    /// default 30.
    public var idleTimeout: Int
    /// Seconds a request body may take to arrive in full, counted from the end of its headers; one that takes
    /// longer (a client trickling bytes to hold a connection) gets 408 and the connection is closed; default 10.
    public var requestTimeout: Int
    /// The bounds on a render: the library's, with boxes of at most 4096 output units a side.
    public var renderLimits: RenderLimits

    /// Creates a configuration.
    public init(host: String = "127.0.0.1", port: Int = 8080, maxBody: Int = 1 << 20, maxSamples: Int = 100_000,
                idleTimeout: Int = 30, requestTimeout: Int = 10, renderLimits: RenderLimits = RenderLimits(maxBoxSide: 4096)) {
        self.host = host
        self.port = port
        self.maxBody = maxBody
        self.maxSamples = maxSamples
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.renderLimits = renderLimits
    }
}
