// SPDX-License-Identifier: Apache-2.0

/// A point object of the `{x, y, time, pressure}` shape that signature_pad and stroke lists share, its
/// values read where they stand and checked later, so errors come in the order x, y, time, pressure
/// whatever the order of the keys. Other keys are skipped; the first of a repeated key counts.
struct JSONPoint {
    var x: JSONReader.Scalar?
    var y: JSONReader.Scalar?
    var time: JSONReader.Scalar?
    var pressure: JSONReader.Scalar?

    /// Reads the object at the reader's position.
    /// - Throws: a field error naming `path` when the value is not an object; a syntax error.
    init(_ r: inout JSONReader, path: @autoclosure () -> String) throws(JSONReader.Stop) {
        try r.expectKind(.object, path: path())
        guard try r.enterObject() else { return }
        repeat {
            switch try Self.key(&r) {
            case .x where x == nil: x = try r.scalar()
            case .y where y == nil: y = try r.scalar()
            case .time where time == nil: time = try r.scalar()
            case .pressure where pressure == nil: pressure = try r.scalar()
            default: try r.skipValue()
            }
        } while try r.nextInObject()
    }

    /// The keys of a point.
    private enum Key { case x, y, time, pressure, other }

    /// Reads a member's key and the colon after it. A point key written as it is (no escape) is recognised from
    /// its bytes where it stands, without reading it as a string first: a 171-point recording reads 684 keys, and
    /// a key read as a string and then compared cost 170 instructions. Any other key is read the general way.
    private static func key(_ r: inout JSONReader) throws(JSONReader.Stop) -> Key {
        guard r.peek() == UInt8(ascii: "\"") else { throw .syntax(offset: r.position) }
        let start = r.position + 1
        let bytes = r.bytes
        // Whether `word` and a closing quote stand at `start`.
        @inline(__always) func plain(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard start + n < bytes.count, bytes[start + n] == UInt8(ascii: "\"") else { return false }
            for i in 1..<n where bytes[start + i] != word.utf8Start[i] { return false }
            return true
        }
        var known = Key.other, length = 0
        if start < bytes.count {
            switch bytes[start] {
            case UInt8(ascii: "x") where plain("x"): (known, length) = (.x, 1)
            case UInt8(ascii: "y") where plain("y"): (known, length) = (.y, 1)
            case UInt8(ascii: "t") where plain("time"): (known, length) = (.time, 4)
            case UInt8(ascii: "p") where plain("pressure"): (known, length) = (.pressure, 8)
            default: break
            }
        }
        guard known != .other else {
            let key = try r.key()
            if r.matches(key, "x") { return .x }
            if r.matches(key, "y") { return .y }
            if r.matches(key, "time") { return .time }
            if r.matches(key, "pressure") { return .pressure }
            return .other
        }
        r.position = start + length + 1
        try r.expect(UInt8(ascii: ":"))
        return known
    }
}

extension JSONPoint {
    /// Appends a point object's opening, `{"x":X,"y":Y,"time":TIME`, after a comma unless it is the stroke's `first`,
    /// for the caller to add `pressure` and close: the shape signature_pad's and stroke lists' encoders write.
    static func appendOpening(x: Double, y: Double, time: Double, first: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: (first ? "{\"x\":" : ",{\"x\":").utf8)
        JSONText.appendNumber(x, to: &out)
        out.append(contentsOf: ",\"y\":".utf8)
        JSONText.appendNumber(y, to: &out)
        out.append(contentsOf: ",\"time\":".utf8)
        JSONText.appendNumber(time, to: &out)
    }
}
