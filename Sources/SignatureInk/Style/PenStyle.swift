// SPDX-License-Identifier: Apache-2.0

/// Every parameter that turns pointer samples into ink: jitter filtering, curve construction, width and tapers.
///
/// Lengths are in canvas units (CSS pixels for most captures), times in milliseconds, frequencies in hertz.
/// The same style drives live drawing (``StrokeBuilder``) and the final outline (``Outliner``), so what the
/// signer saw is what is saved and rendered.
///
/// Width comes from real pressure when a sample has a pressure above zero, otherwise from the pen's speed:
/// `width = minWidth + (maxWidth - minWidth) / (1 + speed / speedAtMidWidth)`. This is signature_pad's model
/// (`max(maxWidth / (v + 1), minWidth)`) made continuous over the whole range and driven by a time-based speed
/// filter instead of a per-sample weight, so it does not depend on the device's sampling rate.
public struct PenStyle: Sendable, Hashable, Codable {
    /// Thinnest line, in canvas units, `> 0`, `<= maxWidth`; default 1.
    public var minWidth: Double
    /// Thickest line, in canvas units, `>= minWidth`; default 3 (SAP Fiori's default stroke width).
    public var maxWidth: Double
    /// Diameter of the round dot a tap leaves, in canvas units, `> 0`; `nil` (the default) means the mean of
    /// ``minWidth`` and ``maxWidth``, as signature_pad does.
    public var dotWidth: Double?
    /// Pen speed at which the velocity model gives the mean of the two widths, in canvas units per millisecond,
    /// `> 0`; default 1 (signature_pad's model is at its mid width near 0.7 px/ms with its 0.5/2.5 defaults).
    public var speedAtMidWidth: Double
    /// Time constant of the speed filter behind the velocity model, in milliseconds, `>= 0`; default 12.
    /// signature_pad weighs the newest speed by 0.7 per sample, which at its 16 ms throttle equals a time
    /// constant of about 13 ms; here the weight follows the real interval, `dt / (dt + velocitySmoothing)`.
    public var velocitySmoothing: Double
    /// Exponent applied to pressure before it is mapped to width, `> 0`; default 1 (linear). Values below 1
    /// make light strokes thicker.
    public var pressureExponent: Double
    /// Whether a sample's pressure (when above zero) sets the width; default `true`. When `false`, or when a
    /// sample has no pressure, the velocity model is used.
    public var usesPressure: Bool
    /// Length over which a stroke's start grows from ``taperFraction`` of its width to the full width, in
    /// canvas units, `>= 0`; default 2. Zero disables the start taper.
    public var startTaper: Double
    /// Length over which a stroke's end shrinks from full width to ``taperFraction`` of it, in canvas units,
    /// `>= 0`; default 6. Zero disables the end taper. Applied when the stroke is complete.
    public var endTaper: Double
    /// Width at the very tip of a taper as a fraction of the untapered width, `0...1`; default 0.4.
    public var taperFraction: Double
    /// 1 Euro filter cutoff at rest, in hertz, `> 0`; default 4. Lower removes more jitter from slow
    /// movement at the cost of lag. `.infinity` turns the jitter filter off.
    public var smoothingMinCutoff: Double
    /// 1 Euro filter speed coefficient, in hertz per (canvas unit per second), `>= 0`; default 0.1. The cutoff
    /// is `smoothingMinCutoff + smoothingBeta * speed`; the lag it leaves at high speed is about
    /// `1 / (2 * pi * smoothingBeta)` canvas units (1.6 with the default), which bounds how much a fast corner
    /// is rounded.
    public var smoothingBeta: Double
    /// 1 Euro filter cutoff for the speed estimate itself, in hertz, `> 0`; default 2.
    public var smoothingDerivativeCutoff: Double
    /// Smoothed points closer than this to the previous one are merged, in canvas units, `>= 0`; default 0.5.
    /// The raw samples keep every point; this only thins the drawn geometry.
    public var minimumSpacing: Double
    /// Largest distance the drawn curve may stray from the cubic spline through the smoothed points and the
    /// outline from a true circular arc, in canvas units, `> 0`; default 0.1. Sparse samples are subdivided
    /// until the spline is followed this closely.
    public var curveTolerance: Double

    /// Creates a style; every parameter is documented on its property.
    /// - Parameters:
    ///   - minWidth: canvas units, `> 0`, default 1.
    ///   - maxWidth: canvas units, `>= minWidth`, default 3.
    ///   - dotWidth: canvas units or `nil` for the mean width, default `nil`.
    ///   - speedAtMidWidth: canvas units per millisecond, `> 0`, default 1.
    ///   - velocitySmoothing: milliseconds, `>= 0`, default 12.
    ///   - pressureExponent: `> 0`, default 1.
    ///   - usesPressure: default `true`.
    ///   - startTaper: canvas units, `>= 0`, default 2.
    ///   - endTaper: canvas units, `>= 0`, default 6.
    ///   - taperFraction: `0...1`, default 0.4.
    ///   - smoothingMinCutoff: hertz, `> 0`, default 4.
    ///   - smoothingBeta: hertz per canvas unit per second, `>= 0`, default 0.1.
    ///   - smoothingDerivativeCutoff: hertz, `> 0`, default 2.
    ///   - minimumSpacing: canvas units, `>= 0`, default 0.5.
    ///   - curveTolerance: canvas units, `> 0`, default 0.1.
    public init(minWidth: Double = 1, maxWidth: Double = 3, dotWidth: Double? = nil,
                speedAtMidWidth: Double = 1, velocitySmoothing: Double = 12,
                pressureExponent: Double = 1, usesPressure: Bool = true,
                startTaper: Double = 2, endTaper: Double = 6, taperFraction: Double = 0.4,
                smoothingMinCutoff: Double = 4, smoothingBeta: Double = 0.1,
                smoothingDerivativeCutoff: Double = 2, minimumSpacing: Double = 0.5,
                curveTolerance: Double = 0.1) {
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.dotWidth = dotWidth
        self.speedAtMidWidth = speedAtMidWidth
        self.velocitySmoothing = velocitySmoothing
        self.pressureExponent = pressureExponent
        self.usesPressure = usesPressure
        self.startTaper = startTaper
        self.endTaper = endTaper
        self.taperFraction = taperFraction
        self.smoothingMinCutoff = smoothingMinCutoff
        self.smoothingBeta = smoothingBeta
        self.smoothingDerivativeCutoff = smoothingDerivativeCutoff
        self.minimumSpacing = minimumSpacing
        self.curveTolerance = curveTolerance
    }

    /// The default style: 1 to 3 canvas units wide, light jitter filtering, short tapers.
    public static let `default` = PenStyle()

    /// A pen of one width with no tapers: every stroke becomes a constant-width, round-capped outline.
    ///
    /// Jitter filtering and curve construction stay as in ``default``.
    /// - Parameter width: line width in canvas units, `> 0`.
    /// - Returns: a style with `minWidth == maxWidth == dotWidth == width` and both tapers off.
    public static func constant(_ width: Double) -> PenStyle {
        PenStyle(minWidth: width, maxWidth: width, dotWidth: width, usesPressure: false,
                 startTaper: 0, endTaper: 0)
    }

    /// The style with every parameter forced into its documented range (non-finite or out-of-range values
    /// replaced by the nearest valid value or the default), so that no input can make the geometry fail.
    /// - Returns: a valid style.
    public var sanitized: PenStyle {
        var s = self
        let d = PenStyle.default
        func positive(_ v: Double, _ fallback: Double) -> Double { v.isFinite && v > 0 ? v : fallback }
        func nonNegative(_ v: Double, _ fallback: Double) -> Double { v.isFinite && v >= 0 ? v : fallback }
        s.minWidth = positive(minWidth, d.minWidth)
        s.maxWidth = Swift.max(s.minWidth, positive(maxWidth, Swift.max(d.maxWidth, s.minWidth)))
        if let w = dotWidth { s.dotWidth = positive(w, (s.minWidth + s.maxWidth) / 2) }
        s.speedAtMidWidth = positive(speedAtMidWidth, d.speedAtMidWidth)
        s.velocitySmoothing = nonNegative(velocitySmoothing, d.velocitySmoothing)
        s.pressureExponent = positive(pressureExponent, d.pressureExponent)
        s.startTaper = nonNegative(startTaper, 0)
        s.endTaper = nonNegative(endTaper, 0)
        s.taperFraction = taperFraction.isFinite ? Swift.min(1, Swift.max(0, taperFraction)) : d.taperFraction
        s.smoothingMinCutoff = smoothingMinCutoff > 0 ? smoothingMinCutoff : d.smoothingMinCutoff
        s.smoothingBeta = nonNegative(smoothingBeta, d.smoothingBeta)
        s.smoothingDerivativeCutoff = positive(smoothingDerivativeCutoff, d.smoothingDerivativeCutoff)
        s.minimumSpacing = nonNegative(minimumSpacing, d.minimumSpacing)
        s.curveTolerance = positive(curveTolerance, d.curveTolerance)
        return s
    }

    /// The diameter of a tap's dot in canvas units: ``dotWidth`` or the mean of the two widths.
    public var effectiveDotWidth: Double { dotWidth ?? (minWidth + maxWidth) / 2 }
}
