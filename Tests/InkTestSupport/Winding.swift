// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// Point-in-shape tests for closed polygons, as the non-zero fill rule decides them.
public enum Winding {
    /// The winding number of closed polygons around `q` (each polygon closes from its last point to its first):
    /// non-zero inside the shape they fill.
    public static func number(_ polys: [[Point]], _ q: Point) -> Int {
        var w = 0
        for poly in polys {
            guard poly.count > 1 else { continue }
            for i in 0..<poly.count {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                if a.y <= q.y {
                    if b.y > q.y && (b - a).cross(q - a) > 0 { w += 1 }
                } else if b.y <= q.y && (b - a).cross(q - a) < 0 {
                    w -= 1
                }
            }
        }
        return w
    }
}
