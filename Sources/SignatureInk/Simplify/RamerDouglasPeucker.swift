// SPDX-License-Identifier: Apache-2.0

/// Ramer-Douglas-Peucker polyline simplification with a guaranteed maximum deviation.
///
/// Keeps the first and last point, then recursively keeps the point farthest from the segment joining the
/// kept ends of each span while that distance exceeds the tolerance. Distances are to the segment (not the
/// infinite line), so every dropped point lies within `tolerance` of the simplified polyline even where the
/// input doubles back or closes on itself. The recursion is an explicit stack visited in order (no recursion
/// limit, no marker array), and distances are compared squared, as simplify-js does.
///
/// ```swift
/// let kept = RamerDouglasPeucker.simplify(points, tolerance: 0.5)
/// ```
public enum RamerDouglasPeucker {
    /// Simplifies a polyline.
    /// - Parameters:
    ///   - points: the polyline, in canvas units.
    ///   - tolerance: largest distance of a dropped point from the result, canvas units, `>= 0`; a negative
    ///     or NaN tolerance counts as 0 (only exactly collinear points are dropped).
    /// - Returns: the kept points, in order, always including the first and last; the input itself when it
    ///   has fewer than 3 points.
    public static func simplify(_ points: [Point], tolerance: Double) -> [Point] {
        guard points.count > 2 else { return points }
        var indices: [Int] = []
        var stack: [Int] = []
        points.withUnsafeBufferPointer { simplify($0, tolerance: tolerance, into: &indices, stack: &stack) }
        return indices.map { points[$0] }
    }

    /// The indices of the points RDP keeps, in increasing order, always including `0` and `count - 1`.
    /// - Parameters:
    ///   - points: the polyline, in canvas units.
    ///   - tolerance: largest distance of a dropped point from the result, canvas units, `>= 0`.
    /// - Returns: kept indices; `[]` for no points, `[0]` for one.
    public static func simplifiedIndices(_ points: [Point], tolerance: Double) -> [Int] {
        var indices: [Int] = []
        var stack: [Int] = []
        points.withUnsafeBufferPointer { simplify($0, tolerance: tolerance, into: &indices, stack: &stack) }
        return indices
    }

    /// The allocation-free entry point: appends the kept indices to `indices`, using `stack` as scratch.
    /// Reuse both arrays across calls.
    /// - Parameters:
    ///   - points: the polyline, in canvas units.
    ///   - tolerance: largest distance of a dropped point from the result, canvas units, `>= 0`.
    ///   - indices: receives the kept indices in increasing order (appended; not cleared).
    ///   - stack: scratch storage; its contents are replaced.
    public static func simplify(_ points: UnsafeBufferPointer<Point>, tolerance: Double,
                                into indices: inout [Int], stack: inout [Int]) {
        let n = points.count
        guard n > 0 else { return }
        indices.append(0)
        guard n > 1 else { return }
        let tol2 = tolerance > 0 ? tolerance * tolerance : 0
        stack.removeAll(keepingCapacity: true)
        // Spans (first, last) to examine; the span on top is always the leftmost unexamined one.
        stack.append(0)
        stack.append(n - 1)
        while let last = stack.popLast() {
            let first = stack.removeLast()
            var worst = -1.0
            var worstIndex = first
            if last - first > 1 {
                let a = points[first], b = points[last]
                let abx = b.x - a.x, aby = b.y - a.y
                let len2 = abx * abx + aby * aby
                if len2 > 0 {
                    let inv = 1 / len2
                    for i in (first + 1)..<last {
                        let p = points[i]
                        let px = p.x - a.x, py = p.y - a.y
                        var t = (px * abx + py * aby) * inv
                        t = t < 0 ? 0 : (t > 1 ? 1 : t)
                        let dx = px - t * abx, dy = py - t * aby
                        var d2 = dx * dx + dy * dy
                        d2 = d2.isNaN ? .infinity : d2  // a non-finite point is always kept
                        if d2 > worst { worst = d2; worstIndex = i }
                    }
                } else {
                    for i in (first + 1)..<last {
                        let p = points[i]
                        let dx = p.x - a.x, dy = p.y - a.y
                        var d2 = dx * dx + dy * dy
                        d2 = d2.isNaN ? .infinity : d2
                        if d2 > worst { worst = d2; worstIndex = i }
                    }
                }
            }
            // `!(worst <= tol2)` also splits on NaN, so a non-finite point is kept rather than lost.
            if worstIndex != first && !(worst <= tol2) {
                stack.append(worstIndex)
                stack.append(last)
                stack.append(first)
                stack.append(worstIndex)
            } else {
                indices.append(last)
            }
        }
    }

    /// The largest distance from any point of `points` to the polyline through the points at `kept`
    /// (each original point measured against the kept segment that spans it).
    /// - Parameters:
    ///   - points: the original polyline.
    ///   - kept: increasing indices into `points`, including the first and last.
    /// - Returns: the deviation in canvas units; 0 when nothing was dropped.
    public static func deviation(of points: [Point], kept: [Int]) -> Double {
        var worst = 0.0
        for (a, b) in zip(kept, kept.dropFirst()) where b - a > 1 {
            for i in (a + 1)..<b {
                worst = Swift.max(worst, segmentDistance(points[i], points[a], points[b]))
            }
        }
        return worst
    }

    /// Distance from `p` to the segment `a`-`b`.
    @inlinable
    static func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let ab = b - a
        let l2 = ab.lengthSquared
        var t = l2 > 0 ? (p - a).dot(ab) / l2 : 0
        t = Swift.min(1, Swift.max(0, t))
        return (p - (a + ab * t)).length
    }
}
