// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

extension Signature {
    /// Canvas units per inch as the file declared them: the canvas's `Canvas.unitsPerInch`, else the
    /// ``InkMetadataKey/deviceUnitsPerInch`` a decoder kept for tablet units (SVC2004: 2540), else `nil`
    /// when nothing was declared (the units are then taken as CSS pixels, 96 per inch).
    ///
    /// A renderer drawing a signature at its natural size scales canvas units by `96 / declaredUnitsPerInch`
    /// CSS pixels, so 7,000 SVC2004 tablet units become 265 pixels rather than 7,000.
    public var declaredUnitsPerInch: Double? {
        if let c = canvas { return c.unitsPerInch }
        guard let text = metadata[InkMetadataKey.deviceUnitsPerInch], let v = Double(text), v.isFinite, v > 0 else {
            return nil
        }
        return v
    }
}
