// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
public import NIOCore
public import SignatureInkStore
public import SignatureInkForms
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
    /// The bounds on a render: boxes of at most 4096 output units a side, images of at most 16 Mi pixels, and a
    /// work budget of 2^27 units (`RenderLimits.maxWork`: about 0.4 s of one core, and about 128 MiB, for the
    /// most costly render admitted).
    public var renderLimits: RenderLimits
    /// Threads that decode, render and sign, apart from the event loops; default the number of cores.
    public var workers: Int
    /// Requests that may wait for a worker; one more is refused at once with 503 and `Retry-After`. Default
    /// twice the workers.
    public var queueLength: Int
    /// Seconds a request may wait for and use a worker; past it, its render is stopped and it gets 503; default 5.
    public var workTimeout: Int
    /// Milliseconds a request that works (a render, a signing) may wait between the arrival of its head and the
    /// moment the server first looks at it, while more requests are outstanding than there are ``workers`` and
    /// places in the queue; one that waited longer, behind others on a saturated server, is refused with 503 and
    /// `Retry-After` at once, before its body is read. Default 10: the requests admitted under any load answer
    /// within a few of their render times, and the server keeps rendering at its full rate rather than queueing.
    public var admissionDelay: Int
    /// Seconds SIGTERM leaves requests in flight to finish before the server stops them and exits; default 5.
    public var shutdownGrace: Int
    /// Bytes of memory that may keep the answers of consents read by `GET /consents/{id}` (all of each but its
    /// withdrawal, which is read every time: a kept consent never changes); default 64 MiB, about 2,000 consents;
    /// 0 keeps none.
    public var consentAnswerBytes: Int

    /// Who seals the consent PDFs of `POST /consent/sign` (an Audit trail page with the client's address and user
    /// agent, the record inside the PDF, a certification signature), or `nil` (the default) for PDFs without a seal.
    public var seal: PDFSigningIdentity?

    /// Whether the device and session cookies carry `Secure`, so that a browser sends them only over HTTPS: set it when
    /// the server is reached through TLS (a reverse proxy that terminates it; this server speaks plain HTTP/1.1 and
    /// cannot tell); default `false`, for `http://127.0.0.1`.
    public var secureCookies: Bool
    /// The rules of users on shared devices: enrolment codes valid 24 hours, a wait of 5 minutes after each 5
    /// consecutive wrong passcodes, revocation after 10, scrypt N = 2^17, r = 8, p = 1 (SignatureInkStore's
    /// `AccountPolicy`).
    public var accountPolicy: AccountPolicy
    /// Seconds a signed-in session may stay unused before it ends; default 900 (15 minutes).
    public var sessionIdleTimeout: Int
    /// Most sessions open at once, in memory (a few hundred bytes each); one more ends the one unused for the longest
    /// time; default 10,000.
    public var maxSessions: Int
    /// The requests this configuration's server has read and not yet answered.
    let load = ServerLoad()
    /// The time the server reads for sessions, enrolment codes and waits; default the system's clock (a test sets its
    /// own to move time on without waiting).
    public var clock: @Sendable () -> Date

    /// The server's render limits by default.
    public static let defaultRenderLimits = RenderLimits(maxPixels: 16 << 20, maxBoxSide: 4096, maxWork: 1 << 27)

    /// Creates a configuration.
    public init(host: String = "127.0.0.1", port: Int = 8080, maxBody: Int = 1 << 20, maxSamples: Int = 100_000,
                idleTimeout: Int = 30, requestTimeout: Int = 10,
                renderLimits: RenderLimits = ServerConfiguration.defaultRenderLimits,
                workers: Int = System.coreCount, queueLength: Int? = nil, workTimeout: Int = 5, admissionDelay: Int = 10, shutdownGrace: Int = 5,
                consentAnswerBytes: Int = 64 << 20, secureCookies: Bool = false, accountPolicy: AccountPolicy = AccountPolicy(),
                sessionIdleTimeout: Int = 900, maxSessions: Int = 10_000, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.secureCookies = secureCookies
        self.accountPolicy = accountPolicy
        self.sessionIdleTimeout = Swift.max(1, sessionIdleTimeout)
        self.maxSessions = Swift.max(1, maxSessions)
        self.clock = clock
        self.host = host
        self.port = port
        self.maxBody = maxBody
        self.maxSamples = maxSamples
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.renderLimits = renderLimits
        self.workers = Swift.max(1, workers)
        self.queueLength = Swift.max(0, queueLength ?? 2 * Swift.max(1, workers))
        self.workTimeout = Swift.max(1, workTimeout)
        self.admissionDelay = Swift.max(1, admissionDelay)
        self.shutdownGrace = Swift.max(0, shutdownGrace)
        self.consentAnswerBytes = Swift.max(0, consentAnswerBytes)
    }
}
