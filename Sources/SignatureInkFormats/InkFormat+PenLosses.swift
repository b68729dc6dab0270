// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

extension InkFormat {
    /// What writing `signature` in this format loses of its recorded pens (`Signature.pens`), in words for the
    /// user; empty when the format keeps them all, so that reading the file back gives the same pens.
    ///
    /// - Native keeps every pen as it is.
    /// - InkML keeps every pen: colour, transparency, width and tip as brush properties any reader knows, and a pen
    ///   those cannot describe (a width that varies, a dot width of its own, signature_pad's model, an eraser, a
    ///   composite operation) also whole in a `signature-ink:pen` brush property.
    /// - signature_pad JSON keeps colour, both widths, dot width, velocity filter weight, eraser and composite
    ///   operation of a pen with signature_pad's width model. It has no other width model (a pressure or speed
    ///   pen, a constant width from InkML or Wacom UIM is drawn with signature_pad's curves), needs both widths
    ///   (signature_pad's defaults fill a missing one), and has no tip.
    /// - A stroke list keeps no pen.
    /// - SVC2004 and UIM are not written (``InkFormat/canEncode``): nothing is said.
    /// - Parameter signature: the signature to be written.
    /// - Returns: one sentence per kind of loss, naming the strokes (1-based).
    public func penLosses(of signature: Signature) -> [String] {
        let pens = signature.pens.prefix(signature.strokeCount)
        guard !pens.isEmpty else { return [] }
        switch self {
        case .native, .inkml, .svc2004, .uim:
            return []
        case .strokeList:
            return ["a stroke list holds no pen: the recorded colours and widths are dropped"]
        case .signaturePad:
            var losses: [String] = []
            func strokes(_ where: (Pen) -> Bool) -> [Int] {
                pens.enumerated().filter { `where`($0.element) }.map { $0.offset + 1 }
            }
            let constant = strokes { $0.constantWidth != nil }
            if !constant.isEmpty {
                losses.append("signature_pad JSON has no constant pen width: \(Signature.strokeNames(constant)) written with "
                              + "minWidth = maxWidth, and drawn with signature_pad's curves")
            }
            let pressureOrSpeed = strokes { $0.widthModel == .pressureOrSpeed && $0.constantWidth == nil }
            if !pressureOrSpeed.isEmpty {
                losses.append("signature_pad JSON has no pressure or speed width model: \(Signature.strokeNames(pressureOrSpeed)) "
                              + "written for signature_pad's velocity model")
            }
            let missingWidth = strokes { $0.minWidth == nil || $0.maxWidth == nil }
            if !missingWidth.isEmpty {
                losses.append("signature_pad JSON needs both widths: \(Signature.strokeNames(missingWidth)) without one written "
                              + "with signature_pad's default (minWidth 0.5, maxWidth 2.5)")
            }
            let tip = strokes { $0.tip != .ellipse }
            if !tip.isEmpty {
                losses.append("signature_pad JSON has no brush tip: the rectangle tip of \(Signature.strokeNames(tip)) is dropped")
            }
            return losses
        }
    }
}
