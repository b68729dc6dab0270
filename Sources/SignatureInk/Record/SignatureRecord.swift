// SPDX-License-Identifier: Apache-2.0

/// A saved signature: the samples exactly as captured, the look they were captured with, and when it was saved.
///
/// A record is immutable. What identifies its samples is ``canonicalSamples``, a byte encoding that is the same
/// whatever file the samples were read from; its SHA-256, the record's `digest`, comes from `SignatureInkFormats`,
/// which takes SHA-256 from swift-crypto. This module stays free of C and Foundation, so the digest is computed
/// where records are stored and read back.
public struct SignatureRecord: Sendable, Hashable {
    /// The captured strokes, lossless: positions, times, pressure and tilt as they were accepted.
    public let signature: Signature
    /// The pen the signature was drawn with (widths, smoothing).
    public let style: PenStyle
    /// The ink colour it was drawn in.
    public let penColor: Color
    /// When it was saved, in milliseconds since 1970-01-01T00:00:00Z.
    public let savedAt: Double

    /// Creates a record.
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
    }

    /// The ``CanonicalSamples`` encoding of the samples: the bytes the record's digest is taken over.
    public var canonicalSamples: [UInt8] { CanonicalSamples.encode(signature) }
}
