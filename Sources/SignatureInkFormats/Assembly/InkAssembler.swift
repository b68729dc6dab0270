// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Collects the samples a decoder reads, checks them against the limits and the rules below, repairs what
/// can be repaired, and builds the `Signature`.
///
/// Every decoder goes through here, so every format treats bad values the same way:
/// - a NaN or infinite value: a ``FormatError/field(path:message:)`` error naming the value;
/// - a coordinate beyond ``DecodingLimits/maxCoordinate``: an error;
/// - a negative timestamp, or one beyond ``maxTimestamp`` (year 5138): an error;
/// - a timestamp earlier than the previous one in the same stroke: raised to the previous one (reported);
/// - a jump of more than ``maxGapInStroke`` (one hour) inside a stroke: an error, the file is corrupt;
/// - pressure outside `0...1`: clamped into it (reported);
/// - an empty stroke: skipped (reported);
/// - a stroke that starts before the signature's first sample: its early samples moved to time 0 (reported);
/// - a start time (a format's time base plus the first sample's time) before 1970 or beyond ``maxTimestamp``:
///   an error.
///
/// Times are given in milliseconds on the format's own clock. The first sample becomes time 0; when its
/// clock time is at least ``epochThreshold`` it is taken as milliseconds since the Unix epoch and becomes
/// `Signature.startTime`.
struct InkAssembler {
    /// Timestamps at or above this many milliseconds (1973-03-03) are read as epoch milliseconds; smaller
    /// ones as a device clock with an unknown origin (SVC2004 files count from the tablet driver's start).
    static let epochThreshold = 1e11
    /// The largest accepted clock time in milliseconds, about the year 5138: anything later is corrupt.
    static let maxTimestamp = 1e14
    /// The largest gap between two samples of one stroke, in milliseconds (one hour): a pen does not stay
    /// down that long, so a larger gap means a corrupt timestamp (hwrt's `97705-low-time.json` has 3e11).
    static let maxGapInStroke = 3_600_000.0
    /// The canvas resolutions accepted, in units per inch: from a unit of 1000 inches to one of 1/1,000,000
    /// inch (device units go to about 5080 per inch; metres are 0.0254). Anything else is corrupt, and would
    /// make a vector output's physical size overflow.
    static let unitsPerInchRange = 0.001...1_000_000.0

    let limits: DecodingLimits
    private(set) var samples: [InkSample] = []
    private(set) var ends: [Int] = []
    private var strokeStart = 0
    private var emptyStrokes = 0
    private var raisedTimes = 0
    private var clampedPressures = 0
    /// Facts the decoder assumed, for the user.
    var assumptions: [String] = []

    init(limits: DecodingLimits) {
        self.limits = limits
    }

    /// Checks a sample count against the limits, then reserves room for that many more samples, or for
    /// `plausible` when a file's own claim could be a lie (a 20-byte file declaring four million samples).
    mutating func reserve(_ count: Int, atMost plausible: Int = .max) throws(FormatError) {
        if count > limits.maxSamples {
            throw .limitExceeded(what: "sample count", limit: limits.maxSamples, actual: count)
        }
        samples.reserveCapacity(samples.count + max(0, min(count, plausible)))
    }

    /// Adds a sample to the current stroke.
    /// - Parameters:
    ///   - x, y: position in canvas units, y down.
    ///   - t: clock time in milliseconds.
    ///   - pressure: raw normalised pressure (clamped into `0...1` here), or `nil`.
    ///   - altitude, azimuth: radians, or `nil`.
    ///   - path: where the sample is in the file, such as `[2].points[5]` or `line 7`; built only on error.
    mutating func add(x: Double, y: Double, t: Double, pressure: Double? = nil, altitude: Double? = nil,
                      azimuth: Double? = nil, path: @autoclosure () -> String) throws(FormatError) {
        let inStroke = samples.count - strokeStart
        if inStroke >= limits.maxSamplesPerStroke {
            throw .limitExceeded(what: "samples in stroke \(ends.count)", limit: limits.maxSamplesPerStroke,
                                 actual: inStroke + 1)
        }
        if samples.count >= limits.maxSamples {
            throw .limitExceeded(what: "sample count", limit: limits.maxSamples, actual: samples.count + 1)
        }
        try checkCoordinate(x, "x", path)
        try checkCoordinate(y, "y", path)
        guard t.isFinite else { throw .field(path: path(), message: "time \(t) is not a finite number") }
        guard t >= 0 else { throw .field(path: path(), message: "time \(t) ms is negative") }
        guard t <= Self.maxTimestamp else {
            throw .field(path: path(), message: "time \(t) ms is beyond the year 5000 (limit \(Self.maxTimestamp))")
        }
        var time = t
        if inStroke > 0 {
            let previous = samples[samples.count - 1].t
            if time < previous {
                time = previous
                raisedTimes += 1
            } else if time - previous > Self.maxGapInStroke {
                throw .field(path: path(), message: "time jumps by \(time - previous) ms inside a stroke "
                             + "(limit \(Int(Self.maxGapInStroke)) ms): the timestamp is corrupt")
            }
        }
        var sample = InkSample(x: x, y: y, t: time)
        if let p = pressure {
            guard p.isFinite else { throw .field(path: path(), message: "pressure \(p) is not a finite number") }
            if p < 0 || p > 1 { clampedPressures += 1 }
            sample.pressure = Float(min(1, max(0, p)))
        }
        if let a = altitude {
            guard Float(a).isFinite else { throw .field(path: path(), message: "altitude \(a) is not a finite angle") }
            sample.altitude = Float(a)
        }
        if let a = azimuth {
            guard Float(a).isFinite else { throw .field(path: path(), message: "azimuth \(a) is not a finite angle") }
            sample.azimuth = Float(a)
        }
        samples.append(sample)
    }

    private func checkCoordinate(_ v: Double, _ name: String, _ path: () -> String) throws(FormatError) {
        guard v.isFinite else { throw .field(path: path(), message: "\(name) \(v) is not a finite number") }
        guard abs(v) <= limits.maxCoordinate else {
            throw .field(path: path(), message: "\(name) \(v) exceeds the coordinate limit \(limits.maxCoordinate)")
        }
    }

    /// Ends the current stroke; an empty one is skipped and counted.
    mutating func endStroke() throws(FormatError) {
        guard samples.count > strokeStart else {
            emptyStrokes += 1
            return
        }
        if ends.count >= limits.maxStrokes {
            throw .limitExceeded(what: "stroke count", limit: limits.maxStrokes, actual: ends.count + 1)
        }
        ends.append(samples.count)
        strokeStart = samples.count
    }

    /// Number of strokes ended so far (empty ones not counted).
    var strokeCount: Int { ends.count }

    /// Changes every sample's position, for formats that flip or move their coordinates.
    mutating func transformPositions(_ body: (inout InkSample) -> Void) {
        for i in samples.indices { body(&samples[i]) }
    }

    /// Drops pressure from every sample, for formats whose all-zero pressure means "no pressure".
    mutating func removePressure() {
        for i in samples.indices { samples[i].pressure = nil }
    }

    /// The bounds of the positions so far, or `nil` when there is none.
    var bounds: Rect? {
        guard let first = samples.first else { return nil }
        var r = Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for s in samples {
            r.minX = min(r.minX, s.x); r.maxX = max(r.maxX, s.x)
            r.minY = min(r.minY, s.y); r.maxY = max(r.maxY, s.y)
        }
        return r
    }

    /// Ends the last stroke, moves the time origin to the first sample and builds the signature.
    /// - Parameters:
    ///   - metadata: facts to keep in `Signature.metadata`.
    ///   - canvas: the capture area, if the format says.
    ///   - timeBase: epoch milliseconds that the clock times count from, when the file says (an InkML
    ///     timestamp); the start time is then `timeBase` plus the first sample's clock time.
    ///   - timesKnown: `false` when the decoder made the times up, so no capture date is guessed.
    /// - Returns: the signature and every assumption and repair, in words.
    mutating func finish(metadata: [String: String] = [:], canvas: Canvas? = nil, timeBase: Double? = nil,
                         timesKnown: Bool = true) throws(FormatError) -> (Signature, [String]) {
        if samples.count > strokeStart { try endStroke() }
        var notes = assumptions
        var startTime: Double?
        if let origin = samples.first?.t {
            if let timeBase {
                let start = timeBase + origin
                guard start >= 0, start <= Self.maxTimestamp else {
                    throw .field(path: "", message: "the start time \(start) ms is outside 0...\(Self.maxTimestamp) "
                                 + "milliseconds since 1970 (up to the year 5138)")
                }
                startTime = start
            } else if timesKnown {
                if origin >= Self.epochThreshold {
                    startTime = origin
                } else {
                    notes.append("timestamps are a device clock, not epoch milliseconds: the capture date is unknown")
                }
            }
            var early = 0
            for i in samples.indices {
                let t = samples[i].t - origin
                if t < 0 { early += 1 }
                samples[i].t = max(0, t)
            }
            if early > 0 {
                notes.append("\(early) sample(s) earlier than the first sample were moved to time 0")
            }
        }
        if raisedTimes > 0 {
            notes.append("\(raisedTimes) backwards timestamp(s) were raised to the previous sample's time")
        }
        if clampedPressures > 0 {
            notes.append("\(clampedPressures) pressure value(s) outside 0...1 were clamped into it")
        }
        if emptyStrokes > 0 {
            notes.append("\(emptyStrokes) empty stroke(s) were skipped")
        }
        var signature = Signature(canvas: canvas, startTime: startTime, metadata: metadata)
        var start = 0
        for end in ends {
            signature.appendStroke(samples[start..<end])
            start = end
        }
        return (signature, notes)
    }
}
