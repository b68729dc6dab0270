// SPDX-License-Identifier: Apache-2.0
import CQPDF
import SignatureInk

/// The AcroForm's fields, found by walking the field tree: names joined through the ancestors, types inherited,
/// widgets merged into their field or as kids of it, and each widget's page from the pages' `/Annots`.
struct FieldTree {
    /// A terminal field and its widgets.
    struct Node {
        var info: PDFFormField
        var field: qpdf_oh
        var widgets: [(object: qpdf_oh, page: Int?)]
    }

    var fields: [Node] = []

    init(file: QPDFFile, pages: [qpdf_oh]) throws(PDFFormError) {
        var pageOf: [Int: Int] = [:]
        for (index, page) in pages.enumerated() {
            for annotation in file.items(file.get(page, "/Annots")) {
                if let id = file.identity(annotation)?.number, pageOf[id] == nil { pageOf[id] = index + 1 }
            }
        }
        guard let form = file.get(file.root, "/AcroForm") else { return }
        var visited = Set<Int>()
        var found: [Node] = []
        func walk(_ node: qpdf_oh, parent: String, type: String?, flags: Int, depth: Int) throws(PDFFormError) {
            guard depth < PDFForm.maxDepth else {
                throw .unreadable(file: file.name, message: "the field tree is deeper than \(PDFForm.maxDepth) levels")
            }
            guard file.isDictionary(node) else { return }
            if let id = file.identity(node)?.number, !visited.insert(id).inserted { return }  // a cycle
            let partial = file.text(file.get(node, "/T"))
            let name = [parent, partial ?? ""].filter { !$0.isEmpty }.joined(separator: ".")
            let fieldType = file.name(file.get(node, "/FT")) ?? type
            let fieldFlags = file.integer(file.get(node, "/Ff")) ?? flags
            let kids = file.items(file.get(node, "/Kids")).filter { file.isDictionary($0) }
            let fieldKids = kids.filter { file.get($0, "/T") != nil }
            if !fieldKids.isEmpty {
                for kid in fieldKids { try walk(kid, parent: name, type: fieldType, flags: fieldFlags, depth: depth + 1) }
                return
            }
            var widgets = kids
            if widgets.isEmpty && (file.name(file.get(node, "/Subtype")) == "/Widget" || file.get(node, "/Rect") != nil) {
                widgets = [node]
            }
            let placed = widgets.map { widget in (widget, file.identity(widget).flatMap { pageOf[$0.number] }) }
            let rect = widgets.first.flatMap { file.rectangle(file.get($0, "/Rect")) }
                .map { Rect(x: $0.0, y: $0.1, width: $0.2 - $0.0, height: $0.3 - $0.1) }
            let info = PDFFormField(name: name, type: fieldType, page: placed.first?.1, rect: rect,
                                    hasValue: file.get(node, "/V") != nil, isReadOnly: fieldFlags & 1 != 0)
            found.append(Node(info: info, field: node, widgets: placed))
            guard found.count <= PDFForm.maxFields else {
                throw .unreadable(file: file.name, message: "more than \(PDFForm.maxFields) fields")
            }
        }
        for field in file.items(file.get(form, "/Fields")) { try walk(field, parent: "", type: nil, flags: 0, depth: 0) }
        fields = found
    }
}
