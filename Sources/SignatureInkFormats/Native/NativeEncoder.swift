// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// Writes the native `signature-ink` JSON format, version 1, described at ``NativeDecoder``.
///
/// The output is deterministic (keys in a fixed order, one stroke per line) and lossless: every number is
/// written as the shortest text that reads back as the same `Double` or `Float`.
public struct NativeEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes a signature as UTF-8 JSON text.
    /// - Throws: ``FormatError/unencodable(_:)`` when a value is NaN or infinite, which JSON cannot hold, or is
    ///   one ``NativeDecoder`` would refuse: a time outside `0...1e14` ms or earlier than the previous sample's
    ///   in its stroke, pressure outside `0...1`, a start time outside `0...1e14`.
    public func encode(_ signature: Signature) throws(FormatError) -> String {
        var channels: [NativeChannel] = [.x, .y, .t]
        if signature.samples.contains(where: { $0.pressure != nil }) { channels.append(.pressure) }
        if signature.samples.contains(where: { $0.altitude != nil }) { channels.append(.altitude) }
        if signature.samples.contains(where: { $0.azimuth != nil }) { channels.append(.azimuth) }

        var out = "{\"format\":\"signature-ink\",\"version\":1"
        if let c = signature.canvas {
            try check(c.width, "canvas.width"); try check(c.height, "canvas.height")
            try check(c.unitsPerInch, "canvas.unitsPerInch")
            out += ",\"canvas\":{\"width\":\(JSONText.number(c.width)),\"height\":\(JSONText.number(c.height))"
            out += ",\"unitsPerInch\":\(JSONText.number(c.unitsPerInch))}"
        }
        if let s = signature.startTime {
            try check(s, "startTime")
            guard s >= 0, s <= InkAssembler.maxTimestamp else {
                throw .unencodable("startTime \(s) is outside 0...\(InkAssembler.maxTimestamp) ms, which the native format holds")
            }
            out += ",\"startTime\":\(JSONText.number(s))"
        }
        if !signature.metadata.isEmpty {
            out += ",\"metadata\":{"
            out += signature.metadata.sorted { $0.key < $1.key }
                .map { "\(JSONText.string($0.key)):\(JSONText.string($0.value))" }
                .joined(separator: ",")
            out += "}"
        }
        if !signature.pens.isEmpty {
            guard signature.pens.count <= signature.strokeCount else {
                throw .unencodable("\(signature.pens.count) pens for \(signature.strokeCount) strokes")
            }
            out += ",\"pens\":[" + (try signature.pens.map { (pen) throws(FormatError) in try NativePen.json(pen) }.joined(separator: ",")) + "]"
        }
        out += ",\"channels\":[" + channels.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
        out += ",\"strokes\":["
        for (i, stroke) in signature.strokes.enumerated() {
            out += i == 0 ? "\n[" : ",\n["
            var previous = 0.0
            for (j, s) in stroke.enumerated() {
                try check(s.x, "x"); try check(s.y, "y"); try check(s.t, "t")
                guard s.t >= previous, s.t <= InkAssembler.maxTimestamp else {
                    throw .unencodable("strokes[\(i)][\(j)]: time \(s.t) ms is outside 0...\(InkAssembler.maxTimestamp) "
                                       + "or earlier than the sample before it, which the native format does not hold")
                }
                previous = s.t
                if let p = s.pressure, !(0...1).contains(p) {
                    throw .unencodable("strokes[\(i)][\(j)]: pressure \(p) is outside 0...1")
                }
                out += j == 0 ? "[" : ",["
                out += JSONText.number(s.x) + "," + JSONText.number(s.y) + "," + JSONText.number(s.t)
                for ch in channels.dropFirst(3) {
                    let v: Float? = ch == .pressure ? s.pressure : ch == .altitude ? s.altitude : s.azimuth
                    if let v {
                        guard v.isFinite else { throw .unencodable("\(ch.rawValue) is not finite") }
                        out += "," + JSONText.number(v)
                    } else {
                        out += ",null"
                    }
                }
                out += "]"
            }
            out += "]"
        }
        out += "]}\n"
        return out
    }

    private func check(_ v: Double, _ name: String) throws(FormatError) {
        guard v.isFinite else { throw .unencodable("\(name) is \(v); JSON holds finite numbers only") }
    }
}
