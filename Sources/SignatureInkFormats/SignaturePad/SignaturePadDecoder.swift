// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk

/// Reads the JSON that signature_pad's `toData()` returns.
///
/// ```json
/// [{"penColor": "black", "dotSize": 0, "minWidth": 0.5, "maxWidth": 2.5, "velocityFilterWeight": 0.7,
///   "compositeOperation": "source-over",
///   "points": [{"x": 125, "y": 54, "time": 1523730547109, "pressure": 0}]}]
/// ```
/// Each group is one stroke; x and y are CSS pixels (y down), `time` epoch milliseconds. The pen settings
/// go to metadata (``SignaturePadSetting``): the first group's value under the signature-wide key when it
/// differs from signature_pad's default, another group's under the stroke key when it differs from the
/// first group's. A missing setting means the default. When every pressure is 0 (a mouse or a touch
/// screen) or missing, the signature has no pressure.
struct SignaturePadDecoder {
    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        try JSONInput.decode(Document.self, from: data, limits: limits).result
    }

    private struct Document: Decodable {
        let result: (Signature, [String])

        init(from decoder: any Decoder) throws {
            var ink = InkAssembler(limits: JSONInput.limits(decoder))
            var groups = try decoder.unkeyedContainer()
            var firstValues: [SignaturePadSetting: String] = [:]
            var metadata: [String: String] = [:]
            var allPressureZero = true
            var anyPressure = false
            while !groups.isAtEnd {
                let g = groups.currentIndex
                let group = try groups.nestedContainer(keyedBy: AnyKey.self)
                let strokeIndex = ink.strokeCount
                var values: [SignaturePadSetting: String] = [:]
                for setting in SignaturePadSetting.allCases {
                    let key = AnyKey(stringValue: setting.field)
                    var value = setting.defaultValue
                    if setting.isText {
                        if let v = try group.decodeIfPresent(String.self, forKey: key) { value = v }
                    } else if let v = try group.decodeIfPresent(Double.self, forKey: key) {
                        guard v.isFinite else {
                            throw FormatError.field(path: "[\(g)].\(setting.field)", message: "must be finite")
                        }
                        value = JSONText.number(v)
                    }
                    values[setting] = value
                }
                var points = try group.nestedUnkeyedContainer(forKey: AnyKey(stringValue: "points"))
                while !points.isAtEnd {
                    let i = points.currentIndex
                    let p = try points.nestedContainer(keyedBy: AnyKey.self)
                    let x = try p.decode(Double.self, forKey: AnyKey(stringValue: "x"))
                    let y = try p.decode(Double.self, forKey: AnyKey(stringValue: "y"))
                    let t = try p.decode(Double.self, forKey: AnyKey(stringValue: "time"))
                    let pressure = try p.decodeIfPresent(Double.self, forKey: AnyKey(stringValue: "pressure"))
                    if let pressure {
                        anyPressure = true
                        if pressure != 0 { allPressureZero = false }
                    }
                    try ink.add(x: x, y: y, t: t, pressure: pressure, path: "[\(g)].points[\(i)]")
                }
                let before = ink.strokeCount
                try ink.endStroke()
                guard ink.strokeCount > before else { continue }
                if strokeIndex == 0 {
                    firstValues = values
                    for (setting, value) in values where value != setting.defaultValue {
                        metadata[setting.metadataKey] = value
                    }
                } else {
                    for (setting, value) in values where value != firstValues[setting] {
                        metadata[InkMetadataKey.strokeKey(setting.metadataKey, strokeIndex)] = value
                    }
                }
            }
            if anyPressure && allPressureZero {
                ink.removePressure()
                ink.assumptions.append("every pressure is 0 (a mouse or touch screen): read as no pressure")
            }
            result = try ink.finish(metadata: metadata)
        }
    }
}
