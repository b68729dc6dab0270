// SPDX-License-Identifier: Apache-2.0

/// An axis-aligned rectangle in canvas units.
public struct Rect: Sendable, Hashable, Codable {
    /// Left edge.
    public var minX: Double
    /// Top edge (y grows downwards).
    public var minY: Double
    /// Right edge, `>= minX`.
    public var maxX: Double
    /// Bottom edge, `>= minY`.
    public var maxY: Double

    /// Creates a rectangle from its edges; the edges are sorted so that min <= max.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = Swift.min(minX, maxX)
        self.minY = Swift.min(minY, maxY)
        self.maxX = Swift.max(minX, maxX)
        self.maxY = Swift.max(minY, maxY)
    }

    /// Creates a rectangle from its origin (top-left corner) and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    /// The smallest rectangle holding every point, or `nil` when there are none.
    public init?<S: Sequence>(bounding points: S) where S.Element == Point {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        var r = Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        while let p = it.next() { r.include(p) }
        self = r
    }

    /// Width, `maxX - minX`.
    public var width: Double { maxX - minX }
    /// Height, `maxY - minY`.
    public var height: Double { maxY - minY }
    /// The centre point.
    public var center: Point { Point((minX + maxX) / 2, (minY + maxY) / 2) }

    /// Grows the rectangle to hold `p`.
    public mutating func include(_ p: Point) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }

    /// The union of two rectangles.
    public func union(_ o: Rect) -> Rect {
        Rect(minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
             maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }

    /// The rectangle grown by `d` on every side (shrunk when `d < 0`, never below zero size).
    public func insetBy(_ d: Double) -> Rect {
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        return Rect(minX: Swift.min(minX + d, cx), minY: Swift.min(minY + d, cy),
                    maxX: Swift.max(maxX - d, cx), maxY: Swift.max(maxY - d, cy))
    }

    /// The rectangle grown by `d` on every side.
    public func outsetBy(_ d: Double) -> Rect { insetBy(-d) }

    /// Whether `p` lies inside or on the edge.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }
}
