// SPDX-License-Identifier: Apache-2.0

/// A link on a PDF page: a rectangle in PDF page space (points, origin at the bottom left) and its address.
struct PDFLink: Sendable, Hashable {
    /// The page, from 1.
    var page: Int
    /// Left, bottom, right and top, in points.
    var rect: (Double, Double, Double, Double)
    /// The address.
    var uri: String

    static func == (a: PDFLink, b: PDFLink) -> Bool {
        a.page == b.page && a.uri == b.uri && a.rect == b.rect
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(page)
        hasher.combine(uri)
    }
}

/// Adds link annotations to a PDF that Cairo wrote, as an incremental update.
///
/// Cairo 1.16 (Debian 12's) writes link annotations made with `CAIRO_TAG_LINK` into a page's `/Annots` array
/// under object numbers it never writes, so the file has a broken cross-reference table (`qpdf --check`: "object 3 0
/// not found") and the links do not work. Cairo's own output is otherwise sound, so the engine draws no link tags
/// and adds the annotations after Cairo is done: the new annotation objects and each linked page's dictionary with
/// an `/Annots` entry are appended after Cairo's bytes by ``PDFIncrementalUpdate``, with a cross-reference table
/// whose trailer points back to Cairo's (`/Prev`). Cairo's bytes are not changed.
enum PDFLinkAnnotations {
    /// Cairo's file with the links added, or the file unchanged when there are none.
    /// - Throws: ``RenderError/cairo(_:)`` when the file is not laid out as Cairo writes it.
    static func append(_ links: [PDFLink], to pdf: [UInt8]) throws(RenderError) -> [UInt8] {
        guard !links.isEmpty else { return pdf }
        let file = try CairoFile(pdf)
        var objects: [PDFIncrementalUpdate.Object] = []
        var next = file.size
        func write(_ number: Int, _ body: String) {
            objects.append(PDFIncrementalUpdate.Object(number: number, body: Array(body.utf8)))
        }
        let byPage = Dictionary(grouping: links, by: \.page)
        for page in byPage.keys.sorted() {
            guard page >= 1, page <= file.pages.count else { throw .cairo("a link points at page \(page) of \(file.pages.count)") }
            var numbers: [Int] = []
            for link in byPage[page] ?? [] {
                let (x0, y0, x1, y1) = link.rect
                write(next, "<< /Type /Annot /Subtype /Link /Rect [\(number(x0)) \(number(y0)) \(number(x1)) \(number(y1))] "
                      + "/Border [0 0 0] /A << /S /URI /URI \(literal(link.uri)) >> >>")
                numbers.append(next)
                next += 1
            }
            let object = file.pages[page - 1]
            var body = try file.body(of: object)
            guard !body.contains("/Annots"), let open = body.firstRange(of: "<<") else {
                throw .cairo("page \(page)'s dictionary is not as Cairo writes it")
            }
            body.replaceSubrange(open, with: "<< /Annots [" + numbers.map { " \($0) 0 R" }.joined() + " ]")
            write(object, body)
        }
        var fields = "/Root \(file.root) 0 R"
        if let info = file.info { fields += " /Info \(info) 0 R" }
        return PDFIncrementalUpdate(original: pdf, previous: file.xref, size: file.size, trailerFields: fields).appending(objects)
    }

    /// A coordinate with at most three decimals.
    private static func number(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    /// A PDF literal string of an address: ASCII as it is with `\`, `(` and `)` escaped; any other byte
    /// percent-encoded, as URIs are 7-bit ASCII.
    private static func literal(_ uri: String) -> String {
        var text = "("
        for byte in uri.utf8 {
            switch byte {
            case 0x5c, 0x28, 0x29: text += "\\" + String(UnicodeScalar(byte))
            case 0x21...0x7e: text += String(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                text += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text + ")"
    }

    /// The parts of a Cairo PDF the update needs: its cross-reference table, trailer and page objects.
    private struct CairoFile {
        let bytes: [UInt8]
        let xref: Int
        let size: Int
        let root: Int
        let info: Int?
        let offsets: [Int: Int]
        private(set) var pages: [Int]

        init(_ bytes: [UInt8]) throws(RenderError) {
            self.bytes = bytes
            guard let xref = PDFIncrementalUpdate.lastCrossReference(in: bytes), xref > 0 else {
                throw .cairo("the PDF has no startxref")
            }
            self.xref = xref
            let text = String(decoding: bytes[xref...], as: UTF8.self)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimming(" \r") }[...]
            guard lines.popFirst() == "xref" else { throw .cairo("the PDF's cross-reference table is not a table") }
            var offsets: [Int: Int] = [:]
            while let header = lines.first, header != "trailer" {
                lines.removeFirst()
                let parts = header.split(separator: " ")
                guard parts.count == 2, let start = Int(parts[0]), let count = Int(parts[1]) else {
                    throw .cairo("bad cross-reference subsection '\(header)'")
                }
                for k in 0..<count {
                    guard let entry = lines.popFirst() else { throw .cairo("the cross-reference table ends early") }
                    let fields = entry.split(separator: " ")
                    if fields.count == 3, fields[2] == "n", let offset = Int(fields[0]) { offsets[start + k] = offset }
                }
            }
            self.offsets = offsets
            let trailer = lines.joined(separator: " ")
            func value(_ key: String) -> Int? {
                guard let r = trailer.firstRange(of: key + " ") else { return nil }
                return Int(trailer[r.upperBound...].prefix { $0.isNumber })
            }
            guard let size = value("/Size"), let root = value("/Root") else { throw .cairo("the PDF's trailer has no /Size or /Root") }
            self.size = size
            self.root = root
            info = value("/Info")
            pages = []
            let catalog = try body(of: root)
            guard let pagesRef = Self.reference(after: "/Pages", in: catalog) else { throw .cairo("the catalog has no /Pages") }
            let tree = try body(of: pagesRef)
            guard let kids = tree.firstRange(of: "/Kids"), let open = tree[kids.upperBound...].firstIndex(of: "["),
                  let close = tree[open...].firstIndex(of: "]") else { throw .cairo("the page tree has no /Kids") }
            let tokens = tree[tree.index(after: open)..<close].split(whereSeparator: \.isWhitespace)
            guard tokens.count % 3 == 0 else { throw .cairo("the page tree's /Kids is not a list of pages") }
            var refs: [Int] = []
            for i in stride(from: 0, to: tokens.count, by: 3) {
                guard tokens[i + 2] == "R", let n = Int(tokens[i]) else { throw .cairo("the page tree's /Kids is not a list of pages") }
                refs.append(n)
            }
            pages = refs
        }

        /// The text of an object between `N 0 obj` and `endobj`.
        func body(of number: Int) throws(RenderError) -> String {
            guard let offset = offsets[number], offset < bytes.count else { throw .cairo("object \(number) is not in the PDF") }
            let header = Array("\(number) 0 obj".utf8)
            guard bytes[offset...].starts(with: header) else { throw .cairo("object \(number) is not where the table says") }
            let start = offset + header.count
            let end = Array("endobj".utf8)
            var k = start
            while k + end.count <= bytes.count, !bytes[k...].starts(with: end) { k += 1 }
            guard k + end.count <= bytes.count else { throw .cairo("object \(number) does not end") }
            return String(decoding: bytes[start..<k], as: UTF8.self).trimming(" \r\n")
        }

        /// The object number of `key N 0 R` in a dictionary's text.
        static func reference(after key: String, in text: String) -> Int? {
            guard let r = text.firstRange(of: key) else { return nil }
            let tokens = text[r.upperBound...].split(whereSeparator: \.isWhitespace).prefix(3)
            guard tokens.count == 3, tokens.last == "R" else { return nil }
            return Int(tokens.first ?? "")
        }
    }
}

extension StringProtocol {
    /// The text without the given characters at either end.
    func trimming(_ set: String) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
