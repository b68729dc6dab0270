// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
public import SignatureInk

/// What ``InkDecoder`` read: the signature, the format it was in, and what had to be assumed or repaired.
public struct DecodeResult: Sendable {
    /// The decoded signature; never empty.
    public var signature: Signature
    /// The format the content was read as: the one asked for, or the one detected.
    public var format: InkFormat
    /// What the decoder assumed or repaired, in words for the user, such as "pressure is a 10-bit level,
    /// 0...1023" or "2 backwards timestamp(s) were raised to the previous sample's time". Empty when the
    /// file said everything.
    public var assumptions: [String]

    /// Creates a result.
    /// - Parameters:
    ///   - signature: the decoded signature.
    ///   - format: the format it was read as.
    ///   - assumptions: what was assumed or repaired, in words; default none.
    public init(signature: Signature, format: InkFormat, assumptions: [String] = []) {
        self.signature = signature
        self.format = format
        self.assumptions = assumptions
    }
}

/// Reads a signature from any format in ``InkFormat``, detecting the format from the content.
///
/// Every format maps to the model the same way: positions in canvas units with y down (CSS pixels unless
/// the format's units say otherwise), `t` in milliseconds after the first sample, the first sample's
/// absolute time in `Signature.startTime` when the file gives epoch milliseconds, pressure in `0...1`,
/// angles in radians, and `Signature.pens` with the pen each stroke was recorded with
/// (signature_pad groups, InkML brushes, Wacom UIM styles, the native `pens`). Bad values get one defined
/// treatment in every format:
///
/// | input | behaviour |
/// |---|---|
/// | syntax error, truncated file | ``FormatError/syntax(line:column:message:)`` with the position |
/// | missing or mistyped field | ``FormatError/field(path:message:)`` naming it, such as `[2].points[5].x` |
/// | NaN or infinite number | an error naming the value (JSON has no NaN: a syntax error there) |
/// | coordinate beyond ``DecodingLimits/maxCoordinate`` | ``FormatError/field(path:message:)`` |
/// | canvas side not over 0 or beyond ``DecodingLimits/maxCoordinate``, or units per inch outside `0.001...1000000` | ``FormatError/field(path:message:)`` (or a syntax error in InkML) |
/// | negative timestamp, or after the year 5138 (`1e14` ms) | ``FormatError/field(path:message:)`` |
/// | start time (a format's time base plus the first time) before 1970 or after 5138 | ``FormatError/field(path:message:)`` |
/// | timestamp jumping over an hour inside a stroke | ``FormatError/field(path:message:)`` (corrupt clock) |
/// | timestamp earlier than the previous sample's | raised to it; reported in ``DecodeResult/assumptions`` |
/// | equal timestamps | kept |
/// | pressure outside `0...1` | clamped; reported |
/// | empty stroke (an empty InkML `<trace/>` too) | skipped; reported |
/// | pen colour that is not a CSS colour (`Color.init(css:)`) | ``FormatError/field(path:message:)`` naming the group, such as `[1].penColor` (InkML: a syntax error at the `brushProperty`, naming the brush) |
/// | no samples at all | ``FormatError/field(path:message:)`` with an empty path: nothing to draw |
/// | more bytes, strokes or samples than ``DecodingLimits`` allows | ``FormatError/limitExceeded(what:limit:actual:)`` |
/// | XML with a DOCTYPE or entity declaration, nested over 64 deep, over 1,000,000 elements, over 64 attributes on one element, a name over 256 bytes or an attribute value over 64 KiB | a syntax error with line and column |
/// | JSON nested deeper than Foundation's parser allows | a syntax error |
///
/// The native format is the exception: this package writes it, so ``NativeDecoder`` treats every bad
/// value, including pressure outside `0...1`, a backwards time and an empty stroke, as an error and
/// repairs nothing.
public struct InkDecoder: Sendable {
    /// Bounds checked before and while decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    /// - Parameter limits: bounds on untrusted input; default ``DecodingLimits/default``.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Decodes a signature.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - format: the format to read, or `nil` (the default) to detect it with ``InkFormat/detect(_:)``.
    /// - Returns: the signature, the format read and what was assumed.
    /// - Throws: ``FormatError/unknownFormat(_:)`` when no format was given and none fits; otherwise the
    ///   format's errors, described in the table above.
    public func decode(_ data: Data, as format: InkFormat? = nil) throws(FormatError) -> DecodeResult {
        try limits.checkSize(data.count)
        guard let format = format ?? InkFormat.detect(data) else {
            throw .unknownFormat(InkFormat.unknownMessage(data))
        }
        let signature: Signature
        var assumptions: [String] = []
        switch format {
        case .native:
            signature = try NativeDecoder(limits: limits).decode(data)
        case .inkml:
            (signature, assumptions) = try InkMLDecoder(limits: limits).decode(data)
        case .signaturePad:
            (signature, assumptions) = try SignaturePadDecoder(limits: limits).decode(data)
        case .svc2004:
            (signature, assumptions) = try SVC2004Decoder(limits: limits).decode(data)
        case .uim:
            (signature, assumptions) = try UIMDecoder(limits: limits).decode(data)
        case .strokeList:
            (signature, assumptions) = try StrokeListDecoder(limits: limits).decode(data)
        }
        guard !signature.isEmpty else {
            throw .field(path: "", message: "the \(format.displayName) file holds no ink samples: nothing to draw")
        }
        // Pens written by other software may hold values the model does not store (a negative width, a minimum
        // above the maximum, a filter weight past 1): held to the model's ranges, and said.
        let held = signature.pens.map(\.held)
        if held != signature.pens {
            var changed = signature
            changed.pens = held
            assumptions.append("pen widths held to \(Pen.thinnestLine)...\(Pen.widestLine) with the minimum at most the maximum, "
                               + "and velocityFilterWeight to 0...1")
            return DecodeResult(signature: changed, format: format, assumptions: assumptions)
        }
        return DecodeResult(signature: signature, format: format, assumptions: assumptions)
    }
}
