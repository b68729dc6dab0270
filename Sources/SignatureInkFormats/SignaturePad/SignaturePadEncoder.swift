// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Writes the JSON that signature_pad's `fromData()` reads, described at ``SignaturePadDecoder``.
///
/// One group per stroke, its pen settings from the stroke's `Pen` (`Signature.pens`): `penColor` as CSS text, the
/// colour's name when it has one (`Color.cssName`: `black`, `crimson`), else `#rrggbb` or `#rrggbbaa`; `minWidth`,
/// `maxWidth` and `dotSize` as half the pen's widths (signature_pad's are radii), a missing width as
/// signature_pad's default and no dot width as `dotSize` 0; the `velocityFilterWeight` of signature_pad's
/// width model (0.7 for another model); and `compositeOperation` from `Pen.compositeOperation`, else
/// `destination-out` for an eraser and `source-over` otherwise. A stroke without a recorded pen gets signature_pad's
/// defaults. ``InkFormat/penLosses(of:)`` says what of a pen this does not keep. `time` is `Signature.startTime`
/// plus the sample's `t` (just `t` when the start time is unknown). A sample without pressure is written with
/// pressure 0, which is what signature_pad records for a mouse. Altitude, azimuth, the canvas and the metadata have
/// no place in the format and are left out.
struct SignaturePadEncoder {
    func encode(_ signature: Signature) throws(FormatError) -> String {
        let start = signature.startTime ?? 0
        try checkFinite(start, "startTime")
        // Bytes rather than a String: appends of a String cost 300 instructions each (NativeEncoder).
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(signature.samples.count * 56 + signature.strokeCount * 160 + 4)
        for (index, stroke) in signature.strokes.enumerated() {
            out.append(contentsOf: (index == 0 ? "\n{" : ",\n{").utf8)
            out.append(contentsOf: try Self.settings(of: signature.pen(ofStroke: index), stroke: index).utf8)
            out.append(contentsOf: ",\"points\":[".utf8)
            for (j, s) in stroke.enumerated() {
                try checkFinite(s.x, "x"); try checkFinite(s.y, "y"); try checkFinite(s.t, "t")
                let pressure = s.pressure ?? 0
                guard pressure.isFinite else { throw .unencodable("pressure is not finite") }
                JSONPoint.appendOpening(x: s.x, y: s.y, time: start + s.t, first: j == 0, to: &out)
                out.append(contentsOf: ",\"pressure\":".utf8)
                JSONText.appendNumber(pressure, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(contentsOf: "]}".utf8)
        }
        out.append(contentsOf: "]\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// The settings members of the group of a stroke drawn with `pen` (`nil`: signature_pad's defaults), in
    /// ``SignaturePadSetting`` order.
    /// - Throws: ``FormatError/unencodable(_:)`` for a width or weight that is not a finite number.
    static func settings(of pen: Pen?, stroke: Int) throws(FormatError) -> String {
        var out = ""
        for (k, setting) in SignaturePadSetting.allCases.enumerated() {
            out += (k == 0 ? "" : ",") + JSONText.string(setting.field) + ":"
            guard let pen else {
                out += setting.isText ? JSONText.string(setting.defaultValue) : setting.defaultValue
                continue
            }
            let value: Double  // a radius, or the weight
            switch setting {
            case .penColor:
                out += JSONText.string(pen.color.cssName ?? pen.color.description)
                continue
            case .compositeOperation:
                out += JSONText.string(pen.compositeOperation ?? (pen.blend == .erase ? "destination-out" : "source-over"))
                continue
            case .dotSize:
                value = (pen.dotWidth ?? 0) / 2
            case .minWidth:
                value = (pen.minWidth ?? Swift.min(Self.defaultMinWidth, pen.maxWidth ?? Self.defaultMinWidth)) / 2
            case .maxWidth:
                value = (pen.maxWidth ?? Swift.max(Self.defaultMaxWidth, pen.minWidth ?? Self.defaultMaxWidth)) / 2
            case .velocityFilterWeight:
                if case let .signaturePad(weight) = pen.widthModel { value = weight } else { value = Self.defaultWeight }
            }
            guard value.isFinite else {
                throw .unencodable("the pen of stroke \(stroke + 1): \(setting.field) \(value) is not a finite number")
            }
            out += JSONText.number(value)
        }
        return out
    }

    /// signature_pad's default line widths (twice its default radii 0.5 and 2.5) and velocity filter weight.
    static let defaultMinWidth = 1.0, defaultMaxWidth = 5.0, defaultWeight = 0.7
}

/// Throws ``FormatError/unencodable(_:)`` for a NaN or infinite value, which JSON cannot hold.
func checkFinite(_ v: Double, _ name: String) throws(FormatError) {
    guard v.isFinite else { throw .unencodable("\(name) is \(v); the format holds finite numbers only") }
}
