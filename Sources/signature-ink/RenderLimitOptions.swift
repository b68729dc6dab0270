// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import SignatureInkRender

/// The bounds on what one render may cost, checked before any pixel is allocated (see `RenderLimits`).
struct RenderLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-pixels"), help: ArgumentHelp(
        "Refuse to render an image of more pixels (width x height).", valueName: "n"))
    var maxPixels = RenderLimits.default.maxPixels

    @Option(name: .customLong("max-side"), help: ArgumentHelp(
        "Refuse to render an image wider or taller than this many pixels (at most 32767).", valueName: "n"))
    var maxSide = RenderLimits.default.maxSide

    @Option(name: .customLong("max-work"), help: ArgumentHelp(
        "Refuse a PNG whose estimated work (pixels plus the outline's edges and the pixel rows they cross) is larger.",
        valueName: "units"))
    var maxWork = RenderLimits.default.maxWork

    func validate() throws {
        guard maxWork > 0 else { throw ValidationError("--max-work must be > 0.") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be > 0.") }
        guard (1...RenderLimits.default.maxSide).contains(maxSide) else {
            throw ValidationError("--max-side must be 1...\(RenderLimits.default.maxSide).")
        }
    }

    /// `limits` with these flags' bounds.
    func applied(to limits: RenderLimits) -> RenderLimits {
        var out = limits
        out.maxPixels = maxPixels
        out.maxSide = maxSide
        out.maxWork = maxWork
        return out
    }
}
