// SPDX-License-Identifier: Apache-2.0

/// How much ink makes a signature: a dot, a tick or a stray touch does not.
public struct SignatureMinimums: Sendable, Hashable, Codable {
    /// Fewest samples in all strokes together, >= 1; default 10 (a tenth of a second at 100 Hz).
    public var samples: Int
    /// Shortest total ink length (the sum of the distances between consecutive samples within strokes), in
    /// canvas units, >= 0; default 40 (about a centimetre at 96 dpi).
    public var inkLength: Double
    /// Smallest extent: the longer side of the ink's bounds, in canvas units, >= 0; default 20.
    public var extent: Double
    /// Shortest time from the first sample to the last, in milliseconds, >= 0; default 100.
    public var duration: Double

    /// Creates minimums; every argument defaults to the documented default.
    public init(samples: Int = 10, inkLength: Double = 40, extent: Double = 20, duration: Double = 100) {
        self.samples = samples
        self.inkLength = inkLength
        self.extent = extent
        self.duration = duration
    }

    /// The defaults.
    public static let `default` = SignatureMinimums()
    /// No minimum at all beyond one sample.
    public static let none = SignatureMinimums(samples: 1, inkLength: 0, extent: 0, duration: 0)

    /// Why some ink is too small to be a signature.
    public enum Shortfall: Sendable, Hashable, CustomStringConvertible {
        /// Fewer samples than ``SignatureMinimums/samples``.
        case tooFewSamples(actual: Int, minimum: Int)
        /// Less ink than ``SignatureMinimums/inkLength``.
        case tooLittleInk(actual: Double, minimum: Double)
        /// Smaller than ``SignatureMinimums/extent``.
        case tooSmall(actual: Double, minimum: Double)
        /// Quicker than ``SignatureMinimums/duration``.
        case tooQuick(actual: Double, minimum: Double)

        /// The shortfall in words, for the user.
        public var description: String {
            func f(_ v: Double) -> String { String(Int(v.rounded())) }
            switch self {
            case let .tooFewSamples(a, m): return "the signature has \(a) samples; at least \(m) are needed"
            case let .tooLittleInk(a, m): return "the ink is \(f(a)) units long; at least \(f(m)) are needed"
            case let .tooSmall(a, m): return "the ink spans \(f(a)) units; at least \(f(m)) are needed"
            case let .tooQuick(a, m): return "the signature took \(f(a)) ms; at least \(f(m)) are needed"
            }
        }
    }

    /// The first minimum `signature` falls short of, or `nil` when it is enough to be a signature.
    public func shortfall(of signature: Signature) -> Shortfall? {
        let n = signature.samples.count
        if n < samples { return .tooFewSamples(actual: n, minimum: samples) }
        var length = 0.0
        for stroke in signature.strokes {
            var previous: InkSample?
            for s in stroke {
                if let p = previous { length += p.location.distance(to: s.location) }
                previous = s
            }
        }
        if length < inkLength { return .tooLittleInk(actual: length, minimum: inkLength) }
        let bounds = signature.bounds ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let span = Swift.max(bounds.width, bounds.height)
        if span < extent { return .tooSmall(actual: span, minimum: extent) }
        if signature.duration < duration { return .tooQuick(actual: signature.duration, minimum: duration) }
        return nil
    }
}
