// SPDX-License-Identifier: Apache-2.0
import Hummingbird

/// Adds the security headers to every response, errors included: a Content-Security-Policy that allows only the
/// server's own scripts, styles and images (and `data:`/`blob:` images, for the signatures the pages show), no
/// framing, no sniffing of content types, no referrer. Errors become their JSON answers here and are logged.
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
            // A refusal is logged with its reason at debug level (a flood of bad requests must not flood the log).
            let reason = (error as? APIError)?.message ?? "\(error)"
            context.logger.debug("Refused", metadata: ["hb.response.status": "\(error.status.code)", "reason": "\(reason)"])
            response = try error.response(from: request, context: context)
        } catch {
            // Anything else is the server's fault: logged as an error, answered as JSON with the same headers, and
            // its text kept out of the answer.
            context.logger.error("Failed", metadata: ["hb.request.path": "\(request.uri.path)", "error": "\(error)"])
            response = try APIError(.internalServerError, "the server could not answer this request")
                .response(from: request, context: context)
        }
        for (name, value) in [("Content-Security-Policy", Self.policy), ("X-Content-Type-Options", "nosniff"),
                              ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
                              ("Cross-Origin-Resource-Policy", "same-origin"), ("Cache-Control", "no-store")] {
            if let field = HTTPFields.Element.Name(name) { response.headers[field] = value }
        }
        return response
    }
}
