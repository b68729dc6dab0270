// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird

/// An error answered as JSON, `{"error": "...", "status": 422}`, never as HTML: the message may quote a client's
/// input (a decoder's message names fields and positions), and JSON with `application/json` cannot run as a page.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String
    /// Seconds after which to try again, sent as `Retry-After` (with 503), or `nil`.
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body: [String: Any] = ["error": message, "status": status.code]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        // A body that stopped arriving leaves the connection in an unknown place: it is closed after the answer.
        if status == .requestTimeout { headers[.connection] = "close" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .bytes(try encoder.encode(value), contentType: "application/json; charset=utf-8")
    }
}

extension Request {
    /// The body, refused with 413 when its declared or actual length passes `limit`: a declared length is
    /// checked before anything is read, and an undeclared (chunked) body stops being read at the limit. A body
    /// that has not arrived in full within the request timeout (``RequestDeadlineHandler``) is refused with 408.
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
        }
    }
}
