// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk

/// Reads the raw sensor data of a Wacom Universal Ink Model 3.0 JSON export.
///
/// `inputData.inputContextData.sensorContexts[].sensorChannelsContext[].channels[]` declares the channels
/// (`type` ending in `X`, `Y`, `Timestamp`, `Pressure`, `Altitude`, `Azimuth`; `resolution`; `precision`).
/// `inputData.sensorData[]` holds one stroke each: an absolute `timestamp` (epoch milliseconds, a string or
/// a number) and `dataChannels[]` of `{sensorChannelID, values}`. Values are delta-coded integers: the
/// running sum divided by 10^precision is the channel's value in its unit.
///
/// Units: X and Y are divided by their resolution (units per metre) and written in CSS pixels at 96 per
/// inch, so the demo's 3779.53 per metre stays as it is; a missing resolution means CSS pixels. Time is
/// divided by its resolution (units per second) and written in milliseconds after the stroke's timestamp;
/// a missing resolution means milliseconds. Pressure is `0...1` (divided by the channel's `max` when it is
/// above 1); altitude and azimuth are radians. Rendered geometry (`inkData` splines) is not read.
/// Environment and device properties go to metadata as `uim.<name>`, such as `uim.app.id`.
struct UIMDecoder {
    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        let doc = try JSONInput.decode(Document.self, from: data, limits: limits)
        return try build(doc)
    }

    private enum Kind: String {
        case x = "X", y = "Y", time = "Timestamp", pressure = "Pressure", altitude = "Altitude",
             azimuth = "Azimuth"
    }

    private struct Channel: Decodable {
        let id: String
        let type: String
        let resolution: Double?
        let precision: Int?
        let max: Double?
    }

    private struct Property: Decodable {
        let name: String
        let value: String
    }

    private struct Document: Decodable {
        let inputData: InputData
    }

    private struct InputData: Decodable {
        let inputContextData: ContextData
        let sensorData: [SensorData]
    }

    private struct ContextData: Decodable {
        let sensorContexts: [SensorContext]
        let environments: [PropertyHolder]?
        let inputDevices: [PropertyHolder]?
    }

    private struct PropertyHolder: Decodable {
        let properties: [Property]?
    }

    private struct SensorContext: Decodable {
        let sensorChannelsContext: [ChannelsContext]
    }

    private struct ChannelsContext: Decodable {
        let channels: [Channel]
    }

    private struct SensorData: Decodable {
        let timestamp: Double
        let dataChannels: [DataChannel]

        enum Key: String, CodingKey { case timestamp, dataChannels }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            if let text = try? c.decode(String.self, forKey: .timestamp) {
                guard let value = Double(text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .timestamp, in: c, debugDescription: "\"\(text)\" is not a number of milliseconds")
                }
                timestamp = value
            } else {
                timestamp = try c.decode(Double.self, forKey: .timestamp)
            }
            let limits = JSONInput.limits(decoder)
            var list = try c.nestedUnkeyedContainer(forKey: .dataChannels)
            var channels: [DataChannel] = []
            while !list.isAtEnd {
                let channel = try list.decode(DataChannel.self)
                if channel.values.count > limits.maxSamplesPerStroke {
                    throw FormatError.limitExceeded(what: "samples in one stroke", limit: limits.maxSamplesPerStroke,
                                                    actual: channel.values.count)
                }
                channels.append(channel)
            }
            dataChannels = channels
        }
    }

    private struct DataChannel: Decodable {
        let sensorChannelID: String
        let values: [Double]
    }

    private func build(_ doc: Document) throws(FormatError) -> (Signature, [String]) {
        var channels: [String: Channel] = [:]
        for context in doc.inputData.inputContextData.sensorContexts {
            for group in context.sensorChannelsContext {
                for channel in group.channels { channels[channel.id] = channel }
            }
        }
        var metadata: [String: String] = [:]
        let holders = (doc.inputData.inputContextData.environments ?? [])
            + (doc.inputData.inputContextData.inputDevices ?? [])
        for holder in holders {
            for property in holder.properties ?? [] { metadata["uim.\(property.name)"] = property.value }
        }

        var ink = InkAssembler(limits: limits)
        var notes = Set<String>()
        let total = doc.inputData.sensorData.reduce(0) { $0 + ($1.dataChannels.first?.values.count ?? 0) }
        try ink.reserve(total)
        for (s, stroke) in doc.inputData.sensorData.enumerated() {
            let base = "inputData.sensorData[\(s)]"
            guard stroke.timestamp.isFinite else {
                throw .field(path: "\(base).timestamp", message: "must be a finite number")
            }
            var columns: [Kind: [Double]] = [:]
            var count: Int?
            for (c, data) in stroke.dataChannels.enumerated() {
                let path = "\(base).dataChannels[\(c)]"
                guard let channel = channels[data.sensorChannelID] else {
                    throw .field(path: "\(path).sensorChannelID",
                                 message: "\"\(data.sensorChannelID)\" is not a declared sensor channel")
                }
                guard let kind = Kind(rawValue: String(channel.type.split(separator: "/").last ?? "")) else {
                    notes.insert("channel \(channel.type) is not read")
                    continue
                }
                if let n = count, n != data.values.count {
                    throw .field(path: "\(path).values",
                                 message: "has \(data.values.count) values, the stroke's other channels \(n)")
                }
                count = data.values.count
                columns[kind] = try decodeDeltas(data.values, channel: channel, kind: kind, path: "\(path).values",
                                                 notes: &notes)
            }
            let n = count ?? 0
            guard n > 0 else {
                try ink.endStroke()
                continue
            }
            guard let xs = columns[.x], let ys = columns[.y] else {
                throw .field(path: "\(base).dataChannels", message: "has no X and Y channels")
            }
            let ts = columns[.time]
            if ts == nil { notes.insert("a stroke has no Timestamp channel: samples assumed 10 ms apart") }
            for i in 0..<n {
                let t = stroke.timestamp + (ts?[i] ?? Double(i) * 10)
                try ink.add(x: xs[i], y: ys[i], t: t, pressure: columns[.pressure]?[i],
                            altitude: columns[.altitude]?[i], azimuth: columns[.azimuth]?[i],
                            path: "\(base) sample \(i)")
            }
            try ink.endStroke()
        }
        ink.assumptions.append(contentsOf: notes.sorted())
        return try ink.finish(metadata: metadata)
    }

    /// Running sum of the deltas, scaled to the model's unit for the channel.
    private func decodeDeltas(_ values: [Double], channel: Channel, kind: Kind, path: String,
                              notes: inout Set<String>) throws(FormatError) -> [Double] {
        let precision = channel.precision ?? 0
        guard (0...15).contains(precision) else {
            throw .field(path: "channel \(channel.id).precision", message: "\(precision) is outside 0...15")
        }
        let divisor = pow(10, Double(precision))
        var scale = 1.0
        if let r = channel.resolution {
            guard r.isFinite, r > 0 else {
                throw .field(path: "channel \(channel.id).resolution", message: "must be finite and > 0")
            }
        }
        switch kind {
        case .x, .y:
            // Resolution is units per metre; CSS pixels are 96 per inch, 0.0254 m.
            if let r = channel.resolution {
                scale = Canvas.cssPixelsPerInch / 0.0254 / r
                // Files round 96 dpi to 3779.5275590592 per metre: keep their pixels exact.
                if abs(scale - 1) < 1e-9 { scale = 1 }
            } else { notes.insert("X/Y have no resolution: taken as CSS pixels") }
        case .time:
            // Resolution is units per second.
            if let r = channel.resolution { scale = 1000 / r }
            else { notes.insert("Timestamp has no resolution: taken as milliseconds") }
        case .pressure:
            if let m = channel.max, m > 1, m.isFinite { scale = 1 / m }
        case .altitude, .azimuth:
            break
        }
        var out: [Double] = []
        out.reserveCapacity(values.count)
        var sum = 0.0
        for (i, v) in values.enumerated() {
            guard v.isFinite, abs(v) < 9e15 else {
                throw .field(path: "\(path)[\(i)]", message: "\(v) is not a delta-coded integer")
            }
            sum += v
            out.append(scale == 1 ? sum / divisor : sum / divisor * scale)
        }
        return out
    }
}
