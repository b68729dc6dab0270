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
        // The samples as bytes: appended to a String one number at a time, a 902-sample consent's two signatures
        // took 4.3 M instructions (4,800 a sample), most of them the appends.
        var bytes = Array(out.utf8)
        bytes.reserveCapacity(bytes.count + signature.samples.count * (channels.count * 9 + 3) + 64)
        for (i, stroke) in signature.strokes.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(UInt8(ascii: "["))
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
                if j > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "["))
                JSONText.appendNumber(s.x, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                JSONText.appendNumber(s.y, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                JSONText.appendNumber(s.t, to: &bytes)
                for ch in channels.dropFirst(3) {
                    let v: Float? = ch == .pressure ? s.pressure : ch == .altitude ? s.altitude : s.azimuth
                    bytes.append(UInt8(ascii: ","))
                    if let v {
                        guard v.isFinite else { throw .unencodable("\(ch.rawValue) is not finite") }
                        JSONText.appendNumber(v, to: &bytes)
                    } else {
                        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
                    }
                }
                bytes.append(UInt8(ascii: "]"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "\n")])
        return String(decoding: bytes, as: UTF8.self)
    }

    private func check(_ v: Double, _ name: String) throws(FormatError) {
        guard v.isFinite else { throw .unencodable("\(name) is \(v); JSON holds finite numbers only") }
    }
}
