// SPDX-License-Identifier: Apache-2.0

/// Why a signature could not be rendered or written.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option is out of range; `option` names it.
    case invalidOption(option: String, message: String)
    /// The output would be larger than ``RenderLimits`` allow.
    case limitExceeded(what: String, limit: Int, actual: Int)
    /// Cairo reported an error status.
    case cairo(String)
    /// libpng reported an error.
    case png(String)
    /// Text could not be set: the project's fonts are missing, or Pango failed.
    case text(String)
    /// Writing the output file failed.
    case io(path: String, message: String)

    /// The error in words, naming the option, limit or file.
    public var description: String {
        switch self {
        case let .invalidOption(option, message): return "\(option): \(message)"
        case let .limitExceeded(what, limit, actual): return "\(what) \(actual) exceeds the limit of \(limit)"
        case let .cairo(message): return "cairo: \(message)"
        case let .png(message): return "png: \(message)"
        case let .text(message): return "text: \(message)"
        case let .io(path, message): return "\(path): \(message)"
        }
    }
}
