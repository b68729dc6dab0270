// SPDX-License-Identifier: Apache-2.0

/// One cubic Bezier segment in canvas units.
public struct CubicSegment: Sendable, Hashable, Codable {
    /// Start point.
    public var p0: Point
    /// First control point.
    public var c1: Point
    /// Second control point.
    public var c2: Point
    /// End point.
    public var p3: Point

    /// Creates a segment from its four points.
    /// - Parameters:
    ///   - p0: start point.
    ///   - c1: first control point.
    ///   - c2: second control point.
    ///   - p3: end point.
    @inlinable
    public init(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point) {
        self.p0 = p0
        self.c1 = c1
        self.c2 = c2
        self.p3 = p3
    }

    /// The point at parameter `t`.
    /// - Parameter t: curve parameter, `0...1`.
    /// - Returns: the point on the curve.
    @inlinable
    public func point(at t: Double) -> Point {
        let m = 1 - t
        let a = m * m * m, b = 3 * m * m * t, c = 3 * m * t * t, d = t * t * t
        return Point(a * p0.x + b * c1.x + c * c2.x + d * p3.x, a * p0.y + b * c1.y + c * c2.y + d * p3.y)
    }

    /// The first derivative at `t`.
    @inlinable
    func derivative(at t: Double) -> Point {
        let m = 1 - t
        return (c1 - p0) * (3 * m * m) + (c2 - c1) * (6 * m * t) + (p3 - c2) * (3 * t * t)
    }

    /// The second derivative at `t`.
    @inlinable
    func secondDerivative(at t: Double) -> Point {
        (c2 - c1 * 2 + p0) * (6 * (1 - t)) + (p3 - c2 * 2 + c1) * (6 * t)
    }

    /// Whether the control points lie within `tolerance` of the chord, so a straight line draws the same.
    /// - Parameter tolerance: canvas units.
    /// - Returns: `true` for a segment that is straight within the tolerance.
    public func isStraight(within tolerance: Double) -> Bool {
        RamerDouglasPeucker.segmentDistance(c1, p0, p3) <= tolerance
            && RamerDouglasPeucker.segmentDistance(c2, p0, p3) <= tolerance
    }
}
