// SPDX-License-Identifier: Apache-2.0

/// Why a stroke file could not be read or written. Every case says where the problem is.
public enum FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not well-formed for the format, at a 1-based line and column (0 when unknown).
    case syntax(line: Int, column: Int, message: String)
    /// A field is missing or has the wrong type or value. `path` names it, such as `strokes[2][5][1]`.
    case field(path: String, message: String)
    /// The document declares a format version this build does not read.
    case unsupportedVersion(format: String, version: Int)
    /// The content matches no format this build reads.
    case unknownFormat(String)
    /// The input exceeds a limit in ``DecodingLimits``.
    case limitExceeded(what: String, limit: Int, actual: Int)
    /// The signature cannot be written in this format, for example a NaN coordinate.
    case unencodable(String)

    /// A one-line message for a person, with the position first when there is one.
    public var description: String {
        switch self {
        case let .syntax(line, column, message):
            return line > 0 ? "line \(line), column \(column): \(message)" : message
        case let .field(path, message):
            return path.isEmpty ? message : "\(path): \(message)"
        case let .unsupportedVersion(format, version):
            return "\(format) version \(version) is not supported"
        case let .unknownFormat(message):
            return message
        case let .limitExceeded(what, limit, actual):
            return "\(what) \(actual) exceeds the limit of \(limit)"
        case let .unencodable(message):
            return message
        }
    }
}

/// Bounds on untrusted input, checked before the work they guard.
public struct DecodingLimits: Sendable, Hashable {
    /// Largest input in bytes; default 64 MiB.
    public var maxBytes: Int
    /// Most strokes in one signature; default 100,000.
    public var maxStrokes: Int
    /// Most samples in one stroke; default 1,000,000.
    public var maxSamplesPerStroke: Int
    /// Most samples in one signature; default 4,000,000.
    public var maxSamples: Int
    /// Largest absolute coordinate, in canvas units; default 1e7.
    public var maxCoordinate: Double

    /// Creates limits; every argument defaults to the documented default.
    public init(maxBytes: Int = 64 << 20, maxStrokes: Int = 100_000,
                maxSamplesPerStroke: Int = 1_000_000, maxSamples: Int = 4_000_000,
                maxCoordinate: Double = 1e7) {
        self.maxBytes = maxBytes
        self.maxStrokes = maxStrokes
        self.maxSamplesPerStroke = maxSamplesPerStroke
        self.maxSamples = maxSamples
        self.maxCoordinate = maxCoordinate
    }

    /// The defaults.
    public static let `default` = DecodingLimits()

    /// Throws when `byteCount` is over ``maxBytes``.
    public func checkSize(_ byteCount: Int) throws(FormatError) {
        if byteCount > maxBytes {
            throw .limitExceeded(what: "input size in bytes", limit: maxBytes, actual: byteCount)
        }
    }
}
