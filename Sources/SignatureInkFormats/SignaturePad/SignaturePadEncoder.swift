// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Writes the JSON that signature_pad's `fromData()` reads, described at ``SignaturePadDecoder``.
///
/// One group per stroke, its pen settings from metadata (stroke key, then signature-wide key, then
/// signature_pad's default); a stroke with a constant `pen.width` (from InkML or Wacom UIM) and no
/// signature_pad widths gets half of it as both `minWidth` and `maxWidth`, which are radii. `time` is `Signature.startTime` plus the sample's `t` (just `t` when the
/// start time is unknown). A sample without pressure is written with pressure 0, which is what
/// signature_pad records for a mouse. Altitude, azimuth, the canvas and other metadata have no place in
/// the format and are left out.
struct SignaturePadEncoder {
    func encode(_ signature: Signature) throws(FormatError) -> String {
        let start = signature.startTime ?? 0
        try checkFinite(start, "startTime")
        var out = "["
        for (index, stroke) in signature.strokes.enumerated() {
            out += index == 0 ? "\n{" : ",\n{"
            for (k, setting) in SignaturePadSetting.allCases.enumerated() {
                var value = InkMetadataKey.value(setting.metadataKey, stroke: index, in: signature.metadata)
                if value == nil, setting == .minWidth || setting == .maxWidth,
                   let width = InkMetadataKey.value(InkMetadataKey.penWidth, stroke: index, in: signature.metadata),
                   let w = Double(width), w.isFinite, w > 0 {
                    // A constant width (an InkML brush, a UIM style) as signature_pad's radii, both the same.
                    value = JSONText.number(w / 2)
                }
                let text = value ?? setting.defaultValue
                out += (k == 0 ? "" : ",") + JSONText.string(setting.field) + ":"
                if setting.isText {
                    out += JSONText.string(text)
                } else {
                    guard let number = Double(text), number.isFinite else {
                        throw .unencodable("metadata \(setting.metadataKey) \"\(text)\" is not a finite number")
                    }
                    out += JSONText.number(number)
                }
            }
            out += ",\"points\":["
            for (j, s) in stroke.enumerated() {
                try checkFinite(s.x, "x"); try checkFinite(s.y, "y"); try checkFinite(s.t, "t")
                let pressure = s.pressure ?? 0
                guard pressure.isFinite else { throw .unencodable("pressure is not finite") }
                out += j == 0 ? "{" : ",{"
                out += "\"x\":\(JSONText.number(s.x)),\"y\":\(JSONText.number(s.y))"
                out += ",\"time\":\(JSONText.number(start + s.t)),\"pressure\":\(JSONText.number(pressure))}"
            }
            out += "]}"
        }
        out += "]\n"
        return out
    }
}

/// Throws ``FormatError/unencodable(_:)`` for a NaN or infinite value, which JSON cannot hold.
func checkFinite(_ v: Double, _ name: String) throws(FormatError) {
    guard v.isFinite else { throw .unencodable("\(name) is \(v); the format holds finite numbers only") }
}
