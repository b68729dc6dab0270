// SPDX-License-Identifier: Apache-2.0
import CQPDF

/// A form whose AcroForm says `/NeedAppearances true` asks viewers to draw every field anew from its value, and
/// poppler-based viewers then draw the signature field too: as an empty box, in place of the ink. So when a field
/// is signed the flag goes, and so do the stored appearances of the text and choice fields, the ones the flag said
/// not to trust: every viewer draws a field that has none from its value, which is what the flag asked for (poppler
/// shows those fields exactly as before). Buttons keep theirs: a check box's states are drawings, not values.
enum NeedAppearances {
    /// Clears the flag when it is set, and returns the existing objects it changed (for an incremental update):
    /// the object holding the AcroForm, and each text or choice field's widget that lost its appearance. Returns
    /// nothing when the form does not set the flag.
    static func settle(in file: QPDFFile, pages: [qpdf_oh]) throws(PDFFormError) -> [qpdf_oh] {
        guard let form = file.get(file.root, "/AcroForm"), let flag = file.get(form, "/NeedAppearances"),
              file.unparse(flag) == "true" else { return [] }
        qpdf.qpdf_oh_remove_key(file.pdf, form, "/NeedAppearances")
        try file.check("clearing /NeedAppearances")
        var changed = [file.identity(form) == nil ? file.root : form]
        for node in try FieldTree(file: file, pages: pages).fields where node.info.type == "/Tx" || node.info.type == "/Ch" {
            for widget in node.widgets.map(\.object) where file.get(widget, "/AP") != nil {
                qpdf.qpdf_oh_remove_key(file.pdf, widget, "/AP")
                try file.check("removing a stale field appearance")
                // A widget written inside its field's /Kids changes with the field.
                changed.append(file.identity(widget) == nil ? node.field : widget)
            }
        }
        return changed
    }
}
