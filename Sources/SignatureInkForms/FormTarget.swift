// SPDX-License-Identifier: Apache-2.0
import CQPDF
import SignatureInk

/// Where one signing puts its ink: a page, a rectangle on it, the page's rotation, and the field when there is one.
struct FormTarget {
    var page: qpdf_oh
    var pageNumber: Int
    /// Left, bottom, right, top in the page's default user space.
    var rect: (Double, Double, Double, Double)
    /// The page's rotation: 0, 90, 180 or 270 degrees clockwise.
    var rotation: Int
    var field: FilledField?

    /// The size the ink is drawn at, as a reader sees the rectangle on the turned page.
    var uprightSize: (width: Double, height: Double) {
        let w = rect.2 - rect.0, h = rect.3 - rect.1
        return rotation % 180 == 0 ? (w, h) : (h, w)
    }

    init(_ placement: SignaturePlacement, form: PDFForm, file: QPDFFile, pages: [qpdf_oh]) throws(PDFFormError) {
        switch placement {
        case let .field(name):
            let tree = try FieldTree(file: file, pages: pages)
            guard let node = tree.fields.first(where: { $0.info.name == name }) else {
                throw .unknownField(name, signatureFields: form.signatureFields.map(\.name))
            }
            guard node.info.isSignature else {
                throw .unusableField(name, message: "it is a \(node.info.type ?? "typeless") field, not a signature field (/Sig)")
            }
            guard !node.info.hasValue else { throw .unusableField(name, message: "it carries a digital signature already") }
            guard !node.info.isReadOnly else { throw .unusableField(name, message: "it is read-only (signed with ink already)") }
            guard let widget = node.widgets.first else { throw .unusableField(name, message: "it has no widget to show a signature in") }
            guard let number = widget.page else { throw .unusableField(name, message: "its widget is on no page of the form") }
            guard let rect = file.rectangle(file.get(widget.object, "/Rect")), rect.2 - rect.0 >= 4, rect.3 - rect.1 >= 4 else {
                throw .unusableField(name, message: "its widget has no /Rect of at least 4 x 4 points")
            }
            page = pages[number - 1]
            pageNumber = number
            self.rect = rect
            field = FilledField(field: node.field, widgets: node.widgets.map(\.object))
        case let .rect(number, r):
            guard number >= 1, number <= pages.count else {
                throw .noSuchPage(number, pageCount: pages.count)
            }
            page = pages[number - 1]
            pageNumber = number
            guard r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite, r.width >= 4, r.height >= 4 else {
                throw .rectangleOffPage(page: number, message: "the rectangle must be at least 4 x 4 points")
            }
            rect = (r.minX, r.minY, r.maxX, r.maxY)
            let crop = file.rectangle(file.inherited(page, "/CropBox"))
            let visible = crop ?? file.rectangle(file.inherited(page, "/MediaBox")) ?? (0, 0, 612, 792)
            let slack = 0.01
            guard rect.0 >= visible.0 - slack, rect.1 >= visible.1 - slack, rect.2 <= visible.2 + slack, rect.3 <= visible.3 + slack else {
                let page = Rect(x: visible.0, y: visible.1, width: visible.2 - visible.0, height: visible.3 - visible.1)
                let box = crop == nil ? "media" : "crop"
                throw .rectangleOffPage(page: number, message: "the rectangle \(PDFForm.describe(r)) is not inside the page's visible "
                                        + "area (its \(box) box), \(PDFForm.describe(page)); both are left,bottom,width,height in points")
            }
        }
        let turn = file.integer(file.inherited(page, "/Rotate")) ?? 0
        rotation = turn % 90 == 0 ? ((turn % 360) + 360) % 360 : 0
    }
}
