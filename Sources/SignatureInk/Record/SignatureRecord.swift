// SPDX-License-Identifier: Apache-2.0

/// A saved signature: the samples exactly as captured, the look they were captured with, when it was saved,
/// and a digest that identifies the samples.
///
/// A record is immutable. Its ``digest`` is the SHA-256 of ``CanonicalSamples`` of the signature: re-encoding the
/// record in any lossless format and decoding it again gives the same digest, and any changed sample changes it.
public struct SignatureRecord: Sendable, Hashable {
    /// The captured strokes, lossless: positions, times, pressure and tilt as they were accepted.
    public let signature: Signature
    /// The pen the signature was drawn with (widths, smoothing).
    public let style: PenStyle
    /// The ink colour it was drawn in.
    public let penColor: Color
    /// When it was saved, in milliseconds since 1970-01-01T00:00:00Z.
    public let savedAt: Double
    /// SHA-256 of the canonical encoding of the samples, as 64 lower-case hexadecimal digits.
    public let digest: String

    /// Creates a record, computing the digest.
    /// - Parameters:
    ///   - signature: the captured strokes.
    ///   - style: the pen used; default ``PenStyle/default``.
    ///   - penColor: the ink colour; default black.
    ///   - savedAt: milliseconds since the Unix epoch.
    public init(signature: Signature, style: PenStyle = .default, penColor: Color = .black, savedAt: Double) {
        self.signature = signature
        self.style = style
        self.penColor = penColor
        self.savedAt = savedAt
        self.digest = SignatureRecord.digest(of: signature)
    }

    /// The digest a record of `signature` has.
    public static func digest(of signature: Signature) -> String {
        SHA256.hex(SHA256.hash(CanonicalSamples.encode(signature)))
    }

    /// Whether ``digest`` still matches the samples (it always does for a record made by this type; useful
    /// after a record was stored and read back with its digest).
    public func verifies(digest expected: String) -> Bool { SignatureRecord.digest(of: signature) == expected }
}
