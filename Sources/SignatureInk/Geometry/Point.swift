// SPDX-License-Identifier: Apache-2.0

/// A point or vector in canvas units, y pointing down.
public struct Point: Sendable, Hashable, Codable {
    /// Horizontal position in canvas units.
    public var x: Double
    /// Vertical position in canvas units, growing downwards.
    public var y: Double

    /// Creates a point from its coordinates in canvas units.
    @inlinable
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = Point(0, 0)

    /// Length of the vector from the origin to this point.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }

    /// Squared length; cheaper than ``length`` where only comparisons are needed.
    @inlinable public var lengthSquared: Double { x * x + y * y }

    /// The vector of length 1 in the same direction, or `nil` for the zero vector.
    @inlinable public var normalized: Point? {
        let l = length
        return l > 0 && l.isFinite ? Point(x / l, y / l) : nil
    }

    /// The vector turned by +90 degrees (clockwise on a y-down canvas).
    @inlinable public var perpendicular: Point { Point(-y, x) }

    /// Dot product.
    @inlinable public func dot(_ o: Point) -> Double { x * o.x + y * o.y }

    /// Z component of the cross product.
    @inlinable public func cross(_ o: Point) -> Double { x * o.y - y * o.x }

    /// Distance to another point.
    @inlinable public func distance(to o: Point) -> Double { (self - o).length }

    /// Linear interpolation: `self` at `t == 0`, `o` at `t == 1`.
    @inlinable public func lerp(_ o: Point, _ t: Double) -> Point {
        Point(x + (o.x - x) * t, y + (o.y - y) * t)
    }

    /// Whether both coordinates are finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static func * (s: Double, a: Point) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static func / (a: Point, s: Double) -> Point { Point(a.x / s, a.y / s) }
    @inlinable public static prefix func - (a: Point) -> Point { Point(-a.x, -a.y) }
    @inlinable public static func += (a: inout Point, b: Point) { a = a + b }
    @inlinable public static func -= (a: inout Point, b: Point) { a = a - b }
}
