// SPDX-License-Identifier: Apache-2.0

/// A sequence of lines and cubic Bezier curves in canvas units: the shape every output draws.
///
/// Outlines are closed sub-paths filled with the non-zero winding rule.
public struct Path: Sendable, Hashable {
    /// One drawing command.
    public enum Element: Sendable, Hashable {
        /// Starts a new sub-path at a point.
        case move(Point)
        /// A straight line to a point.
        case line(Point)
        /// A cubic Bezier curve with two control points, ending at the third point.
        case cubic(Point, Point, Point)
        /// Closes the current sub-path with a straight line back to its start.
        case close
    }

    /// The commands, in order.
    public private(set) var elements: [Element]

    /// Creates an empty path.
    public init() { elements = [] }

    /// Creates a path from commands.
    public init(_ elements: [Element]) { self.elements = elements }

    /// Whether the path has no commands.
    public var isEmpty: Bool { elements.isEmpty }

    /// Reserves room for `n` commands.
    public mutating func reserveCapacity(_ n: Int) { elements.reserveCapacity(n) }

    /// Starts a new sub-path at `p`.
    public mutating func move(to p: Point) { elements.append(.move(p)) }
    /// Adds a straight line to `p`.
    public mutating func line(to p: Point) { elements.append(.line(p)) }
    /// Adds a cubic Bezier curve with control points `c1`, `c2` ending at `p`.
    public mutating func curve(to p: Point, control1 c1: Point, control2 c2: Point) {
        elements.append(.cubic(c1, c2, p))
    }
    /// Closes the current sub-path.
    public mutating func close() { elements.append(.close) }
    /// Appends every command of another path.
    public mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }
    /// Appends one command.
    public mutating func append(_ element: Element) { elements.append(element) }
    /// Appends commands in order.
    public mutating func append<S: Sequence>(contentsOf commands: S) where S.Element == Element {
        elements.append(contentsOf: commands)
    }
    /// Removes every command, keeping the storage for reuse.
    public mutating func removeAll(keepingCapacity keep: Bool = true) {
        elements.removeAll(keepingCapacity: keep)
    }

    /// The bounds of every point and control point, or `nil` for an empty path. Since a cubic lies inside the
    /// hull of its control points, this contains the drawn shape.
    public var controlBounds: Rect? {
        var r: Rect?
        func add(_ p: Point) {
            if r == nil { r = Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y) } else { r!.include(p) }
        }
        for e in elements {
            switch e {
            case let .move(p), let .line(p): add(p)
            case let .cubic(a, b, c): add(a); add(b); add(c)
            case .close: break
            }
        }
        return r
    }
}
