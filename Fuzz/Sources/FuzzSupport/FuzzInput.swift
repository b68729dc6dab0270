// SPDX-License-Identifier: Apache-2.0
public import Foundation
public import SignatureInk
public import SignatureInkFormats
public import SignatureInkRender

/// What every fuzz target does with one input: decode it, and trap (so libFuzzer reports a crash) when a
/// decoded signature breaks a promise the decoders make. A thrown ``FormatError`` is a correct answer.
public enum FuzzInput {
    /// Limits small enough that one input stays fast, large enough to reach every code path.
    public static let limits = DecodingLimits(maxBytes: 1 << 20, maxStrokes: 10_000, maxSamplesPerStroke: 100_000,
                                              maxSamples: 200_000, maxCoordinate: 1e7)

    /// Render limits that keep one render under a few milliseconds: at most a quarter megapixel.
    public static let renderLimits = RenderLimits(maxPixels: 1 << 18, maxSide: 2048, maxScale: 4)

    /// Copies libFuzzer's buffer into `Data`.
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Decodes `data` as `format` (or the detected format), checks the result, and returns it; `nil` when the
    /// decoder threw a ``FormatError``.
    @discardableResult
    public static func decode(_ data: Data, as format: InkFormat?) -> Signature? {
        let result: DecodeResult
        do {
            result = try InkDecoder(limits: limits).decode(data, as: format)
        } catch {
            check(error)
            return nil
        }
        if let format { require(result.format == format, "decoded as \(result.format), asked for \(format)") }
        check(result.signature, format: result.format)
        return result.signature
    }

    /// Every error must have a message a person can read, and a syntax error a sane position.
    static func check(_ error: FormatError) {
        require(!error.description.isEmpty, "an error without a message")
        if case let .syntax(line, column, _) = error {
            require(line >= 0 && column >= 0, "a negative position in \(error)")
        }
    }

    /// The promises of ``InkDecoder``: a non-empty signature within the limits, finite values, coordinates
    /// within the limit (SVC2004 moves its ink to the origin, so up to twice it), times from 0 that never go
    /// backwards inside a stroke, pressure in 0...1, a valid canvas; and the native format holds it without
    /// loss.
    static func check(_ signature: Signature, format: InkFormat) {
        require(!signature.isEmpty, "an empty signature was returned")
        require(signature.samples.count <= limits.maxSamples, "more samples than the limit")
        require(signature.strokeCount <= limits.maxStrokes, "more strokes than the limit")
        let reach = format == .svc2004 ? 2 * limits.maxCoordinate : limits.maxCoordinate
        for stroke in signature.strokes {
            require(!stroke.isEmpty, "an empty stroke")
            require(stroke.count <= limits.maxSamplesPerStroke, "a stroke longer than the limit")
            var previous = -Double.infinity
            for s in stroke {
                require(s.x.isFinite && s.y.isFinite && abs(s.x) <= reach && abs(s.y) <= reach,
                        "coordinate (\(s.x), \(s.y)) is not finite or beyond the limit")
                require(s.t.isFinite && s.t >= 0, "time \(s.t) is not finite or negative")
                if format != .native { require(s.t >= previous, "time goes backwards inside a stroke") }
                previous = s.t
                if let p = s.pressure { require(p >= 0 && p <= 1, "pressure \(p) is outside 0...1") }
                if let a = s.altitude { require(a.isFinite, "altitude is not finite") }
                if let a = s.azimuth { require(a.isFinite, "azimuth is not finite") }
            }
        }
        if let start = signature.startTime { require(start.isFinite, "start time is not finite") }
        if let c = signature.canvas {
            require(c.width.isFinite && c.width > 0 && c.height.isFinite && c.height > 0
                    && c.unitsPerInch.isFinite && c.unitsPerInch > 0, "invalid canvas \(c)")
        }
        let native: Data
        do {
            native = try InkEncoder().encode(signature, as: .native)
        } catch {
            fail("a decoded signature cannot be written natively: \(error)")
        }
        do {
            let again = try NativeDecoder().decode(native)
            require(again == signature, "the native format does not hold the decoded signature without loss")
        } catch {
            fail("the native form of a decoded signature does not read back: \(error)")
        }
    }

    /// Renders `signature` to PNG, SVG and PDF within ``renderLimits``; a thrown ``RenderError`` is a correct
    /// answer, and a PNG must be refused exactly when its size is over the limits.
    public static func render(_ signature: Signature) {
        let renderer = SignatureRenderer(limits: renderLimits)
        do {
            let png = try renderer.png(signature)
            require(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "the output is not a PNG")
        } catch {
            require(!error.description.isEmpty, "a render error without a message")
        }
        do {
            let svg = try renderer.svg(signature)
            require(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"), "the output is not an SVG document")
            require(!svg.contains("nan") && !svg.contains("inf"), "the SVG holds a number that is not finite")
        } catch {
            require(!error.description.isEmpty, "a render error without a message")
        }
        do {
            let pdf = try renderer.pdf(signature)
            require(pdf.starts(with: Array("%PDF-".utf8)), "the output is not a PDF")
        } catch {
            require(!error.description.isEmpty, "a render error without a message")
        }
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    static func fail(_ message: String) -> Never {
        fatalError("fuzz invariant broken: \(message)")
    }
}
