// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import RealModule
import SignatureInk

/// Reads W3C Ink Markup Language (InkML) documents.
///
/// What is read: `<trace>` (a `type="penUp"` trace is hover and skipped), nested `<traceGroup>`,
/// `<traceFormat>` with `<channel>` and `<intermittentChannels>`, `<context>` (inline, in `<definitions>`,
/// by `contextRef`, with `traceFormatRef`, `brushRef`, `inkSourceRef`, `timestampRef`), `<inkSource>`,
/// `<brush>` with `<brushProperty>` `color`, `width`, `transparency`, `tip` and `signature-ink:pen`,
/// `<timestamp>` (`time` in epoch milliseconds, `timeString` in ISO 8601, or `timestampRef` plus `timeOffset`)
/// and `<annotation type="...">` directly under `<ink>`, which go to metadata under their type. Other elements
/// are skipped.
///
/// Mapping to the model:
/// - X and Y: with `units` of `mm`, `cm`, `m`, `in`, `pt`, `pc` or `himetric` (1/100 mm), converted to CSS
///   pixels (96 per inch); with none, `px`, `dev` or unknown units, taken as canvas units (reported).
///   `orientation="-ve"` flips the axis.
/// - T: milliseconds (`s`, `us` converted; no or unknown units: `ms`, reported), counted from the timestamp the
///   channel's `respectTo` or the context names, plus the trace's `timeOffset`; that timestamp gives the
///   start time. Without a T channel, samples are placed ``assumedInterval`` apart (reported).
/// - F: divided into `0...1` by the channel's `min`/`max`; without them, values over 1 are divided by the
///   smallest common device range holding them (255, 1023, 2047, 4095, 8191, 32767, 65535; reported).
/// - OE (elevation) becomes altitude and OA azimuth; without them OTx/OTy tilts are converted. Angles are
///   degrees unless `units="rad"` (no or unknown units: degrees, reported).
/// - Each trace's brush is its stroke's pen (`Signature.pens`, when any trace has a brush): the colour (black when
///   none), made `transparency` / 255 transparent (folded into the colour's alpha; a fraction, or a colour that is
///   already translucent, is rounded to its 256 levels, reported), one constant width (CSS pixels when it has
///   units), and the `tip` (`ellipse` or `rectangle`; a rectangle is drawn round, reported). A
///   `signature-ink:pen` property, which ``InkMLEncoder`` writes for pens the others cannot describe (a width that
///   varies, signature_pad's model, an eraser), holds the native format's pen object and wins over the others.
/// - An `annotation` of type `signature-ink:canvas` holding `width height unitsPerInch` is the canvas.
/// - A document with no `traceFormat` is read as X Y, or X Y T when its first point has three values
///   (reported).
struct InkMLDecoder {
    /// Milliseconds between samples when the document has no time channel: 100 Hz, a common tablet rate.
    static let assumedInterval = 10.0
    /// The annotation type that carries the canvas.
    static let canvasAnnotation = "signature-ink:canvas"
    /// How deep references (`contextRef`, `brushRef`, `timestampRef`) may chain.
    static let maxReferenceDepth = 16

    let limits: DecodingLimits

    private struct Brush: Equatable {
        var color: Color?
        var width: Double?
        /// InkML `transparency`, 0 (opaque) ... 255 (invisible).
        var transparency: Double?
        var tip: Pen.Tip?
        /// The pen of a `signature-ink:pen` property, which wins over the others.
        var recorded: Pen?

        var isEmpty: Bool { color == nil && width == nil && transparency == nil && tip == nil && recorded == nil }

        /// The pen the brush draws with: the `signature-ink:pen` one, else its colour (black when it has none) made
        /// as transparent as it says, one width, its tip.
        var pen: Pen { recorded ?? InkMLDecoder.pen(color: color, width: width, transparency: transparency, tip: tip) }
    }

    /// The pen of a brush with these standard properties (each `nil` when the brush has none): `color` (default
    /// black) made as transparent as `transparency` says, a constant `width` (none, or 0: the renderer's), `tip`.
    static func pen(color: Color?, width: Double?, transparency: Double?, tip: Pen.Tip?) -> Pen {
        var c = color ?? .black
        if let transparency { c = c.withOpacity(1 - transparency / 255) }
        var pen = Pen.constant(color: c, width: width.flatMap { $0 > 0 ? $0 : nil })
        pen.tip = tip ?? .ellipse
        return pen
    }

    /// Whether the brush's transparency folds into its colour's 256 opacity levels exactly: a whole number over an
    /// opaque colour.
    private static func foldsExactly(_ brush: Brush) -> Bool {
        guard let t = brush.transparency, brush.recorded == nil else { return true }
        return t.rounded() == t && (brush.color?.alpha ?? 255) == 255
    }

    private struct Context {
        var format: [InkMLChannel]?
        var brush = Brush()
        var timestamp: Double?
    }

    private struct RawSample {
        var x: Double, y: Double, t: Double
        var f: Double?, altitude: Double?, azimuth: Double?
    }

    private struct RawStroke {
        var samples: [RawSample]
        var brush: Brush
        var path: String
        /// Whether F was already divided into `0...1` by the channel's declared `max`.
        var pressureScaled: Bool
    }

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        try limits.checkSize(data.count)
        var reader = XMLReader(bytes: [UInt8](data))
        let root = try reader.parse()
        var state = State(reader: reader, limits: limits)
        guard root.name == "ink" else {
            throw reader.error(at: root.offset, "the root element is <\(root.name)>, expected <ink>")
        }
        state.index(root, depth: 0)
        var context = Context()
        try state.walk(root.children, context: &context)
        return try state.build()
    }

    private struct State {
        let reader: XMLReader
        let limits: DecodingLimits
        var byID: [String: XMLElement] = [:]
        var strokes: [RawStroke] = []
        var metadata: [String: String] = [:]
        var canvas: Canvas?
        var notes: [String] = []
        var noteSet = Set<String>()
        var hasTime = false
        var timeBase: Double?
        var clock = 0.0
        var totalSamples = 0
        var traceCount = 0

        init(reader: XMLReader, limits: DecodingLimits) {
            self.reader = reader
            self.limits = limits
        }

        mutating func note(_ text: String) {
            if noteSet.insert(text).inserted { notes.append(text) }
        }

        func error(_ element: XMLElement, _ message: String) -> FormatError {
            reader.error(at: element.offset, message)
        }

        mutating func index(_ element: XMLElement, depth: Int) {
            if let id = element.attribute("xml:id") ?? element.attribute("id"), byID[id] == nil { byID[id] = element }
            for child in element.children { index(child, depth: depth + 1) }
        }

        func lookup(_ reference: String, _ kind: String, from element: XMLElement) throws(FormatError) -> XMLElement {
            let id = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
            guard let target = byID[id], target.name == kind else {
                throw error(element, "\(reference) names no <\(kind)> in this document")
            }
            return target
        }

        // MARK: Definitions

        func traceFormat(_ element: XMLElement, depth: Int = 0) throws(FormatError) -> [InkMLChannel] {
            guard depth < InkMLDecoder.maxReferenceDepth else { throw error(element, "traceFormat references nest too deep") }
            if element.children.isEmpty, let ref = element.attribute("href") {
                return try traceFormat(lookup(ref, "traceFormat", from: element), depth: depth + 1)
            }
            var channels: [InkMLChannel] = []
            func add(_ e: XMLElement, intermittent: Bool) throws(FormatError) {
                guard let name = e.attribute("name"), !name.isEmpty else { throw error(e, "a <channel> without a name") }
                var channel = InkMLChannel(name: name, intermittent: intermittent, units: e.attribute("units"))
                for (attribute, assign) in [("min", 0), ("max", 1)] {
                    if let text = e.attribute(attribute) {
                        guard let v = Double(text), v.isFinite else {
                            throw error(e, "\(attribute)=\"\(text.prefix(40))\" is not a finite number")
                        }
                        if assign == 0 { channel.min = v } else { channel.max = v }
                    }
                }
                channel.negative = e.attribute("orientation") == "-ve"
                channel.respectTo = e.attribute("respectTo")
                channels.append(channel)
            }
            for child in element.children {
                if child.name == "channel" {
                    try add(child, intermittent: false)
                } else if child.name == "intermittentChannels" {
                    for c in child.children where c.name == "channel" { try add(c, intermittent: true) }
                }
            }
            return channels
        }

        func brush(_ element: XMLElement, depth: Int = 0) throws(FormatError) -> Brush {
            guard depth < InkMLDecoder.maxReferenceDepth else { throw error(element, "brush references nest too deep") }
            var b = Brush()
            if let ref = element.attribute("brushRef") {
                b = try brush(lookup(ref, "brush", from: element), depth: depth + 1)
            }
            for p in element.children where p.name == "brushProperty" {
                guard let value = p.attribute("value") else { continue }
                switch p.attribute("name") {
                case "color":
                    guard let color = Color(css: value) else {
                        throw error(p, "brush \(element.attribute("xml:id").map { "\"\($0.prefix(40))\" " } ?? "")color "
                                    + "\"\(value.prefix(40))\" is not a CSS colour (a name, #rrggbb, rgb(), hsl(), ...)")
                    }
                    b.color = color
                case "transparency":
                    guard let v = Double(value), v.isFinite, (0...255).contains(v) else {
                        throw error(p, "brush transparency \"\(value.prefix(40))\" is not a number in 0...255")
                    }
                    b.transparency = v
                case "tip":
                    guard let tip = Pen.Tip(rawValue: value) else {
                        throw error(p, "brush tip \"\(value.prefix(40))\" is neither \"ellipse\" nor \"rectangle\"")
                    }
                    b.tip = tip
                case "width":
                    guard let w = Double(value), w.isFinite, w >= 0 else {
                        throw error(p, "brush width \"\(value.prefix(40))\" is not a finite number >= 0")
                    }
                    b.width = w * (InkMLDecoder.lengthScale(p.attribute("units")) ?? 1)
                case .some(InkMLDecoder.penProperty):
                    do {
                        b.recorded = try JSONInput.read(Data(value.utf8), limits: limits) { (r: inout JSONReader) throws(JSONReader.Stop) in
                            let pen = try NativePen.read(&r, path: InkMLDecoder.penProperty)
                            try r.expectEnd()
                            return pen
                        }
                    } catch {
                        throw self.error(p, "brush \(InkMLDecoder.penProperty) is not a pen: \(error)")
                    }
                default: break
                }
            }
            return b
        }

        func timestamp(_ element: XMLElement, depth: Int = 0) throws(FormatError) -> Double {
            guard depth < InkMLDecoder.maxReferenceDepth else { throw error(element, "timestamp references nest too deep") }
            var base = 0.0
            if let text = element.attribute("time") {
                guard let v = Double(text), v.isFinite else { throw error(element, "time=\"\(text.prefix(40))\" is not a number") }
                return v
            }
            if let text = element.attribute("timeString") {
                guard let ms = ISO8601Time.millisecondsSince1970(text) else {
                    throw error(element, "timeString=\"\(text.prefix(40))\" is not an ISO 8601 date and time")
                }
                return ms
            }
            if let ref = element.attribute("timestampRef") {
                base = try timestamp(lookup(ref, "timestamp", from: element), depth: depth + 1)
            } else {
                throw error(element, "a <timestamp> needs time, timeString or timestampRef")
            }
            if let text = element.attribute("timeOffset") {
                guard let v = Double(text), v.isFinite else { throw error(element, "timeOffset=\"\(text.prefix(40))\" is not a number") }
                base += v
            }
            return base
        }

        func context(_ element: XMLElement, inheriting outer: Context, depth: Int = 0) throws(FormatError) -> Context {
            guard depth < InkMLDecoder.maxReferenceDepth else { throw error(element, "context references nest too deep") }
            var c = outer
            if let ref = element.attribute("contextRef") {
                c = try context(lookup(ref, "context", from: element), inheriting: c, depth: depth + 1)
            }
            if let ref = element.attribute("traceFormatRef") { c.format = try traceFormat(lookup(ref, "traceFormat", from: element)) }
            if let ref = element.attribute("inkSourceRef") {
                let source = try lookup(ref, "inkSource", from: element)
                if let f = source.children.first(where: { $0.name == "traceFormat" }) { c.format = try traceFormat(f) }
            }
            if let ref = element.attribute("brushRef") { c.brush = try brush(lookup(ref, "brush", from: element)) }
            if let ref = element.attribute("timestampRef") { c.timestamp = try timestamp(lookup(ref, "timestamp", from: element)) }
            for child in element.children {
                switch child.name {
                case "traceFormat": c.format = try traceFormat(child)
                case "inkSource":
                    if let f = child.children.first(where: { $0.name == "traceFormat" }) { c.format = try traceFormat(f) }
                case "brush": c.brush = try brush(child)
                case "timestamp": c.timestamp = try timestamp(child)
                default: break
                }
            }
            return c
        }

        // MARK: Walking the ink

        mutating func walk(_ elements: [XMLElement], context: inout Context) throws(FormatError) {
            for element in elements {
                switch element.name {
                case "trace":
                    var c = context
                    if let ref = element.attribute("contextRef") {
                        c = try self.context(lookup(ref, "context", from: element), inheriting: c)
                    }
                    if let ref = element.attribute("brushRef") { c.brush = try brush(lookup(ref, "brush", from: element)) }
                    try trace(element, context: c)
                case "traceGroup":
                    var c = context
                    if let ref = element.attribute("contextRef") {
                        c = try self.context(lookup(ref, "context", from: element), inheriting: c)
                    }
                    if let ref = element.attribute("brushRef") { c.brush = try brush(lookup(ref, "brush", from: element)) }
                    try walk(element.children, context: &c)
                case "context":
                    context = try self.context(element, inheriting: context)
                case "traceFormat":
                    context.format = try traceFormat(element)
                case "brush":
                    context.brush = try brush(element)
                case "timestamp":
                    if context.timestamp == nil { context.timestamp = try timestamp(element) }
                case "inkSource":
                    if let f = element.children.first(where: { $0.name == "traceFormat" }) { context.format = try traceFormat(f) }
                case "annotation":
                    let type = element.attribute("type") ?? "annotation"
                    if type == InkMLDecoder.canvasAnnotation {
                        let parts = element.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).compactMap { Double($0) }
                        guard parts.count == 3, parts[0] > 0, parts[1] > 0, parts[0] <= limits.maxCoordinate,
                              parts[1] <= limits.maxCoordinate, InkAssembler.unitsPerInchRange.contains(parts[2]) else {
                            throw error(element, "a \(type) annotation holds \"width height unitsPerInch\": sides over 0 "
                                        + "up to the coordinate limit \(limits.maxCoordinate), units per inch in \(InkAssembler.unitsPerInchRange)")
                        }
                        canvas = Canvas(width: parts[0], height: parts[1], unitsPerInch: parts[2])
                    } else {
                        metadata[type] = element.text
                    }
                default:
                    break
                }
            }
        }

        mutating func trace(_ element: XMLElement, context: Context) throws(FormatError) {
            let index = traceCount
            traceCount += 1
            if element.attribute("type") == "penUp" {
                note("pen-up (hover) traces were skipped")
                return
            }
            if index >= limits.maxStrokes {
                throw .limitExceeded(what: "stroke count", limit: limits.maxStrokes, actual: index + 1)
            }
            var format: [InkMLChannel]
            if let f = context.format {
                format = f
            } else {
                let firstPoint = element.text.prefix { $0 != "," }
                let count = firstPoint.split(whereSeparator: { $0.isWhitespace }).count
                if count == 3 {
                    format = [InkMLChannel(name: "X"), InkMLChannel(name: "Y"), InkMLChannel(name: "T")]
                    note("no traceFormat: channels X Y T assumed (3 values per point)")
                } else {
                    format = [InkMLChannel(name: "X"), InkMLChannel(name: "Y")]
                    note("no traceFormat: channels X Y assumed")
                }
            }
            let parser = InkMLTraceParser(channels: format, maxPoints: limits.maxSamplesPerStroke)
            let textOffset = element.textOffset ?? element.offset
            let reader = self.reader
            let columns = try parser.parse(element.text) { offset, message in
                reader.error(at: textOffset + offset, "in <trace>: \(message)")
            }
            let count = columns.first?.count ?? 0
            totalSamples += count
            if totalSamples > limits.maxSamples {
                throw .limitExceeded(what: "sample count", limit: limits.maxSamples, actual: totalSamples)
            }
            func column(_ name: String) -> (InkMLChannel, [Double?])? {
                guard let k = format.firstIndex(where: { $0.name == name }) else { return nil }
                return (format[k], columns[k])
            }
            guard let (xChannel, xs) = column("X"), let (yChannel, ys) = column("Y") else {
                throw error(element, "the trace format has no X and Y channels")
            }
            let xScale = try lengthScale(xChannel, element) * (xChannel.negative ? -1 : 1)
            let yScale = try lengthScale(yChannel, element) * (yChannel.negative ? -1 : 1)
            if yChannel.negative { note("Y grows upwards (orientation -ve): flipped") }

            var timeOffset = 0.0
            if let text = element.attribute("timeOffset") {
                guard let v = Double(text), v.isFinite else { throw error(element, "timeOffset=\"\(text.prefix(40))\" is not a number") }
                timeOffset = v
            }
            var times: [Double?]
            let tColumn = column("T")
            if let (tChannel, ts) = tColumn {
                hasTime = true
                var base = context.timestamp
                if let ref = tChannel.respectTo { base = try timestamp(lookup(ref, "timestamp", from: element)) }
                let scale: Double
                switch tChannel.units {
                case nil: scale = 1; note("T has no units: milliseconds assumed")
                case "ms": scale = 1
                case "s": scale = 1000
                case "us", "µs": scale = 0.001
                case let other?: scale = 1; note("T units \"\(other)\" are not known: milliseconds assumed")
                }
                if timeBase == nil, let base { timeBase = base }
                let shift = (base ?? 0) - (timeBase ?? 0) + timeOffset
                times = ts.map { t in t.map { $0 * scale + shift } }
            } else {
                note("no T channel: samples assumed \(Int(InkMLDecoder.assumedInterval)) ms apart")
                if timeBase == nil, let base = context.timestamp { timeBase = base }
                if element.attribute("timeOffset") != nil { clock = max(clock, timeOffset) }
                times = (0..<count).map { i in clock + Double(i) * InkMLDecoder.assumedInterval }
                clock += Double(count + 1) * InkMLDecoder.assumedInterval
            }

            let f = column("F")
            var altitude: [Double?]?
            var azimuth: [Double?]?
            if let (c, values) = column("OE") { altitude = try angles(values, c, element) }
            if let (c, values) = column("OA") { azimuth = try angles(values, c, element) }
            if altitude == nil || azimuth == nil, let (cx, tx) = column("OTx"), let (cy, ty) = column("OTy") {
                let ax = try angles(tx, cx, element), ay = try angles(ty, cy, element)
                var alt: [Double?] = [], az: [Double?] = []
                for i in 0..<count {
                    guard let a = ax[i], let b = ay[i] else { alt.append(nil); az.append(nil); continue }
                    let u = Double.tan(a), v = Double.tan(b)
                    let r = (u * u + v * v).squareRoot()
                    alt.append(Double.atan2(y: 1, x: r))
                    az.append(r == 0 ? 0 : Double.atan2(y: v, x: u))
                }
                if altitude == nil { altitude = alt }
                if azimuth == nil { azimuth = az }
            }
            if let (fc, _) = f, let min = fc.min, let max = fc.max, !(max > min) {
                throw error(element, "channel F has min \(min) >= max \(max)")
            }

            var samples: [RawSample] = []
            samples.reserveCapacity(count)
            for i in 0..<count {
                guard let x = xs[i], let y = ys[i] else { throw error(element, "point \(i) of the trace has no X or Y value") }
                guard let t = times[i] else { throw error(element, "point \(i) of the trace has no T value") }
                var p: Double?
                if let (fc, fs) = f, let v = fs[i] {
                    if let max = fc.max { p = (v - (fc.min ?? 0)) / (max - (fc.min ?? 0)) } else { p = v }
                }
                samples.append(RawSample(x: x * xScale, y: y * yScale, t: t, f: p,
                                         altitude: altitude?[i] ?? nil, azimuth: azimuth?[i] ?? nil))
            }
            strokes.append(RawStroke(samples: samples, brush: context.brush, path: "trace \(index + 1)",
                                     pressureScaled: f?.0.max != nil))
        }

        mutating func lengthScale(_ channel: InkMLChannel, _ element: XMLElement) throws(FormatError) -> Double {
            guard let units = channel.units else {
                if canvas == nil { note("X/Y have no units: taken as canvas units (CSS pixels)") }
                return 1
            }
            guard let scale = InkMLDecoder.lengthScale(units) else {
                note("length units \"\(units)\" of channel \(channel.name) are not known: taken as canvas units")
                return 1
            }
            return scale
        }

        mutating func angles(_ values: [Double?], _ channel: InkMLChannel, _ element: XMLElement) throws(FormatError) -> [Double?] {
            let scale: Double
            switch channel.units {
            case nil: scale = Double.pi / 180; note("angles have no units: degrees assumed")
            case "deg": scale = Double.pi / 180
            case "rad": scale = 1
            case let other?:
                scale = Double.pi / 180
                note("angle units \"\(other)\" of channel \(channel.name) are not known: degrees assumed")
            }
            return values.map { $0.map { $0 * scale } }
        }

        // MARK: Building

        mutating func build() throws(FormatError) -> (Signature, [String]) {
            var ink = InkAssembler(limits: limits)
            try ink.reserve(totalSamples)
            // Pressure without a declared range: divide by the smallest usual device range holding the peak.
            var pressureScale = 1.0
            let peak = strokes.lazy.filter { !$0.pressureScaled }.flatMap(\.samples).compactMap(\.f).max() ?? 0
            if peak > 1 {
                let ranges: [Double] = [255, 1023, 2047, 4095, 8191, 32767, 65535]
                if let range = ranges.first(where: { $0 >= peak }) {
                    pressureScale = 1 / range
                    note("F has no max: pressure read as levels 0...\(Int(range))")
                }
            }
            var pens: [Pen] = []
            var anyBrush = false
            for stroke in strokes {
                for (i, s) in stroke.samples.enumerated() {
                    let scale = stroke.pressureScaled ? 1 : pressureScale
                    try ink.add(x: s.x, y: s.y, t: s.t, pressure: s.f.map { $0 * scale },
                                altitude: s.altitude, azimuth: s.azimuth, path: "\(stroke.path), point \(i + 1)")
                }
                let before = ink.strokeCount
                try ink.endStroke()
                guard ink.strokeCount > before else { continue }
                let b = stroke.brush
                if !b.isEmpty { anyBrush = true }
                if !InkMLDecoder.foldsExactly(b) {
                    note("a brush transparency that is not a whole number over an opaque colour is rounded to the colour's 256 opacity levels")
                }
                let pen = b.pen
                if pen.tip != .ellipse { note(InkMLDecoder.tipNote) }
                pens.append(pen)
            }
            ink.assumptions = notes
            var (signature, assumptions) = try ink.finish(metadata: metadata, canvas: canvas, timeBase: timeBase, timesKnown: hasTime)
            // Every trace's own brush; a trace without one, in a document with brushes, has InkML's default brush.
            if anyBrush { signature.pens = pens }
            return (signature, assumptions)
        }
    }

    /// The `brushProperty` name under which a pen that the standard properties cannot describe is written, as the
    /// native format's pen object (``NativePen``).
    static let penProperty = "signature-ink:pen"

    /// What is said when a brush has another tip than a round one.
    static let tipNote = "a brush tip other than \"ellipse\" is drawn round"

    /// CSS pixels per unit of length, or `nil` for unknown units; `nil` units (or `px`, `dev`) mean 1.
    static func lengthScale(_ units: String?) -> Double? {
        switch units {
        case nil, "px", "dev": return 1
        case "mm": return 96 / 25.4
        case "cm": return 96 / 2.54
        case "m": return 96 / 0.0254
        case "in": return 96
        case "pt": return 96.0 / 72
        case "pc": return 16
        case "himetric": return 96 / 2540
        default: return nil
        }
    }
}
