// SPDX-License-Identifier: Apache-2.0

/// The rules by which a ``StrokeBuilder`` repairs or drops faulty pointer input, and their limits.
///
/// Real devices deliver duplicates, equal or backwards timestamps, clock jumps and the odd wild point
/// (SVC2004 files have them all). The builder never crashes on them; it applies these rules, in this order,
/// to each sample of the active pointer:
/// 1. **Not finite.** A sample whose x or y is not finite is dropped. A non-finite time counts as the previous
///    sample's time. A non-finite pressure, altitude or azimuth becomes `nil`; pressure is clamped to `0...1`.
/// 2. **Time going backwards.** A sample earlier than the previous accepted one by at most ``maximumGap`` gets
///    the previous time (its position keeps its place in the stroke: the pen was there). A coalesced batch is
///    first sorted by time, keeping the order of equal times.
/// 3. **Clock jumps.** A step forwards or backwards larger than ``maximumGap`` is a jump of the device's clock,
///    not a pause: the sample is placed ``nominalInterval`` after the previous one and every later sample of
///    the stroke is shifted by the same amount, so the stroke's own rhythm is kept.
/// 4. **Duplicates.** A sample at the same position and time as the previous accepted one is dropped.
/// 5. **Wild points.** A sample too far from its predecessor to be reached at ``maximumSpeed`` (plus
///    ``maximumJump``) and too far from its successor as well, while those two are consistent with each
///    other, is dropped. A first sample too far from the second, or a last sample too far from the one
///    before, is dropped too. To decide, the builder holds each sample until the next one arrives (or the
///    stroke ends), so drawing lags the input by one sample.
public struct InputRepair: Sendable, Hashable, Codable {
    /// Largest step between two samples' times that is taken as real, in milliseconds, `> 0`; default 2000.
    /// Longer steps within a stroke are clock jumps (such as the 3e11 ms jump in the write-math test files).
    public var maximumGap: Double
    /// Interval given to a sample after a clock jump, in milliseconds, `> 0`; default 10 (SVC2004's 100 Hz).
    public var nominalInterval: Double
    /// Fastest plausible pen speed, in canvas units per millisecond, `> 0`; default 20 (about 5 m/s on a
    /// 96 dpi canvas, several times the fastest signing).
    public var maximumSpeed: Double
    /// Distance any one step may cover regardless of time, in canvas units, `>= 0`; default 50. Covers
    /// coalesced samples that share a timestamp.
    public var maximumJump: Double
    /// Whether rule 5 (wild points) applies; default `true`. Turning it off removes the one-sample lag.
    public var dropsWildPoints: Bool

    /// Creates repair rules.
    /// - Parameters:
    ///   - maximumGap: milliseconds, `> 0`, default 2000.
    ///   - nominalInterval: milliseconds, `> 0`, default 10.
    ///   - maximumSpeed: canvas units per millisecond, `> 0`, default 20.
    ///   - maximumJump: canvas units, `>= 0`, default 50.
    ///   - dropsWildPoints: default `true`.
    public init(maximumGap: Double = 2000, nominalInterval: Double = 10, maximumSpeed: Double = 20,
                maximumJump: Double = 50, dropsWildPoints: Bool = true) {
        self.maximumGap = maximumGap
        self.nominalInterval = nominalInterval
        self.maximumSpeed = maximumSpeed
        self.maximumJump = maximumJump
        self.dropsWildPoints = dropsWildPoints
    }

    /// The documented defaults.
    public static let `default` = InputRepair()

    /// Whether the pen can plausibly move from `a` to `b` in the time between them.
    @inline(__always)
    func isPlausible(_ a: InkSample, _ b: InkSample) -> Bool {
        let dx = b.x - a.x, dy = b.y - a.y
        let reach = maximumJump + maximumSpeed * Swift.max(0, Swift.abs(b.t - a.t))
        return dx * dx + dy * dy <= reach * reach
    }
}

/// How many samples a ``StrokeBuilder`` repaired or dropped, by rule, since it was created.
public struct RepairCounts: Sendable, Hashable {
    /// Samples dropped for a non-finite position.
    public var nonFinite = 0
    /// Samples whose time was moved up to the previous sample's (rule 2).
    public var backwardsTimes = 0
    /// Clock jumps absorbed (rule 3).
    public var clockJumps = 0
    /// Exact duplicates dropped (rule 4).
    public var duplicates = 0
    /// Wild points dropped (rule 5).
    public var wildPoints = 0
    /// Events ignored because another pointer was drawing, or no stroke was in progress.
    public var ignoredEvents = 0
    /// Coalesced batches that arrived out of time order and were sorted.
    public var sortedBatches = 0

    /// Creates zero counts.
    public init() {}
}
