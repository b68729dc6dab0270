// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

extension Signature {
    /// A random signature for property tests: 1...6 strokes of 1...60 samples on a random walk, with time
    /// increasing, and pressure, tilt, canvas, start time and metadata each present or not at random.
    public static func random(using rng: inout SeededRandom, maxStrokes: Int = 6, maxSamples: Int = 60) -> Signature {
        let hasPressure = Bool.random(using: &rng)
        let hasTilt = Bool.random(using: &rng)
        var strokes: [[InkSample]] = []
        var t = 0.0
        var p = Point(rng.uniform(0...600), rng.uniform(0...300))
        for _ in 0..<Int.random(in: 1...maxStrokes, using: &rng) {
            var stroke: [InkSample] = []
            for _ in 0..<Int.random(in: 1...maxSamples, using: &rng) {
                p += Point(rng.gaussian(deviation: 4), rng.gaussian(deviation: 4))
                var s = InkSample(x: p.x, y: p.y, t: t)
                if hasPressure { s.pressure = Float.random(in: 0...1, using: &rng) }
                if hasTilt {
                    s.altitude = Float.random(in: 0...1.5707964, using: &rng)
                    s.azimuth = Float.random(in: 0...6.2831855, using: &rng)
                }
                stroke.append(s)
                t += rng.uniform(1...20)
            }
            strokes.append(stroke)
            t += rng.uniform(50...900)
        }
        let canvas = Bool.random(using: &rng) ? Canvas(width: 600, height: 300) : nil
        let start: Double? = Bool.random(using: &rng) ? rng.uniform(1.6e12...1.8e12) : nil
        let metadata = Bool.random(using: &rng) ? ["device": "pen \"π\"\n\u{1}", "app": "tests"] : [:]
        return Signature(strokes: strokes, canvas: canvas, startTime: start, metadata: metadata)
    }
}
