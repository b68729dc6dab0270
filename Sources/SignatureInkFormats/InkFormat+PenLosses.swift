// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

extension InkFormat {
    /// What writing `signature` in this format loses of its recorded pens (`Signature.pens`), in
    /// words for the user; empty when the format keeps them all.
    ///
    /// - Native keeps every pen as it is.
    /// - InkML keeps colours, one width, transparency and tip as brushes; signature_pad's minimum and maximum
    ///   widths, dot size, velocity filter and eraser are kept only as annotations, which no brush reads.
    /// - signature_pad JSON keeps colours, its own widths, dot size, velocity filter and eraser; a constant
    ///   width from InkML or Wacom UIM (`pen.width`), transparency and tip are lost.
    /// - A stroke list keeps no pen.
    /// - Parameter signature: the signature to be written.
    /// - Returns: one sentence per kind of loss.
    public func penLosses(of signature: Signature) -> [String] {
        guard !signature.pens.isEmpty else { return [] }
        let signaturePadPens = signature.pens.filter {
            if case .signaturePad = $0.widthModel { return true } else { return false }
        }
        let otherPens = signature.pens.filter {
            if case .signaturePad = $0.widthModel { return false } else { return true }
        }
        func has(_ key: String) -> Bool {
            signature.metadata.keys.contains { $0 == key || ($0.hasPrefix(key + "[") && $0.hasSuffix("]")) }
        }
        var losses: [String] = []
        switch self {
        case .native, .svc2004, .uim:
            break
        case .inkml:
            if !signaturePadPens.isEmpty {
                var what = "signature_pad's widths and velocity model"
                if signaturePadPens.contains(where: { $0.blend == .erase }) { what += " and its eraser strokes" }
                losses.append("InkML has no brush for \(what): kept as annotations only, drawn with the brushes' colour and the renderer's widths")
            }
        case .signaturePad:
            if otherPens.contains(where: { $0.maxWidth != nil }) && has(InkMetadataKey.penWidth) {
                losses.append("signature_pad JSON has no constant pen width: it is written as minWidth = maxWidth, and drawn with signature_pad's curves")
            }
            if has(InkMetadataKey.penTransparency) || has(InkMetadataKey.penTip) {
                losses.append("signature_pad JSON has no brush transparency or tip: dropped")
            }
            if otherPens.contains(where: { $0.color != .black }) && !has(InkMetadataKey.penColor) {
                losses.append("the pen colours are not in the metadata signature_pad JSON is written from: dropped")
            }
        case .strokeList:
            losses.append("a stroke list holds no pen: the recorded colours and widths are dropped")
        }
        return losses
    }
}
