// SPDX-License-Identifier: Apache-2.0
import Hummingbird

/// The security headers every response carries, errors included: a Content-Security-Policy that allows only the
/// server's own scripts, styles, images (and `data:`/`blob:` images, for the signatures the pages show) and frames,
/// no framing by others, no sniffing of content types, no referrer, no caching.
///
/// The one list: ``SecurityHeaders`` adds it to every routed answer, ``HTTP1ConformanceHandler`` to the answers it
/// writes itself for requests no route may see.
enum SecurityHeaderFields {
    /// The Content-Security-Policy, with the pages that may frame the answer.
    static func policy(frameAncestors: String) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-src 'self'; "
            + "form-action 'none'; frame-ancestors \(frameAncestors); base-uri 'none'"
    }

    /// Every header and its value: framed by nothing.
    static let all = fields(framedBySelf: false)

    /// The same, but for one page that the server's own pages frame: the consent walk-through, inside the shared
    /// device's page.
    static let framedBySelf = fields(framedBySelf: true)

    /// The path of the one page the server's own pages may frame.
    static let framedPath = "/consent"

    /// The fields of the answer to a request for `path`.
    static func fields(for path: String) -> HTTPFields { path == framedPath ? framedBySelf : all }

    private static func fields(framedBySelf: Bool) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in [("Content-Security-Policy", policy(frameAncestors: framedBySelf ? "'self'" : "'none'")),
                              ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", framedBySelf ? "SAMEORIGIN" : "DENY"),
                              ("Referrer-Policy", "no-referrer"), ("Cross-Origin-Resource-Policy", "same-origin"),
                              ("Cache-Control", "no-store")] {
            if let name = HTTPFields.Element.Name(name) { fields[name] = value }
        }
        return fields
    }
}

/// Adds ``SecurityHeaderFields`` to every response, errors included. Errors become their JSON answers here and are
/// logged; the answer to a `HEAD` request keeps its headers and loses its body, whoever made it.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    /// Answers `request` through `next`, an error as its JSON answer, with the security headers.
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
        for field in SecurityHeaderFields.fields(for: request.uri.path) { response.headers[field.name] = field.value }
        // Content-Length stays the one the body would have had (RFC 9110, 9.3.2).
        if request.method == .head { response = response.createHeadResponse() }
        return response
    }
}
