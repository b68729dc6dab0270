// SPDX-License-Identifier: Apache-2.0
import CQPDF

/// Drawing a form XObject into a page's content, for flattening and for a rectangle given by the caller.
enum PageContent {
    /// Appends `q <matrix> cm /Name Do Q` to the page's content (the existing content wrapped in `q ... Q` so its
    /// graphics state cannot leak into the ink), and adds the XObject to a copy of the page's resources, so pages
    /// that share resources are not changed.
    static func draw(_ xobject: qpdf_oh, into rect: (Double, Double, Double, Double), rotation: Int, on page: qpdf_oh,
                     of file: QPDFFile) throws(PDFFormError) {
        let resources = try file.parse("<< >>")
        let old = file.inherited(page, "/Resources")
        for key in old.map({ file.keys($0) }) ?? [] { if let value = old.flatMap({ file.get($0, key) }) { try file.set(resources, key, value) } }
        let xobjects = try file.parse("<< >>")
        let oldXObjects = file.get(resources, "/XObject")
        let names = oldXObjects.map { file.keys($0) } ?? []
        for key in names { if let value = oldXObjects.flatMap({ file.get($0, key) }) { try file.set(xobjects, key, value) } }
        var n = 1
        while names.contains("/SignatureInk\(n)") { n += 1 }
        let name = "/SignatureInk\(n)"
        try file.set(xobjects, name, xobject)
        try file.set(resources, "/XObject", xobjects)
        try file.set(page, "/Resources", resources)

        let m = placement(of: rotation, into: rect)
        let numbers = [m.a, m.b, m.c, m.d, m.e, m.f].map { format($0) }.joined(separator: " ")
        let before = try file.newStream(Array("q\n".utf8), dictionary: [])
        let after = try file.newStream(Array("\nQ\nq \(numbers) cm \(name) Do Q\n".utf8), dictionary: [])
        let contents = qpdf.qpdf_oh_new_array(file.pdf)
        qpdf.qpdf_oh_append_item(file.pdf, contents, before)
        if let existing = file.get(page, "/Contents") {
            if file.isArray(existing) {
                for item in file.items(existing) { qpdf.qpdf_oh_append_item(file.pdf, contents, item) }
            } else {
                qpdf.qpdf_oh_append_item(file.pdf, contents, existing)
            }
        }
        qpdf.qpdf_oh_append_item(file.pdf, contents, after)
        try file.set(page, "/Contents", contents)
    }

    /// The matrix that turns a form whose box is `[0 0 w h]` (upright as the reader sees it) by the page's
    /// rotation and moves it into `rect`.
    static func placement(of rotation: Int, into rect: (Double, Double, Double, Double))
        -> (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        let r = InkAppearance.rotationMatrix(rotation)
        let w = rect.2 - rect.0, h = rect.3 - rect.1
        let (uw, uh) = rotation % 180 == 0 ? (w, h) : (h, w)
        let corners = [(0.0, 0.0), (uw, 0.0), (0.0, uh), (uw, uh)].map { (r.a * $0.0 + r.c * $0.1, r.b * $0.0 + r.d * $0.1) }
        let minX = corners.map(\.0).min() ?? 0, minY = corners.map(\.1).min() ?? 0
        return (r.a, r.b, r.c, r.d, rect.0 - minX, rect.1 - minY)
    }

    /// A number rounded to `decimals` places and written without trailing zeros (`216`, `10.5`); one far beyond
    /// any page (a damaged `/Rect`) is written as Swift writes it rather than trapping on the conversion to `Int`.
    static func format(_ v: Double, decimals: Int = 4) -> String {
        guard v.isFinite, abs(v) < 1e12 else { return String(v) }
        let scale = [1.0, 10, 100, 1_000, 10_000][min(max(decimals, 0), 4)]
        let r = (v * scale).rounded() / scale
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
