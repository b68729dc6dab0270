// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk

/// Reads a plain JSON list of strokes, the shape write-math and hwrt store symbols in.
///
/// ```json
/// [[{"x": 328.5, "y": 223.125, "time": 1377173554837}, {"x": 326.5, "y": 225.125, "time": 1377173554868}]]
/// ```
/// x and y are canvas units (CSS pixels, y down), `time` milliseconds (epoch milliseconds when large enough,
/// see ``InkAssembler``), and `pressure`, optional in every point, is `0...1`. Other fields are ignored.
/// A list with no `time` in any point gets samples ``assumedInterval`` apart (reported); one with times in
/// some points only is an error.
struct StrokeListDecoder {
    /// Milliseconds between samples when no point has a time: 100 Hz, a common tablet rate.
    static let assumedInterval = 10.0

    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        try JSONInput.decode(Document.self, from: data, limits: limits).result
    }

    private struct Document: Decodable {
        let result: (Signature, [String])

        init(from decoder: any Decoder) throws {
            var ink = InkAssembler(limits: JSONInput.limits(decoder))
            var strokes = try decoder.unkeyedContainer()
            // nil until the first point says whether the list has times.
            var hasTimes: Bool?
            var clock = 0.0
            while !strokes.isAtEnd {
                let s = strokes.currentIndex
                var points = try strokes.nestedUnkeyedContainer()
                while !points.isAtEnd {
                    let i = points.currentIndex
                    let p = try points.nestedContainer(keyedBy: AnyKey.self)
                    let x = try p.decode(Double.self, forKey: AnyKey(stringValue: "x"))
                    let y = try p.decode(Double.self, forKey: AnyKey(stringValue: "y"))
                    let time = try p.decodeIfPresent(Double.self, forKey: AnyKey(stringValue: "time"))
                    if hasTimes == nil { hasTimes = time != nil }
                    guard (time != nil) == hasTimes else {
                        throw FormatError.field(path: "[\(s)][\(i)].time",
                                                message: time == nil ? "missing, though earlier points have one"
                                                    : "given, though earlier points have none")
                    }
                    let pressure = try p.decodeIfPresent(Double.self, forKey: AnyKey(stringValue: "pressure"))
                    try ink.add(x: x, y: y, t: time ?? clock, pressure: pressure, path: "[\(s)][\(i)]")
                    clock += StrokeListDecoder.assumedInterval
                }
                try ink.endStroke()
                clock += StrokeListDecoder.assumedInterval
            }
            if hasTimes == false {
                ink.assumptions.append("no point has a time: samples assumed \(Int(StrokeListDecoder.assumedInterval)) ms apart")
            }
            result = try ink.finish(timesKnown: hasTimes ?? false)
        }
    }
}
