// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
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

    /// Reads and decodes one file through a descriptor already open on it for reading, which this call closes.
    /// - Parameters:
    ///   - path: the file's name, for errors.
    ///   - opened: a descriptor open on `path`, such as ``ReadAhead`` hands out.
    func load(_ path: String, opened fd: Int32) throws(InputFailure) -> Signature {
        defer { close(fd) }
        return try decode(try readBounded(fd, path: path), name: path).signature
    }

    /// Reads and decodes one file, with the format it was read as and what was assumed.
    func read(_ path: String) throws(InputFailure) -> DecodeResult {
        try decode(try readBounded(path), name: path)
    }

    /// Reads at most ``DecodingLimits/maxBytes`` bytes of `path`, refusing more: the size is checked before
    /// reading, and a file that grew after that, or one with no size (a pipe, a device such as `/dev/zero`),
    /// cannot exhaust memory either. One `open`, one `fstat` and the reads: nothing else touches the disk.
    func readBounded(_ path: String) throws(InputFailure) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw InputFailure(path: path, reason: errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot read the file")
        }
        defer { close(fd) }
        return try readBounded(fd, path: path)
    }

    /// Reads at most ``DecodingLimits/maxBytes`` bytes from `fd`, open on `path` (named in errors), as
    /// ``readBounded(_:)`` does; the caller closes `fd`.
    func readBounded(_ fd: Int32, path: String) throws(InputFailure) -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw InputFailure(path: path, reason: "cannot read the file") }
        if info.st_mode & S_IFMT == S_IFDIR { throw InputFailure(path: path, reason: "is a directory") }
        let size = Int(info.st_size)
        if size > limits.maxBytes {
            throw InputFailure(path: path, reason: "\(FormatError.limitExceeded(what: "file size in bytes", limit: limits.maxBytes, actual: size))")
        }
        // One byte more than the size, so the end of the file is seen in the first read when it did not grow.
        var data = Data(count: Swift.max(size, 0) + 1)
        var count = 0
        while true {
            if count == data.count {
                if count > limits.maxBytes {
                    throw InputFailure(path: path, reason: "\(FormatError.limitExceeded(what: "file size in bytes", limit: limits.maxBytes, actual: count)) (read so far)")
                }
                data.count = Swift.min(count * 2 + 4096, limits.maxBytes + 1)
            }
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n > 0 {
                count += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw InputFailure(path: path, reason: "cannot read the file: \(String(cString: strerror(errno)))")
            }
        }
        data.count = count
        return data
    }

    /// Decodes bytes that came from `name` (a file, or a line of standard input).
    func decode(_ data: Data, name: String) throws(InputFailure) -> DecodeResult {
        do {
            return try InkDecoder(limits: limits).decode(data, as: format)
        } catch {
            if case .unknownFormat = error {
                throw InputFailure(path: name, reason: "\(error)", notStrokes: true)
            }
            throw InputFailure(path: name, reason: "\(error)")
        }
    }
}

extension InputLoader {
    /// Decodes the signature an envelope carries, as a stroke file with these limits and format; an error names the
    /// place in the line (``InputEnvelope/located(_:)``).
    /// - Parameters:
    ///   - envelope: a line read as an envelope.
    ///   - name: where the line came from, for errors.
    func decode(_ envelope: InputEnvelope, name: String) throws(InputFailure) -> Signature {
        do {
            return try InkDecoder(limits: limits).decode(envelope.signature, as: format).signature
        } catch {
            throw InputFailure(path: name, reason: envelope.located(error).description)
        }
    }
}

/// One input that could not be done, printed as `FILE: reason`.
struct InputFailure: Error, CustomStringConvertible {
    var path: String
    var reason: String
    /// Whether the content has the shape of no stroke format (no `--input-format` was given), as opposed to a
    /// stroke file that is damaged or cannot be read: a file found in a folder is then skipped, not failed.
    var notStrokes = false
    var description: String { "\(path): \(reason)" }
}
