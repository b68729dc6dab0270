// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk

/// What a generated signature may carry, matching what a format can hold.
struct SignatureShape {
    var pressure: PressureShape = .everySample
    var angles = false
    var canvas = false
    var startTime = true
    /// Quantum of generated times in ms: times are multiples of it, so `start + t - start` is exact.
    var timeStep = 0.25

    enum PressureShape { case none, everySample, someSamples }
}

extension SeededRandom {
    /// A random signature: 1-6 strokes of 1-40 samples, increasing times, positions within 0...2000.
    mutating func signature(_ shape: SignatureShape) -> Signature {
        var strokes: [[InkSample]] = []
        var t = 0.0
        for _ in 0..<Int.random(in: 1...6, using: &self) {
            var stroke: [InkSample] = []
            var x = Double.random(in: 0...2000, using: &self)
            var y = Double.random(in: 0...1000, using: &self)
            for _ in 0..<Int.random(in: 1...40, using: &self) {
                var s = InkSample(x: x, y: y, t: t)
                switch shape.pressure {
                case .none: break
                case .everySample: s.pressure = Float.random(in: 0.01...1, using: &self)
                case .someSamples: if Bool.random(using: &self) { s.pressure = Float.random(in: 0...1, using: &self) }
                }
                if shape.angles {
                    s.altitude = Float.random(in: 0...(Float.pi / 2), using: &self)
                    s.azimuth = Float.random(in: 0...(2 * Float.pi), using: &self)
                }
                stroke.append(s)
                x += Double.random(in: -20...20, using: &self)
                y += Double.random(in: -20...20, using: &self)
                t += Double(Int.random(in: 0...80, using: &self)) * shape.timeStep
            }
            strokes.append(stroke)
            t += Double(Int.random(in: 1...2000, using: &self)) * shape.timeStep
        }
        let canvas = shape.canvas ? Canvas(width: 2100, height: 1100, unitsPerInch: [96, 72, 25.4].randomElement(using: &self)!) : nil
        let start = shape.startTime ? 1_763_781_117_123 + Double(Int.random(in: 0...1_000_000, using: &self)) : nil
        return Signature(strokes: strokes, canvas: canvas, startTime: start)
    }
}
