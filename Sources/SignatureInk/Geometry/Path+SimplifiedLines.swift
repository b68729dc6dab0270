// SPDX-License-Identifier: Apache-2.0

extension Path {
    /// The path with each run of straight lines simplified by ``RamerDouglasPeucker``; moves, curves and closes
    /// are kept as they are. Every corner dropped from a run lies within `tolerance` of the lines that replace
    /// it, so the original path lies within `tolerance` of the result.
    ///
    /// Outlines write a line for every side point, which is what a raster fill wants; a vector output (a PDF, an
    /// SVG, a path handed to another drawing system) is smaller with its straight runs simplified:
    ///
    /// ```swift
    /// let compact = signature.outlinePath().simplifyingLines(tolerance: 0.15)
    /// ```
    /// - Parameter tolerance: largest distance of a dropped corner from the simplified run, in path units,
    ///   `>= 0`; a negative or NaN tolerance counts as 0 (only exactly collinear corners are dropped).
    /// - Returns: the simplified path.
    public func simplifyingLines(tolerance: Double) -> Path {
        var out = Path()
        out.reserveCapacity(elements.count)
        var run: [Point] = []  // the point the run starts from, then each line's end
        var indices: [Int] = []
        var stack: [Int] = []
        func flush() {
            guard run.count > 1 else { return }
            if run.count == 2 {
                out.line(to: run[1])
            } else {
                indices.removeAll(keepingCapacity: true)
                run.withUnsafeBufferPointer {
                    RamerDouglasPeucker.simplify($0, tolerance: tolerance, into: &indices, stack: &stack)
                }
                for i in indices.dropFirst() { out.line(to: run[i]) }
            }
        }
        var current = Point.zero, start = Point.zero
        for e in elements {
            switch e {
            case let .line(p):
                if run.isEmpty { run.append(current) }
                run.append(p)
                current = p
                continue
            default:
                flush()
                run.removeAll(keepingCapacity: true)
            }
            switch e {
            case let .move(p): out.move(to: p); current = p; start = p
            case let .cubic(a, b, p): out.curve(to: p, control1: a, control2: b); current = p
            case .close: out.close(); current = start
            case .line: break
            }
        }
        flush()
        return out
    }
}
