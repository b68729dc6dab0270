// SPDX-License-Identifier: Apache-2.0
import CQPDF
import Glibc
import SignatureInk
import SignatureInkRender

/// The signature drawn by the engine's renderer as a one-page PDF, brought into the form as a form XObject.
///
/// The page is as large as the rectangle the reader sees (a turned page's width and height swapped); the ink is
/// fitted into it keeping its aspect, centred, with the name and date under a line when given. qpdf copies the
/// page's resources (fonts as Cairo embedded them) into the form; the content becomes the XObject's stream.
struct InkAppearance {
    /// The one-page PDF, open: qpdf reads copied stream data from it until the form is written.
    let source: QPDFFile
    let target: QPDFFile
    let content: [UInt8]
    let resources: qpdf_oh
    let group: qpdf_oh?
    let size: (width: Double, height: Double)

    static func make(ink: Signature, name: String?, date: String?, size: (width: Double, height: Double),
                     options: RenderOptions, into target: QPDFFile) throws(PDFFormError) -> InkAppearance {
        let (w, h) = size
        let labelled = !(name ?? "").isEmpty || !(date ?? "").isEmpty
        if labelled && (w < 24 || h < 24) {
            throw .invalidOption("a printed name or date needs a rectangle of at least 24 x 24 points; this one is \(Int(w)) x \(Int(h))")
        }
        let page: [UInt8]
        do {
            let document = PDFDocument()
            try document.addPage(width: w, height: h) { target in
                let rect = Rect(x: 0, y: 0, width: w, height: h)
                if labelled {
                    try SignatureBlock(signature: ink, signerName: name ?? "", date: date ?? "", options: options).draw(in: rect, on: target)
                } else {
                    try SignatureRenderer(options: options).draw(ink, in: rect, on: target, framing: .fit)
                }
            }
            page = try document.finish()
        } catch {
            throw .rendering("\(error)")
        }
        let source = try QPDFFile(bytes: page, name: "signature appearance")
        guard let first = try source.pages().first else { throw .rendering("the appearance has no page") }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard qpdf.qpdf_oh_get_page_content_data(source.pdf, first, &buffer, &length) & QPDF_ERRORS == 0, let buffer else {
            throw .qpdf(source.lastError() ?? "cannot read the appearance's content")
        }
        let content = Array(UnsafeBufferPointer(start: buffer, count: length))
        free(buffer)
        guard var foreign = source.inherited(first, "/Resources") else { throw .rendering("the appearance has no resources") }
        if source.identity(foreign) == nil { foreign = qpdf.qpdf_make_indirect_object(source.pdf, foreign) }
        let resources = qpdf.qpdf_oh_copy_foreign_object(target.pdf, source.pdf, foreign)
        try target.check("copying the signature's resources")
        var group: qpdf_oh?
        if var foreignGroup = source.get(first, "/Group") {
            if source.identity(foreignGroup) == nil { foreignGroup = qpdf.qpdf_make_indirect_object(source.pdf, foreignGroup) }
            group = qpdf.qpdf_oh_copy_foreign_object(target.pdf, source.pdf, foreignGroup)
            try target.check("copying the signature's transparency group")
        }
        return InkAppearance(source: source, target: target, content: content, resources: resources, group: group, size: size)
    }

    /// `[a b c d e f]` turning upright content by a page rotation, so that it reads upright on the turned page.
    static func rotationMatrix(_ rotation: Int) -> (a: Double, b: Double, c: Double, d: Double) {
        switch rotation {
        case 90: (0, 1, -1, 0)
        case 180: (-1, 0, 0, -1)
        case 270: (0, -1, 1, 0)
        default: (1, 0, 0, 1)
        }
    }

    /// The form XObject: box `[0 0 w h]`, and for a turned page a `/Matrix` that turns it back upright.
    func xobject(rotation: Int) throws(PDFFormError) -> qpdf_oh {
        var entries: [(String, qpdf_oh)] = [
            ("/Type", try target.parse("/XObject")), ("/Subtype", try target.parse("/Form")),
            ("/BBox", try target.parse("[0 0 \(PageContent.format(size.width)) \(PageContent.format(size.height))]")),
            ("/Resources", resources),
        ]
        if let group { entries.append(("/Group", group)) }
        if rotation != 0 {
            let r = Self.rotationMatrix(rotation)
            entries.append(("/Matrix", try target.parse("[\(Int(r.a)) \(Int(r.b)) \(Int(r.c)) \(Int(r.d)) 0 0]")))
        }
        return try target.newStream(content, dictionary: entries)
    }

    /// Every indirect object reachable from `xobject` that the form did not have: the XObject, and what was copied
    /// for it (fonts, their files, graphics states).
    func newObjects(from xobject: qpdf_oh) -> [qpdf_oh] {
        var seen = Set<Int>()
        var found: [qpdf_oh] = []
        func visit(_ object: qpdf_oh, depth: Int) {
            guard depth < 64 else { return }
            if let id = target.identity(object) {
                guard seen.insert(id.number).inserted else { return }
                found.append(object)
            }
            if target.isStream(object) {
                visit(qpdf.qpdf_oh_get_dict(target.pdf, object), depth: depth + 1)
            } else if target.isDictionary(object) {
                for key in target.keys(object) { if let value = target.get(object, key) { visit(value, depth: depth + 1) } }
            } else if target.isArray(object) {
                for item in target.items(object) { visit(item, depth: depth + 1) }
            }
        }
        visit(xobject, depth: 0)
        return found
    }
}
