// SPDX-License-Identifier: Apache-2.0

/// The 1 Euro filter (Casiez, Roussel and Vogel, CHI 2012) on 2-D positions, driven by real timestamps.
///
/// A first-order low-pass filter whose cutoff rises with the filtered speed: `cutoff = minCutoff + beta * speed`.
/// Slow movement, where jitter shows, is smoothed strongly; fast movement, where lag shows, hardly at all. Both
/// axes share one cutoff computed from the 2-D speed, so a diagonal line is filtered like a horizontal one.
/// The smoothing factor of an interval `dt` is `dt / (dt + tau)` with `tau = 1 / (2 * pi * cutoff)`.
///
/// As in the authors' reference implementation, the speed comes from consecutive raw positions, not from the
/// last filtered one. The speed estimate, the cutoff and the smoothing factor therefore never wait on the
/// previous output, and each filtered position depends on the one before through a single multiply-add: a
/// sample costs a few nanoseconds however long the square root and the division take.
public struct OneEuroFilter: Sendable, Hashable {
    /// Cutoff at rest, in hertz, `> 0`; `.infinity` passes the input through.
    public var minCutoff: Double
    /// Speed coefficient, in hertz per (canvas unit per second), `>= 0`.
    public var beta: Double
    /// Cutoff of the speed estimate, in hertz, `> 0`.
    public var derivativeCutoff: Double
    /// The last filtered position, in canvas units.
    public private(set) var value = Point.zero
    /// The filtered velocity, in canvas units per second.
    public private(set) var velocity = Point.zero
    /// Whether the filter has seen a sample since it was created or reset.
    public private(set) var isPrimed = false
    /// The last raw position, in canvas units: the speed is estimated from raw positions.
    private(set) var previousInput = Point.zero
    // Most devices sample at a steady rate: the last interval's reciprocal and derivative factor are reused.
    private var lastInterval = -1.0
    private var lastInverse = 0.0
    private var lastDerivativeAlpha = 0.0

    /// Creates a filter.
    /// - Parameters:
    ///   - minCutoff: hertz, `> 0`; default 4 (``PenStyle/smoothingMinCutoff``).
    ///   - beta: hertz per canvas unit per second, `>= 0`; default 0.1.
    ///   - derivativeCutoff: hertz, `> 0`; default 2.
    public init(minCutoff: Double = 4, beta: Double = 0.1, derivativeCutoff: Double = 2) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// Creates a filter with a style's smoothing parameters.
    /// - Parameter style: the pen style; its `smoothing*` properties are used.
    public init(style: PenStyle) {
        self.init(minCutoff: style.smoothingMinCutoff, beta: style.smoothingBeta,
                  derivativeCutoff: style.smoothingDerivativeCutoff)
    }

    /// Forgets the past: the next sample passes through unchanged.
    public mutating func reset() {
        value = .zero
        velocity = .zero
        isPrimed = false
    }

    /// The smoothing factor for an interval and a cutoff: `dt / (dt + 1 / (2 pi fc))`.
    @inline(__always)
    static func alpha(interval dt: Double, cutoff fc: Double) -> Double {
        let x = twoPi * fc * dt
        return x / (x + 1)
    }

    /// 2 pi, written out so the core needs no Foundation.
    static let twoPi = 6.283185307179586

    /// Filters one position.
    /// - Parameters:
    ///   - p: the raw position in canvas units.
    ///   - dt: seconds since the previous sample, `> 0` (callers clamp it); ignored for the first sample.
    /// - Returns: the filtered position.
    @inline(__always)
    public mutating func filter(_ p: Point, interval dt: Double) -> Point {
        if dt != lastInterval {
            lastInterval = dt
            lastInverse = 1 / dt
            lastDerivativeAlpha = Self.alpha(interval: dt, cutoff: derivativeCutoff)
        }
        let a = smoothingFactor(p, interval: dt, inverse: lastInverse, derivativeAlpha: lastDerivativeAlpha)
        return smooth(p, factor: a)
    }

    /// The first half of filtering a position: updates the speed estimate from the raw position and returns the
    /// smoothing factor for it (1 for the first sample, which passes through). It never reads the filtered
    /// position, so the factors of a run of samples can be worked out ahead of the positions.
    /// - Parameters:
    ///   - p: the raw position in canvas units.
    ///   - dt: seconds since the previous sample, `> 0`.
    ///   - inverse: `1 / dt`.
    ///   - ad: the speed estimate's smoothing factor, `alpha(interval: dt, cutoff: derivativeCutoff)`.
    /// - Returns: the factor ``smooth(_:factor:)`` takes.
    @inline(__always)
    mutating func smoothingFactor(_ p: Point, interval dt: Double, inverse: Double, derivativeAlpha ad: Double)
        -> Double {
        guard isPrimed else {
            isPrimed = true
            previousInput = p
            velocity = .zero
            return 1
        }
        let raw = (p - previousInput) * inverse
        previousInput = p
        velocity = velocity + (raw - velocity) * ad
        let cutoff = minCutoff + beta * velocity.lengthSquared.squareRoot()
        return Self.alpha(interval: dt, cutoff: cutoff)
    }

    /// The second half: moves the filtered position towards `p` by the factor `a`.
    @inline(__always)
    mutating func smooth(_ p: Point, factor a: Double) -> Point {
        // alpha is NaN when the cutoff is infinite (filter off): pass the input through.
        value = a.isNaN || a >= 1 ? p : value + (p - value) * a
        return value
    }
}
