// SPDX-License-Identifier: Apache-2.0

/// Why a signature could not be rendered or written.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option is out of range; `option` names it.
    case invalidOption(option: String, message: String)
    /// The output would be larger than ``RenderLimits`` allow.
    case limitExceeded(what: String, limit: Int, actual: Int)
    /// The render would cost more than ``RenderLimits/maxWork``: `work` units, `pixelWork` of them for `pixels`
    /// output pixels and the rest for a fill of `edges` outline edges crossing `edgeRows` pixel rows. Refused before
    /// any pixel is allocated.
    case overBudget(work: Int, budget: Int, pixels: Int, pixelWork: Int, edges: Int, edgeRows: Int)
    /// The render was stopped through its ``RenderStop`` before it finished.
    case stopped(RenderStop.Reason)
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
        case let .overBudget(work, budget, pixels, pixelWork, edges, edgeRows):
            // Which knob to turn: the pixels, or the outline (a pen far wider than the ink crosses every row).
            let knob = work - pixelWork > pixelWork
                ? "a thinner pen (pen-width, max-width), a smaller scale or a smaller box (width, height)"
                : "a smaller scale or a smaller box (width, height)"
            return "the render would cost \(work) work units (\(pixels) pixels; \(edges) outline edges crossing "
                + "\(edgeRows) pixel rows), over the budget of \(budget): ask for \(knob)"
        case let .stopped(reason): return "the render was stopped: \(reason)"
        case let .cairo(message): return "cairo: \(message)"
        case let .png(message): return "png: \(message)"
        case let .text(message): return "text: \(message)"
        case let .io(path, message): return "\(path): \(message)"
        }
    }
}
