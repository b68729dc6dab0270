// SPDX-License-Identifier: Apache-2.0
import CQPDF

/// A signature field being signed: its appearance filled, or (flattened) its widgets and itself removed.
struct FilledField {
    let field: qpdf_oh
    let widgets: [qpdf_oh]

    /// Widget annotation flags: Print (bit 3) and Locked (bit 8), so that viewers print the signature and do not
    /// let it be moved or deleted.
    static let widgetFlags = 4 | 128
    /// Field flag ReadOnly (bit 1): viewers do not offer to sign the field again.
    static let readOnly = 1

    /// Sets the first widget's normal appearance to `xobject`, its flags to print and locked, and the field's
    /// flags to read-only.
    func fill(with xobject: qpdf_oh, in file: QPDFFile) throws(PDFFormError) {
        guard let widget = widgets.first else { return }
        let appearance = try file.parse("<< >>")
        try file.set(appearance, "/N", xobject)
        try file.set(widget, "/AP", appearance)
        let flags = (file.integer(file.get(widget, "/F")) ?? 0) | Self.widgetFlags
        try file.set(widget, "/F", qpdf.qpdf_oh_new_integer(file.pdf, Int64(flags)))
        let fieldFlags = (file.integer(file.get(field, "/Ff")) ?? 0) | Self.readOnly
        try file.set(field, "/Ff", qpdf.qpdf_oh_new_integer(file.pdf, Int64(fieldFlags)))
    }

    /// The existing objects ``fill(with:in:)`` changes: the widget, and the field when it is another object.
    var changedObjects: [qpdf_oh] { widgets.prefix(1) + (widgets.first.map { _ in [field] } ?? []) }

    /// Removes the field's widgets from every page and the field from its parent's `/Kids` (or the AcroForm's
    /// `/Fields`), as flattening does once the ink is page content.
    func remove(from page: qpdf_oh, of file: QPDFFile) throws(PDFFormError) {
        let ids = Set(widgets.compactMap { file.identity($0)?.number })
        for page in try file.pages() {
            guard let annotations = file.get(page, "/Annots") else { continue }
            let kept = file.items(annotations).filter { item in file.identity(item).map { !ids.contains($0.number) } ?? true }
            guard kept.count != file.items(annotations).count else { continue }
            let array = qpdf.qpdf_oh_new_array(file.pdf)
            for item in kept { qpdf.qpdf_oh_append_item(file.pdf, array, item) }
            try file.set(page, "/Annots", array)
        }
        guard let id = file.identity(field)?.number else { return }
        let container: (object: qpdf_oh, key: String)
        if let parent = file.get(field, "/Parent") {
            container = (parent, "/Kids")
        } else if let form = file.get(file.root, "/AcroForm") {
            container = (form, "/Fields")
        } else {
            return
        }
        guard let list = file.get(container.object, container.key) else { return }
        let array = qpdf.qpdf_oh_new_array(file.pdf)
        for item in file.items(list) where file.identity(item)?.number != id { qpdf.qpdf_oh_append_item(file.pdf, array, item) }
        try file.set(container.object, container.key, array)
    }
}
