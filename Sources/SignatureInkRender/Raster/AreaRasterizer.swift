// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Fills outlines into an image of one-byte coverage by exact signed area: the coverage PNG's rasterizer.
///
/// ## Why not Cairo's
/// Cairo's scan converter samples every pixel row in fifteen sub-rows and keeps the edges of each sub-row sorted,
/// so its time grows with edges times sub-rows, and most with short edges: an outline of signature_pad ink is
/// thousands of edges under a pixel long. On a full name as signature_pad posts it (171 samples, 2,040 edges over
/// 547 x 113 pixels) Cairo's fill took 2.9 M instructions of a 6.4 M render (callgrind, 50 renders in one
/// process); this one takes 1.6 M (0.3 M flattening and clipping, 1.3 M filling), and the render 4.9 M.
///
/// ## How
/// Each edge adds, to the pixels of each row it crosses, the change of coverage it causes from that pixel to
/// the next: the area of the pixel to the right of the edge, less that of the pixel before. A running sum along
/// the row then gives, for every pixel, the signed area of the pixel inside the outline, counted once for each
/// time the outline winds round it. Edges are clipped to the image first (parts to the left become vertical
/// edges on the left side, which still cover what lies to their right; parts to the right, above or below
/// cover nothing inside the image and are dropped), so every coordinate is in the image and every edge's work
/// is bounded by the rows and columns it spans there.
///
/// The non-zero rule becomes `min(1, |sum|)`. That is exact wherever a pixel's parts inside the outline are all
/// wound the same number of times or a pixel holds at most one edge; where two edges of overlapping sub-paths
/// meet inside one pixel it may cover a little more than the area (two overlapping discs' rims crossing within a
/// pixel), which is also where Cairo's own sub-row sampling is off by up to 17 of 255 levels.
///
/// Rows are filled in bands of ``bandRows``, with the edges that cross each band, so the running sums stay in a
/// few kilobytes of cache and a stop is looked at between bands.
struct AreaRasterizer {
    /// An edge inside the image, in pixels, going down (`y0 < y1`); `winding` is +1 where the outline went
    /// down, -1 where it went up.
    private struct Edge {
        var x0: Double, y0: Double, x1: Double, y1: Double
        var winding: Float
    }

    /// How a fill's coverage meets what the image already holds.
    enum Blend: Equatable {
        /// Ink over what is there, at `alpha` (0...255): canvas `source-over`.
        case over(alpha: UInt8)
        /// Coverage taken away in proportion to `alpha` (0...255): canvas `destination-out`.
        case erase(alpha: UInt8)
    }

    /// Rows filled together: the running sums of one band are `bandRows` x (width + 2) floats.
    static let bandRows = 16
    /// Most lines one cubic curve is flattened into; a curve the budget admits needs far fewer.
    static let maxCurveLines = 1 << 16

    let width: Int
    let height: Int
    private var edges: [Edge] = []
    /// True when a part of an edge right of the image was dropped: coverage then reaches the right side.
    private var droppedRight = false

    /// A rasterizer for an image of `width` x `height` pixels, both >= 1.
    /// - Parameter edges: about how many edges will be added (room is kept for them).
    init(width: Int, height: Int, edges: Int = 0) {
        precondition(width >= 1 && height >= 1, "an empty image has nothing to fill")
        self.width = width
        self.height = height
        // Room for a few more than the estimate: curves bowing little get two lines, and clipping cuts some.
        self.edges.reserveCapacity(Swift.min(edges + edges / 4 + 16, 1 << 20))
    }

    /// Adds the closed outline `elements`, each point `p` landing on pixel coordinates `p * scale + offset`;
    /// curves are flattened into lines within `tolerance` pixels. A sub-path left open is closed, as a fill closes
    /// it; non-finite points end the sub-path they are in without drawing it.
    mutating func add(_ elements: ArraySlice<Path.Element>, scale: Double, offset: Point, tolerance: Double) {
        var start = Point.zero, current = Point.zero
        var open = false
        for element in elements {
            switch element {
            case let .move(p):
                if open { line(current, start) }
                start = p * scale + offset
                current = start
                open = true
            case let .line(p):
                let q = p * scale + offset
                line(current, q)
                current = q
                open = true
            case let .cubic(a, b, c):
                let pa = a * scale + offset, pb = b * scale + offset, pc = c * scale + offset
                curve(current, pa, pb, pc, tolerance: tolerance)
                current = pc
                open = true
            case .close:
                if open { line(current, start) }
                current = start
                open = false
            }
        }
        if open { line(current, start) }
    }

    /// Flattens the cubic `p0 p1 p2 p3` into equal steps of its parameter, `sqrt(3/4 max|second difference| /
    /// tolerance)` of them, and puts back the area the chords cut off.
    ///
    /// Chords through points of a curve lie inside its bend: along a round cap or a dot they cut off about 2/3 of
    /// their sagitta times their length, 4.6 % of a 2.5-pixel dot at Cairo's default tolerance of 0.1, where a
    /// canvas fills the true circle. So each point between the ends is moved outwards, at right angles to the
    /// chord of its neighbours, by as much as gives the polygon back the area between each chord and its piece
    /// of curve (4/3 of the triangle the piece's middle makes with the chord, Archimedes' measure of a parabola,
    /// within 1 % of a circle's segment at these angles); the two end chords' areas go to their inner
    /// neighbours. The points then stand within the tolerance of the curve on either side of it, and the area is
    /// the curve's: that dot, in 12 lines, within 0.1 % of its area, where 28 lines at a tolerance of 0.01 kept
    /// it within 0.9 % without the correction. A curve that bows less than an eighth of the tolerance from its
    /// one chord is that chord.
    private mutating func curve(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double) {
        // A curve wholly outside the image, or above, below or right of it, covers nothing there.
        let lowY = Swift.min(p0.y, p1.y, p2.y, p3.y), highY = Swift.max(p0.y, p1.y, p2.y, p3.y)
        let lowX = Swift.min(p0.x, p1.x, p2.x, p3.x)
        if !(highY > 0 && lowY < Double(height) && lowX < Double(width)) { return }
        let d1 = (p0 - p1 * 2 + p2).length, d2 = (p1 - p2 * 2 + p3).length
        let bow = 0.75 * Swift.max(d1, d2)
        var steps = (bow / tolerance).squareRoot().rounded(.up)
        guard steps.isFinite else { return line(p0, p3) }
        if steps <= 1 {
            if !(bow > tolerance / 8) { return line(p0, p3) }
            steps = 2
        }
        let n = Int(Swift.min(steps, Double(Self.maxCurveLines)))
        let halfStep = 0.5 / Double(n)
        @inline(__always) func at(_ k: Int) -> Point {
            let t = Double(k) * halfStep, u = 1 - t
            return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
        }
        // The signed area between the piece of curve from `a` through `m` to `b` and its chord.
        @inline(__always) func bulge(_ a: Point, _ m: Point, _ b: Point) -> Double { (m - a).cross(b - a) * (2.0 / 3) }
        // Farthest a point is moved: twice the tolerance (a cusp's neighbours can ask for more).
        let reach = 2 * tolerance
        var before = p0, point = at(2)
        var bulgeBefore = bulge(p0, at(1), point)
        var drawn = p0
        for i in 1..<n {
            let after = i == n - 1 ? p3 : at(2 * i + 2)
            let bulgeAfter = bulge(point, at(2 * i + 1), after)
            var area = (bulgeBefore + bulgeAfter) / 2
            if i == 1 { area += bulgeBefore / 2 }
            if i == n - 1 { area += bulgeAfter / 2 }
            // Moving the point by d changes the polygon's area by cross(d, after - before) / 2.
            let u = after - before, uu = u.lengthSquared
            var moved = point
            if uu > 0 {
                var d = Point(u.y, -u.x) * (2 * area / uu)
                let dd = d.lengthSquared
                if dd > reach * reach { d = d * (reach / dd.squareRoot()) }
                moved = point + d
            }
            line(drawn, moved)
            drawn = moved
            before = point
            point = after
            bulgeBefore = bulgeAfter
        }
        line(drawn, p3)
    }

    /// Adds the line from `a` to `b`, clipped to the image: above, below and to the right it covers nothing;
    /// to the left it is moved onto the left side, where it covers what lies to its right as before. Inlined into
    /// ``add(_:scale:offset:tolerance:)`` and the curves' flattening, which call it for every edge.
    @inline(__always)
    private mutating func line(_ a: Point, _ b: Point) {
        guard a.y != b.y, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
        let winding: Float = a.y < b.y ? 1 : -1
        let (top, bottom) = a.y < b.y ? (a, b) : (b, a)
        let h = Double(height), w = Double(width)
        // Most edges lie inside the image: kept as they are, without the cuts below.
        if top.y >= 0, bottom.y <= h, Swift.min(top.x, bottom.x) >= 0, Swift.max(top.x, bottom.x) < w {
            edges.append(Edge(x0: top.x, y0: top.y, x1: bottom.x, y1: bottom.y, winding: winding))
            return
        }
        if bottom.y <= 0 || top.y >= h { return }
        // Clipped to the rows, then cut where it crosses the image's sides.
        let slope = (bottom.x - top.x) / (bottom.y - top.y)
        let y0 = Swift.max(top.y, 0), y1 = Swift.min(bottom.y, h)
        let x0 = top.y < 0 ? top.x - top.y * slope : top.x
        let x1 = bottom.y > h ? top.x + (h - top.y) * slope : bottom.x
        guard y1 > y0 else { return }
        // Where it crosses the left side and the right side, if it does, in order down the edge.
        @inline(__always) func yAt(_ side: Double) -> Double { y0 + (y1 - y0) * (side - x0) / (x1 - x0) }
        let crossesLeft = (x0 < 0) != (x1 < 0), crossesRight = (x0 < w) != (x1 < w)
        switch (crossesLeft, crossesRight) {
        case (false, false):
            piece(x0, y0, x1, y1, winding)
        case (true, false):
            let y = yAt(0)
            piece(x0, y0, 0, y, winding); piece(0, y, x1, y1, winding)
        case (false, true):
            let y = yAt(w)
            piece(x0, y0, w, y, winding); piece(w, y, x1, y1, winding)
        case (true, true):
            let (first, second) = x0 < x1 ? (0.0, w) : (w, 0.0)
            let ya = yAt(first), yb = yAt(second)
            piece(x0, y0, first, ya, winding); piece(first, ya, second, yb, winding); piece(second, yb, x1, y1, winding)
        }
    }

    /// Keeps a piece of a clipped edge that lies on one side of each of the image's left and right sides: one to
    /// the right is dropped, one to the left goes onto the left side.
    @inline(__always)
    private mutating func piece(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ winding: Float) {
        let w = Double(width)
        // Rounding may put a cut a hair outside the rows; a coordinate made of infinities is no edge.
        let ya = Swift.max(ya, 0), yb = Swift.min(yb, Double(height))
        guard yb > ya, (xa + xb).isFinite else { return }
        if xa + xb >= 2 * w {
            droppedRight = true
            return
        }
        let x0 = Swift.min(Swift.max(xa, 0), w), x1 = Swift.min(Swift.max(xb, 0), w)
        edges.append(Edge(x0: x0, y0: ya, x1: x1, y1: yb, winding: winding))
    }

    /// Columns a touched-cell flag stands for.
    private static let chunk = 8

    /// Fills what was added into `image` (`height` rows of `width` bytes, `stride` apart), blended as `blend` says,
    /// looking at `stop` between bands of rows.
    /// - Parameter blank: whether every pixel of `image` is 0 before the fill (a new coverage image, painted over):
    ///   the pixels are then written without being read, and a stretch inside the ink eight at a time. The bytes
    ///   are the same either way. Default `false`.
    func fill(into image: UnsafeMutablePointer<UInt8>, stride: Int, blend: Blend, blank: Bool = false,
              stop: RenderStop? = nil) throws(RenderError) {
        guard !edges.isEmpty else { return }
        try fill(Sweep(self), sums: Sums(width: width), until: height, into: image, firstRow: 0, stride: stride,
                 blend: blend, blank: blank, stop: stop)
    }

    /// A fill made down the image a part at a time (``fill(_:sums:until:into:firstRow:stride:blend:blank:stop:)``),
    /// so that the image need not be held whole: the edges in the order of the bands they start in, and those
    /// crossing the band reached.
    final class Sweep {
        /// `order[starts[b]..<starts[b + 1]]` are the edges that start in band `b`.
        fileprivate let starts: [Int]
        fileprivate let order: [Int32]
        /// The edges that reach into the next band.
        fileprivate var active: [Int32] = []
        /// The next band to fill.
        fileprivate var band = 0
        fileprivate var sinceCheck = 0

        /// The start of a fill of `rasterizer`'s edges, at the top of its image.
        init(_ rasterizer: AreaRasterizer) {
            // Edges sorted by their first band, so each band takes on the edges that start in it.
            let bandCount = (rasterizer.height + AreaRasterizer.bandRows - 1) / AreaRasterizer.bandRows
            var starts = [Int](repeating: 0, count: bandCount + 1)
            for e in rasterizer.edges { starts[Int(e.y0) / AreaRasterizer.bandRows + 1] += 1 }
            for b in 0..<bandCount { starts[b + 1] += starts[b] }
            var order = [Int32](repeating: 0, count: rasterizer.edges.count)
            var next = starts
            for (i, e) in rasterizer.edges.enumerated() {
                let b = Int(e.y0) / AreaRasterizer.bandRows
                order[next[b]] = Int32(i)
                next[b] += 1
            }
            self.starts = starts
            self.order = order
        }
    }

    /// The running sums of one band of rows `width` pixels wide, and a flag for every `chunk` columns of a row that
    /// an edge wrote to: the running sum is constant across the others, so they are skipped (no ink) or filled
    /// alike (inside the ink). Each band leaves them cleared, so fills of the same width may share them. Plain
    /// allocations, not arrays, so that the loops work on locals.
    final class Sums {
        fileprivate let acc: UnsafeMutablePointer<Float>
        fileprivate let flags: UnsafeMutablePointer<UInt8>
        fileprivate let rowLength: Int
        fileprivate let chunks: Int

        /// Cleared sums for images `width` pixels wide.
        init(width: Int) {
            rowLength = width + 2
            chunks = (rowLength + AreaRasterizer.chunk - 1) / AreaRasterizer.chunk
            acc = .allocate(capacity: AreaRasterizer.bandRows * rowLength)
            acc.initialize(repeating: 0, count: AreaRasterizer.bandRows * rowLength)
            flags = .allocate(capacity: AreaRasterizer.bandRows * chunks)
            flags.initialize(repeating: 0, count: AreaRasterizer.bandRows * chunks)
        }

        deinit {
            acc.deallocate()
            flags.deallocate()
        }
    }

    /// Fills the rows from where `sweep` stands down to row `end` (a multiple of ``bandRows``, or the height), and
    /// moves it there: row `y` is the `width` bytes at `image + (y - firstRow) * stride`, for the rows from
    /// `firstRow` to `end`. Filling the image in parts, each part's rows handed over in turn, gives the bytes of
    /// ``fill(into:stride:blend:blank:stop:)``.
    /// - Parameters:
    ///   - sweep: a sweep of this rasterizer's edges (``Sweep/init(_:)``).
    ///   - sums: the running sums, for this rasterizer's width.
    ///   - firstRow: the row at `image`: where the sweep stands, or above it.
    ///   - blank: whether these rows are all 0 before the fill, as for ``fill(into:stride:blend:blank:stop:)``.
    /// - Returns: the rows it may have written to (the others are as they were); empty when it wrote none.
    @discardableResult
    func fill(_ sweep: Sweep, sums: Sums, until end: Int, into image: UnsafeMutablePointer<UInt8>, firstRow: Int,
              stride: Int, blend: Blend, blank: Bool, stop: RenderStop? = nil) throws(RenderError) -> Range<Int> {
        var written = end..<end
        precondition(sums.rowLength == width + 2, "sums for another width")
        let rowLength = sums.rowLength, chunks = sums.chunks
        let acc = sums.acc, flags = sums.flags
        let edges = self.edges
        let bandCount = sweep.starts.count - 1
        precondition(sweep.band * Self.bandRows >= firstRow, "the sweep is above the rows it was given")
        precondition(end % Self.bandRows == 0 || end == height, "row \(end) does not end a band")
        while sweep.band < bandCount, sweep.band * Self.bandRows < end {
            let band = sweep.band
            sweep.band += 1
            let top = band * Self.bandRows, bottom = Swift.min(height, top + Self.bandRows)
            for k in sweep.starts[band]..<sweep.starts[band + 1] { sweep.active.append(sweep.order[k]) }
            if sweep.active.isEmpty { continue }
            sweep.sinceCheck += sweep.active.count
            if sweep.sinceCheck >= 1 << 14 {
                sweep.sinceCheck = 0
                try stop?.check()
            }
            var lowestRow = bottom, highestRow = top
            var kept = 0
            for k in 0..<sweep.active.count {
                let index = sweep.active[k]
                let e = edges[Int(index)]
                Self.accumulate(e, top: top, bottom: bottom, into: acc, flags: flags, rowLength: rowLength,
                                chunks: chunks)
                lowestRow = Swift.min(lowestRow, Swift.max(top, Int(e.y0)))
                highestRow = Swift.max(highestRow, Swift.min(bottom, Int(e.y1) + 1))
                // Edges that go on below the band stay active.
                if e.y1 > Double(bottom) {
                    sweep.active[kept] = index
                    kept += 1
                }
            }
            sweep.active.removeLast(sweep.active.count - kept)
            if lowestRow < highestRow {
                written = written.isEmpty ? lowestRow..<highestRow
                    : Swift.min(written.lowerBound, lowestRow)..<Swift.max(written.upperBound, highestRow)
            }
            // Two copies of the rows' loop, each with its own `blank`, so that each is compiled for it.
            if blank, case .over = blend {
                for row in lowestRow..<highestRow {
                    Self.resolve(acc + (row - top) * rowLength, flags: flags + (row - top) * chunks,
                                 width: width, into: image + (row - firstRow) * stride, blend: blend, blank: true)
                }
            } else {
                for row in lowestRow..<highestRow {
                    Self.resolve(acc + (row - top) * rowLength, flags: flags + (row - top) * chunks,
                                 width: width, into: image + (row - firstRow) * stride, blend: blend, blank: false)
                }
            }
        }
        return written
    }

    /// Adds the part of `e` between rows `top` and `bottom` to the running sums of the band starting at `top`,
    /// and flags the chunks of columns it wrote to.
    @inline(__always)
    private static func accumulate(_ e: Edge, top: Int, bottom: Int, into acc: UnsafeMutablePointer<Float>,
                                   flags: UnsafeMutablePointer<UInt8>, rowLength: Int, chunks: Int) {
        let ya = Swift.max(e.y0, Double(top)), yb = Swift.min(e.y1, Double(bottom))
        guard yb > ya else { return }
        let dxdy = (e.x1 - e.x0) / (e.y1 - e.y0)
        var x = e.x0 + (ya - e.y0) * dxdy
        var y = ya
        var row = Int(ya)
        var base = acc + (row - top) * rowLength
        var flagRow = flags + (row - top) * chunks
        let limit = Double(rowLength - 2)
        while y < yb {
            let yNext = Swift.min(Double(row + 1), yb)
            let xNext = Swift.min(Swift.max(x + dxdy * (yNext - y), 0), limit)
            let d = Float(yNext - y) * e.winding
            let left = Swift.min(x, xNext), right = Swift.max(x, xNext)
            // Both are >= 0: truncation is the floor (without a call to the C library's floor and ceil).
            let i0 = Int(left), rightFloor = Int(right)
            let i1 = rightFloor &+ (Double(rightFloor) < right ? 1 : 0)
            let leftFloor = Double(i0), rightCeil = Double(i1)
            if i1 <= i0 + 1 {
                // Within one pixel: the part right of the edge's middle, and the full step in the next.
                let middle = Float((left + right) / 2 - leftFloor)
                base[i0] += d - d * middle
                base[i0 + 1] += d * middle
                flagRow[i0 / chunk] = 1
                flagRow[(i0 + 1) / chunk] = 1
            } else {
                // Across several pixels: the edge's x is spread evenly over [left, right].
                let s = Float(1 / (right - left))
                let f0 = Float(left - leftFloor), f1 = Float(right - rightCeil + 1)
                let a0 = 0.5 * s * (1 - f0) * (1 - f0), am = 0.5 * s * f1 * f1
                base[i0] += d * a0
                if i1 == i0 + 2 {
                    base[i0 + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - f0)
                    base[i0 + 1] += d * (a1 - a0)
                    let ds = d * s
                    var i = i0 + 2
                    while i < i1 - 1 { base[i] += ds; i += 1 }
                    let a2 = a1 + Float(i1 - i0 - 3) * s
                    base[i1 - 1] += d * (1 - a2 - am)
                }
                base[i1] += d * am
                for c in (i0 / chunk)...(i1 / chunk) { flagRow[c] = 1 }
            }
            x = xNext
            y = yNext
            row += 1
            base += rowLength
            flagRow += chunks
        }
    }

    /// A running sum this close to zero is no coverage (under a 4,000th of a level): it is set to zero so that
    /// rounding errors do not carry along the row.
    private static let negligible: Float = 0x1p-20

    /// Turns one row of sums into coverage, blends it into the row's `width` bytes at `out`, and clears the sums
    /// and flags for the next band.
    /// - Parameter blank: whether the row's bytes are all 0 and `blend` paints over: each pixel's value is then its
    ///   coverage alone (the same arithmetic with nothing under it), written without reading the pixel, and a stretch
    ///   of `chunk` columns that no edge wrote to, which has one value, is stored at once.
    @inline(__always)
    private static func resolve(_ sums: UnsafeMutablePointer<Float>, flags: UnsafeMutablePointer<UInt8>, width: Int,
                                into out: UnsafeMutablePointer<UInt8>, blend: Blend, blank: Bool) {
        var running: Float = 0
        let alpha: Float, erases: Bool
        switch blend {
        case let .over(a): (alpha, erases) = (Float(a) / 255, false)
        case let .erase(a): (alpha, erases) = (Float(a) / 255, true)
        }
        let fresh = blank
        // `c` of the pixel at `i` blended in: over, `c + dst (1 - c)`; erasing, `dst (1 - c)`. Rounded to the
        // nearest byte by adding 1.5 x 2^23, which leaves the integer in the float's low mantissa bits.
        // Over nothing, `c + 0 (1 - c)` is `c` to the bit (c is in 0...1), without the multiplication by 0.
        @inline(__always) func value(_ coverage: Float, over dst: Float) -> UInt8 {
            let c = Swift.min(1, Swift.abs(coverage)) * alpha
            let v = (fresh ? c * 255 : erases ? dst * (1 - c) : c * 255 + dst * (1 - c)) + 12_582_912
            return UInt8(truncatingIfNeeded: v.bitPattern)
        }
        @inline(__always) func put(_ coverage: Float, _ i: Int) {
            out[i] = value(coverage, over: fresh ? 0 : Float(out[i]))
        }
        var column = 0, c = 0
        let rowChunks = (width + 2 + chunk - 1) / chunk
        while column < width {
            // Outside the ink, eight chunks no edge wrote to are passed over at once.
            if running == 0 && c + 8 <= rowChunks && UnsafeRawPointer(flags + c).loadUnaligned(as: UInt64.self) == 0 {
                column += 8 * chunk
                c += 8
                continue
            }
            let end = Swift.min(column + chunk, width)
            if flags[c] != 0 {
                flags[c] = 0
                for i in column..<end {
                    running += sums[i]
                    sums[i] = 0
                    put(running, i)
                }
                if Swift.abs(running) < negligible { running = 0 }
            } else if running != 0 {
                if fresh && end - column == chunk {
                    let v = UInt64(value(running, over: 0)) &* 0x0101_0101_0101_0101
                    UnsafeMutableRawPointer(out + column).storeBytes(of: v, as: UInt64.self)
                } else {
                    for i in column..<end { put(running, i) }
                }
            }
            column = end
            c += 1
        }
        // Edges end up to two columns past the last pixel: their sums are cleared, not drawn.
        for i in width..<(width + 2) { sums[i] = 0 }
        while c < rowChunks {
            flags[c] = 0
            c += 1
        }
    }
}
