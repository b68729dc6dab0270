// SPDX-License-Identifier: Apache-2.0
public import Foundation
public import SignatureInk

/// Reads the native `signature-ink` JSON format, version 1.
///
/// ```json
/// {"format": "signature-ink", "version": 1,
///  "canvas": {"width": 600, "height": 300, "unitsPerInch": 96},
///  "startTime": 1763781117123, "metadata": {"device": "pen"},
///  "channels": ["x", "y", "t", "pressure"],
///  "strokes": [[[10, 20, 0, 0.5], [12, 21, 8, 0.52]]]}
/// ```
/// `channels` lists the columns of every sample: `x`, `y` and `t` always, then any of `pressure`, `altitude`
/// and `azimuth`; an optional channel may be `null` in a sample that lacks it. `canvas`, `startTime` and
/// `metadata` may be left out.
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
        try JSONInput.decode(NativeDocument.self, from: data, limits: limits).signature
    }
}

let limitsKey = CodingUserInfoKey(rawValue: "signature-ink.limits")!

/// The channels a native document can name, in the order samples store them.
enum NativeChannel: String, CaseIterable {
    case x, y, t, pressure, altitude, azimuth
}

private struct NativeDocument: Decodable {
    let signature: Signature

    enum Key: String, CodingKey {
        case format, version, canvas, startTime, metadata, channels, strokes
    }

    struct CanvasFields: Decodable {
        let width: Double
        let height: Double
        let unitsPerInch: Double?
    }

    init(from decoder: any Decoder) throws {
        let limits = decoder.userInfo[limitsKey] as? DecodingLimits ?? .default
        let c = try decoder.container(keyedBy: Key.self)
        let format = try c.decode(String.self, forKey: .format)
        guard format == "signature-ink" else {
            throw FormatError.field(path: "format", message: "expected \"signature-ink\", found \"\(format)\"")
        }
        let version = try c.decode(Int.self, forKey: .version)
        guard version == 1 else { throw FormatError.unsupportedVersion(format: format, version: version) }

        var canvas: Canvas?
        if let f = try c.decodeIfPresent(CanvasFields.self, forKey: .canvas) {
            let upi = f.unitsPerInch ?? Canvas.cssPixelsPerInch
            guard f.width > 0, f.height > 0, f.width <= limits.maxCoordinate, f.height <= limits.maxCoordinate else {
                throw FormatError.field(path: "canvas", message: "width and height must be > 0 and at most the "
                                        + "coordinate limit \(limits.maxCoordinate)")
            }
            guard InkAssembler.unitsPerInchRange.contains(upi) else {
                throw FormatError.field(path: "canvas.unitsPerInch", message: "\(upi) is outside \(InkAssembler.unitsPerInchRange)")
            }
            canvas = Canvas(width: f.width, height: f.height, unitsPerInch: upi)
        }
        let startTime = try c.decodeIfPresent(Double.self, forKey: .startTime)
        if let s = startTime, !(s.isFinite && s >= 0 && s <= InkAssembler.maxTimestamp) {
            throw FormatError.field(path: "startTime", message: "\(s) is outside 0...\(InkAssembler.maxTimestamp) "
                                    + "milliseconds since 1970 (up to the year 5138)")
        }
        let metadata = try c.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:]

        let names = try c.decode([String].self, forKey: .channels)
        var channels: [NativeChannel] = []
        for (i, name) in names.enumerated() {
            guard let ch = NativeChannel(rawValue: name) else {
                throw FormatError.field(path: "channels[\(i)]", message: "unknown channel \"\(name)\"")
            }
            guard !channels.contains(ch) else {
                throw FormatError.field(path: "channels[\(i)]", message: "channel \"\(name)\" named twice")
            }
            channels.append(ch)
        }
        guard Array(channels.prefix(3)) == [.x, .y, .t] else {
            throw FormatError.field(path: "channels", message: "must begin with \"x\", \"y\", \"t\"")
        }

        var signature = Signature(canvas: canvas, startTime: startTime, metadata: metadata)
        var strokes = try c.nestedUnkeyedContainer(forKey: .strokes)
        var stroke: [InkSample] = []
        var total = 0
        while !strokes.isAtEnd {
            let strokeIndex = strokes.currentIndex
            if strokeIndex >= limits.maxStrokes {
                throw FormatError.limitExceeded(what: "stroke count", limit: limits.maxStrokes, actual: strokeIndex + 1)
            }
            var samples = try strokes.nestedUnkeyedContainer()
            stroke.removeAll(keepingCapacity: true)
            while !samples.isAtEnd {
                let sampleIndex = samples.currentIndex
                let path = "strokes[\(strokeIndex)][\(sampleIndex)]"
                if sampleIndex >= limits.maxSamplesPerStroke {
                    throw FormatError.limitExceeded(
                        what: "samples in stroke \(strokeIndex)", limit: limits.maxSamplesPerStroke,
                        actual: sampleIndex + 1)
                }
                total += 1
                if total > limits.maxSamples {
                    throw FormatError.limitExceeded(what: "sample count", limit: limits.maxSamples, actual: total)
                }
                var fields = try samples.nestedUnkeyedContainer()
                if let n = fields.count, n != channels.count {
                    throw FormatError.field(path: path, message: "has \(n) values, expected \(channels.count) (one per channel)")
                }
                var s = InkSample(x: 0, y: 0, t: 0)
                for (k, ch) in channels.enumerated() {
                    let fieldPath = "\(path)[\(k)] (\(ch.rawValue))"
                    switch ch {
                    case .x, .y, .t:
                        let v = try fields.decode(Double.self)
                        guard v.isFinite else { throw FormatError.field(path: fieldPath, message: "must be finite") }
                        if ch != .t && abs(v) > limits.maxCoordinate {
                            throw FormatError.field(path: fieldPath, message: "coordinate \(v) exceeds the limit of \(limits.maxCoordinate)")
                        }
                        if ch == .t {
                            guard v >= 0, v <= InkAssembler.maxTimestamp else {
                                throw FormatError.field(path: fieldPath, message:
                                    "time \(v) ms is outside 0...\(InkAssembler.maxTimestamp) (up to the year 5138)")
                            }
                            if let previous = stroke.last?.t, v < previous {
                                throw FormatError.field(path: fieldPath, message:
                                    "time \(v) ms is earlier than the previous sample's \(previous) ms")
                            }
                        }
                        if ch == .x { s.x = v } else if ch == .y { s.y = v } else { s.t = v }
                    case .pressure, .altitude, .azimuth:
                        if try fields.decodeNil() { continue }
                        let v = try fields.decode(Float.self)
                        guard v.isFinite else { throw FormatError.field(path: fieldPath, message: "must be finite") }
                        if ch == .pressure {
                            guard (0...1).contains(v) else {
                                throw FormatError.field(path: fieldPath, message: "pressure \(v) is outside 0...1")
                            }
                            s.pressure = v
                        } else if ch == .altitude { s.altitude = v } else { s.azimuth = v }
                    }
                }
                stroke.append(s)
            }
            guard !stroke.isEmpty else {
                throw FormatError.field(path: "strokes[\(strokeIndex)]", message: "an empty stroke (a stroke holds at least one sample)")
            }
            signature.appendStroke(stroke)
        }
        self.signature = signature
    }
}

extension FormatError {
    /// Turns a Foundation decoding error into one that names the field and position.
    init(_ error: DecodingError) {
        func path(_ keys: [any CodingKey]) -> String {
            var out = ""
            for k in keys {
                if let i = k.intValue { out += "[\(i)]" } else { out += out.isEmpty ? k.stringValue : ".\(k.stringValue)" }
            }
            return out
        }
        switch error {
        case let .keyNotFound(key, ctx):
            let p = path(ctx.codingPath + [key])
            self = .field(path: p, message: "missing")
        case let .valueNotFound(type, ctx):
            self = .field(path: path(ctx.codingPath), message: "expected \(FormatError.typeName(type)), found null")
        case let .typeMismatch(type, ctx):
            self = .field(path: path(ctx.codingPath), message: "expected \(FormatError.typeName(type))")
        case let .dataCorrupted(ctx):
            if ctx.codingPath.isEmpty {
                let text = (ctx.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                    ?? ctx.debugDescription
                self = FormatError.syntax(from: text)
            } else {
                self = .field(path: path(ctx.codingPath), message: ctx.debugDescription)
            }
        @unknown default:
            self = .syntax(line: 0, column: 0, message: "\(error)")
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") || name.contains("UnkeyedDecodingContainer") { return "an array" }
            if name.hasPrefix("Dictionary") || name.contains("KeyedDecodingContainer") { return "an object" }
            return name
        }
    }

    /// Parses "... around line L, column C." out of a JSON parser message.
    static func syntax(from text: String) -> FormatError {
        var line = 0, column = 0
        if let r = text.range(of: "line ") {
            let digits = text[r.upperBound...].prefix { $0.isNumber }
            line = Int(digits) ?? 0
        }
        if let r = text.range(of: "column ") {
            let digits = text[r.upperBound...].prefix { $0.isNumber }
            column = Int(digits) ?? 0
        }
        var message = text
        if let r = message.range(of: " around line") { message = String(message[..<r.lowerBound]) }
        if message.hasSuffix(".") { message.removeLast() }
        return .syntax(line: line, column: column, message: "invalid JSON: \(message)")
    }
}
