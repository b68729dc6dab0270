// SPDX-License-Identifier: Apache-2.0

/// One pointer sample: where the pen was, when, and what the device said about it.
///
/// Samples are plain values stored contiguously in a ``Signature``; there is no per-sample object.
public struct InkSample: Sendable, Hashable, Codable {
    /// Horizontal position in canvas units.
    public var x: Double
    /// Vertical position in canvas units, growing downwards.
    public var y: Double
    /// Time in milliseconds since the signature's first sample.
    public var t: Double
    /// Normalised pen pressure in `0...1`, or `nil` when the device reports none (a mouse, most touch screens).
    public var pressure: Float?
    /// Pen altitude (tilt) in radians: `0` lying flat on the surface, `pi/2` upright; `nil` when not reported.
    public var altitude: Float?
    /// Pen azimuth in radians, clockwise from the +x axis on a y-down canvas; `nil` when not reported.
    public var azimuth: Float?

    /// Creates a sample.
    /// - Parameters:
    ///   - x: horizontal position in canvas units.
    ///   - y: vertical position in canvas units, y down.
    ///   - t: milliseconds since the signature's first sample.
    ///   - pressure: `0...1`, or `nil` when the device has no pressure.
    ///   - altitude: radians, `0...pi/2`, or `nil`.
    ///   - azimuth: radians, or `nil`.
    @inlinable
    public init(x: Double, y: Double, t: Double, pressure: Float? = nil,
                altitude: Float? = nil, azimuth: Float? = nil) {
        self.x = x
        self.y = y
        self.t = t
        self.pressure = pressure
        self.altitude = altitude
        self.azimuth = azimuth
    }

    /// The sample's position.
    @inlinable public var location: Point {
        get { Point(x, y) }
        set { x = newValue.x; y = newValue.y }
    }
}
