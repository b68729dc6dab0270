// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import RealModule
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
/// above 1); altitude and azimuth are radians. Rendered geometry (`inkData` splines) is not read, but each
/// `inkData.strokes[]` entry's `style.properties` (`red`, `green`, `blue`, `alpha` in `0...1`, an empty
/// object meaning 0, and `size`, the line width) gives the pen of the stroke whose `sensorDataID` it names
/// (`Signature.pens`, a constant pen: `Pen.constant(color:width:)`). A stroke the ink data does not name is
/// drawn black.
/// Environment and device properties go to metadata as `uim.<name>`, such as `uim.app.id`.
struct UIMDecoder {
    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        let limits = self.limits
        let doc = try JSONInput.read(data, limits: limits) { (r: inout JSONReader) throws(JSONReader.Stop) in
            let doc = try UIMReader(limits: limits).document(&r)
            try r.expectEnd()
            return doc
        }
        return try build(doc)
    }

    private enum Kind: String {
        case x = "X", y = "Y", time = "Timestamp", pressure = "Pressure", altitude = "Altitude",
             azimuth = "Azimuth"
    }

    fileprivate struct Channel {
        var id = ""
        var type = ""
        var resolution: Double?
        var precision: Int?
        var max: Double?
    }

    fileprivate struct Document {
        var channels: [Channel] = []
        var properties: [(name: String, value: String)] = []
        var sensorData: [SensorData] = []
        /// The style of each `inkData` stroke, by the `sensorDataID` it draws.
        var styles: [String: Style] = [:]
    }

    /// A stroke's `style.properties`: colour channels in `0...1` and the width.
    fileprivate struct Style: Equatable {
        var red = 0.0, green = 0.0, blue = 0.0, alpha = 1.0
        var size: Double?

        var pen: Pen {
            func byte(_ v: Double) -> UInt8 { UInt8((Swift.min(1, Swift.max(0, v.isFinite ? v : 0)) * 255).rounded()) }
            let color = Color(red: byte(red), green: byte(green), blue: byte(blue), alpha: byte(alpha))
            return .constant(color: color, width: size.flatMap { $0.isFinite && $0 > 0 ? $0 : nil })
        }
    }

    fileprivate struct SensorData {
        var id = ""
        var timestamp = 0.0
        var dataChannels: [DataChannel] = []
    }

    fileprivate struct DataChannel {
        var sensorChannelID = ""
        var values: [Double] = []
    }

    private func build(_ doc: Document) throws(FormatError) -> (Signature, [String]) {
        // Each declared channel with what it holds, `nil` for a type the model does not read.
        var channels: [String: (channel: Channel, kind: Kind?)] = [:]
        for channel in doc.channels {
            channels[channel.id] = (channel, Kind(rawValue: String(channel.type.split(separator: "/").last ?? "")))
        }
        var metadata: [String: String] = [:]
        for property in doc.properties { metadata["uim.\(property.name)"] = property.value }

        var ink = InkAssembler(limits: limits)
        var pens: [Pen] = []
        var notes = Set<String>()
        let total = doc.sensorData.reduce(0) { $0 + ($1.dataChannels.first?.values.count ?? 0) }
        try ink.reserve(total)
        for (s, stroke) in doc.sensorData.enumerated() {
            let base = { "inputData.sensorData[\(s)]" }
            guard stroke.timestamp.isFinite else {
                throw .field(path: "\(base()).timestamp", message: "must be a finite number")
            }
            var columns: [Kind: [Double]] = [:]
            var count: Int?
            for (c, data) in stroke.dataChannels.enumerated() {
                let path = { "\(base()).dataChannels[\(c)]" }
                guard let (channel, kind) = channels[data.sensorChannelID] else {
                    throw .field(path: "\(path()).sensorChannelID",
                                 message: "\"\(data.sensorChannelID)\" is not a declared sensor channel")
                }
                guard let kind else {
                    notes.insert("channel \(channel.type) is not read")
                    continue
                }
                if let n = count, n != data.values.count {
                    throw .field(path: "\(path()).values",
                                 message: "has \(data.values.count) values, the stroke's other channels \(n)")
                }
                count = data.values.count
                columns[kind] = try decodeDeltas(data.values, channel: channel, kind: kind, path: "\(path()).values",
                                                 notes: &notes)
            }
            let n = count ?? 0
            guard n > 0 else {
                try ink.endStroke()
                continue
            }
            guard let xs = columns[.x], let ys = columns[.y] else {
                throw .field(path: "\(base()).dataChannels", message: "has no X and Y channels")
            }
            let ts = columns[.time], pressures = columns[.pressure]
            let altitudes = columns[.altitude], azimuths = columns[.azimuth]
            if ts == nil { notes.insert("a stroke has no Timestamp channel: samples assumed 10 ms apart") }
            for i in 0..<n {
                let t = stroke.timestamp + (ts?[i] ?? Double(i) * 10)
                try ink.add(x: xs[i], y: ys[i], t: t, pressure: pressures?[i], altitude: altitudes?[i],
                            azimuth: azimuths?[i], path: "\(base()) sample \(i)")
            }
            let before = ink.strokeCount
            try ink.endStroke()
            if ink.strokeCount > before { pens.append(doc.styles[stroke.id]?.pen ?? Pen()) }
        }
        ink.assumptions.append(contentsOf: notes.sorted())
        var (signature, assumptions) = try ink.finish(metadata: metadata)
        if !doc.styles.isEmpty { signature.pens = pens }
        return (signature, assumptions)
    }

    /// Running sum of the deltas, scaled to the model's unit for the channel.
    private func decodeDeltas(_ values: [Double], channel: Channel, kind: Kind, path: @autoclosure () -> String,
                              notes: inout Set<String>) throws(FormatError) -> [Double] {
        let precision = channel.precision ?? 0
        guard (0...15).contains(precision) else {
            throw .field(path: "channel \(channel.id).precision", message: "\(precision) is outside 0...15")
        }
        let divisor = Double.pow(10, precision)
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
                throw .field(path: "\(path())[\(i)]", message: "\(v) is not a delta-coded integer")
            }
            sum += v
            out.append(scale == 1 ? sum / divisor : sum / divisor * scale)
        }
        return out
    }
}

/// Reads the fields of a UIM document that the decoder uses, in one pass over the bytes.
///
/// Errors come in the order Foundation's decoder met them: a syntax error anywhere first, then the channel
/// declarations and properties (`inputContextData`), then stroke by stroke (`timestamp`, then
/// `dataChannels`, each channel's `sensorChannelID` and `values`, then its number of values against
/// ``DecodingLimits/maxSamplesPerStroke``), whatever the order of the keys.
private struct UIMReader {
    typealias Stop = JSONReader.Stop
    typealias Field = JSONReader.Field

    let limits: DecodingLimits

    static let documentFields = [Field(key: "inputData"), Field(key: "inkData", required: false)]
    static let inkDataFields = [Field(key: "strokes", required: false)]
    static let inkStrokeFields = [Field(key: "sensorDataID", required: false), Field(key: "style", required: false)]
    static let styleFields = [Field(key: "properties", required: false)]
    static let styleProperties = [Field(key: "red", required: false), Field(key: "green", required: false),
                                  Field(key: "blue", required: false), Field(key: "alpha", required: false),
                                  Field(key: "size", required: false)]
    static let valueFields = [Field(key: "value", required: false)]
    static let inputDataFields = [Field(key: "inputContextData"), Field(key: "sensorData")]
    static let contextFields = [Field(key: "sensorContexts"), Field(key: "environments", required: false),
                                Field(key: "inputDevices", required: false)]
    static let sensorContextFields = [Field(key: "sensorChannelsContext")]
    static let channelsContextFields = [Field(key: "channels")]
    static let channelFields = [Field(key: "id"), Field(key: "type"), Field(key: "resolution", required: false),
                                Field(key: "precision", required: false), Field(key: "max", required: false)]
    static let holderFields = [Field(key: "properties", required: false)]
    static let propertyFields = [Field(key: "name"), Field(key: "value")]
    static let sensorDataFields = [Field(key: "timestamp"), Field(key: "dataChannels"), Field(key: "id", required: false)]
    static let dataChannelFields = [Field(key: "sensorChannelID"), Field(key: "values")]

    func document(_ r: inout JSONReader) throws(Stop) -> UIMDecoder.Document {
        var doc = UIMDecoder.Document()
        try r.members(Self.documentFields, path: "") { (r: inout JSONReader, k) throws(Stop) in
            if k == 1 {
                try inkData(&r, into: &doc)
                return
            }
            try r.members(Self.inputDataFields, path: "inputData") { (r: inout JSONReader, k) throws(Stop) in
                if k == 0 {
                    try context(&r, into: &doc)
                } else {
                    try r.elements(path: "inputData.sensorData") { (r: inout JSONReader, s) throws(Stop) in
                        doc.sensorData.append(try sensorData(&r, s))
                    }
                }
            }
        }
        return doc
    }

    /// The style of each `inkData` stroke, by its `sensorDataID`.
    private func inkData(_ r: inout JSONReader, into doc: inout UIMDecoder.Document) throws(Stop) {
        guard !r.consumeNull() else { return }
        try r.members(Self.inkDataFields, path: "inkData") { (r: inout JSONReader, _) throws(Stop) in
            guard !r.consumeNull() else { return }
            try r.elements(path: "inkData.strokes") { (r: inout JSONReader, i) throws(Stop) in
                let p = "inkData.strokes[\(i)]"
                var id: String?
                var style = UIMDecoder.Style()
                try r.members(Self.inkStrokeFields, path: p) { (r: inout JSONReader, k) throws(Stop) in
                    if k == 0 {
                        id = try r.string(path: "\(p).sensorDataID")
                        return
                    }
                    guard !r.consumeNull() else { return }
                    try r.members(Self.styleFields, path: "\(p).style") { (r: inout JSONReader, _) throws(Stop) in
                        guard !r.consumeNull() else { return }
                        let q = "\(p).style.properties"
                        try r.members(Self.styleProperties, path: q) { (r: inout JSONReader, k) throws(Stop) in
                            var value: Double?
                            try r.members(Self.valueFields, path: "\(q).\(Self.styleProperties[k].key)") { (r: inout JSONReader, _) throws(Stop) in
                                value = try r.double(path: "\(q).\(Self.styleProperties[k].key).value")
                            }
                            switch k {
                            case 0: style.red = value ?? 0
                            case 1: style.green = value ?? 0
                            case 2: style.blue = value ?? 0
                            case 3: style.alpha = value ?? 0
                            default: style.size = value
                            }
                        }
                    }
                }
                if let id { doc.styles[id] = style }
            }
        }
    }

    private func context(_ r: inout JSONReader, into doc: inout UIMDecoder.Document) throws(Stop) {
        let path = "inputData.inputContextData"
        var channels: [UIMDecoder.Channel] = []
        var environments: [(name: String, value: String)] = []
        var devices: [(name: String, value: String)] = []
        try r.members(Self.contextFields, path: path) { (r: inout JSONReader, k) throws(Stop) in
            switch k {
            case 0:
                try r.elements(path: "\(path).sensorContexts") { (r: inout JSONReader, i) throws(Stop) in
                    let p = "\(path).sensorContexts[\(i)]"
                    try r.members(Self.sensorContextFields, path: p) { (r: inout JSONReader, _) throws(Stop) in
                        try r.elements(path: "\(p).sensorChannelsContext") { (r: inout JSONReader, j) throws(Stop) in
                            let q = "\(p).sensorChannelsContext[\(j)]"
                            try r.members(Self.channelsContextFields, path: q) { (r: inout JSONReader, _) throws(Stop) in
                                try r.elements(path: "\(q).channels") { (r: inout JSONReader, c) throws(Stop) in
                                    channels.append(try channel(&r, path: "\(q).channels[\(c)]"))
                                }
                            }
                        }
                    }
                }
            case 1: environments = try holders(&r, path: "\(path).environments")
            default: devices = try holders(&r, path: "\(path).inputDevices")
            }
        }
        doc.channels = channels
        doc.properties = environments + devices
    }

    private func channel(_ r: inout JSONReader, path: String) throws(Stop) -> UIMDecoder.Channel {
        var channel = UIMDecoder.Channel()
        try r.members(Self.channelFields, path: path) { (r: inout JSONReader, k) throws(Stop) in
            switch k {
            case 0: channel.id = try r.string(path: "\(path).id")
            case 1: channel.type = try r.string(path: "\(path).type")
            case 2: channel.resolution = try r.optionalDouble(path: "\(path).resolution")
            case 3: channel.precision = try r.optionalInteger(path: "\(path).precision")
            default: channel.max = try r.optionalDouble(path: "\(path).max")
            }
        }
        return channel
    }

    /// The properties of a list of environments or input devices; none when it is `null`.
    private func holders(_ r: inout JSONReader, path: String) throws(Stop) -> [(name: String, value: String)] {
        var properties: [(name: String, value: String)] = []
        guard !r.consumeNull() else { return properties }
        try r.elements(path: path) { (r: inout JSONReader, h) throws(Stop) in
            let p = "\(path)[\(h)]"
            try r.members(Self.holderFields, path: p) { (r: inout JSONReader, _) throws(Stop) in
                guard !r.consumeNull() else { return }
                try r.elements(path: "\(p).properties") { (r: inout JSONReader, i) throws(Stop) in
                    let q = "\(p).properties[\(i)]"
                    var name = "", value = ""
                    try r.members(Self.propertyFields, path: q) { (r: inout JSONReader, k) throws(Stop) in
                        if k == 0 { name = try r.string(path: "\(q).name") }
                        else { value = try r.string(path: "\(q).value") }
                    }
                    properties.append((name, value))
                }
            }
        }
        return properties
    }

    private func sensorData(_ r: inout JSONReader, _ s: Int) throws(Stop) -> UIMDecoder.SensorData {
        var stroke = UIMDecoder.SensorData()
        try r.members(Self.sensorDataFields, path: "inputData.sensorData[\(s)]") { (r: inout JSONReader, k) throws(Stop) in
            if k == 0 {
                stroke.timestamp = try timestamp(&r, s)
                return
            }
            if k == 2 {
                stroke.id = try r.string(path: "inputData.sensorData[\(s)].id")
                return
            }
            try r.elements(path: "inputData.sensorData[\(s)].dataChannels") { (r: inout JSONReader, c) throws(Stop) in
                let channel = try dataChannel(&r, s, c)
                if channel.values.count > limits.maxSamplesPerStroke {
                    throw .field(.limitExceeded(what: "samples in one stroke", limit: limits.maxSamplesPerStroke,
                                                actual: channel.values.count))
                }
                stroke.dataChannels.append(channel)
            }
        }
        return stroke
    }

    /// Epoch milliseconds, as a number or as a string holding one.
    private func timestamp(_ r: inout JSONReader, _ s: Int) throws(Stop) -> Double {
        guard try r.peekKind() == .string else { return try r.double(path: "inputData.sensorData[\(s)].timestamp") }
        let text = try r.string()
        guard let value = Double(text) else {
            throw .field(.field(path: "inputData.sensorData[\(s)].timestamp",
                                message: "\"\(text)\" is not a number of milliseconds"))
        }
        return value
    }

    private func dataChannel(_ r: inout JSONReader, _ s: Int, _ c: Int) throws(Stop) -> UIMDecoder.DataChannel {
        var channel = UIMDecoder.DataChannel()
        let path = { "inputData.sensorData[\(s)].dataChannels[\(c)]" }
        try r.members(Self.dataChannelFields, path: path()) { (r: inout JSONReader, k) throws(Stop) in
            if k == 0 {
                channel.sensorChannelID = try r.string(path: "\(path()).sensorChannelID")
                return
            }
            try r.elements(path: "\(path()).values") { (r: inout JSONReader, i) throws(Stop) in
                channel.values.append(try r.double(path: "\(path()).values[\(i)]"))
            }
        }
        return channel
    }
}
