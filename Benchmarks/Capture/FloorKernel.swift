// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// A reference for how fast the streaming path could be on this machine: a single loop doing only the arithmetic
/// every sample needs in any pipeline of this kind, with the settings of ``PenStyle/default``:
///
/// - the interval and its factors (one division);
/// - the 1 Euro filter (a square root and a division);
/// - the merge of points closer than the minimum spacing;
/// - the chord to the previous kept point (a square root and a division);
/// - the velocity width with its filter and the radius slope (one division);
/// - the two outline side points from the tangent normals;
/// - five stores a point.
///
/// It leaves out everything else the real path does: input repair and storage of the samples, curve
/// construction and subdivision, the start and end tapers, joins, caps and writing path commands. Its speed is a ceiling for the real path, not something the engine ships.
enum FloorKernel {
    /// Runs the kernel over one stroke and returns how many numbers it stored.
    @inline(never)
    static func run(_ stroke: UnsafeBufferPointer<InkSample>, into out: UnsafeMutablePointer<Double>) -> Int {
        guard let first = stroke.first else { return 0 }
        let style = PenStyle.default
        let twoPi = 6.283185307179586
        let minCutoff = style.smoothingMinCutoff, beta = style.smoothingBeta
        let derivativeFactor = twoPi * style.smoothingDerivativeCutoff * 0.001, tau = style.velocitySmoothing
        let minWidth = style.minWidth, range = style.maxWidth - style.minWidth
        let inverseMid = 1 / style.speedAtMidWidth, spacing2 = style.minimumSpacing * style.minimumSpacing
        var fx = first.x, fy = first.y, px = fx, py = fy, vx = 0.0, vy = 0.0
        var kx = fx, ky = fy, kr = minWidth / 2, lastT = first.t, speed = 0.0, distance = 0.0
        var o = 0
        for i in 1..<stroke.count {
            let s = stroke[i]
            var dt = s.t - lastT
            if !(dt >= 1) { dt = 1 }
            if s.t > lastT { lastT = s.t }
            let x = derivativeFactor * dt, e = dt + tau, x1 = x + 1
            let reciprocal = 1 / (dt * x1 * e)
            let inverse = reciprocal * x1 * e, ad = x * dt * e * reciprocal, weight = dt * dt * x1 * reciprocal
            vx += ((s.x - px) * inverse * 1000 - vx) * ad
            vy += ((s.y - py) * inverse * 1000 - vy) * ad
            px = s.x
            py = s.y
            let q = twoPi * (minCutoff + beta * (vx * vx + vy * vy).squareRoot()) * dt * 0.001
            let a = q / (q + 1)
            fx += (s.x - fx) * a
            fy += (s.y - fy) * a
            let dx = fx - kx, dy = fy - ky
            let d2 = dx * dx + dy * dy
            if d2 < spacing2 { continue }
            let length = d2.squareRoot()
            let inverseLength = 1 / length
            speed += (length * inverse - speed) * weight
            var r = 0.5 * (minWidth + range / (1 + speed * inverseMid))
            let limit = 0.5 * length
            r = Swift.min(Swift.max(r, kr - limit), kr + limit)
            distance += length
            let ux = dx * inverseLength, uy = dy * inverseLength
            let sine = Swift.min(0.95, Swift.max(-0.95, (kr - r) * inverseLength))
            let s2 = sine * sine
            let cosine = 1 - s2 * (0.5 + 0.125 * s2)
            out[o] = fx + (ux * sine - uy * cosine) * r
            out[o + 1] = fy + (uy * sine + ux * cosine) * r
            out[o + 2] = fx + (ux * sine + uy * cosine) * r
            out[o + 3] = fy + (uy * sine - ux * cosine) * r
            out[o + 4] = distance
            o += 5
            kx = fx
            ky = fy
            kr = r
        }
        return o
    }
}
