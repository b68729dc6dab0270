// SPDX-License-Identifier: Apache-2.0
import Hummingbird

/// Finds the session of a request's session cookie and refuses a state-changing request made with it that does not
/// carry the session's CSRF token, with 403, before any route reads the body or does any work.
///
/// The token is given at sign-in (and by `GET /session`) and sent back in `X-CSRF-Token`; a page on another site can
/// make a browser send the cookie (were `SameSite=Strict` not honoured) but cannot read the token. Every method but
/// `GET`, `HEAD` and `OPTIONS` is state-changing, except `POST /render`, which keeps nothing and answers what it is
/// given. A cookie whose session has ended is marked on the context (``ServerContext/sessionEnded``): the routes
/// that would act for the user answer 401 rather than act for nobody.
struct SessionGate: RouterMiddleware {
    let sessions: Sessions
    let clock: @Sendable () -> Int64

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        guard let id = request.cookies[Sessions.cookie]?.value, !id.isEmpty else { return try await next(request, context) }
        var context = context
        guard let session = sessions.session(id, now: clock()) else {
            context.sessionEnded = true
            return try await next(request, context)
        }
        if ![.get, .head, .options].contains(request.method), !(request.method == .post && request.uri.path == "/render") {
            guard let token = request.headers[Sessions.csrfHeader], Self.same(token, session.csrf) else {
                throw APIError(.forbidden, "X-CSRF-Token: a request made with a session must carry the session's CSRF token, given at sign-in")
            }
        }
        context.session = session
        context.sessionID = id
        return try await next(request, context)
    }

    /// Whether two tokens are equal, looking at every byte whatever the first difference.
    static func same(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
