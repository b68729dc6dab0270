// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
public import SignatureInk

/// Reads the native `signature-ink` JSON format, version 1.
///
/// ```json
/// {"format": "signature-ink", "version": 1,
///  "canvas": {"width": 600, "height": 300, "unitsPerInch": 96},
///  "startTime": 1763781117123, "metadata": {"device": "pen"},
///  "pens": [{"color": "#0d1a66", "minWidth": 1.4, "maxWidth": 5.6, "model": "signaturePad",
///            "velocityFilterWeight": 0.7, "blend": "normal"}],
///  "channels": ["x", "y", "t", "pressure"],
///  "strokes": [[[10, 20, 0, 0.5], [12, 21, 8, 0.52]]]}
/// ```
/// `pens` (optional) gives the pen of each stroke in order (`Signature.pens`): `color` as CSS
/// colour text, the widths in canvas units (`minWidth`, `maxWidth`, `dotWidth`, each optional, `> 0`),
/// `model` (`pressureOrSpeed`, the default, or `signaturePad` with its `velocityFilterWeight` in `0...1`),
/// `blend` (`normal`, the default, or `erase`), `tip` (`ellipse`, the default, or `rectangle`) and
/// `compositeOperation` (a canvas composite operation that `blend` cannot say, such as `multiply`; see
/// `Pen.compositeOperation`). It may not hold more pens than there are strokes. The pens are the only place a
/// stroke's pen is kept: `metadata` holds free-form facts about the capture.
/// `channels` lists the columns of every sample: `x`, `y` and `t` always, then any of `pressure`, `altitude`
/// and `azimuth`; an optional channel may be `null` in a sample that lacks it. `canvas`, `startTime` and
/// `metadata` and `pens` may be left out.
///
/// This package writes the format, so the reader is strict and repairs nothing: each of these is a
/// ``FormatError/field(path:message:)`` naming the value, where the other formats repair or skip:
/// a time that is negative, beyond the year 5138 (`1e14` ms) or earlier than the previous sample's in
/// its stroke; pressure outside `0...1`; an empty stroke; a `startTime` outside `0...1e14`; a canvas
/// side over ``DecodingLimits/maxCoordinate`` or `unitsPerInch` outside `0.001...1000000`. A document
/// with no strokes is an empty signature here (``InkDecoder`` refuses it: nothing to draw).
public struct NativeDecoder: Sendable {
    /// Bounds checked while decoding.
    public var limits: DecodingLimits

    /// Creates a decoder with the given limits (default ``DecodingLimits/default``).
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Decodes a signature.
    /// - Throws: ``FormatError`` naming the line and column of a syntax error, or the path of a bad field.
    public func decode(_ data: Data) throws(FormatError) -> Signature {
        let limits = self.limits
        return try JSONInput.read(data, limits: limits) { (reader: inout JSONReader) throws(JSONReader.Stop) in
            try NativeDocumentReader(limits: limits).read(&reader)
        }
    }
}

/// The channels a native document can name, in the order samples store them.
enum NativeChannel: String, CaseIterable {
    case x, y, t, pressure, altitude, azimuth
}

/// Reads a native document in one pass over its bytes.
///
/// Errors come in the order a reader would meet them checking the document top down, whatever the order of
/// its keys: a syntax error anywhere first, then `format`, `version`, `canvas`, `startTime`, `metadata`,
/// `pens`, `channels` and last `strokes`. So the top-level object is scanned first, noting where each value starts;
/// `strokes` is read during the scan when `channels` came before it (as this package writes them), otherwise
/// afterwards from where it starts.
private struct NativeDocumentReader {
    let limits: DecodingLimits

    /// The top-level members, in the order they are checked.
    private enum Member: Int, CaseIterable {
        case format, version, canvas, startTime, metadata, pens, channels, strokes

        var name: StaticString {
            switch self {
            case .format: return "format"
            case .version: return "version"
            case .canvas: return "canvas"
            case .startTime: return "startTime"
            case .metadata: return "metadata"
            case .pens: return "pens"
            case .channels: return "channels"
            case .strokes: return "strokes"
            }
        }
    }

    typealias Stop = JSONReader.Stop

    func read(_ r: inout JSONReader) throws(Stop) -> Signature {
        try r.expectKind(.object, path: "")
        // Where each member's value starts, as a reader positioned there.
        var found = [JSONReader?](repeating: nil, count: Member.allCases.count)
        // The strokes, when they were read during the scan.
        var early: Result<[[InkSample]], FormatError>?
        if try r.enterObject() {
            repeat {
                let key = try r.key()
                _ = r.peek()
                // A repeated key counts once, the first time, as in Foundation's decoder.
                guard let member = Member.allCases.first(where: { r.matches(key, $0.name) }),
                      found[member.rawValue] == nil else {
                    try r.skipValue()
                    continue
                }
                found[member.rawValue] = r
                if member == .strokes, var c = found[Member.channels.rawValue], let channels = try? channelList(&c) {
                    let start = r
                    do {
                        early = .success(try strokes(&r, channels: channels))
                    } catch {
                        guard case let .field(error) = error else { throw error }
                        early = .failure(error)
                        r = start
                        try r.skipValue()
                    }
                    continue
                }
                try r.skipValue()
            } while try r.nextInObject()
        }
        try r.expectEnd()

        func reader(_ m: Member) throws(Stop) -> JSONReader {
            guard let c = found[m.rawValue] else { throw .field(.field(path: m.name.description, message: "missing")) }
            return c
        }
        func present(_ m: Member) -> JSONReader? {
            guard var c = found[m.rawValue], !c.consumeNull() else { return nil }
            return c
        }

        var c = try reader(.format)
        let format = try c.string(path: "format")
        guard format == "signature-ink" else {
            throw .field(.field(path: "format", message: "expected \"signature-ink\", found \"\(format)\""))
        }
        c = try reader(.version)
        let version = try c.integer(path: "version")
        guard version == 1 else { throw .field(.unsupportedVersion(format: format, version: version)) }

        var canvas: Canvas?
        if var c = present(.canvas) {
            canvas = try self.canvas(&c)
        }
        var startTime: Double?
        if var c = present(.startTime) {
            let s = try c.double(path: "startTime")
            guard s.isFinite && s >= 0 && s <= InkAssembler.maxTimestamp else {
                throw .field(.field(path: "startTime", message: "\(s) is outside 0...\(InkAssembler.maxTimestamp) "
                                    + "milliseconds since 1970 (up to the year 5138)"))
            }
            startTime = s
        }
        var metadata: [String: String] = [:]
        if var c = present(.metadata) {
            metadata = try Self.metadata(&c)
        }
        var pens: [Pen] = []
        if var c = present(.pens) {
            pens = try Self.pens(&c)
        }
        c = try reader(.channels)
        let channels = try channelList(&c)

        var signature = Signature(canvas: canvas, startTime: startTime, metadata: metadata)
        let strokes: [[InkSample]]
        switch early {
        case let .success(s): strokes = s
        case let .failure(error): throw .field(error)
        case nil:
            c = try reader(.strokes)
            strokes = try self.strokes(&c, channels: channels)
        }
        for stroke in strokes { signature.appendStroke(stroke) }
        guard pens.count <= signature.strokeCount else {
            throw .field(.field(path: "pens", message: "\(pens.count) pens for \(signature.strokeCount) strokes"))
        }
        signature.pens = pens
        return signature
    }

    // MARK: Members

    private func canvas(_ r: inout JSONReader) throws(Stop) -> Canvas {
        try r.expectKind(.object, path: "canvas")
        var width: JSONReader?, height: JSONReader?, unitsPerInch: JSONReader?
        if try r.enterObject() {
            repeat {
                let key = try r.key()
                _ = r.peek()
                if r.matches(key, "width") { width = width ?? r } else if r.matches(key, "height") { height = height ?? r }
                else if r.matches(key, "unitsPerInch") { unitsPerInch = unitsPerInch ?? r }
                try r.skipValue()
            } while try r.nextInObject()
        }
        guard var w = width else { throw .field(.field(path: "canvas.width", message: "missing")) }
        let widthValue = try w.double(path: "canvas.width")
        guard var h = height else { throw .field(.field(path: "canvas.height", message: "missing")) }
        let heightValue = try h.double(path: "canvas.height")
        var upi = Canvas.cssPixelsPerInch
        if var u = unitsPerInch, !u.consumeNull() { upi = try u.double(path: "canvas.unitsPerInch") }
        guard widthValue > 0, heightValue > 0, widthValue <= limits.maxCoordinate, heightValue <= limits.maxCoordinate else {
            throw .field(.field(path: "canvas", message: "width and height must be > 0 and at most the "
                                + "coordinate limit \(limits.maxCoordinate)"))
        }
        guard InkAssembler.unitsPerInchRange.contains(upi) else {
            throw .field(.field(path: "canvas.unitsPerInch", message: "\(upi) is outside \(InkAssembler.unitsPerInchRange)"))
        }
        return Canvas(width: widthValue, height: heightValue, unitsPerInch: upi)
    }

    private static func metadata(_ r: inout JSONReader) throws(Stop) -> [String: String] {
        try r.expectKind(.object, path: "metadata")
        var out: [String: String] = [:]
        if try r.enterObject() {
            repeat {
                let key = r.text(of: try r.key())
                if out[key] == nil { out[key] = try r.string(path: "metadata.\(key)") } else { try r.skipValue() }
            } while try r.nextInObject()
        }
        return out
    }

    private static func pens(_ r: inout JSONReader) throws(Stop) -> [Pen] {
        try r.expectKind(.array, path: "pens")
        var pens: [Pen] = []
        guard try r.enterArray() else { return pens }
        repeat {
            pens.append(try NativePen.read(&r, path: "pens[\(pens.count)]"))
        } while try r.nextInArray()
        return pens
    }

    private func channelList(_ r: inout JSONReader) throws(Stop) -> [NativeChannel] {
        try r.expectKind(.array, path: "channels")
        var channels: [NativeChannel] = []
        guard try r.enterArray() else {
            throw .field(.field(path: "channels", message: "must begin with \"x\", \"y\", \"t\""))
        }
        var i = 0
        repeat {
            let name = try r.string(path: "channels[\(i)]")
            guard let ch = NativeChannel(rawValue: name) else {
                throw .field(.field(path: "channels[\(i)]", message: "unknown channel \"\(name)\""))
            }
            guard !channels.contains(ch) else {
                throw .field(.field(path: "channels[\(i)]", message: "channel \"\(name)\" named twice"))
            }
            channels.append(ch)
            i += 1
        } while try r.nextInArray()
        guard Array(channels.prefix(3)) == [.x, .y, .t] else {
            throw .field(.field(path: "channels", message: "must begin with \"x\", \"y\", \"t\""))
        }
        return channels
    }

    private func strokes(_ r: inout JSONReader, channels: [NativeChannel]) throws(Stop) -> [[InkSample]] {
        try r.expectKind(.array, path: "strokes")
        var strokes: [[InkSample]] = []
        var total = 0
        var values = [JSONReader.Scalar](repeating: .null, count: channels.count)
        guard try r.enterArray() else { return [] }
        var strokeIndex = 0
        repeat {
            if strokeIndex >= limits.maxStrokes {
                throw .field(.limitExceeded(what: "stroke count", limit: limits.maxStrokes, actual: strokeIndex + 1))
            }
            try r.expectKind(.array, path: "strokes[\(strokeIndex)]")
            var stroke: [InkSample] = []
            if try r.enterArray() {
                var sampleIndex = 0
                repeat {
                    if sampleIndex >= limits.maxSamplesPerStroke {
                        throw .field(.limitExceeded(what: "samples in stroke \(strokeIndex)",
                                                    limit: limits.maxSamplesPerStroke, actual: sampleIndex + 1))
                    }
                    total += 1
                    if total > limits.maxSamples {
                        throw .field(.limitExceeded(what: "sample count", limit: limits.maxSamples, actual: total))
                    }
                    try r.expectKind(.array, path: "strokes[\(strokeIndex)][\(sampleIndex)]")
                    var count = 0
                    if try r.enterArray() {
                        repeat {
                            if count < values.count {
                                values[count] = try r.scalar()
                            } else {
                                try r.skipValue()
                            }
                            count += 1
                        } while try r.nextInArray()
                    }
                    stroke.append(try sample(values, count: count, previous: stroke.last, r,
                                             channels: channels, stroke: strokeIndex, index: sampleIndex))
                    sampleIndex += 1
                } while try r.nextInArray()
            }
            guard !stroke.isEmpty else {
                throw .field(.field(path: "strokes[\(strokeIndex)]",
                                    message: "an empty stroke (a stroke holds at least one sample)"))
            }
            strokes.append(stroke)
            strokeIndex += 1
        } while try r.nextInArray()
        return strokes
    }

    /// Checks one sample's values and makes the sample.
    private func sample(_ values: [JSONReader.Scalar], count: Int, previous: InkSample?, _ r: JSONReader,
                        channels: [NativeChannel], stroke: Int, index: Int) throws(Stop) -> InkSample {
        func path() -> String { "strokes[\(stroke)][\(index)]" }
        guard count == channels.count else {
            throw .field(.field(path: path(), message: "has \(count) values, expected \(channels.count) (one per channel)"))
        }
        var s = InkSample(x: 0, y: 0, t: 0)
        for k in 0..<channels.count {
            let ch = channels[k]
            func fieldPath() -> String { "\(path())[\(k)] (\(ch.rawValue))" }
            let n: JSONReader.Number
            switch values[k] {
            case let .number(number): n = number
            case .null:
                if k < 3 { throw JSONReader.typeMismatch("\(path())[\(k)]", expected: .number, found: .null) }
                continue
            case let .other(kind):
                throw JSONReader.typeMismatch("\(path())[\(k)]", expected: .number, found: kind)
            }
            switch ch {
            case .x, .y, .t:
                let v = try r.finiteDouble(n)
                if ch != .t && abs(v) > limits.maxCoordinate {
                    throw .field(.field(path: fieldPath(), message: "coordinate \(v) exceeds the limit of \(limits.maxCoordinate)"))
                }
                if ch == .t {
                    guard v >= 0, v <= InkAssembler.maxTimestamp else {
                        throw .field(.field(path: fieldPath(), message:
                            "time \(v) ms is outside 0...\(InkAssembler.maxTimestamp) (up to the year 5138)"))
                    }
                    if let previous = previous?.t, v < previous {
                        throw .field(.field(path: fieldPath(), message:
                            "time \(v) ms is earlier than the previous sample's \(previous) ms"))
                    }
                }
                if ch == .x { s.x = v } else if ch == .y { s.y = v } else { s.t = v }
            case .pressure, .altitude, .azimuth:
                let v = r.float(of: n)
                guard v.isFinite else {
                    guard r.double(of: n).isFinite else { throw .syntax(offset: n.start) }
                    throw r.unrepresentable(n, path: "\(path())[\(k)]", type: "Float")
                }
                if ch == .pressure {
                    guard (0...1).contains(v) else {
                        throw .field(.field(path: fieldPath(), message: "pressure \(v) is outside 0...1"))
                    }
                    s.pressure = v
                } else if ch == .altitude { s.altitude = v } else { s.azimuth = v }
            }
        }
        return s
    }
}
