// SPDX-License-Identifier: Apache-2.0

/// One channel of an InkML `traceFormat`.
struct InkMLChannel: Equatable {
    /// The channel name as written: `X`, `Y`, `T`, `F`, `OTx`, `OTy`, `OA`, `OE`, or another.
    var name: String
    /// Whether it is listed under `intermittentChannels` (its values may be left out of a point).
    var intermittent = false
    /// The `units` attribute, such as `mm`, `ms`, `deg`; `nil` when absent.
    var units: String?
    /// The `min` and `max` attributes, when given.
    var min: Double?
    var max: Double?
    /// Whether `orientation="-ve"`: the value grows in the opposite direction.
    var negative = false
    /// The `respectTo` attribute (a timestamp reference such as `#ts0`), for T.
    var respectTo: String?
}

/// Reads the text of an InkML `<trace>`: points separated by commas, values by white space.
///
/// Each value may carry a prefix that sets how that channel's values are coded from then on in the trace:
/// `!` explicit, `'` first difference (the change from the previous value), `"` second difference (the
/// change of the change). `*` repeats the previous value, `?` means unknown (`nil`), `T` and `F` are the
/// booleans 1 and 0. A sign or a second decimal point starts a new value, so `3-6` is 3 and -6, as the
/// specification's own examples write. Intermittent channels may be left out at the end of a point.
struct InkMLTraceParser {
    /// How a channel's values are coded.
    private enum Order { case explicit, first, second }

    let channels: [InkMLChannel]
    /// Most points accepted in one trace.
    let maxPoints: Int

    /// Parses `text` into one column of values per channel.
    /// - Parameter error: makes an error for a byte offset into `text` and a message.
    func parse(_ text: String, error: (Int, String) -> FormatError) throws(FormatError) -> [[Double?]] {
        let bytes = Array(text.utf8)
        let n = channels.count
        // An empty trace is an empty stroke, which the assembler skips and reports.
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return [[Double?]](repeating: [], count: n)
        }
        let required = channels.lastIndex { !$0.intermittent }.map { $0 + 1 } ?? 0
        var columns = [[Double?]](repeating: [], count: n)
        var order = [Order](repeating: .explicit, count: n)
        var previous = [Double?](repeating: nil, count: n)
        var velocity = [Double](repeating: 0, count: n)
        var point = [Double?](repeating: nil, count: n)
        var filled = 0
        var points = 0
        var pointStart = 0
        var k = 0

        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

        func endPoint(at offset: Int, last: Bool) throws(FormatError) {
            if filled == 0 {
                if last && points > 0 { return } // a trailing comma
                throw error(offset, "an empty point")
            }
            guard filled >= required else {
                throw error(pointStart, "a point with \(filled) value(s); the trace format has \(required) regular channel(s)")
            }
            if points >= maxPoints {
                throw .limitExceeded(what: "samples in one trace", limit: maxPoints, actual: points + 1)
            }
            for c in 0..<n { columns[c].append(c < filled ? point[c] : nil) }
            points += 1
            filled = 0
        }

        while true {
            while k < bytes.count, isSpace(bytes[k]) { k += 1 }
            guard k < bytes.count else {
                try endPoint(at: k, last: true)
                break
            }
            if bytes[k] == UInt8(ascii: ",") {
                try endPoint(at: k, last: false)
                k += 1
                pointStart = k
                continue
            }
            if filled == 0 { pointStart = k }
            let valueStart = k
            var prefix: Order?
            switch bytes[k] {
            case UInt8(ascii: "!"): prefix = .explicit; k += 1
            case UInt8(ascii: "'"): prefix = .first; k += 1
            case UInt8(ascii: "\""): prefix = .second; k += 1
            default: break
            }
            guard filled < n else {
                throw error(valueStart, "more values in a point than the \(n) channel(s) of the trace format")
            }
            let c = filled
            if let prefix { order[c] = prefix }
            guard k < bytes.count else { throw error(valueStart, "a prefix without a value") }
            var value: Double?
            switch bytes[k] {
            case UInt8(ascii: "?"):
                k += 1
                point[c] = nil
                filled += 1
                continue
            case UInt8(ascii: "*"):
                k += 1
                guard let p = previous[c] else { throw error(valueStart, "'*' repeats a value, but there is none before it") }
                point[c] = p
                velocity[c] = 0
                filled += 1
                continue
            case UInt8(ascii: "T"), UInt8(ascii: "F"):
                value = bytes[k] == UInt8(ascii: "T") ? 1 : 0
                k += 1
            default:
                let start = k
                if bytes[k] == UInt8(ascii: "-") || bytes[k] == UInt8(ascii: "+") { k += 1 }
                var digits = 0
                while k < bytes.count, isDigit(bytes[k]) { k += 1; digits += 1 }
                if k < bytes.count, bytes[k] == UInt8(ascii: ".") {
                    k += 1
                    while k < bytes.count, isDigit(bytes[k]) { k += 1; digits += 1 }
                }
                guard digits > 0 else {
                    let shown = k < bytes.count ? String(decoding: [bytes[k]], as: UTF8.self) : "the end"
                    throw error(k, "expected a number, found \(shown)")
                }
                if k < bytes.count, bytes[k] == UInt8(ascii: "e") || bytes[k] == UInt8(ascii: "E") {
                    var e = k + 1
                    if e < bytes.count, bytes[e] == UInt8(ascii: "-") || bytes[e] == UInt8(ascii: "+") { e += 1 }
                    if e < bytes.count, isDigit(bytes[e]) {
                        k = e
                        while k < bytes.count, isDigit(bytes[k]) { k += 1 }
                    }
                }
                guard k - start <= 64, let v = Double(String(decoding: bytes[start..<k], as: UTF8.self)), v.isFinite else {
                    throw error(start, "\"\(String(decoding: bytes[start..<min(k, start + 40)], as: UTF8.self))\" is not a finite number")
                }
                value = v
            }
            guard let x = value else { continue }
            let v: Double
            switch order[c] {
            case .explicit:
                v = x
                if let p = previous[c] { velocity[c] = v - p }
            case .first:
                guard let p = previous[c] else { throw error(valueStart, "a difference with no value before it") }
                velocity[c] = x
                v = p + x
            case .second:
                guard let p = previous[c] else { throw error(valueStart, "a difference with no value before it") }
                velocity[c] += x
                v = p + velocity[c]
            }
            guard v.isFinite else { throw error(valueStart, "the value overflows") }
            previous[c] = v
            point[c] = v
            filled += 1
        }
        return columns
    }
}
