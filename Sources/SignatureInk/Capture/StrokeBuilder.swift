// SPDX-License-Identifier: Apache-2.0

/// Builds one stroke at a time from live pointer input: repairs the input, keeps the accepted raw samples,
/// and hands back the smoothed ink added since the last call so a view can draw incrementally.
///
/// Feed it `down`, `move`..., `up` (through ``handle(_:)`` or ``begin(_:pointer:)``, ``add(_:pointer:)``,
/// ``add(coalesced:pointer:)`` and ``end(_:pointer:)``). Only the pointer that went down draws; events of any
/// other pointer are ignored until it lifts. Faulty input is repaired or dropped by the rules of
/// ``InputRepair``. The accepted samples, in ``samples``, are what a capture session saves; they are the
/// device's own values (only repaired times differ) and never contain predicted points.
///
/// While drawing, call ``appendNewGeometry(to:)`` after each event to get a closed outline of the ink added
/// since the previous call. When the stroke has ended, ``appendOutline(to:)`` gives its final outline, the same
/// shape ``Outliner`` makes from the saved samples (the end taper appears only then).
///
/// Per sample, the builder repairs the input and stores it; the smoothing, width and curve work runs over the
/// samples stored since the last request for ink (``appendNewGeometry(to:)``, ``inkPoints``, ``end(_:pointer:)``),
/// as one run with its state in registers. The ink is the same however often it is asked for.
///
/// The builder keeps its buffers between strokes: in steady state it allocates nothing per sample.
public struct StrokeBuilder: Sendable {
    /// The pen style the ink is drawn with.
    public var style: PenStyle { stream.style }
    /// The input repair rules.
    public let repair: InputRepair
    /// The accepted, repaired samples of the current (or just ended) stroke, in order.
    public private(set) var samples: [InkSample] = []
    /// The pointer drawing now, or `nil` when no stroke is in progress.
    public private(set) var activePointer: Int?
    /// Whether the last stroke has ended and not been cleared by a new ``begin(_:pointer:)`` or ``reset()``.
    public private(set) var isFinished = false
    /// How much faulty input was repaired or dropped, by rule.
    public private(set) var repairs = RepairCounts()

    private var stream: InkStream
    private var outline: OutlineBuilder
    private var pending = InkSample(x: 0, y: 0, t: 0)   // the sample held back by rule 5
    private var hasPending = false
    private var previousX = 0.0     // position and time of the last sample accepted (pending or stored)
    private var previousY = 0.0
    private var previousT = 0.0
    private var timeOffset = 0.0
    private var inked = 0           // samples already given to the ink stream
    private var drawn = 0           // ink points already handed out by appendNewGeometry
    private var batch: [InkSample] = []

    /// Creates a builder.
    /// - Parameters:
    ///   - style: the pen style; default ``PenStyle/default``.
    ///   - repair: the input repair rules; default ``InputRepair/default``.
    public init(style: PenStyle = .default, repair: InputRepair = .default) {
        stream = InkStream(style: style)
        outline = OutlineBuilder(tolerance: stream.style.curveTolerance)
        self.repair = repair
    }

    /// Whether a stroke is in progress.
    public var isDrawing: Bool { activePointer != nil }

    /// The smoothed ink points of the current stroke so far (final once the stroke has ended).
    public var inkPoints: [InkPoint] {
        guard inked < samples.count else { return stream.points }
        // Samples not given to the stream yet: work them out on a copy.
        var copy = stream
        Self.feed(samples, from: inked, to: &copy)
        return copy.points
    }

    /// Runs the samples stored since the last call through the ink stream.
    @inline(__always)
    private mutating func updateInk() {
        guard inked < samples.count else { return }
        Self.feed(samples, from: inked, to: &stream)
        inked = samples.count
    }

    /// Gives `stream` the samples from index `start` on, as one run.
    @inline(__always)
    private static func feed(_ samples: [InkSample], from start: Int, to stream: inout InkStream) {
        samples.withUnsafeBufferPointer { stream.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start...])) }
    }

    /// Discards the current stroke and its samples, keeping the buffers.
    public mutating func reset() {
        samples.removeAll(keepingCapacity: true)
        stream.reset()
        activePointer = nil
        isFinished = false
        hasPending = false
        timeOffset = 0
        inked = 0
        drawn = 0
    }

    /// Handles one pointer event.
    /// - Parameter event: the event.
    /// - Returns: `true` when the event was used, `false` when it was ignored (another pointer is drawing, a
    ///   move or up with no stroke in progress, or a down while one is).
    @discardableResult
    public mutating func handle(_ event: PointerEvent) -> Bool {
        switch event.phase {
        case .down: return begin(event.sample, pointer: event.pointer)
        case .move: return add(event.sample, pointer: event.pointer)
        case .up: return end(event.sample, pointer: event.pointer)
        case .cancel:
            guard activePointer == event.pointer else {
                repairs.ignoredEvents += 1
                return false
            }
            reset()
            return true
        }
    }

    /// Starts a stroke with its first sample. The previous stroke's samples are discarded.
    /// - Parameters:
    ///   - sample: the pen-down sample.
    ///   - pointer: the pointer's identifier; default 0.
    /// - Returns: `false` (and nothing changes) when a stroke is already in progress.
    @discardableResult
    public mutating func begin(_ sample: InkSample, pointer: Int = 0) -> Bool {
        guard activePointer == nil else {
            repairs.ignoredEvents += 1
            return false
        }
        reset()
        activePointer = pointer
        accept(sample)
        return true
    }

    /// Adds a move sample of the drawing pointer.
    /// - Parameters:
    ///   - sample: the sample.
    ///   - pointer: the pointer's identifier; default 0.
    /// - Returns: `false` when the event was ignored (no stroke in progress or another pointer).
    @discardableResult
    @inline(__always)
    public mutating func add(_ sample: InkSample, pointer: Int = 0) -> Bool {
        guard activePointer == pointer else {
            repairs.ignoredEvents += 1
            return false
        }
        accept(sample)
        return true
    }

    /// Adds a batch of coalesced move samples of the drawing pointer (the points a platform gathered between
    /// two frames), so that no point of a fast signature is lost. A batch out of time order is sorted first.
    /// - Parameters:
    ///   - coalesced: the samples, normally in time order.
    ///   - pointer: the pointer's identifier; default 0.
    /// - Returns: `false` when the batch was ignored (no stroke in progress or another pointer).
    @discardableResult
    public mutating func add<C: Collection>(coalesced: C, pointer: Int = 0) -> Bool where C.Element == InkSample {
        guard activePointer == pointer else {
            repairs.ignoredEvents += 1
            return false
        }
        var sorted = true
        var previous = -Double.infinity
        for s in coalesced {
            if s.t < previous { sorted = false; break }
            if s.t.isFinite { previous = s.t }
        }
        if sorted {
            for s in coalesced { accept(s) }
        } else {
            repairs.sortedBatches += 1
            batch.removeAll(keepingCapacity: true)
            batch.append(contentsOf: coalesced)
            // Stable by time; a non-finite time sorts last and is repaired by rule 1.
            let order = batch.indices.sorted { i, j in
                let a = batch[i].t.isFinite ? batch[i].t : .infinity
                let b = batch[j].t.isFinite ? batch[j].t : .infinity
                return a < b || (a == b && i < j)
            }
            for i in order { accept(batch[i]) }
        }
        return true
    }

    /// Ends the stroke of the drawing pointer.
    /// - Parameters:
    ///   - sample: the pen-up sample, or `nil` when the platform gives none.
    ///   - pointer: the pointer's identifier; default 0.
    /// - Returns: `false` when ignored (no stroke in progress or another pointer).
    @discardableResult
    public mutating func end(_ sample: InkSample? = nil, pointer: Int = 0) -> Bool {
        guard activePointer == pointer else {
            repairs.ignoredEvents += 1
            return false
        }
        if let sample { accept(sample) }
        if hasPending {
            if repair.dropsWildPoints, let a = samples.last, !repair.isPlausible(a, pending) {
                repairs.wildPoints += 1
            } else {
                samples.append(pending)
            }
            hasPending = false
        }
        updateInk()
        stream.finish()
        activePointer = nil
        isFinished = true
        return true
    }

    /// Appends a closed outline of the ink added since the previous call (overlapping it by one point so the
    /// pieces join), for a live view to fill. Draws nothing when nothing was added.
    /// - Parameter path: the path to append to.
    /// - Returns: whether anything was appended.
    @discardableResult
    public mutating func appendNewGeometry(to path: inout Path) -> Bool {
        updateInk()
        let n = stream.points.count
        if isFinished && stream.isDot {
            guard drawn < 1 else { return false }
            drawn = 1
            stream.points.withUnsafeBufferPointer { outline.append($0, dot: true, to: &path) }
            return true
        }
        guard n > drawn else { return false }
        let start = Swift.max(0, drawn - 1)
        // Pieces after the first start flat: the previous piece's round end cap covers the joint.
        let flat = drawn > 0
        stream.points.withUnsafeBufferPointer { all in
            let piece = UnsafeBufferPointer(rebasing: all[start..<n])
            outline.append(piece, dot: piece.count == 1, flatStart: flat, to: &path)
        }
        drawn = n
        return true
    }

    /// Appends a short predicted continuation of the stroke, to hide input latency in a live view.
    ///
    /// The prediction extrapolates the smoothed pen along its filtered velocity for `lookahead` milliseconds
    /// (at most ``maximumPredictionLength`` canvas units) from the newest ink point, drawn as one closed
    /// capsule of the current width. It is transient: draw it on top of the live ink and replace it at the
    /// next frame. Predicted points never enter ``samples`` or ``inkPoints``.
    /// - Parameters:
    ///   - lookahead: how far ahead to predict, in milliseconds, `>= 0`; default 16 (one 60 Hz frame).
    ///   - path: the path to append to.
    /// - Returns: whether anything was appended (nothing when no stroke is in progress or the pen is still).
    @discardableResult
    public mutating func appendPredictedGeometry(lookahead: Double = 16, to path: inout Path) -> Bool {
        updateInk()
        guard isDrawing, let last = stream.points.last, lookahead > 0, lookahead.isFinite else { return false }
        var step = stream.velocity * lookahead
        let length = step.length
        guard length > 1e-9, length.isFinite else { return false }
        if length > Self.maximumPredictionLength { step = step * (Self.maximumPredictionLength / length) }
        let radius = Swift.max(last.radius, 1e-6)
        let end = last.location + step
        let tip = InkPoint(x: end.x, y: end.y, t: last.t + lookahead, radius: radius,
                           distance: last.distance + step.length)
        withUnsafeTemporaryAllocation(of: InkPoint.self, capacity: 2) { pair in
            pair.initialize(repeating: last)
            pair[1] = tip
            outline.append(UnsafeBufferPointer(pair), dot: false, to: &path)
        }
        return true
    }

    /// Longest predicted continuation, canvas units: about the distance a fast signature covers in one
    /// 60 Hz frame (3 units per millisecond for 16 ms); longer guesses show as visible overshoot.
    public static let maximumPredictionLength = 48.0

    /// Appends the final closed outline of the ended stroke: identical to what ``Outliner`` makes of
    /// ``samples``. Appends nothing while the stroke is in progress or when it has no samples.
    /// - Parameter path: the path to append one closed sub-path to.
    public mutating func appendOutline(to path: inout Path) {
        guard isFinished, !stream.points.isEmpty else { return }
        let dot = stream.isDot
        stream.points.withUnsafeBufferPointer { outline.append($0, dot: dot, to: &path) }
    }

    // MARK: - Repair

    /// Rules 1 to 4, then the wild-point hold of rule 5.
    @inline(__always)
    private mutating func accept(_ raw: InkSample) {
        guard raw.x.isFinite, raw.y.isFinite else {
            repairs.nonFinite += 1
            return
        }
        var s = raw
        Self.repairChannels(&s)
        if hasPending || !samples.isEmpty {
            let lastT = previousT
            var t = s.t.isFinite ? s.t + timeOffset : lastT
            let step = t - lastT
            if step > repair.maximumGap || step < -repair.maximumGap {
                // Rule 3: a clock jump; keep the rhythm of what follows.
                let placed = lastT + repair.nominalInterval
                timeOffset += placed - t
                t = placed
                repairs.clockJumps += 1
            } else if step < 0 {
                t = lastT
                repairs.backwardsTimes += 1
            }
            s.t = t
            if s.x == previousX && s.y == previousY && t == lastT {
                repairs.duplicates += 1
                return
            }
        } else if !s.t.isFinite {
            s.t = 0
        }
        previousX = s.x
        previousY = s.y
        previousT = s.t
        guard repair.dropsWildPoints else {
            samples.append(s)
            return
        }
        guard hasPending else {
            pending = s
            hasPending = true
            return
        }
        let p = pending
        if !repair.isPlausible(p, s) {
            if let a = samples.last {
                if !repair.isPlausible(a, p) && repair.isPlausible(a, s) {
                    // p is a spike between two consistent neighbours.
                    repairs.wildPoints += 1
                    pending = s
                    return
                }
            } else {
                // p is the first sample and s cannot follow it: p is the wild one.
                repairs.wildPoints += 1
                pending = s
                return
            }
        }
        samples.append(p)
        pending = s
    }

    /// Rule 1 for the optional channels: a non-finite value becomes `nil`, pressure is clamped to `0...1`.
    @inline(__always)
    private static func repairChannels(_ s: inout InkSample) {
        if let p = s.pressure, !(p >= 0 && p <= 1) { s.pressure = p.isFinite ? Swift.min(1, Swift.max(0, p)) : nil }
        if s.altitude != nil || s.azimuth != nil { repairAngles(&s) }
    }

    /// Rule 1 for the pen angles, which few devices report.
    private static func repairAngles(_ s: inout InkSample) {
        if let a = s.altitude, !a.isFinite { s.altitude = nil }
        if let a = s.azimuth, !a.isFinite { s.azimuth = nil }
    }
}
