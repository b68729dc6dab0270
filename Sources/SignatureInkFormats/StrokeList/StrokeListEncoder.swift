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
        var out = "["
        for (index, stroke) in signature.strokes.enumerated() {
            out += index == 0 ? "\n[" : ",\n["
            for (j, s) in stroke.enumerated() {
                try checkFinite(s.x, "x"); try checkFinite(s.y, "y"); try checkFinite(s.t, "t")
                out += j == 0 ? "{" : ",{"
                out += "\"x\":\(JSONText.number(s.x)),\"y\":\(JSONText.number(s.y)),\"time\":\(JSONText.number(start + s.t))"
                if let p = s.pressure {
                    guard p.isFinite else { throw .unencodable("pressure is not finite") }
                    out += ",\"pressure\":\(JSONText.number(p))"
                }
                out += "}"
            }
            out += "]"
        }
        out += "]\n"
        return out
    }
}
