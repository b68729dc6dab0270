// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import NIOHTTP1
import SignatureInkFormats

/// An error answered as JSON, `{"error": "...", "status": 422}`, never as HTML: the message may quote a client's
/// input (a decoder's message names fields and positions), and JSON with `application/json` cannot run as a page.
/// An error may carry a JSON value beside its message that says more (``detail``), such as the retirement that
/// refuses a document version: `{"error": "...", "retirement": {...}, "status": 409}`.
struct APIError: Error, HTTPResponseError {
    /// The status of the answer.
    var status: HTTPResponse.Status
    /// What is wrong, in words the client can act on.
    var message: String
    /// Header fields the answer carries besides its content type, such as `Allow` on a 405.
    var fields: HTTPFields
    /// Whether the connection is closed after the answer: after a body that stopped arriving (408) or whose framing
    /// is broken, the connection is in an unknown place.
    var closesConnection: Bool
    /// A member added to the answer's object beside `error` and `status`: its name and its value as JSON; `nil` for none.
    var detail: (name: String, json: [UInt8])?

    /// Creates the error.
    /// - Parameters:
    ///   - status: the status of the answer.
    ///   - message: what is wrong.
    ///   - fields: header fields the answer carries besides its content type; default none.
    ///   - closesConnection: whether the connection is closed after the answer; default only after a 408.
    init(_ status: HTTPResponse.Status, _ message: String, fields: HTTPFields = [:], closesConnection: Bool? = nil) {
        self.status = status
        self.message = message
        self.fields = fields
        self.closesConnection = closesConnection ?? (status == .requestTimeout)
    }

    /// Creates an error that carries `value` as the member `name` of its answer, beside `error` and `status`.
    init(_ status: HTTPResponse.Status, _ message: String, detail name: String, _ value: some Encodable) throws {
        self.init(status, message)
        detail = (name, try Response.jsonBytes(value))
    }

    /// The answer's body: `{"error": message, "status": code}`, with ``detail`` between them when there is one, written
    /// directly (Foundation's `JSONSerialization` was 14 % of the server's time answering 404 to an unknown consent).
    var body: [UInt8] {
        var body = Array(#"{"error":"#.utf8)
        JSONText.appendString(message, to: &body)
        if let detail {
            body.append(UInt8(ascii: ","))
            JSONText.appendString(detail.name, to: &body)
            body += [UInt8(ascii: ":")] + detail.json
        }
        body += Array(#","status":\#(status.code)}"#.utf8)
        return body
    }

    /// The answer's header fields: the content type, ``fields`` and `Connection: close` when it
    /// ``closesConnection``.
    var headerFields: HTTPFields {
        var headers = fields
        headers[.contentType] = "application/json; charset=utf-8"
        if closesConnection { headers[.connection] = "close" }
        return headers
    }

    /// The answer as a response.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headerFields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension Response {
    /// A response with a body and its content type.
    static func bytes(_ bytes: some Sequence<UInt8>, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A JSON response of an encodable value.
    static func json(_ value: some Encodable) throws -> Response {
        .bytes(try jsonBytes(value), contentType: "application/json; charset=utf-8")
    }

    /// A JSON response of an encodable value, which must encode as an object, with long text fields added to it
    /// (a record, a PDF in base64), written by ``JSONText`` rather than by `JSONEncoder`, whose string writer is too
    /// slow for tens of kilobytes (see `JSONText.appendString`).
    static func json(_ value: some Encodable, adding texts: KeyValuePairs<String, [UInt8]>) throws -> Response {
        .json(openObject: try openJSONObject(value, adding: texts))
    }

    /// A JSON response of an object written up to its closing brace, which this adds.
    static func json(openObject bytes: [UInt8]) -> Response {
        .bytes(bytes + [UInt8(ascii: "}")], contentType: "application/json; charset=utf-8")
    }

    /// `value`, which must encode as an object, with the text fields `texts` added to it, up to but without its closing
    /// brace, so that more fields can follow.
    static func openJSONObject(_ value: some Encodable, adding texts: KeyValuePairs<String, [UInt8]> = [:]) throws -> [UInt8] {
        var bytes = try jsonBytes(value)
        guard bytes.last == UInt8(ascii: "}") else { throw APIError(.internalServerError, "the answer is no JSON object") }
        bytes.removeLast()
        for (key, text) in texts {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONText.appendString(text, to: &bytes)
        }
        return bytes
    }

    /// `value` as compact JSON with sorted keys.
    static func jsonBytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}

extension Request {
    /// The body, refused with 413 when its declared or actual length passes `limit`: a declared length is
    /// checked before anything is read, and an undeclared (chunked) body stops being read at the limit. A body
    /// that has not arrived in full within the request timeout (``RequestDeadlineHandler``) is refused with 408, one
    /// whose framing the HTTP parser refuses (a chunk size that is no hexadecimal number, a transfer coding other
    /// than chunked) with 400; after either the connection is closed.
    func boundedBody(limit: Int) async throws -> [UInt8] {
        if let declared = headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw APIError(.contentTooLarge, "the body is \(declared) bytes; this server accepts at most \(limit)")
        }
        do {
            return Array(try await body.collect(upTo: limit).readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, "the body is larger than \(limit) bytes, the most this server accepts")
        } catch let timeout as RequestBodyTimeout {
            throw APIError(.requestTimeout, "the body did not arrive within \(timeout.seconds) seconds")
        } catch let error as HTTPParserError {
            throw APIError(.badRequest, "the body's framing is not valid HTTP/1.1: \(HTTP1ConformanceHandler.words(error))",
                           closesConnection: true)
        }
    }
}
