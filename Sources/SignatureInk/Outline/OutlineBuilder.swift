// SPDX-License-Identifier: Apache-2.0

/// Writes the closed outline of a run of ink points into a path: side A forward, end cap, side B backward,
/// start cap; one closed sub-path.
///
/// ## Why it never shows hair, spikes, holes or darker overlaps
/// Each segment between two ink points stands for the convex hull of its two end circles (a tapered capsule).
/// The outline follows each capsule's outer tangents. Where the path turns, the outer side goes round the
/// vertex circle on a circular arc and the inner side takes the straight chord between the two tangent points.
/// Written as a sum of closed curves, that outline equals the sum of the capsule boundaries minus, at each
/// vertex, one region inside that vertex's circle; every point of a vertex circle lies in both capsules that
/// meet there, so the winding number is at least 1 wherever a capsule covers the point and 0 elsewhere. Under
/// the non-zero rule the filled shape is exactly the union of the capsules: no spikes where an offset curve
/// would fold at a sharp turn or a reversal (perfect-freehand #85), no holes, and crossings of the stroke with
/// itself fill once. Every sub-path turns the same way (from a side's normal towards the direction of travel),
/// so strokes that overlap each other also fill once.
///
/// The capsule hull needs `|r1 - r0| < length` on every segment; ``InkStream`` guarantees it.
/// Arcs are cubic Beziers (at most a quarter turn each); a join whose arc has a sagitta below the curve
/// tolerance is written as one point.
///
/// Every side point is written: the ink stream has already merged points closer than the minimum spacing, so
/// nearly collinear side points are rare (about one in eight), and testing each one would cost more than
/// filling the few extra lines. The vector writers simplify straight runs within their own tolerance.
struct OutlineBuilder: Sendable {
    /// Largest `|sin|` of the angle between a segment and its tangent normals (widths changing as fast as the
    /// segment is long); beyond it the hull is treated as if the width changed this fast.
    static let maximumTangentSine = 0.95

    /// Room an outline is written into (side A from the front, side B backwards from the middle) before it is
    /// copied into the path; kept between outlines.
    private var room: [Path.Element] = []
    /// Largest sagitta of a join written as one point instead of an arc, as estimated, canvas units: half the
    /// curve tolerance. The estimate `r |u - w|^2 / 8` is `cos^2(a/4)` times the true sagitta for a turn `a`, at
    /// least half of it up to a reversal, so the true sagitta stays within the curve tolerance.
    let joinTolerance: Double

    /// Creates a builder.
    /// - Parameter tolerance: the curve tolerance in canvas units, `> 0`.
    init(tolerance: Double) {
        joinTolerance = tolerance / 2
    }

    /// Appends the outline of `pts` (at least one point) to `path`.
    /// - Parameters:
    ///   - pts: ink points, consecutive ones at distinct positions.
    ///   - dot: whether to draw the first point as a full circle of its radius.
    ///   - flatStart: whether to end the outline at its start with the straight diameter instead of a round cap:
    ///     for a live piece that continues one already drawn with a round end cap at the same point, whose cap
    ///     and body cover that joint.
    mutating func append(_ pts: UnsafeBufferPointer<InkPoint>, dot: Bool, flatStart: Bool = false,
                         to path: inout Path) {
        let n = pts.count
        guard n > 0 else { return }
        if dot || n == 1 {
            Self.appendCircle(center: pts[0].location, radius: pts[0].radius, to: &path)
            return
        }
        // Side A goes from the front of the room, side B backwards from its top, then moves down behind side A.
        // An outline takes about 2 commands an ink point, so the room starts at 3 a point plus the caps; an
        // outline that runs out (a stroke of many sharp turns) is written again in twice the room. The room
        // never needs more than 6 a point: each vertex writes at most 3 commands a side.
        let limit = 8 * joinTolerance
        var size = 3 * n + Self.endRoom
        while true {
            if room.count < size { room = Array(repeating: .close, count: Swift.max(size, 2 * room.count)) }
            let written = room.withUnsafeMutableBufferPointer { all -> Int? in
                let base = all.baseAddress!
                return Self.writeOutline(pts, flatStart: flatStart, joinLimit: limit,
                                         front: base, top: base + size).map { $0 - base }
            }
            if let written {
                // One copy into the path: no capacity or uniqueness check per command.
                room.withUnsafeBufferPointer { path.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<written])) }
                break
            }
            size = Swift.min(2 * size, 6 * n + Self.endRoom)
        }
        // A huge stroke's room is not kept.
        if room.count > Self.keptRoom { room = [] }
    }

    /// Commands the two ends of an outline may add beyond its vertices: a move, a line and a cap of at most 4
    /// pieces on side A, a line on side B, then the start cap (at most 4 pieces) and the close; with margin.
    static let endRoom = 24
    /// Largest room kept between outlines, in commands (3.5 MiB).
    static let keptRoom = 1 << 16

    /// Writes one outline into uninitialised storage.
    /// - Parameters:
    ///   - pts: at least 2 ink points.
    ///   - joinLimit: 8 times the join tolerance.
    ///   - front: where the outline starts; side A is written from here upwards.
    ///   - top: the end of the room; side B is written from here, downwards, before it moves behind side A and
    ///     the end cap.
    /// - Returns: the end of the outline, or `nil` when the room ran out.
    @inline(__always)
    private static func writeOutline(_ pts: UnsafeBufferPointer<InkPoint>, flatStart: Bool,
                                     joinLimit limit: Double, front: UnsafeMutablePointer<Path.Element>,
                                     top: UnsafeMutablePointer<Path.Element>) -> UnsafeMutablePointer<Path.Element>? {
        let n = pts.count
        var a = front, b = top
        var p1 = pts[1].location, r1 = pts[1].radius
        var seg = segment(pts[0].location, pts[0].radius, p1, r1, previous: Point(1, 0))
        let firstA = seg.a, firstB = seg.b, firstD = seg.d
        let p0 = pts[0].location, r0 = pts[0].radius
        a.initialize(to: .move(p0 + firstA * r0))
        a += 1
        // Side B is read backwards: each of its points writes the line that arrives at the one before it.
        var previousB = p0 + firstB * r0
        // A join's sagitta r (1 - cos(a/2)) is about r |u - w|^2 / 8 for normals u, w at angle a.
        var i = 2
        while i < n {
            // Vertex i - 1 between segment i - 2 and segment i - 1; it writes at most 3 commands a side.
            if b - a < 6 { return nil }
            let p2 = pts[i].location, r2 = pts[i].radius
            let next = segment(p1, r1, p2, r2, previous: seg.d)
            let turn = seg.d.cross(next.d)
            // Side A: outer when the path turns towards side B (negative cross); a reversal counts as A.
            if (seg.a - next.a).lengthSquared * r1 <= limit {
                // A shallow join: the chord's midpoint, within the join tolerance of the arc and of the
                // tangent lines' crossing.
                a.initialize(to: .line(p1 + (seg.a + next.a) * (0.5 * r1)))
                a += 1
            } else if turn <= 0 && (seg.a.cross(next.a) <= 0 || seg.a.dot(next.a) < -0.5) {
                a.initialize(to: .line(p1 + seg.a * r1))
                a += 1
                writeArc(center: p1, radius: r1, from: seg.a, to: next.a, forward: &a)
            } else {
                a.initialize(to: .line(p1 + seg.a * r1))
                (a + 1).initialize(to: .line(p1 + next.a * r1))
                a += 2
            }
            // Side B, in forward order, written backwards.
            if (seg.b - next.b).lengthSquared * r1 <= limit {
                b -= 1
                b.initialize(to: .line(previousB))
                previousB = p1 + (seg.b + next.b) * (0.5 * r1)
            } else if turn > 0 && (next.b.cross(seg.b) <= 0 || seg.b.dot(next.b) < -0.5) {
                b -= 1
                b.initialize(to: .line(previousB))
                writeArc(center: p1, radius: r1, from: next.b, to: seg.b, backward: &b)
                previousB = p1 + next.b * r1
            } else {
                b -= 2
                b.initialize(to: .line(p1 + seg.b * r1))
                (b + 1).initialize(to: .line(previousB))
                previousB = p1 + next.b * r1
            }
            p1 = p2; r1 = r2
            seg = next
            i += 1
        }
        if b - a < endRoom { return nil }
        a.initialize(to: .line(p1 + seg.a * r1))
        a += 1
        b -= 1
        b.initialize(to: .line(previousB))
        // End cap: from side A to side B round the front.
        writeArc(center: p1, radius: r1, from: seg.a, to: seg.b, via: seg.d, forward: &a)
        // Side B backward.
        let backCount = top - b
        a.moveInitialize(from: b, count: backCount)
        a += backCount
        // Start cap: from side B to side A round the back (or the closing diameter for a flat start).
        if !flatStart { writeArc(center: p0, radius: r0, from: firstB, to: firstA, via: -firstD, forward: &a) }
        a.initialize(to: .close)
        return a + 1
    }

    /// One segment's direction and the unit normals to its outer tangent points on either side.
    struct Segment {
        var d: Point
        var a: Point
        var b: Point
    }

    @inline(__always)
    static func segment(_ p0: Point, _ r0: Double, _ p1: Point, _ r1: Double, previous: Point) -> Segment {
        let v = p1 - p0
        let len2 = v.lengthSquared
        guard len2 > 0 && len2.isFinite else {
            let n = previous.perpendicular
            return Segment(d: previous, a: n, b: -n)
        }
        let inv = 1 / len2.squareRoot()
        let d = v * inv
        var s = (r0 - r1) * inv
        s = Swift.min(maximumTangentSine, Swift.max(-maximumTangentSine, s))
        // cos = sqrt(1 - s^2); widths change slowly, so the series 1 - s^2/2 - s^4/8 (error below s^6/16,
        // 1e-9 at |s| < 0.05) usually saves the square root.
        let s2 = s * s
        let c = s2 < 0.0025 ? 1 - s2 * (0.5 + 0.125 * s2) : (1 - s2).squareRoot()
        let n = d.perpendicular
        return Segment(d: d, a: d * s + n * c, b: d * s - n * c)
    }

    /// Writes a circular arc from `center + u * radius` to `center + w * radius`, turning from a side's normal
    /// towards the direction of travel (negative cross product), as cubic Beziers of at most about 100 degrees,
    /// advancing `out` past them.
    /// - Parameters:
    ///   - via: a unit direction the arc passes through, used when the arc may exceed half a turn (caps).
    /// No trigonometric function is called: pieces are found by halving with unit bisectors and each piece's
    /// handle length `4/3 tan(angle/4) r` comes from its cosine by half-angle formulas.
    @inline(__always)
    private static func writeArc(center: Point, radius: Double, from u: Point, to w: Point, via m: Point,
                                 forward out: inout UnsafeMutablePointer<Path.Element>) {
        writeArc(center: center, radius: radius, from: u, to: m, forward: &out)
        writeArc(center: center, radius: radius, from: m, to: w, forward: &out)
    }

    /// Writes an arc of at most half a turn (in the negative sense), advancing `out` past it.
    @inline(__always)
    private static func writeArc(center: Point, radius: Double, from u: Point, to w: Point,
                                 forward out: inout UnsafeMutablePointer<Path.Element>) {
        if let m = halvingBisector(u, w) {
            out.initialize(to: arcPiece(center: center, radius: radius, from: u, to: m))
            (out + 1).initialize(to: arcPiece(center: center, radius: radius, from: m, to: w))
            out += 2
        } else {
            out.initialize(to: arcPiece(center: center, radius: radius, from: u, to: w))
            out += 1
        }
    }

    /// Writes an arc of at most half a turn (in the negative sense) below `out`, moving `out` down to its first
    /// piece, so that the pieces read forwards from `out`.
    @inline(__always)
    private static func writeArc(center: Point, radius: Double, from u: Point, to w: Point,
                                 backward out: inout UnsafeMutablePointer<Path.Element>) {
        if let m = halvingBisector(u, w) {
            out -= 2
            out.initialize(to: arcPiece(center: center, radius: radius, from: u, to: m))
            (out + 1).initialize(to: arcPiece(center: center, radius: radius, from: m, to: w))
        } else {
            out -= 1
            out.initialize(to: arcPiece(center: center, radius: radius, from: u, to: w))
        }
    }

    /// Where an arc of at most half a turn from `u` to `w` is split in two: `nil` when it is at most about
    /// 100 degrees wide, else the unit bisector on the negative side.
    @inline(__always)
    private static func halvingBisector(_ u: Point, _ w: Point) -> Point? {
        // Pieces wider than this (cosine) are halved: a cubic is then within 1e-3 of the radius of the arc.
        let widest = -0.17
        guard u.dot(w) < widest else { return nil }
        // The bisector on the negative side: the normalised sum, or the tangent for a half turn.
        let sum = u + w
        return sum.lengthSquared > 1e-12 && u.cross(w) <= 0 ? sum / sum.length
            : (sum.lengthSquared > 1e-12 ? -(sum / sum.length) : Point(u.y, -u.x))
    }

    /// One cubic for an arc of at most about 100 degrees in the negative sense.
    @inline(__always)
    private static func arcPiece(center: Point, radius: Double, from u: Point, to w: Point) -> Path.Element {
        let c = Swift.min(1, Swift.max(-1, u.dot(w)))
        let half = ((1 + c) * 0.5).squareRoot()                     // cos(a/2)
        let quarterTan = ((1 - half) / (1 + half)).squareRoot()     // tan(a/4)
        let h = 4.0 / 3.0 * quarterTan * radius
        let tu = Point(u.y, -u.x), tw = Point(w.y, -w.x)
        let a = center + u * radius, b = center + w * radius
        return .cubic(a + tu * h, b - tw * h, b)
    }

    /// Appends a full circle as its own closed sub-path, turning the same way as every outline.
    static func appendCircle(center: Point, radius: Double, to path: inout Path) {
        let u = Point(0, 1)
        path.move(to: center + u * radius)
        path.append(arcPiece(center: center, radius: radius, from: u, to: Point(1, 0)))
        path.append(arcPiece(center: center, radius: radius, from: Point(1, 0), to: Point(0, -1)))
        path.append(arcPiece(center: center, radius: radius, from: Point(0, -1), to: Point(-1, 0)))
        path.append(arcPiece(center: center, radius: radius, from: Point(-1, 0), to: u))
        path.close()
    }
}
