// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats

/// Reads stroke files from disk, checking their size before reading them.
struct InputLoader: Sendable {
    var limits = DecodingLimits.default
    /// The format to read, or `nil` to detect it from the content.
    var format: InkFormat?

    /// Reads and decodes one file.
    /// - Throws: ``InputFailure`` whose reason names what is wrong (position or field).
    func load(_ path: String) throws(InputFailure) -> Signature { try read(path).signature }

    /// Reads and decodes one file, with the format it was read as and what was assumed.
    func read(_ path: String) throws(InputFailure) -> DecodeResult {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw InputFailure(path: path, reason: FileManager.default.fileExists(atPath: path)
                ? "cannot read the file" : "no such file")
        }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw InputFailure(path: path, reason: "is a directory")
        }
        if let size = attributes[.size] as? Int, size > limits.maxBytes {
            throw InputFailure(path: path, reason: "\(FormatError.limitExceeded(what: "file size in bytes", limit: limits.maxBytes, actual: size))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputFailure(path: path, reason: "cannot read the file")
        }
        return try decode(data, name: path)
    }

    /// Decodes bytes that came from `name` (a file, or a line of standard input).
    func decode(_ data: Data, name: String) throws(InputFailure) -> DecodeResult {
        do {
            return try InkDecoder(limits: limits).decode(data, as: format)
        } catch {
            throw InputFailure(path: name, reason: "\(error)")
        }
    }
}

/// One input that could not be done, printed as `FILE: reason`.
struct InputFailure: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}
