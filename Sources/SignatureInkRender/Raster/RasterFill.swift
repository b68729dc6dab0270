// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// An outline as a raster fill sees it: what the fill will cost, known before any pixel is allocated, and the
/// outline with the parts that lie outside the image collapsed, so that ink far beyond the image costs nothing.
///
/// ## Where a fill's time goes
/// Cairo's scan converter walks every pixel row an edge crosses and keeps the edges of each row sorted; its
/// time grows with the edge rows (each flattened edge times the rows it spans) and with how many edges share a
/// row. A normal signature crosses a few ten thousand edge rows. A pen far wider than the ink (1,000 units over a
/// 600-unit canvas, scale 16) writes an arc of thousands of pixels' radius at every turn, which Cairo flattens
/// into about a hundred edges, each spanning the image's height: a 2,000-sample zigzag made 4,000 such arcs, all
/// crossing each other row by row (16 s at 8192 pixels, 4.7 times the 1,000-sample time).
///
/// ## What is collapsed
/// A run of consecutive outline pieces (lines, or cubic curves with their control points) that lies wholly
/// beyond one side of the image, by more than a pixel, is replaced by a detour of three lines along that side,
/// two pixels out, from its start to its end. The run and the detour lie in the same half-plane outside the
/// image, a convex region, so the closed loop they make winds zero times round every point of the image: the
/// non-zero fill is unchanged. So are the pixels, but for Cairo's own sampling: a row that no edge ends in any more
/// is computed exactly rather than in fifteen sub-rows, which may move a pixel's coverage by one sub-row (17 of
/// 255 levels) where a thin stroke leaves the image beside it. A curve that passes outside a corner (its points beyond different sides) is halved
/// until each half lies beyond one side. What a very thick pen draws beyond the image then costs one line per
/// run (vertical edges along the side, which never cross) instead of its flattened arcs.
struct RasterFill {
    /// The outline pieces, in the units they were given in (the caller's transform still applies).
    var elements: ArraySlice<Path.Element>
    /// What filling them costs.
    var cost: RasterCost

    /// Sides of the image a point lies beyond: Cohen-Sutherland outcodes.
    private struct Beyond: OptionSet {
        let rawValue: UInt8
        static let left = Beyond(rawValue: 1), right = Beyond(rawValue: 2)
        static let above = Beyond(rawValue: 4), below = Beyond(rawValue: 8)
    }

    /// The margin outside the image, in pixels, within which nothing is collapsed.
    static let margin = 1.0

    /// Most halvings of a curve that passes outside a corner.
    static let maxSplits = 12

    /// Prepares `elements` for a fill into an image of `width` x `height` pixels, each point `p` landing on
    /// pixel coordinates `p * scale + offset`.
    /// - Parameter tolerance: Cairo's flattening tolerance in pixels, which sets how many edges a curve becomes.
    init(_ elements: ArraySlice<Path.Element>, scale: Double, offset: Point, width: Int, height: Int,
         tolerance: Double) {
        let w = Double(width), h = Double(height)
        @inline(__always) func beyond(_ p: Point) -> Beyond {
            let x = p.x * scale + offset.x, y = p.y * scale + offset.y
            var b: Beyond = []
            if x < -Self.margin { b.insert(.left) } else if x > w + Self.margin { b.insert(.right) }
            if y < -Self.margin { b.insert(.above) } else if y > h + Self.margin { b.insert(.below) }
            return b
        }
        // One pass in the common case: the cost, and the extent it saw, which says whether anything reaches beyond.
        let whole = RasterCost(elements, scale: scale, offset: offset, width: width, height: height, tolerance: tolerance)
        let outside = whole.minX < -Self.margin || whole.minY < -Self.margin || whole.maxX > w + Self.margin
            || whole.maxY > h + Self.margin || whole.minX.isNaN
        if outside {
            var collapsed: [Path.Element] = []
            collapsed.reserveCapacity(elements.count)
            let away = Self.margin + 1
            let detour = (left: (-away - offset.x) / scale, right: (w + away - offset.x) / scale,
                          above: (-away - offset.y) / scale, below: (h + away - offset.y) / scale)
            Self.collapse(elements, beyond: beyond, detour: detour, into: &collapsed)
            self.elements = collapsed[...]
            cost = RasterCost(self.elements, scale: scale, offset: offset, width: width, height: height,
                              tolerance: tolerance)
        } else {
            self.elements = elements
            cost = whole
        }
    }

    /// Writes `elements` into `out`, each run beyond one side replaced by one line.
    /// - Parameter detour: the lines, in the elements' units, two pixels beyond each side of the image.
    private static func collapse(_ elements: ArraySlice<Path.Element>, beyond: (Point) -> Beyond,
                                 detour: (left: Double, right: Double, above: Double, below: Double),
                                 into out: inout [Path.Element]) {
        var current = Point.zero, start = Point.zero
        // The open run: the sides every point of it (and the point before it) lies beyond, where it starts and
        // where it ends.
        var run: Beyond = [], runStart = Point.zero, runEnd = Point.zero, inRun = false
        // A run is replaced by a detour along a line two pixels beyond its side: vertical edges there never
        // cross each other and horizontal ones cross no row, so what is left of the run costs Cairo little.
        func flush() {
            guard inRun else { return }
            inRun = false
            if run.contains(.left) || run.contains(.right) {
                let x = run.contains(.left) ? detour.left : detour.right
                out.append(.line(Point(x, runStart.y)))
                out.append(.line(Point(x, runEnd.y)))
            } else {
                let y = run.contains(.above) ? detour.above : detour.below
                out.append(.line(Point(runStart.x, y)))
                out.append(.line(Point(runEnd.x, y)))
            }
            out.append(.line(runEnd))
        }
        // One piece from `current` whose points are `points` (the last is its end): it extends the run, starts
        // one, is halved (a curve round a corner), or is written as it is.
        func piece(_ element: Path.Element, points: [Point], depth: Int) {
            var sides: Beyond = [.left, .right, .above, .below]
            for p in points { sides.formIntersection(beyond(p)) }
            if inRun {
                if !run.intersection(sides).isEmpty {
                    run.formIntersection(sides)
                    runEnd = points[points.count - 1]
                    current = runEnd
                    return
                }
                flush()
            }
            let shared = beyond(current).intersection(sides)
            if !shared.isEmpty {
                run = shared
                runStart = current
                runEnd = points[points.count - 1]
                inRun = true
                current = runEnd
                return
            }
            if case let .cubic(a, b, c) = element, depth < maxSplits, !beyond(current).isEmpty,
               points.allSatisfy({ !beyond($0).isEmpty }) {
                let (first, second) = split(current, a, b, c)
                piece(.cubic(first.1, first.2, first.3), points: [first.1, first.2, first.3], depth: depth + 1)
                piece(.cubic(second.1, second.2, second.3), points: [second.1, second.2, second.3], depth: depth + 1)
                return
            }
            out.append(element)
            current = points[points.count - 1]
        }
        for e in elements {
            switch e {
            case let .move(p):
                flush()
                out.append(e)
                current = p
                start = p
            case let .line(p):
                if inRun || !beyond(p).isEmpty { piece(e, points: [p], depth: 0) } else { out.append(e); current = p }
            case let .cubic(a, b, c):
                piece(e, points: [a, b, c], depth: 0)
            case .close:
                flush()
                out.append(e)
                current = start
            }
        }
        flush()
    }

    /// De Casteljau's halving of the cubic `p0 a b c`.
    private static func split(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point)
        -> ((Point, Point, Point, Point), (Point, Point, Point, Point)) {
        let m01 = (p0 + p1) * 0.5, m12 = (p1 + p2) * 0.5, m23 = (p2 + p3) * 0.5
        let m012 = (m01 + m12) * 0.5, m123 = (m12 + m23) * 0.5
        let mid = (m012 + m123) * 0.5
        return ((p0, m01, m012, mid), (mid, m123, m23, p3))
    }
}

/// What filling an outline costs, estimated from its pieces in pixels: the edges Cairo flattens it into, and the
/// pixel rows they cross inside the image.
///
/// One work unit is about what one pixel of a coverage image costs to clear, fill and encode (3 ns on one core
/// of this project's build machines), and about a byte of memory. Measured on thick pens over zigzags of 125 to
/// 1,000 samples at scales 2 to 16, an edge row inside the image costs about 20 pixels' time, more where many
/// edges share a row (Cairo keeps each row's edges in order, and arcs that cross each other reorder them: 55 ns
/// an edge row with 630 edges a row, 110 ns with 1,530); an edge beyond the image (a detour round a run of outline
/// that lies beyond it) costs its rows without the crowding. An edge is weighted by its memory: Cairo holds about
/// 100 bytes for it.
public struct RasterCost: Sendable, Hashable {
    /// The straight edges the fill will hold once curves are flattened (estimated for curves).
    public var edges: Int
    /// The sum over the edges of the pixel rows each crosses inside the image.
    public var edgeRows: Int
    /// The part of ``edgeRows`` crossed by edges that lie beyond the image's left or right side.
    public var edgeRowsBeside: Int
    /// The image's rows, which spread the edge rows: edges that share rows cost more to keep in order.
    public var rows: Int
    /// The extent of every point and control point, in pixels (minimum above maximum when there is none, and
    /// NaN when a coordinate is not finite).
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    /// Work units an edge costs: its memory in Cairo.
    static let perEdge = 100
    /// Work units an edge costs per pixel row it crosses.
    static let perEdgeRow = 20
    /// Edges a row holds on average before keeping them in order costs as much again as walking them.
    static let crowdedRow = 240

    /// An empty fill.
    init() {
        edges = 0
        edgeRows = 0
        edgeRowsBeside = 0
        rows = 1
    }

    /// The cost of filling `elements`, placed at `p * scale + offset`, into an image of `width` x `height` pixels,
    /// curves flattened within `tolerance` pixels.
    init(_ elements: ArraySlice<Path.Element>, scale: Double, offset: Point, width: Int, height: Int,
         tolerance: Double) {
        let w = Double(width), h = Double(height)
        @inline(__always) func rowsCrossed(_ y0: Double, _ y1: Double) -> Double {
            let top = Swift.max(0, Swift.min(y0, y1)), bottom = Swift.min(h, Swift.max(y0, y1))
            return bottom > top ? bottom - top : 0
        }
        var edges = 0.0, edgeRows = 0.0, beside = 0.0
        var current = Point.zero, start = Point.zero
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        // Non-finite coordinates make this NaN, which the extent then carries.
        var finite = 0.0
        @inline(__always) func see(_ p: Point) {
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
            finite += (p.x + p.y) * 0
        }
        @inline(__always) func line(to q: Point) {
            let rows = rowsCrossed(current.y, q.y)
            edges += 1
            edgeRows += rows
            if (current.x < 0 && q.x < 0) || (current.x > w && q.x > w) { beside += rows }
            current = q
        }
        for e in elements {
            switch e {
            case let .move(p):
                current = p * scale + offset
                start = current
                see(current)
            case let .line(p):
                let q = p * scale + offset
                see(q)
                line(to: q)
            case let .cubic(a, b, c):
                let pa = a * scale + offset, pb = b * scale + offset, pc = c * scale + offset
                see(pa); see(pb); see(pc)
                // Uniform flattening within `tolerance` needs sqrt(3/4 max|second difference| / tolerance) lines.
                let d1 = (current - pa * 2 + pb).length, d2 = (pa - pb * 2 + pc).length
                let lines = (0.75 * Swift.max(d1, d2) / tolerance).squareRoot().rounded(.up)
                edges += Swift.max(1, lines.isFinite ? lines : 1e12)
                edgeRows += rowsCrossed(current.y, pa.y) + rowsCrossed(pa.y, pb.y) + rowsCrossed(pb.y, pc.y)
                current = pc
            case .close:
                line(to: start)
            }
        }
        let cap = Double(Int.max / 1024)
        func count(_ value: Double) -> Int { Int(Swift.min(value.isFinite ? value : cap, cap)) }
        self.edges = count(edges)
        self.edgeRows = count(edgeRows)
        self.edgeRowsBeside = count(beside)
        self.rows = Swift.max(1, height)
        if finite == 0 {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        } else {
            (self.minX, self.minY, self.maxX, self.maxY) = (.nan, .nan, .nan, .nan)
        }
    }

    /// Both fills, into the same image.
    static func + (a: RasterCost, b: RasterCost) -> RasterCost {
        var sum = a
        // The extent of both; NaN stays NaN (min and max would skip it).
        let unknown = a.minX.isNaN || b.minX.isNaN
        sum.minX = unknown ? .nan : Swift.min(a.minX, b.minX)
        sum.minY = unknown ? .nan : Swift.min(a.minY, b.minY)
        sum.maxX = unknown ? .nan : Swift.max(a.maxX, b.maxX)
        sum.maxY = unknown ? .nan : Swift.max(a.maxY, b.maxY)
        sum.edges = a.edges &+ b.edges
        sum.edgeRows = a.edgeRows &+ b.edgeRows
        sum.edgeRowsBeside = a.edgeRowsBeside &+ b.edgeRowsBeside
        sum.rows = Swift.max(a.rows, b.rows)
        return sum
    }

    /// The fill's work units: 100 an edge, and 20 an edge row, those inside the image once more for every 240
    /// edges a row holds on average.
    public var work: Int {
        let inside = Double(edgeRows - edgeRowsBeside)
        let crowding = inside / Double(rows) / Double(Self.crowdedRow)
        let units = Double(edges) * Double(Self.perEdge) + Double(Self.perEdgeRow) * (Double(edgeRows) + inside * crowding)
        return Int(Swift.min(units, Double(Int.max / 2)))
    }
}

/// The pixels a fill lands in: an image of `width` x `height`, each point `p` at `p * scale + offset`, flattened
/// within `tolerance` pixels.
struct RasterWindow {
    /// Cairo's default flattening tolerance, in pixels.
    static let cairoTolerance = 0.1

    var width: Int
    var height: Int
    var scale: Double
    var offset: Point
    var tolerance: Double

    /// `elements` prepared for a fill into this window.
    func fill(_ elements: ArraySlice<Path.Element>) -> RasterFill {
        RasterFill(elements, scale: scale, offset: offset, width: width, height: height, tolerance: tolerance)
    }
}
