// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats

/// Reads stroke files from disk, checking their size before reading them and never reading more than the
/// limit allows.
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
        return try decode(try readBounded(path), name: path)
    }

    /// Reads at most ``DecodingLimits/maxBytes`` bytes of `path`, refusing more: a file that grew after its
    /// size was checked, or one with no size (a pipe, a device such as `/dev/zero`), cannot exhaust memory.
    private func readBounded(_ path: String) throws(InputFailure) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputFailure(path: path, reason: "cannot read the file")
        }
        defer { try? handle.close() }
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: Swift.min(1 << 20, limits.maxBytes + 1 - data.count))
            } catch {
                throw InputFailure(path: path, reason: "cannot read the file: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            if data.count > limits.maxBytes {
                throw InputFailure(path: path, reason: "\(FormatError.limitExceeded(what: "file size in bytes", limit: limits.maxBytes, actual: data.count)) (read so far)")
            }
        }
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
