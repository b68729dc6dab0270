// SPDX-License-Identifier: Apache-2.0

/// A handwritten signature: an ordered list of strokes, each an ordered list of samples.
///
/// All samples live in one contiguous array; ``strokeEnds`` marks where each stroke ends. A stroke is read
/// as an `ArraySlice` of that array, so walking a signature allocates nothing. Empty strokes are never stored.
public struct Signature: Sendable, Hashable {
    /// Every sample of every stroke, in drawing order.
    public private(set) var samples: [InkSample]
    /// For each stroke, the index in ``samples`` one past its last sample; strictly increasing.
    public private(set) var strokeEnds: [Int]
    /// The capture area, or `nil` when unknown (the ink is then laid out by its own bounds).
    public var canvas: Canvas?
    /// Absolute time of the first sample in milliseconds since 1970-01-01T00:00:00Z, or `nil` when unknown.
    public var startTime: Double?
    /// Free-form facts about the capture, such as `device` or `app`. A stroke's pen is not among them: it is in
    /// ``pens``, the one place it is kept.
    public var metadata: [String: String]
    /// The pen of each stroke as the file recorded it, in stroke order; empty (the default) when the file
    /// records none. Strokes beyond the end of the array have no recorded pen. A renderer draws a stroke with its
    /// pen unless told to override it, and the others with its own.
    public var pens: [Pen] = []

    /// Creates an empty signature.
    public init(canvas: Canvas? = nil, startTime: Double? = nil, metadata: [String: String] = [:]) {
        self.samples = []
        self.strokeEnds = []
        self.canvas = canvas
        self.startTime = startTime
        self.metadata = metadata
    }

    /// Creates a signature from strokes given as arrays of samples; empty strokes are skipped.
    public init(strokes: [[InkSample]], canvas: Canvas? = nil, startTime: Double? = nil,
                metadata: [String: String] = [:]) {
        self.init(canvas: canvas, startTime: startTime, metadata: metadata)
        samples.reserveCapacity(strokes.reduce(0) { $0 + $1.count })
        strokeEnds.reserveCapacity(strokes.count)
        for stroke in strokes { appendStroke(stroke) }
    }

    /// Appends a stroke. An empty collection adds nothing.
    public mutating func appendStroke<C: Collection>(_ stroke: C) where C.Element == InkSample {
        guard !stroke.isEmpty else { return }
        samples.append(contentsOf: stroke)
        strokeEnds.append(samples.count)
    }

    /// Appends a stroke held in an array. An empty array adds nothing. (The same as the generic method, compiled
    /// here for arrays: a decoder in another module would otherwise call the generic one unspecialised, whose first
    /// call in a process looks up the collection's associated types, a twentieth of a millisecond.)
    public mutating func appendStroke(_ stroke: [InkSample]) {
        guard !stroke.isEmpty else { return }
        samples.append(contentsOf: stroke)
        strokeEnds.append(samples.count)
    }

    /// Appends a stroke held in part of an array. An empty slice adds nothing.
    public mutating func appendStroke(_ stroke: ArraySlice<InkSample>) {
        guard !stroke.isEmpty else { return }
        samples.append(contentsOf: stroke)
        strokeEnds.append(samples.count)
    }

    /// Removes the last stroke (and its pen), returning its samples, or `nil` when there is none.
    @discardableResult
    public mutating func removeLastStroke() -> [InkSample]? {
        guard let end = strokeEnds.popLast() else { return nil }
        if pens.count > strokeEnds.count { pens.removeLast(pens.count - strokeEnds.count) }
        let start = strokeEnds.last ?? 0
        let removed = Array(samples[start..<end])
        samples.removeSubrange(start..<end)
        return removed
    }

    /// Removes every stroke and its pen, keeping canvas, start time and metadata.
    public mutating func removeAllStrokes() {
        pens.removeAll()
        samples.removeAll(keepingCapacity: true)
        strokeEnds.removeAll(keepingCapacity: true)
    }

    /// The pen stroke `index` was recorded with, or `nil` when the file recorded none for it.
    /// - Parameter index: a stroke index, `>= 0`.
    public func pen(ofStroke index: Int) -> Pen? { index < pens.count ? pens[index] : nil }

    /// Number of strokes.
    public var strokeCount: Int { strokeEnds.count }

    /// Whether the signature has no samples.
    public var isEmpty: Bool { samples.isEmpty }

    /// The range of ``samples`` that stroke `index` occupies.
    public func sampleRange(ofStroke index: Int) -> Range<Int> {
        (index == 0 ? 0 : strokeEnds[index - 1])..<strokeEnds[index]
    }

    /// The strokes, each an `ArraySlice` of ``samples``.
    public var strokes: Strokes { Strokes(signature: self) }

    /// The strokes of a signature as a random-access collection of sample slices.
    public struct Strokes: RandomAccessCollection, Sendable {
        let signature: Signature
        /// Index of the first stroke, always 0.
        public var startIndex: Int { 0 }
        /// One past the last stroke.
        public var endIndex: Int { signature.strokeEnds.count }
        /// The samples of stroke `i`.
        public subscript(i: Int) -> ArraySlice<InkSample> {
            signature.samples[signature.sampleRange(ofStroke: i)]
        }
    }

    /// The bounds of every sample position, or `nil` for an empty signature. Pen width is not included.
    public var bounds: Rect? {
        guard let first = samples.first else { return nil }
        var r = Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for s in samples {
            r.minX = Swift.min(r.minX, s.x); r.maxX = Swift.max(r.maxX, s.x)
            r.minY = Swift.min(r.minY, s.y); r.maxY = Swift.max(r.maxY, s.y)
        }
        return r
    }

    /// Milliseconds from the first sample to the last, 0 for fewer than two samples.
    public var duration: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        return Swift.max(0, last.t - first.t)
    }

    /// Whether any sample carries pressure.
    public var hasPressure: Bool { samples.contains { $0.pressure != nil } }

    /// The typical sampling rate in hertz: the inverse of the median positive interval between consecutive
    /// samples within strokes, or `nil` when no stroke has two samples with increasing time.
    public var samplingRate: Double? {
        var intervals: [Double] = []
        for stroke in strokes {
            var previous: Double?
            for s in stroke {
                if let p = previous, s.t > p { intervals.append(s.t - p) }
                previous = s.t
            }
        }
        guard !intervals.isEmpty else { return nil }
        intervals.sort()
        let median = intervals[intervals.count / 2]
        return 1000 / median
    }
}
