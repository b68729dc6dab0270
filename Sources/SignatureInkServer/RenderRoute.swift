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

    /// Renders `body` as the query asks, on a worker.
    /// - Throws: `APIError` 400 for the query, 422 for the body or a render over the limits or the work budget;
    ///   `RenderError.stopped` when `stop` stopped it.
    static func render(_ body: [UInt8], query: Parameters, contentType: String?,
                       configuration: ServerConfiguration, stop: RenderStop) throws -> Response {
        let request = try request(query: query, limits: configuration.renderLimits)
        let input = try inputFormat(query: query, contentType: contentType)
        let signature: Signature
        do {
            signature = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(body), as: input).signature
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let format = request.outputFormat
        var response: Response
        do {
            response = .bytes(try request.render(signature, stop: stop), contentType: format.mediaType)
        } catch .stopped(let reason) {
            throw RenderError.stopped(reason)
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
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
