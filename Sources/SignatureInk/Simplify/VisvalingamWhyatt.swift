// SPDX-License-Identifier: Apache-2.0

/// Visvalingam-Whyatt polyline simplification: repeatedly drops the point whose triangle with its two
/// neighbours has the least area, with a guaranteed maximum deviation.
///
/// Points are visited in order of effective area (a binary min-heap with lazy deletion; neighbours' areas are
/// updated as points go, and an area never falls below that of a point already dropped next to it, as in the
/// original paper). Two stopping rules are available:
/// - ``simplify(_:tolerance:)``: a point is dropped only if every original point between its two remaining
///   neighbours stays within `tolerance` of the segment that replaces them, so the result is guaranteed to be
///   within `tolerance` of the input, like ``RamerDouglasPeucker``, while keeping VW's smoother choice of
///   points.
/// - ``simplify(_:minimumArea:)``: the classic rule, dropping points while their effective area is below a
///   threshold (no distance guarantee).
public enum VisvalingamWhyatt {
    /// Simplifies a polyline within a distance tolerance.
    /// - Parameters:
    ///   - points: the polyline, in canvas units.
    ///   - tolerance: largest distance of a dropped point from the result, canvas units, `>= 0`.
    /// - Returns: the kept points in order, including the first and last.
    public static func simplify(_ points: [Point], tolerance: Double) -> [Point] {
        simplifiedIndices(points, tolerance: tolerance).map { points[$0] }
    }

    /// Simplifies a polyline by the classic area threshold.
    /// - Parameters:
    ///   - points: the polyline, in canvas units.
    ///   - minimumArea: points whose effective triangle area is below this are dropped, canvas units squared.
    /// - Returns: the kept points in order, including the first and last.
    public static func simplify(_ points: [Point], minimumArea: Double) -> [Point] {
        run(points, tolerance: nil, minimumArea: minimumArea).map { points[$0] }
    }

    /// The indices kept by ``simplify(_:tolerance:)``, increasing, including `0` and `count - 1`.
    /// - Parameters:
    ///   - points: the polyline, in canvas units.
    ///   - tolerance: largest distance of a dropped point from the result, canvas units, `>= 0`.
    /// - Returns: kept indices; `[]` for no points.
    public static func simplifiedIndices(_ points: [Point], tolerance: Double) -> [Int] {
        run(points, tolerance: Swift.max(0, tolerance.isNaN ? 0 : tolerance), minimumArea: .infinity)
    }

    private struct Entry {
        var area: Double
        var index: Int32
        var stamp: Int32
    }

    private static func run(_ points: [Point], tolerance: Double?, minimumArea: Double) -> [Int] {
        let n = points.count
        guard n > 2 else { return Array(0..<n) }
        var prev = [Int32](unsafeUninitializedCapacity: n) { b, c in
            for i in 0..<n { b[i] = Int32(i - 1) }
            c = n
        }
        var next = [Int32](unsafeUninitializedCapacity: n) { b, c in
            for i in 0..<n { b[i] = Int32(i + 1) }
            c = n
        }
        var stamp = [Int32](repeating: 0, count: n)
        var alive = [Bool](repeating: true, count: n)
        var heap: [Entry] = []
        heap.reserveCapacity(n * 2)
        let tol2 = tolerance.map { $0 * $0 } ?? 0

        func area(_ a: Int, _ b: Int, _ c: Int) -> Double {
            Swift.abs((points[b] - points[a]).cross(points[c] - points[a])) * 0.5
        }
        func less(_ x: Entry, _ y: Entry) -> Bool { x.area < y.area || (x.area == y.area && x.index < y.index) }
        func push(_ e: Entry) {
            heap.append(e)
            var i = heap.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                if less(heap[i], heap[p]) { heap.swapAt(i, p); i = p } else { break }
            }
        }
        func pop() -> Entry {
            let top = heap[0]
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var i = 0
                let m = heap.count
                while true {
                    let l = 2 * i + 1, r = l + 1
                    var s = i
                    if l < m && less(heap[l], heap[s]) { s = l }
                    if r < m && less(heap[r], heap[s]) { s = r }
                    if s == i { break }
                    heap.swapAt(i, s)
                    i = s
                }
            }
            return top
        }
        /// Whether dropping `i` keeps every original point between its neighbours within the tolerance.
        func withinTolerance(_ i: Int) -> Bool {
            guard tolerance != nil else { return true }
            let a = Int(prev[i]), b = Int(next[i])
            let pa = points[a], ab = points[b] - pa
            let l2 = ab.lengthSquared
            let inv = l2 > 0 ? 1 / l2 : 0
            for k in (a + 1)..<b {
                let v = points[k] - pa
                let t = Swift.min(1, Swift.max(0, v.dot(ab) * inv))
                let d = v - ab * t
                if !(d.lengthSquared <= tol2) { return false }
            }
            return true
        }

        /// Recomputes a neighbour's effective area after a removal.
        func update(_ j: Int, floor: Double) {
            guard j > 0 && j < n - 1 && stamp[j] >= 0 else { return }
            stamp[j] += 1
            let ar = Swift.max(floor, area(Int(prev[j]), j, Int(next[j])))
            push(Entry(area: ar, index: Int32(j), stamp: stamp[j]))
        }

        for i in 1..<(n - 1) { push(Entry(area: area(i - 1, i, i + 1), index: Int32(i), stamp: 0)) }
        var floorArea = 0.0
        while !heap.isEmpty {
            let e = pop()
            let i = Int(e.index)
            guard alive[i], e.stamp == stamp[i] else { continue }
            if tolerance == nil && !(e.area < minimumArea) { break }
            if !withinTolerance(i) {
                // Kept for good: removing it would break the guarantee.
                stamp[i] = -1
                continue
            }
            floorArea = Swift.max(floorArea, e.area)
            alive[i] = false
            let a = Int(prev[i]), b = Int(next[i])
            next[a] = Int32(b)
            prev[b] = Int32(a)
            update(a, floor: floorArea)
            update(b, floor: floorArea)
        }
        var out: [Int] = []
        out.reserveCapacity(n / 2)
        var i = 0
        while i < n - 1 { out.append(i); i = Int(next[i]) }
        out.append(n - 1)
        return out
    }
}
