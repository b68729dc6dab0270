// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Writes a JSON list of strokes, described at ``StrokeListDecoder``.
///
/// `time` is `Signature.startTime` plus the sample's `t` (just `t` when the start time is unknown);
/// `pressure` is written for the samples that have it. Altitude, azimuth, the canvas and the metadata have
/// no place in the format and are left out.
struct StrokeListEncoder {
    func encode(_ signature: Signature) throws(FormatError) -> String {
        let start = signature.startTime ?? 0
        try checkFinite(start, "startTime")
        // Bytes rather than a String: appends of a String cost 300 instructions each (NativeEncoder).
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(signature.samples.count * 56 + signature.strokeCount * 4 + 4)
        for (index, stroke) in signature.strokes.enumerated() {
            out.append(contentsOf: (index == 0 ? "\n[" : ",\n[").utf8)
            for (j, s) in stroke.enumerated() {
                try checkFinite(s.x, "x"); try checkFinite(s.y, "y"); try checkFinite(s.t, "t")
                JSONPoint.appendOpening(x: s.x, y: s.y, time: start + s.t, first: j == 0, to: &out)
                if let p = s.pressure {
                    guard p.isFinite else { throw .unencodable("pressure is not finite") }
                    out.append(contentsOf: ",\"pressure\":".utf8)
                    JSONText.appendNumber(p, to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: "]\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}
