// SPDX-License-Identifier: Apache-2.0

/// The `Signature.metadata` keys the decoders fill and the encoders read.
///
/// A key applies to the whole signature. A key followed by a stroke index in brackets, such as
/// `pen.color[3]`, overrides it for that one stroke (index into `Signature.strokes`, after
/// empty strokes were skipped); ``strokeKey(_:_:)`` builds one. Numbers are stored as the shortest decimal
/// text that reads back as the same `Double`, so a decode-encode round trip keeps them exactly.
public enum InkMetadataKey {
    /// Ink colour as CSS colour text, such as `black` or `#1a237e`. signature_pad `penColor`, InkML brush
    /// `color`. Absent means black.
    public static let penColor = "pen.color"
    /// Pen width in canvas units, from an InkML brush `width` (converted to CSS pixels when it has units).
    public static let penWidth = "pen.width"
    /// InkML brush `transparency`, 0 (opaque) ... 255 (invisible); absent means opaque.
    public static let penTransparency = "pen.transparency"
    /// InkML brush `tip`, `ellipse` or `rectangle`; absent means round. The renderer draws every tip round.
    public static let penTip = "pen.tip"
    /// signature_pad `dotSize`: width of a lone tap in CSS pixels; absent means its default, 0 (then
    /// signature_pad uses `(minWidth + maxWidth) / 2`).
    public static let signaturePadDotSize = "signaturePad.dotSize"
    /// signature_pad `minWidth` in CSS pixels; absent means its default, 0.5.
    public static let signaturePadMinWidth = "signaturePad.minWidth"
    /// signature_pad `maxWidth` in CSS pixels; absent means its default, 2.5.
    public static let signaturePadMaxWidth = "signaturePad.maxWidth"
    /// signature_pad `velocityFilterWeight`, `0...1`; absent means its default, 0.7.
    public static let signaturePadVelocityFilterWeight = "signaturePad.velocityFilterWeight"
    /// signature_pad `compositeOperation`, a canvas composite operation name; absent means `source-over`.
    public static let signaturePadCompositeOperation = "signaturePad.compositeOperation"
    /// Device units per inch of the coordinates, when they are tablet units rather than CSS pixels
    /// (SVC2004: `2540`). A renderer can use it to draw the ink at its natural size.
    public static let deviceUnitsPerInch = "device.unitsPerInch"

    /// The key that overrides `key` for one stroke, such as `pen.color[3]`.
    /// - Parameters:
    ///   - key: a signature-wide key, such as ``penColor``.
    ///   - stroke: the stroke's index in the signature, >= 0.
    public static func strokeKey(_ key: String, _ stroke: Int) -> String { "\(key)[\(stroke)]" }

    /// The value of `key` for stroke `stroke`: its override, else the signature-wide value, else `nil`.
    /// - Parameters:
    ///   - key: a signature-wide key, such as ``penColor``.
    ///   - stroke: the stroke's index in the signature, >= 0.
    ///   - metadata: the signature's metadata.
    public static func value(_ key: String, stroke: Int, in metadata: [String: String]) -> String? {
        metadata[strokeKey(key, stroke)] ?? metadata[key]
    }
}
