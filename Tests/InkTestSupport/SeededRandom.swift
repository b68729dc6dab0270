// SPDX-License-Identifier: Apache-2.0
import RealModule

/// A small, fast, seeded generator (SplitMix64) so property tests replay exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed gives the same sequence.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform `Double` in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// A normally distributed value (Box-Muller) with the given mean and standard deviation.
    public mutating func gaussian(mean: Double = 0, deviation: Double = 1) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne...1, using: &self)
        let u2 = Double.random(in: 0...1, using: &self)
        return mean + deviation * (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * .pi * u2)
    }
}
