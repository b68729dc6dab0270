// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials
public import SignatureInk

/// Writes a signature in any format whose ``InkFormat/canEncode`` is true.
///
/// What each format keeps: the native format and InkML keep everything (samples, all channels, canvas,
/// start time, metadata, pens); signature_pad keeps positions, times and pressure (a missing pressure becomes
/// 0) and each stroke's pen (`Signature.pens`) as far as its settings can hold it; the stroke list keeps
/// positions, times and pressure. ``InkFormat/penLosses(of:)`` says what of the pens a format does not keep.
/// Times are written as `Signature.startTime` plus `t` where the format has absolute times, so a
/// fractional `t` may come back differing in the last bits (under 0.001 ms for epoch start times).
public struct InkEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes a signature as UTF-8 text.
    /// - Parameters:
    ///   - signature: the signature to write; may be empty.
    ///   - format: the format to write.
    /// - Returns: the file's bytes.
    /// - Throws: ``FormatError/unencodable(_:)`` when the format is read-only (``InkFormat/canEncode`` is
    ///   false), or a value cannot be written (NaN or infinite, a non-numeric signature_pad setting).
    public func encode(_ signature: Signature, as format: InkFormat) throws(FormatError) -> Data {
        let text: String
        switch format {
        case .native:
            text = try NativeEncoder().encode(signature)
        case .inkml:
            text = try InkMLEncoder().encode(signature)
        case .signaturePad:
            text = try SignaturePadEncoder().encode(signature)
        case .strokeList:
            text = try StrokeListEncoder().encode(signature)
        case .svc2004, .uim:
            let writable = InkFormat.allCases.filter(\.canEncode).map(\.rawValue).joined(separator: ", ")
            throw .unencodable("\(format.displayName) is read-only; write one of: \(writable)")
        }
        return Data(text.utf8)
    }
}
