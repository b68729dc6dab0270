// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Foundation
import Hummingbird
import SignatureInkConsent
import SignatureInkRender
import SignatureInkStore

/// The routes of users on a shared device: an administrator creates users and issues enrolment codes; a browser is
/// onboarded as a device with a code and a passcode; a user signs in with the passcode, works in a session, and reads
/// only their own saved signatures and the consents they collected.
///
/// - `POST /users`, `GET /users`, `POST /users/{id}/enrolment-code`: the administrator's (`Authorization: Bearer`, or
///   the session of a user who is an administrator).
/// - `GET /device/users`: the users onboarded on this device (the device cookie), profiles only.
/// - `POST /device/users`: onboards the user of an enrolment code on this device, with a new passcode; a browser
///   without a device cookie gets one (``deviceCookie``).
/// - `POST /device/users/{id}/session`: signs in with the passcode; the answer carries the CSRF token and sets the
///   session cookie. `GET /session` reads the session again (after a page load); `DELETE /session` signs out.
/// - `GET /me/signatures[/{id}]`, `GET /me/consents[/{id}[/pdf]]`: the signed-in user's own; another user's is 404.
enum AccountRoutes {
    /// The device cookie: 32 random bytes in hexadecimal; the store knows the device by the cookie's SHA-256.
    static let deviceCookie = "signature-ink-device"
    /// Seconds the device cookie lasts: 400 days, the longest a browser keeps a cookie (RFC 6265bis, 5.5).
    static let deviceCookieAge = 400 * 86_400
    /// Largest body of these routes: 16 KiB.
    static let maxBody = 16 << 10

    /// A user as the routes answer it: the profile, its initials and whether the user is an administrator, no secret.
    struct UserAnswer: Encodable {
        var id: String
        var displayName: String
        var title: String?
        var subtitle: String?
        var initials: String
        var administrator: Bool

        init(_ user: UserProfile) {
            (id, displayName, title, subtitle, initials) = (user.id, user.displayName, user.title, user.subtitle, user.initials)
            administrator = user.isAdministrator
        }
    }

    /// An enrolment code as the administrator gets it, once.
    struct CodeAnswer: Encodable {
        var code: String
        var user: String
        /// When it stops being accepted: ISO 8601 in UTC.
        var expiresAt: String

        init(_ code: EnrolmentCode) {
            self.code = code.code
            user = code.user
            expiresAt = Date(timeIntervalSince1970: Double(code.expiresAt) / 1000)
                .formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: .gmt))
        }
    }

    struct NewUserBody: Decodable {
        var displayName: String
        var title: String?
        var subtitle: String?
        var administrator: Bool

        init(from decoder: any Decoder) throws {
            let fields = try StrictFields(decoder, ["displayName", "title", "subtitle", "administrator"])
            displayName = try fields.value("displayName")
            title = try fields.optional("title")
            subtitle = try fields.optional("subtitle")
            administrator = try fields.optional("administrator") ?? false
        }
    }

    struct OnboardingBody: Decodable {
        var code: String
        var passcode: String

        init(from decoder: any Decoder) throws {
            let fields = try StrictFields(decoder, ["code", "passcode"])
            code = try fields.value("code")
            passcode = try fields.value("passcode")
        }
    }

    struct SignInBody: Decodable {
        var passcode: String

        init(from decoder: any Decoder) throws {
            passcode = try StrictFields(decoder, ["passcode"]).value("passcode")
        }
    }

    struct SessionAnswer: Encodable {
        var user: UserAnswer
        /// The token every state-changing request of the session sends back in `X-CSRF-Token`.
        var csrfToken: String
        /// Seconds the session may stay unused.
        var idleTimeout: Int
    }

    /// Adds the routes to `router`.
    static func add(to router: Router<ServerContext>, store: ConsentStore?, token: AdminToken?, pool: WorkPool,
                    configuration: ServerConfiguration, sessions: Sessions) {
        let policy = configuration.accountPolicy
        let clock = configuration.clock
        @Sendable func kept() throws -> ConsentStore {
            guard let store else { throw APIError(.notFound, "this server was started with --no-store: it keeps no users") }
            return store
        }

        router.post("/users") { request, context -> Response in
            let store = try StoreRoutes.admit(request, context, store: store, token: token)
            let body = try decode(NewUserBody.self, try await request.jsonBody(limit: maxBody))
            let profile = UserProfile(id: "", displayName: body.displayName, title: body.title, subtitle: body.subtitle,
                                      isAdministrator: body.administrator)
            let (user, code) = try await StoreRoutes.run {
                try await store.createUser(profile, policy: policy, provenance: StoreRoutes.provenance(of: context), at: clock())
            }
            return try created(NewUser(user: UserAnswer(user), enrolmentCode: CodeAnswer(code)))
        }
        router.get("/users") { request, context -> Response in
            let store = try StoreRoutes.admit(request, context, store: store, token: token)
            let (after, limit) = try StoreRoutes.paging(request.uri.queryParameters, known: [])
            let page = try await StoreRoutes.run { try await store.users(after: after, limit: limit) }
            return try .json(StoreRoutes.ListPage(key: "users", items: page.users.map(UserAnswer.init), next: page.next))
        }
        router.post("/users/{id}/enrolment-code") { request, context -> Response in
            let store = try StoreRoutes.admit(request, context, store: store, token: token)
            let id = try userID(context)
            let code = try await StoreRoutes.run { try await store.issueCode(for: id, policy: policy, at: clock()) }
            return try created(CodeAnswer(code))
        }

        router.get("/device/users") { request, _ -> Response in
            let store = try kept()
            guard let device = device(of: request) else { return try .json(StoreRoutes.ListPage<UserAnswer>(key: "users", items: [], next: nil)) }
            let users = try await StoreRoutes.run { try await store.users(onDevice: device.id) }
            return try .json(StoreRoutes.ListPage(key: "users", items: users.map(UserAnswer.init), next: nil))
        }
        router.post("/device/users") { request, context -> Response in
            let store = try kept()
            let ticket = try admit(pool)
            defer { withExtendedLifetime(ticket) {} }
            let body = try decode(OnboardingBody.self, try await request.jsonBody(limit: maxBody))
            let known = device(of: request)
            let cookie = known?.cookie ?? PasscodeHash.randomHex(bytes: 32)
            let device = known?.id ?? HexDigest.sha256(Array(cookie.utf8))
            let user = try await StoreRoutes.run {
                try await store.onboard(code: body.code, device: device, passcode: body.passcode, policy: policy,
                                        provenance: Provenance(client: StoreRoutes.client(of: context), device: device), at: clock()) {
                    passcode, cost in try await onWorker(pool, configuration) { () throws(StoreError) in try PasscodeHash(passcode: passcode, cost: cost) }
                }
            }
            var response = try created(UserAnswer(user))
            if known == nil {
                response.setCookie(Cookie(name: deviceCookie, value: cookie, maxAge: deviceCookieAge, path: "/",
                                          secure: configuration.secureCookies, httpOnly: true, sameSite: .strict))
            }
            return response
        }
        router.post("/device/users/{id}/session") { request, context -> Response in
            let store = try kept()
            let id = try userID(context)
            guard let device = device(of: request) else {
                throw APIError(.notFound, "no user is onboarded on this device: onboard with an enrolment code first")
            }
            let ticket = try admit(pool)
            defer { withExtendedLifetime(ticket) {} }
            let passcode = try decode(SignInBody.self, try await request.jsonBody(limit: maxBody)).passcode
            let outcome: SignInOutcome
            do {
                outcome = try await store.signIn(user: id, device: device.id, policy: policy,
                                                 provenance: Provenance(client: StoreRoutes.client(of: context), device: device.id), at: clock()) {
                    hash in try await onWorker(pool, configuration) { () throws(StoreError) in hash.matches(passcode) }
                }
            } catch let error as StoreError {
                throw StoreRoutes.apiError(error)
            }
            let challenge: HTTPFields = [.wwwAuthenticate: #"Passcode realm="signature-ink""#]
            switch outcome {
            case .signedIn(let user):
                if let old = context.sessionID { sessions.close(old) }
                let (sessionID, session) = sessions.open(user: user.id, device: device.id, isAdministrator: user.isAdministrator,
                                                         now: milliseconds(clock()))
                var response = try Response.json(SessionAnswer(user: UserAnswer(user), csrfToken: session.csrf,
                                                                idleTimeout: configuration.sessionIdleTimeout))
                response.setCookie(sessionCookie(sessionID, configuration))
                return response
            case .wrongPasscode(let remaining):
                throw APIError(.unauthorized, "passcode: not this user's on this device; after \(remaining) more wrong passcode(s) "
                               + "the user must wait \(policy.wait) s", fields: challenge)
            case .waiting(let retryAfter):
                throw APIError(.tooManyRequests, "passcode: too many wrong passcodes in a row; try again in \(retryAfter) s",
                               fields: [.retryAfter: String(retryAfter)])
            case .revoked:
                throw APIError(.unauthorized, "passcode: \(policy.failuresBeforeRevocation) wrong passcodes in a row: this user's enrolment "
                               + "on this device is revoked; an administrator must issue a new enrolment code", fields: challenge)
            case .notOnboarded:
                throw APIError(.notFound, "this user is not onboarded on this device")
            }
        }
        router.get("/session") { _, context -> Response in
            let (store, session) = try signedIn(context, store: store)
            let user = try await StoreRoutes.run { try await store.user(id: session.user) }
            return try .json(SessionAnswer(user: UserAnswer(user), csrfToken: session.csrf, idleTimeout: configuration.sessionIdleTimeout))
        }
        router.delete("/session") { _, context -> Response in
            if let id = context.sessionID { sessions.close(id) }
            var response = Response(status: .noContent)
            response.setCookie(sessionCookie("", configuration, maxAge: 0))
            return response
        }

        router.get("/me/signatures") { request, context -> Response in
            let (store, session) = try signedIn(context, store: store)
            let (after, limit) = try StoreRoutes.paging(request.uri.queryParameters, known: [])
            let page = try await StoreRoutes.run { try await store.signatures(of: session.user, after: after, limit: limit) }
            return try .json(StoreRoutes.ListPage(key: "signatures", items: page.signatures, next: page.next))
        }
        router.get("/me/signatures/{id}") { _, context -> Response in
            let (store, session) = try signedIn(context, store: store)
            let id = context.parameters.get("id") ?? ""
            guard let signature = try await StoreRoutes.run({ try await store.signature(id: id) }), signature.provenance.user == session.user else {
                throw APIError(.notFound, "you have saved no signature with this identifier")
            }
            return try .json(signature)
        }
        router.get("/me/consents") { request, context -> Response in
            let (store, session) = try signedIn(context, store: store)
            var query = try StoreRoutes.query(request.uri.queryParameters)
            query.collector = session.user
            let page = try await StoreRoutes.run { try await store.consents(query) }
            return try .json(StoreRoutes.ListPage(key: "consents", items: page.consents.map(StoreRoutes.ConsentSummary.init), next: page.next))
        }
        router.get("/me/consents/{id}") { _, context -> Response in
            let (store, session) = try signedIn(context, store: store)
            let consent = try await ownConsent(context, store: store, session: session)
            return .json(openObject: try Response.openJSONObject(StoreRoutes.ConsentSummary(consent), adding: ["record": consent.recordJSON]))
        }
        router.get("/me/consents/{id}/pdf") { _, context -> Response in
            let (store, session) = try signedIn(context, store: store)
            let consent = try await ownConsent(context, store: store, session: session)
            let pdf = try await StoreRoutes.run { try await store.pdf(ofConsent: consent.id) }
            return .bytes(pdf, contentType: "application/pdf")
        }
    }

    struct NewUser: Encodable {
        var user: UserAnswer
        var enrolmentCode: CodeAnswer
    }

    /// The device of a request: its cookie, when it is one this server could have issued, and the identifier the
    /// store knows it by.
    static func device(of request: Request) -> (cookie: String, id: String)? {
        guard let cookie = request.cookies[deviceCookie]?.value, cookie.utf8.count == 64,
              cookie.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return (cookie, HexDigest.sha256(Array(cookie.utf8)))
    }

    /// The session of a signed-in request.
    /// - Throws: `APIError` 401 without a session, 404 without a store.
    static func signedIn(_ context: ServerContext, store: ConsentStore?) throws -> (ConsentStore, Session) {
        guard let session = context.session else {
            throw APIError(.unauthorized, context.sessionEnded ? "the session has ended (signed out, another sign-in, or idle too long); sign in again"
                                                               : "sign in first: this route reads the signed-in user's own data",
                           fields: [.wwwAuthenticate: #"Passcode realm="signature-ink""#])
        }
        guard let store else { throw APIError(.notFound, "this server was started with --no-store: it keeps nothing") }
        return (store, session)
    }

    /// The session a request that may act for a user acts for: `nil` without a session cookie.
    /// - Throws: `APIError` 401 for a session cookie whose session has ended, so that nothing is kept for nobody.
    static func owner(_ context: ServerContext) throws -> Session? {
        if context.sessionEnded && context.session == nil {
            throw APIError(.unauthorized, "the session has ended (signed out, another sign-in, or idle too long); sign in again",
                           fields: [.wwwAuthenticate: #"Passcode realm="signature-ink""#])
        }
        return context.session
    }

    /// The consent `{id}` when the session's user collected it; another's, or none, is 404 alike.
    static func ownConsent(_ context: ServerContext, store: ConsentStore, session: Session) async throws -> StoredConsent {
        let id = context.parameters.get("id") ?? ""
        let notYours = APIError(.notFound, "you have collected no consent with this identifier")
        guard ConsentStore.isIdentifier(id) else { throw notYours }
        let consent: StoredConsent
        do {
            consent = try await store.consent(id: id)
        } catch .unknownConsent {
            throw notYours
        } catch {
            throw StoreRoutes.apiError(error)
        }
        guard consent.provenance.user == session.user else { throw notYours }
        return consent
    }

    /// The `{id}` of a user's path: a user's identifier, at most 64 lower-case letters, digits and `-`.
    static func userID(_ context: ServerContext) throws -> String {
        let id = context.parameters.get("id") ?? ""
        guard ConsentStore.isIdentifier(id) else { throw APIError(.notFound, "no user has this identifier") }
        return id
    }

    /// A place on the worker threads, or 503 with `Retry-After` when they and their queue are full: hashing a passcode
    /// takes 128 MiB and about 0.4 s, so no more run at once than there are workers.
    static func admit(_ pool: WorkPool) throws -> WorkPool.Ticket {
        guard let ticket = pool.admit() else {
            throw APIError(.serviceUnavailable, "the server is busy; try again in \(SignatureInkServer.retryAfter) s",
                           fields: [.retryAfter: String(SignatureInkServer.retryAfter)])
        }
        return ticket
    }

    /// Runs a passcode's hashing on a worker thread, within the work timeout.
    static func onWorker<T: Sendable>(_ pool: WorkPool, _ configuration: ServerConfiguration,
                                      _ body: @escaping @Sendable () throws(StoreError) -> T) async throws -> T {
        let stop = RenderStop(deadline: .now + .seconds(configuration.workTimeout))
        do {
            return try await pool.run(stop: stop) { try body() }
        } catch let error as StoreError {
            throw StoreRoutes.apiError(error)
        } catch RenderError.stopped {
            throw APIError(.serviceUnavailable, "the server is busy; try again in \(SignatureInkServer.retryAfter) s",
                           fields: [.retryAfter: String(SignatureInkServer.retryAfter)])
        }
    }

    /// A body of one of these routes, or 400 naming the field at fault.
    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw APIError(.badRequest, "the body is not valid: \(BodyError.describe(error))")
        }
    }

    /// A 201 answer of a JSON value.
    static func created(_ value: some Encodable) throws -> Response {
        var response = try Response.json(value)
        response.status = .created
        return response
    }

    /// The session cookie: `HttpOnly; SameSite=Strict; Path=/`, `Secure` with the configuration's secure cookies, and
    /// no expiry (it ends with the browser, or earlier with the session).
    static func sessionCookie(_ value: String, _ configuration: ServerConfiguration, maxAge: Int? = nil) -> Cookie {
        Cookie(name: Sessions.cookie, value: value, maxAge: maxAge, path: "/", secure: configuration.secureCookies, httpOnly: true,
               sameSite: .strict)
    }

    /// Milliseconds since 1970.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
