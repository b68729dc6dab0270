// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk

/// SplitMix64: a small seeded generator so random tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
}

/// Seeded random strokes shaped like handwriting: a wandering pen with turning, speed changes, the odd sharp
/// corner and reversal, sampled at a random device rate.
enum RandomInk {
    static func stroke(seed: UInt64, count: Int? = nil, pressure: Bool = false) -> [InkSample] {
        var g = SeededGenerator(seed: seed)
        let n = count ?? Int(g.range(2, 200))
        let dt = [4.0, 8, 10, 16, 40][Int(g.next() % 5)]
        var p = Point(g.range(50, 550), g.range(50, 250))
        var heading = g.range(0, 2 * Double.pi)
        var speed = g.range(0.05, 2)  // units per ms
        var t = 0.0
        var out: [InkSample] = []
        for i in 0..<n {
            let pr: Float? = pressure ? Float(0.2 + 0.8 * g.unit()) : nil
            out.append(InkSample(x: p.x, y: p.y, t: t, pressure: pr))
            if g.unit() < 0.05 {
                heading += g.range(2.2, 3.14)  // sharp corner or reversal
            } else {
                heading += g.range(-0.5, 0.5)
            }
            speed = min(3, max(0.02, speed * g.range(0.7, 1.4)))
            p = p + Point(cos(heading), sin(heading)) * (speed * dt) + Point(g.range(-0.3, 0.3), g.range(-0.3, 0.3))
            t += dt
            _ = i
        }
        return out
    }
}

/// The real ink in `Tests/Fixtures/realink/`, decoded into signatures.
enum RealInk {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/realink")

    static func json(_ relative: String) -> Any? {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(relative)) else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }

    static func number(_ v: Any?) -> Double? {
        if let n = v as? NSNumber { return n.doubleValue }
        if let s = v as? String { return Double(s) }
        return nil
    }

    /// write-math (hwrt): `[[{x, y, time}]]`.
    static func hwrt(_ name: String) -> Signature? {
        guard let strokes = json("hwrt/\(name)") as? [[[String: Any]]] else { return nil }
        let t0 = strokes.first?.first.flatMap { number($0["time"]) } ?? 0
        return Signature(strokes: strokes.map { s in
            s.map { InkSample(x: number($0["x"]) ?? .nan, y: number($0["y"]) ?? .nan,
                              t: (number($0["time"]) ?? .nan) - t0) }
        })
    }

    /// signature_pad `toData()`.
    static func signaturePad(_ name: String) -> Signature? {
        guard let groups = json("signature-pad/\(name)") as? [[String: Any]] else { return nil }
        let first = (groups.first?["points"] as? [[String: Any]])?.first
        let t0 = first.flatMap { number($0["time"]) } ?? 0
        return Signature(strokes: groups.map { g in
            ((g["points"] as? [[String: Any]]) ?? []).map {
                InkSample(x: number($0["x"]) ?? .nan, y: number($0["y"]) ?? .nan,
                          t: (number($0["time"]) ?? .nan) - t0,
                          pressure: number($0["pressure"]).map { Float($0) })
            }
        })
    }

    /// Wacom Universal Ink Model 3.0 JSON: delta-coded channels per stroke.
    static func wacom(_ name: String, maxStrokes: Int = .max) -> Signature? {
        guard let root = json("wacom-uim/\(name)") as? [String: Any],
              let input = root["inputData"] as? [String: Any],
              let ctx = input["inputContextData"] as? [String: Any],
              let sensorContexts = ctx["sensorContexts"] as? [[String: Any]],
              let sensorData = input["sensorData"] as? [[String: Any]] else { return nil }
        var kinds: [String: (String, Double)] = [:]
        for sc in sensorContexts {
            for cc in (sc["sensorChannelsContext"] as? [[String: Any]]) ?? [] {
                for ch in (cc["channels"] as? [[String: Any]]) ?? [] {
                    guard let id = ch["id"] as? String, let type = ch["type"] as? String else { continue }
                    let precision = number(ch["precision"]) ?? 0
                    kinds[id] = (String(type.split(separator: "/").last ?? ""), pow(10, precision))
                }
            }
        }
        var strokes: [[InkSample]] = []
        var t0: Double?
        for stroke in sensorData.prefix(maxStrokes) {
            let base = number(stroke["timestamp"]) ?? 0
            if t0 == nil { t0 = base }
            var channels: [String: [Double]] = [:]
            for dc in (stroke["dataChannels"] as? [[String: Any]]) ?? [] {
                guard let id = dc["sensorChannelID"] as? String, let (kind, scale) = kinds[id],
                      let values = dc["values"] as? [Any] else { continue }
                var sum = 0.0
                channels[kind] = values.map { sum += number($0) ?? 0; return sum / scale }
            }
            guard let xs = channels["X"], let ys = channels["Y"] else { continue }
            let ts = channels["Timestamp"] ?? []
            let ps = channels["Pressure"] ?? []
            var samples: [InkSample] = []
            for i in 0..<min(xs.count, ys.count) {
                samples.append(InkSample(
                    x: xs[i], y: ys[i], t: base - (t0 ?? 0) + (i < ts.count ? ts[i] : 0),
                    pressure: i < ps.count ? Float(ps[i]) : nil))
            }
            strokes.append(samples)
        }
        return Signature(strokes: strokes)
    }

    static let hwrtFiles = ["97705.json", "292934.json", "293035.json", "293036.json"]
    static let corruptHwrtFiles = ["97705-dupe-time.json", "97705-low-time.json", "97705-wild-point.json"]
    static let wacomFiles = ["Value-of-Ink-1.json", "Digital-Ink-is-processable-1.json", "Digital-Ink-1.json",
                             "Hello-World-1.json", "Cell-Structure-1.json"]

    /// Every clean real signature (Wacom files limited to their first strokes to keep tests quick).
    static func all(wacomStrokes: Int = 60) -> [(String, Signature)] {
        var out: [(String, Signature)] = []
        for f in hwrtFiles { if let s = hwrt(f) { out.append((f, s)) } }
        for f in ["face.derived.json", "square.derived.json"] { if let s = signaturePad(f) { out.append((f, s)) } }
        for f in wacomFiles { if let s = wacom(f, maxStrokes: wacomStrokes) { out.append((f, s)) } }
        return out
    }
}

/// Geometry helpers for checking outlines.
enum Geometry {
    /// The path as closed polygons, cubics cut into `pieces` lines each.
    static func polygons(_ path: Path, pieces: Int = 8) -> [[Point]] {
        var out: [[Point]] = []
        var current: [Point] = []
        for e in path.elements {
            switch e {
            case let .move(p):
                if !current.isEmpty { out.append(current) }
                current = [p]
            case let .line(p):
                current.append(p)
            case let .cubic(c1, c2, p):
                let p0 = current.last ?? p
                for i in 1...pieces {
                    let t = Double(i) / Double(pieces), m = 1 - t
                    current.append(p0 * (m * m * m) + c1 * (3 * m * m * t) + c2 * (3 * m * t * t) + p * (t * t * t))
                }
            case .close:
                if !current.isEmpty { out.append(current) }
                current = []
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Signed area (shoelace) of one polygon.
    static func area(_ poly: [Point]) -> Double {
        var a = 0.0
        for i in 0..<poly.count { a += poly[i].cross(poly[(i + 1) % poly.count]) }
        return a / 2
    }

    /// Signed distance from `q` to the union of tapered capsules of the ink points: negative inside.
    static func capsuleDistance(_ pts: [InkPoint], _ q: Point) -> Double {
        var best = Double.infinity
        if pts.count == 1 { return q.distance(to: pts[0].location) - pts[0].radius }
        for i in 0..<(pts.count - 1) {
            let a = pts[i], b = pts[i + 1]
            let reach = max(a.radius, b.radius)
            // Quick reject by the segment's bounding box.
            if q.x < min(a.x, b.x) - reach - 2 || q.x > max(a.x, b.x) + reach + 2 ||
                q.y < min(a.y, b.y) - reach - 2 || q.y > max(a.y, b.y) + reach + 2 { continue }
            // f(t) = |q - c(t)| - r(t) is convex: ternary search.
            var lo = 0.0, hi = 1.0
            func f(_ t: Double) -> Double {
                a.location.lerp(b.location, t).distance(to: q) - (a.radius + (b.radius - a.radius) * t)
            }
            for _ in 0..<60 {
                let m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3
                if f(m1) < f(m2) { hi = m2 } else { lo = m1 }
            }
            best = min(best, f((lo + hi) / 2), f(0), f(1))
        }
        return best
    }

    /// Distance from `q` to the polyline through the ink points.
    static func polylineDistance(_ pts: [Point], _ q: Point) -> Double {
        if pts.count == 1 { return q.distance(to: pts[0]) }
        var best = Double.infinity
        for i in 0..<(pts.count - 1) {
            let a = pts[i], b = pts[i + 1], ab = b - a
            let l2 = ab.lengthSquared
            let t = l2 > 0 ? min(1, max(0, (q - a).dot(ab) / l2)) : 0
            best = min(best, q.distance(to: a + ab * t))
        }
        return best
    }
}
