// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInk

/// Reads a plain JSON list of strokes, the shape write-math and hwrt store symbols in.
///
/// ```json
/// [[{"x": 328.5, "y": 223.125, "time": 1377173554837}, {"x": 326.5, "y": 225.125, "time": 1377173554868}]]
/// ```
/// x and y are canvas units (CSS pixels, y down), `time` milliseconds (epoch milliseconds when large enough,
/// see ``InkAssembler``), and `pressure`, optional in every point, is `0...1`. Other fields are ignored.
/// A list with no `time` in any point gets samples ``assumedInterval`` apart (reported); one with times in
/// some points only is an error. The format records no pen: `Signature.pens` is empty.
struct StrokeListDecoder {
    /// Milliseconds between samples when no point has a time: 100 Hz, a common tablet rate.
    static let assumedInterval = 10.0

    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        let limits = self.limits
        return try JSONInput.read(data, limits: limits) { (r: inout JSONReader) throws(JSONReader.Stop) in
            try Self.read(&r, ink: InkAssembler(limits: limits))
        }
    }

    /// Reads the strokes in one pass. Errors come in the order Foundation's decoder met them: a syntax error
    /// anywhere first, then point by point `x`, `y`, `time`, `pressure` and the sample's own checks.
    private static func read(_ r: inout JSONReader, ink: InkAssembler) throws(JSONReader.Stop) -> (Signature, [String]) {
        var ink = ink
        try r.expectKind(.array, path: "")
        // nil until the first point says whether the list has times.
        var hasTimes: Bool?
        var clock = 0.0
        if try r.enterArray() {
            var s = 0
            repeat {
                try r.expectKind(.array, path: "[\(s)]")
                if try r.enterArray() {
                    var i = 0
                    repeat {
                        let point = try JSONPoint(&r, path: "[\(s)][\(i)]")
                        let xv = try r.double(point.x, path: "[\(s)][\(i)].x")
                        let yv = try r.double(point.y, path: "[\(s)][\(i)].y")
                        let t = try r.optionalDouble(point.time, path: "[\(s)][\(i)].time")
                        if hasTimes == nil { hasTimes = t != nil }
                        guard (t != nil) == hasTimes else {
                            throw .field(.field(path: "[\(s)][\(i)].time",
                                                message: t == nil ? "missing, though earlier points have one"
                                                    : "given, though earlier points have none"))
                        }
                        let p = try r.optionalDouble(point.pressure, path: "[\(s)][\(i)].pressure")
                        try JSONReader.checking { () throws(FormatError) in
                            try ink.add(x: xv, y: yv, t: t ?? clock, pressure: p, path: "[\(s)][\(i)]")
                        }
                        clock += assumedInterval
                        i += 1
                    } while try r.nextInArray()
                }
                try JSONReader.checking { () throws(FormatError) in try ink.endStroke() }
                clock += assumedInterval
                s += 1
            } while try r.nextInArray()
        }
        try r.expectEnd()
        if hasTimes == false {
            ink.assumptions.append("no point has a time: samples assumed \(Int(assumedInterval)) ms apart")
        }
        let timesKnown = hasTimes ?? false
        return try JSONReader.checking { () throws(FormatError) in try ink.finish(timesKnown: timesKnown) }
    }
}
