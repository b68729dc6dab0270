// SPDX-License-Identifier: Apache-2.0
import Hummingbird

/// Adds the security headers to every response: a Content-Security-Policy that allows only the server's own
/// scripts, styles and images (and `data:`/`blob:` images, for the signatures the pages show), no framing, no
/// sniffing of content types, no referrer.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
            + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for (name, value) in [("Content-Security-Policy", Self.policy), ("X-Content-Type-Options", "nosniff"),
                              ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
                              ("Cross-Origin-Resource-Policy", "same-origin"), ("Cache-Control", "no-store")] {
            if let field = HTTPFields.Element.Name(name) { response.headers[field] = value }
        }
        return response
    }
}
