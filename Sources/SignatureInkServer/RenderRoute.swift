// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkFormats
import SignatureInkRender

/// `POST /render`: a stroke file in, an image out.
///
/// Each query parameter is a `RenderRequest.Option` under its name, the command line's `render` flag of the same
/// name; the route maps them onto a `RenderRequest`, which holds every rule. What the request's pen options replace
/// of the file's own pen is said in a `Signature-Ink-Note` header.
enum RenderRoute {
    /// The query parameter that names the input's format; every other is a render option.
    static let inputFormat = "input-format"

    /// Reads the query: every parameter known, every value of its kind and in its range, none contradicting another.
    /// - Throws: `APIError` 400 naming the parameter and what it takes (never quoting a value).
    static func request(query: Parameters, limits: RenderLimits) throws -> RenderRequest {
        var request = RenderRequest()
        request.limits = limits
        do {
            for (key, value) in query where key != inputFormat {
                guard let option = RenderRequest.Option(rawValue: String(key)) else {
                    let known = RenderRequest.Option.allCases.map(\.name) + [inputFormat]
                    throw APIError(.badRequest, "unknown query parameter '\(String(key).prefix(40))'; expected one of \(known.sorted().joined(separator: ", "))")
                }
                try request.set(option, to: String(value))
            }
            try request.validate()
        } catch let error as RenderRequest.Invalid {
            throw APIError(.badRequest, error.description)
        }
        return request
    }

    /// The input's format: the `input-format` parameter, else InkML for an `application/inkml+xml` body, else
    /// detected from the bytes.
    static func inputFormat(query: Parameters, contentType: String?) throws -> InkFormat? {
        if let name = query.get(inputFormat) {
            guard let known = InkFormat(rawValue: name) else {
                throw APIError(.badRequest, "input-format must be one of \(InkFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return known
        }
        return contentType?.hasPrefix("application/inkml+xml") == true ? .inkml : nil
    }

    /// Largest body rendered where it arrives: 32 KiB, twice a full name as signature_pad posts it (15 KB for 171
    /// samples), which decodes and is laid out in well under a millisecond whatever its options ask.
    static let inlineBodyLimit = 32 << 10
    /// Most work units of a render where it arrives (``inline(_:query:contentType:configuration:stop:)``): 2^20,
    /// about 3 ms of one core; a signature of a few hundred samples on a 600 x 300 image costs about 0.4 M.
    static let inlineWork = 1 << 20

    /// Renders a small PNG where its request arrives, on the task that reads the connection, without the hop to a
    /// worker and back: `nil` when the render must go to a worker (a body over ``inlineBodyLimit``, an SVG or a PDF,
    /// or a render whose estimated work is over ``inlineWork`` and within the server's budget).
    ///
    /// The work budget is checked before any pixel is drawn, so a costlier render has cost only its decoding and
    /// layout here (bounded by the body's size) when it goes to a worker; a render over the server's own budget is
    /// refused here at once. The two hops of a worker (a thread woken to render, and the connection's task woken for
    /// the answer) took about 40 % of the server's time on a signature_pad body of 171 samples: 2,760 renders a
    /// second through a worker against 3,870 here (two connections, two cores; BENCHMARKS.md).
    /// - Throws: as ``render(_:query:contentType:configuration:stop:)``.
    static func inline(_ body: [UInt8], query: Parameters, contentType: String?,
                       configuration: ServerConfiguration, stop: RenderStop) throws -> Response? {
        guard body.count <= inlineBodyLimit else { return nil }
        var limits = configuration.renderLimits
        limits.maxWork = Swift.min(limits.maxWork, inlineWork)
        let request = try request(query: query, limits: limits)
        guard request.outputFormat == .png else { return nil }
        do {
            return try render(body, request: request, query: query, contentType: contentType, configuration: configuration, stop: stop)
        } catch RenderError.overBudget(let work, _, let pixels, let pixelWork, let edges, let edgeRows) {
            let budget = configuration.renderLimits.maxWork
            guard work > budget else { return nil }
            throw unprocessable(.overBudget(work: work, budget: budget, pixels: pixels, pixelWork: pixelWork, edges: edges, edgeRows: edgeRows))
        } catch let error as RenderError {
            throw unprocessable(error)
        }
    }

    /// Renders `body` as the query asks, on a worker.
    /// - Throws: `APIError` 400 for the query, 422 for the body or a render over the limits or the work budget;
    ///   `RenderError.stopped` when `stop` stopped it.
    static func render(_ body: [UInt8], query: Parameters, contentType: String?,
                       configuration: ServerConfiguration, stop: RenderStop) throws -> Response {
        do {
            return try render(body, request: request(query: query, limits: configuration.renderLimits), query: query,
                              contentType: contentType, configuration: configuration, stop: stop)
        } catch let error as RenderError {
            throw unprocessable(error)
        }
    }

    /// A render's failure as the answer says it.
    private static func unprocessable(_ error: RenderError) -> any Error {
        if case .stopped(let reason) = error { return RenderError.stopped(reason) }
        return APIError(.unprocessableContent, "\(error)")
    }

    /// Renders `body` as `request`, the query read.
    /// - Throws: `APIError` 400 for the input format, 422 for the body; `RenderError` for the render itself.
    private static func render(_ body: [UInt8], request: RenderRequest, query: Parameters, contentType: String?,
                               configuration: ServerConfiguration, stop: RenderStop) throws -> Response {
        let input = try inputFormat(query: query, contentType: contentType)
        let signature: Signature
        do {
            signature = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(body), as: input).signature
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let format = request.outputFormat
        var response = Response.bytes(try request.render(signature, stop: stop), contentType: format.mediaType)
        // What the query replaced of the file's own pen is said, never silent; only names and colours the server
        // writes itself appear, never query text.
        let notes = request.overrides(of: signature).map { $0.sentence(naming: \.name) }
        if !notes.isEmpty, let name = HTTPFields.Element.Name("Signature-Ink-Note") {
            response.headers[name] = notes.joined(separator: "; ")
        }
        response.headers[.contentDisposition] = "inline; filename=\"signature.\(format.fileExtension)\""
        return response
    }
}
