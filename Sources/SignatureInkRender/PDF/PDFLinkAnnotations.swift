// SPDX-License-Identifier: Apache-2.0

/// A link on a PDF page: a rectangle in PDF page space (points, origin at the bottom left) and its address.
struct PDFLink: Sendable, Hashable {
    /// The page, from 1.
    var page: Int
    /// Left, bottom, right and top, in points.
    var rect: (Double, Double, Double, Double)
    /// The address.
    var uri: String
    /// The structure element the link's text is in (an index of ``PDFSink/structure``), or `nil` for none.
    var element: Int?

    static func == (a: PDFLink, b: PDFLink) -> Bool {
        a.page == b.page && a.uri == b.uri && a.rect == b.rect && a.element == b.element
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(page)
        hasher.combine(uri)
    }
}

/// The link annotations of a PDF that Cairo wrote, added after Cairo is done by ``PDFCompletion``.
///
/// Cairo 1.16 (Debian 12's) writes link annotations made with `CAIRO_TAG_LINK` into a page's `/Annots` array
/// under object numbers it never writes, so the file has a broken cross-reference table (`qpdf --check`: "object 3 0
/// not found") and the links do not work. Cairo's own output is otherwise sound, so the engine draws no link tags
/// and writes the annotations itself.
enum PDFLinkAnnotations {
    /// The annotation dictionary of `link`; with `structParent`, its key in a tagged file's parent tree.
    static func dictionary(_ link: PDFLink, structParent: Int?) -> String {
        let (x0, y0, x1, y1) = link.rect
        return "<< /Type /Annot /Subtype /Link /Rect [\(number(x0)) \(number(y0)) \(number(x1)) \(number(y1))] "
            + "/Border [0 0 0] /A << /S /URI /URI \(literal(link.uri)) >>"
            + (structParent.map { " /StructParent \($0)" } ?? "") + " >>"
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
}
