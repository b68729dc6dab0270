// SPDX-License-Identifier: Apache-2.0

/// One point of drawn ink: a smoothed position on a stroke's centre line with its time and half-width.
///
/// Ink points are what the outline is built from. They are derived from samples (smoothed, merged where
/// closer than ``PenStyle/minimumSpacing``, subdivided along curves where samples are sparse) and are never
/// saved: the raw samples are.
public struct InkPoint: Sendable, Hashable {
    /// Horizontal position in canvas units.
    public var x: Double
    /// Vertical position in canvas units, y down.
    public var y: Double
    /// Time in milliseconds on the signature's clock (interpolated between samples for subdivided points).
    public var t: Double
    /// Half the line width at this point, in canvas units, `> 0`.
    public var radius: Double
    /// Length of the centre line from the stroke's first ink point to this one, in canvas units.
    public var distance: Double

    /// Creates an ink point.
    /// - Parameters:
    ///   - x: canvas units.
    ///   - y: canvas units, y down.
    ///   - t: milliseconds.
    ///   - radius: half-width in canvas units, `> 0`.
    ///   - distance: centre-line length from the stroke's start, canvas units, `>= 0`; default 0.
    @inlinable
    public init(x: Double, y: Double, t: Double, radius: Double, distance: Double = 0) {
        self.x = x
        self.y = y
        self.t = t
        self.radius = radius
        self.distance = distance
    }

    /// The point's position.
    @inlinable public var location: Point { Point(x, y) }
}
