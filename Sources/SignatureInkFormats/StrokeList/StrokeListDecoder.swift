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
struct StrokeListDecoder {
    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        try JSONInput.decode(Document.self, from: data, limits: limits).result
    }

    private struct Document: Decodable {
        let result: (Signature, [String])

        init(from decoder: any Decoder) throws {
            var ink = InkAssembler(limits: JSONInput.limits(decoder))
            var strokes = try decoder.unkeyedContainer()
            while !strokes.isAtEnd {
                let s = strokes.currentIndex
                var points = try strokes.nestedUnkeyedContainer()
                while !points.isAtEnd {
                    let i = points.currentIndex
                    let p = try points.nestedContainer(keyedBy: AnyKey.self)
                    let x = try p.decode(Double.self, forKey: AnyKey(stringValue: "x"))
                    let y = try p.decode(Double.self, forKey: AnyKey(stringValue: "y"))
                    let t = try p.decode(Double.self, forKey: AnyKey(stringValue: "time"))
                    let pressure = try p.decodeIfPresent(Double.self, forKey: AnyKey(stringValue: "pressure"))
                    try ink.add(x: x, y: y, t: t, pressure: pressure, path: "[\(s)][\(i)]")
                }
                try ink.endStroke()
            }
            result = try ink.finish()
        }
    }
}
