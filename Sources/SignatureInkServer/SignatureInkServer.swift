// SPDX-License-Identifier: Apache-2.0
import Foundation
public import Hummingbird
public import Logging
import SignatureInk
public import SignatureInkConsent
public import SignatureInkStore
import NIOCore
import SignatureInkFormats
import SignatureInkRender

/// The HTTP side of the engine: rendering stroke files, saving a signature from the signature form cell page,
/// and the consent walk-through pages with their signed PDF.
///
/// Routes (described in `/openapi.yaml`):
/// - `GET /` the signature form cell page; `GET /consent` the consent pages; `GET /assets/{name}` their scripts
///   and styles; `GET /openapi.yaml`.
/// - `POST /render?format=png|svg|pdf&...` any stroke format the engine reads, answered with the image.
/// - `POST /signatures` a signature in the native format, answered with its stored record and a PNG.
/// - `GET /consent/document` the consent document; `POST /consent/sign` the walk-through's decisions and
///   signatures, replayed through `ConsentFlow`, answered with the signed PDF and the consent record;
///   `POST /consent/document/retirement` retires a document version (the administrator's), which is then refused.
/// - Users on a shared device (`AccountRoutes`): users and enrolment codes for the administrator, onboarding and
///   sign-in for a device, and the signed-in user's own signatures and consents; a signature saved or a consent
///   collected in a session is kept with its owner.
///
/// Every `GET` route answers `HEAD`; another method on a routed path gets 405 with `Allow`. Every request body is
/// limited before it is read; the JSON routes refuse another content type with 415; errors are JSON with a 4xx status
/// and never HTML.
public enum SignatureInkServer {
    /// The router with every route and the security headers, for the application or for tests.
    /// - Parameters:
    ///   - configuration: limits.
    ///   - consentDocument: the document of the consent pages; default the sample study consent.
    ///   - store: where signed consents and saved signatures are kept; `nil` keeps nothing.
    ///   - adminToken: the token the store's routes require; `nil` refuses them all.
    /// - Throws: when an asset is missing from the build, or the consent document is not valid.
    public static func router(configuration: ServerConfiguration = ServerConfiguration(), consentDocument: ConsentDocument? = nil,
                              store: ConsentStore? = nil, adminToken: AdminToken? = nil) throws -> Router<ServerContext> {
        try router(configuration: configuration, consentDocument: consentDocument, store: store, adminToken: adminToken,
                   pool: WorkPool(workers: configuration.workers, queueLength: configuration.queueLength))
    }

    /// The router, its heavy work done on `pool` (a test holds the pool's places itself).
    static func router(configuration: ServerConfiguration, consentDocument: ConsentDocument?, store: ConsentStore?,
                       adminToken: AdminToken?, pool: WorkPool) throws -> Router<ServerContext> {
        let assets = try Assets.load()
        let document = try consentDocument ?? ConsentDocument(json: assets["study-consent.json"]?.bytes ?? [])
        // Every GET route answers HEAD too, with the GET's headers and no body.
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        // Each request as a structured log entry (method, path, status) at debug level: `LOG_LEVEL=debug` shows them.
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: SecurityHeaders())
        // The signed-in user's session, and the CSRF check of a state-changing request made with it.
        let sessions = Sessions(idleTimeout: configuration.sessionIdleTimeout, capacity: configuration.maxSessions)
        let clock = configuration.clock
        router.add(middleware: SessionGate(sessions: sessions, clock: { AccountRoutes.milliseconds(clock()) }))
        func page(_ name: String) -> @Sendable (Request, ServerContext) async throws -> Response {
            { _, _ in
                guard let asset = assets[name] else { throw APIError(.notFound, "no such page") }
                return .bytes(asset.bytes, contentType: asset.contentType)
            }
        }
        // The form cell's own page, with its words.
        let formCellPage = try ConsentPage.formCellHTML(assets["index.html"]?.bytes ?? [])
        router.get("/") { _, _ -> Response in .bytes(formCellPage, contentType: "text/html; charset=utf-8") }
        // The consent page in the document's language and direction, with its words.
        let consentPage = try ConsentPage.html(assets["consent.html"]?.bytes ?? [], document: document)
        router.get("/consent") { _, _ -> Response in .bytes(consentPage, contentType: "text/html; charset=utf-8") }
        // The shared device's pages (Sign In, Switch or Add User, the user's home, Sync), with the form cell's words.
        let devicePage = try ConsentPage.formCellHTML(assets["device.html"]?.bytes ?? [])
        router.get("/device") { _, _ -> Response in .bytes(devicePage, contentType: "text/html; charset=utf-8") }
        router.get("/openapi.yaml", use: page("openapi.yaml"))
        router.get("/assets/{name}") { _, context -> Response in
            let name = context.parameters.get("name") ?? ""
            guard name.hasSuffix(".js") || name.hasSuffix(".css"), let asset = assets[name] else {
                throw APIError(.notFound, "no such asset")
            }
            return .bytes(asset.bytes, contentType: asset.contentType)
        }
        router.post("/render") { request, context -> Response in
            let query = request.uri.queryParameters, contentType = request.headers[.contentType]
            return try await work(request, context, pool: pool, configuration: configuration,
                                  body: { try await $0.boundedBody(limit: configuration.maxBody) },
                                  inline: { body, stop in
                                      try RenderRoute.inline(body, query: query, contentType: contentType, configuration: configuration, stop: stop)
                                  }) {
                body, stop in try RenderRoute.render(body, query: query, contentType: contentType, configuration: configuration, stop: stop)
            }
        }
        router.post("/signatures") { request, context -> Response in
            let owner = try AccountRoutes.owner(context)
            let saved = try await work(request, context, pool: pool, configuration: configuration,
                                       body: { try await $0.jsonBody(limit: configuration.maxBody) }) {
                body, stop in try SignatureRoute.save(body, configuration: configuration, stop: stop)
            }
            return try await SignatureRoute.keep(saved, store: store, provenance: Provenance(client: StoreRoutes.client(of: context),
                                                                                             user: owner?.user, device: owner?.device))
        }
        // The document's digest is its entity tag: the consent page sends it back with the submission.
        let documentTag = "\"\(document.digest)\""
        router.get("/consent/document") { _, _ -> Response in
            try await RetirementRoute.refuseRetired(document.digest, store: store, status: .gone,
                                                    consequence: "this server signs no other version")
            var response = Response.bytes(document.canonicalJSON, contentType: "application/json; charset=utf-8")
            response.headers[.eTag] = documentTag
            return response
        }
        router.post("/consent/sign") { request, context -> Response in
            let owner = try AccountRoutes.owner(context)
            let client = StoreRoutes.client(of: context), userAgent = request.headers[.userAgent]
            let signed = try await work(request, context, pool: pool, configuration: configuration,
                                        body: { request in
                // A retired version is refused before any signing work: one read of the store.
                let body = try await request.jsonBody(limit: configuration.maxBody * 4)
                try await RetirementRoute.refuseRetired(ConsentRoute.documentDigest(in: body) ?? document.digest, store: store,
                                                        status: .conflict, consequence: "nothing was kept")
                return body
            }) {
                body, _ in try ConsentRoute.sign(body, document: document, configuration: configuration, client: client, userAgent: userAgent)
            }
            return try await ConsentRoute.keep(signed, store: store, provenance: Provenance(client: client, user: owner?.user, device: owner?.device))
        }
        StoreRoutes.add(to: router, store: store, token: adminToken, answers: ConsentAnswers(budget: configuration.consentAnswerBytes))
        RetirementRoute.add(to: router, store: store, token: adminToken, configuration: configuration)
        AccountRoutes.add(to: router, store: store, token: adminToken, pool: pool, configuration: configuration, sessions: sessions)
        // Last, after every route: 405 with Allow for a routed path's other methods, 404 for other paths.
        router.add(middleware: RouteFallback(routes: router.routes.map { ($0.path, $0.method) }))
        return router
    }

    /// Seconds a refused request is asked to wait before it tries again.
    static let retryAfter = 1

    /// Answers a request whose work runs on `pool`:
    /// 1. admitted first, before its body is read: refused at once with 503 and `Retry-After` when every worker is
    ///    busy and the queue is full, or when more requests are outstanding than that and this one waited longer than
    ///    the configuration's `admissionDelay` before the server could look at it;
    /// 2. its body read by `readBody`, which holds it to its limit and type;
    /// 3. `handle` run on a worker with a ``RenderStop`` that is stopped when the client hangs up or the work timeout
    ///    passes (answered 503).
    ///
    /// `inline`, when given, is tried first where the request arrives: work it knows to be small (a few
    /// milliseconds at most) is answered there; it returns `nil` for `handle` to do the work on a worker.
    static func work<Result: Sendable>(_ request: Request, _ context: ServerContext, pool: WorkPool, configuration: ServerConfiguration,
                                       body readBody: (Request) async throws -> [UInt8],
                                       inline: (([UInt8], RenderStop) throws -> Result?)? = nil,
                                       _ handle: @escaping @Sendable ([UInt8], RenderStop) throws -> Result) async throws -> Result {
        let saturated = configuration.load.outstanding > pool.workers + pool.queueLength
            && HangUpHandler.waited(context.channel) > .milliseconds(configuration.admissionDelay)
        guard !saturated, let ticket = pool.admit() else {
            throw APIError(.serviceUnavailable, "the server is busy; try again in \(retryAfter) s",
                           fields: [.retryAfter: String(retryAfter)])
        }
        // The deadline is read from the clock at each step of the work: no timer to schedule and cancel on another
        // thread for every request.
        let stop = RenderStop(deadline: .now + .seconds(configuration.workTimeout))
        defer { withExtendedLifetime(ticket) {} }
        let body = try await readBody(request)
        do {
            if let inline, let result = try inline(body, stop) { return result }
            return try await HangUpHandler.watch(context.channel, stop: stop) {
                try await pool.run(stop: stop) { try handle(body, stop) }
            }
        } catch RenderError.stopped(let reason) {
            throw APIError(.serviceUnavailable, "the request was stopped: \(reason) (\(configuration.workTimeout) s of work at most)",
                           fields: [.retryAfter: String(retryAfter)])
        }
    }

    /// The application: HTTP/1.1 on the configured address, the requests HTTP/1.1 refuses (one the parser cannot
    /// read, one without its `Host`) answered with JSON before routing, request bodies cut off at the request timeout,
    /// connections closed after the idle timeout, logs through swift-log.
    public static func application(configuration: ServerConfiguration, consentDocument: ConsentDocument? = nil,
                                   store: ConsentStore? = nil, adminToken: AdminToken? = nil,
                                   logger: Logger) throws -> some ApplicationProtocol {
        let router = try router(configuration: configuration, consentDocument: consentDocument, store: store, adminToken: adminToken)
        return Application(
            router: router,
            server: .conformingHTTP1(configuration: .init(
                additionalChannelHandlers: [RequestDeadlineHandler(seconds: configuration.requestTimeout), HangUpHandler(load: configuration.load)],
                idleTimeout: .seconds(Int64(configuration.idleTimeout)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "signature-ink-server"),
            logger: logger)
    }

    /// Decoding limits from the server's configuration: the body limit and the sample limit.
    static func limits(_ configuration: ServerConfiguration) -> DecodingLimits {
        var limits = DecodingLimits.default
        limits.maxBytes = configuration.maxBody
        limits.maxSamples = configuration.maxSamples
        limits.maxSamplesPerStroke = Swift.min(limits.maxSamplesPerStroke, configuration.maxSamples)
        return limits
    }
}
