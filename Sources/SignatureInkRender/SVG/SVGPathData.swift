// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Writes a ``Path`` as compact SVG path data: coordinates rounded to a fixed number of decimals, relative
/// commands (`m l h v c z`), repeated command letters left out, and separators only where a number would
/// otherwise run into the previous one.
///
/// Coordinates are rounded as absolute positions and written as differences of rounded positions, in whole
/// multiples of the precision, so rounding errors never accumulate along a path: every point is within half
/// a step per axis of where it should be.
struct SVGPathData {
    /// Digits after the decimal point, 0...4.
    var decimals: Int

    /// The size of one rounding step in path units.
    var step: Double { 1 / scale }
    private var scale: Double { [1.0, 10, 100, 1000, 10000][decimals] }

    /// Creates a writer.
    /// - Parameter decimals: digits after the decimal point, clamped to 0...4; default 1 (0.05 units at most
    ///   off per axis).
    init(decimals: Int = 1) { self.decimals = Swift.min(4, Swift.max(0, decimals)) }

    /// The path data of `path`. Lines that round to zero length are left out, except right after a move, where
    /// one keeps a stroked dot visible.
    func encode(_ path: Path) -> String {
        var out = ""
        out.reserveCapacity(path.elements.count * 8)
        var current = (x: 0, y: 0), start = (x: 0, y: 0)
        var lastCommand: Character = " "
        var lastNumberHasDot = false
        var afterMove = false
        var lastNumber: Int?

        func ticks(_ p: Point) -> (x: Int, y: Int) {
            let x = (p.x * scale).rounded(), y = (p.y * scale).rounded()
            // Non-finite or absurd coordinates cannot be written; pin them so the output stays valid.
            let limit = 1e15
            return (Int(x.isFinite ? Swift.max(-limit, Swift.min(limit, x)) : 0),
                    Int(y.isFinite ? Swift.max(-limit, Swift.min(limit, y)) : 0))
        }
        func command(_ c: Character) {
            // After `m` further pairs are implicit `l`; any other command repeats itself.
            let implicit = c == lastCommand || (c == "l" && lastCommand == "m")
            if !implicit { out.append(c); lastNumber = nil; lastNumberHasDot = false }
            lastCommand = c
        }
        func number(_ n: Int) {
            let s = format(n)
            if lastNumber != nil, let f = s.first, f != "-", !(f == "." && lastNumberHasDot) { out.append(" ") }
            out += s
            lastNumber = n
            lastNumberHasDot = s.contains(".")
        }

        for element in path.elements {
            switch element {
            case let .move(p):
                let t = ticks(p)
                command("m")
                number(t.x - current.x); number(t.y - current.y)
                current = t; start = t
                afterMove = true
            case let .line(p):
                let t = ticks(p)
                let dx = t.x - current.x, dy = t.y - current.y
                if dx == 0 && dy == 0 && !afterMove { continue }
                if dy == 0 && dx != 0 { command("h"); number(dx) }
                else if dx == 0 && dy != 0 { command("v"); number(dy) }
                else { command("l"); number(dx); number(dy) }
                current = t
                afterMove = false
            case let .cubic(a, b, p):
                let ta = ticks(a), tb = ticks(b), t = ticks(p)
                command("c")
                number(ta.x - current.x); number(ta.y - current.y)
                number(tb.x - current.x); number(tb.y - current.y)
                number(t.x - current.x); number(t.y - current.y)
                current = t
                afterMove = false
            case .close:
                command("z")
                current = start
                afterMove = false
            }
        }
        return out
    }

    /// `n` rounding steps as the shortest decimal: `-12` at one decimal is `-1.2`, `5` is `.5`, `30` is `3`.
    func format(_ n: Int) -> String {
        let negative = n < 0
        let m = n.magnitude
        let unit = UInt(scale)
        let whole = m / unit, frac = m % unit
        var s = negative ? "-" : ""
        if whole != 0 || frac == 0 { s += String(whole) }
        if frac != 0 {
            var digits = String(frac)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            s += "." + digits
        }
        return s
    }
}
