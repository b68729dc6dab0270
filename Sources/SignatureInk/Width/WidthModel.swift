// SPDX-License-Identifier: Apache-2.0

import RealModule

/// Turns pressure or pen speed into a line width, and shapes the ends of a stroke with tapers.
///
/// With pressure (a sample whose pressure is above zero, when ``PenStyle/usesPressure`` is set):
/// `width = minWidth + (maxWidth - minWidth) * pressure^pressureExponent`. Without it, from the speed of the
/// smoothed pen, filtered with a time constant: `width = minWidth + (maxWidth - minWidth) / (1 + v / speedAtMidWidth)`.
/// A pressure of exactly zero counts as "no pressure": mice and most touch screens report 0 (signature_pad's
/// data does), and a real pen that touches the surface reports more.
public struct WidthModel: Sendable, Hashable {
    /// The style the widths come from.
    public let style: PenStyle
    /// The filtered speed, in canvas units per millisecond.
    public private(set) var speed: Double = 0
    private var primed = false
    private let law: Law
    // The last interval and its filter weight and reciprocal: steady sampling reuses them.
    private var lastInterval = -1.0
    private var lastWeight = 0.0
    private var lastInverse = 0.0

    /// Creates a model for a style.
    /// - Parameter style: the pen style; it should be ``PenStyle/sanitized``.
    public init(style: PenStyle) {
        self.style = style
        law = Law(style: style)
    }

    /// The width law of a style in the few numbers the per-sample path needs.
    struct Law: Sendable, Hashable {
        let minWidth: Double
        let range: Double
        let inverseMidSpeed: Double
        let usesPressure: Bool
        let pressureExponent: Double

        init(style: PenStyle) {
            minWidth = style.minWidth
            range = style.maxWidth - style.minWidth
            inverseMidSpeed = 1 / style.speedAtMidWidth
            usesPressure = style.usesPressure
            pressureExponent = style.pressureExponent
        }

        /// The width for a filtered speed (canvas units per millisecond) and a sample's pressure.
        @inline(__always)
        func width(speed: Double, pressure: Float?) -> Double {
            if usesPressure, let p = pressure, p > 0 {
                let pc = Double(Swift.min(p, 1))
                let shaped = pressureExponent == 1 ? pc : WidthModel.power(pc, pressureExponent)
                return minWidth + range * shaped
            }
            return minWidth + range / (1 + speed * inverseMidSpeed)
        }
    }

    /// Forgets the filtered speed, ready for a new stroke.
    public mutating func reset() {
        speed = 0
        primed = false
    }

    /// The width for the next point of a stroke.
    /// - Parameters:
    ///   - distance: canvas units moved since the previous point, `>= 0` (0 for the first point).
    ///   - interval: milliseconds since the previous point, `> 0`.
    ///   - pressure: the sample's pressure in `0...1`, or `nil`.
    /// - Returns: the width in canvas units, in `minWidth...maxWidth`.
    @inline(__always)
    public mutating func width(distance: Double, interval: Double, pressure: Float?) -> Double {
        if interval != lastInterval {
            lastInterval = interval
            lastInverse = 1 / interval
            lastWeight = interval / (interval + style.velocitySmoothing)
        }
        let v = distance * lastInverse
        if primed {
            speed += (v - speed) * lastWeight
        } else {
            primed = true
        }
        return law.width(speed: speed, pressure: pressure)
    }

    /// `x^e` for `x` in `0...1` without Foundation: `exp(e * log(x))` through RealModule.
    static func power(_ x: Double, _ e: Double) -> Double {
        x <= 0 ? 0 : Double.exp(e * Double.log(x))
    }

    /// The factor a taper applies at a distance from the stroke's end: `fraction` at the end, rising smoothly
    /// (a smoothstep) to 1 at `length`.
    /// - Parameters:
    ///   - distance: canvas units from the end of the stroke, `>= 0`.
    ///   - length: the taper length in canvas units; `<= 0` gives 1.
    ///   - fraction: the factor at the very end, `0...1`.
    /// - Returns: a factor in `fraction...1`.
    @inline(__always)
    public static func taper(distance: Double, length: Double, fraction: Double) -> Double {
        guard length > 0, distance < length else { return 1 }
        let u = Swift.max(0, distance / length)
        let s = u * u * (3 - 2 * u)
        return fraction + (1 - fraction) * s
    }
}
