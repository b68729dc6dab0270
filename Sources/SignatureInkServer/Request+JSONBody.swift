// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird

extension Request {
    /// The body of a route that reads JSON, refused with 415 when the request declares another media type, then
    /// read as ``boundedBody(limit:)`` reads it.
    ///
    /// `application/json` is taken with or without parameters; a `charset` must be UTF-8, the only one JSON has
    /// (RFC 8259, 8.1). A request without a `Content-Type` is taken too, its body parsed as JSON and refused as the
    /// route refuses any body that is not: RFC 9110 (8.3) lets a recipient examine a body of no declared type, the
    /// route reads no other, and the clients that send none (a bare HTTP library, a test client) mean JSON. What 415 refuses is a body
    /// declared as something else, such as `curl --data-binary`'s default `application/x-www-form-urlencoded` or an
    /// HTML form's `text/plain`, which must not be read as JSON by accident. The pages' scripts send
    /// `application/json`; `/render`, which the README's `curl` examples and the load script call, reads any type.
    /// - Parameter limit: the most bytes the body may have.
    /// - Throws: `APIError` 415 for another media type; what ``boundedBody(limit:)`` throws.
    func jsonBody(limit: Int) async throws -> [UInt8] {
        if let type = headers[.contentType], !Self.isJSON(type) {
            throw APIError(.unsupportedMediaType, "the body must be application/json (UTF-8)", fields: [.accept: "application/json"])
        }
        return try await boundedBody(limit: limit)
    }

    /// Whether a `Content-Type` value is `application/json`, with at most a UTF-8 charset among its parameters.
    static func isJSON(_ contentType: String) -> Bool {
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "application/json" else { return false }
        // An empty parameter (`application/json;`) is allowed by RFC 9110's grammar (5.6.6).
        for parameter in parts.dropFirst() where !parameter.trimmingCharacters(in: .whitespaces).isEmpty {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return false }
            if pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                let value = pair[1].trimmingCharacters(in: .whitespaces).lowercased()
                guard value == "utf-8" || value == "\"utf-8\"" else { return false }
            }
        }
        return true
    }
}

