// SPDX-License-Identifier: Apache-2.0
import CQPDF
import SignatureInkRender

/// Writes changed and new objects after a PDF's original bytes, as an incremental update (ISO 32000-2, 7.5.6).
///
/// qpdf writes whole files, which would move every byte a digital signature covers. So qpdf only reads the file
/// and gives each object in its plain syntax (`unparseResolved`; streams with their stored data), and
/// ``PDFIncrementalUpdate`` appends them with a cross-reference section of the same kind as the file's last one (a
/// table, or a cross-reference stream for a file that uses them) whose trailer points back to it with `/Prev`.
enum IncrementalUpdate {
    /// The file with `changed` and `new` appended as qpdf holds them, and `written`: objects whose bytes the caller
    /// wrote (a signature dictionary with room for its signature), each an object qpdf numbered.
    static func append(changed: [qpdf_oh], new: [qpdf_oh], written extra: [PDFIncrementalUpdate.Object] = [], of file: QPDFFile,
                       original: [UInt8]) throws(PDFFormError) -> [UInt8] {
        guard let previous = PDFIncrementalUpdate.lastCrossReference(in: original) else {
            throw .unreadable(file: file.name, message: "no startxref near the end of the file")
        }
        let usesStream = !original[previous...].starts(with: Array("xref".utf8))
        let trailer = file.trailer
        guard let size = file.integer(file.get(trailer, "/Size")), let root = file.get(trailer, "/Root") else {
            throw .unreadable(file: file.name, message: "the trailer has no /Size or /Root")
        }
        var objects: [PDFIncrementalUpdate.Object] = []
        var numbers = Set(extra.map(\.number))
        for object in changed + new {
            guard let id = file.identity(object) else { throw .qpdf("a changed object is not an indirect object") }
            guard numbers.insert(id.number).inserted else { continue }
            let body: [UInt8]
            if file.isStream(object) {
                let data = try file.streamData(object, decoded: false)
                let dictionary = qpdf.qpdf_oh_get_dict(file.pdf, object)
                try file.set(dictionary, "/Length", qpdf.qpdf_oh_new_integer(file.pdf, Int64(data.count)))
                body = file.unparseResolved(dictionary) + Array("\nstream\n".utf8) + data + Array("\nendstream".utf8)
            } else {
                body = file.unparseResolved(object)
            }
            objects.append(PDFIncrementalUpdate.Object(number: id.number, generation: id.generation, body: body))
        }
        objects += extra
        var fields = "/Root \(file.unparse(root))"
        if let info = file.get(trailer, "/Info") { fields += " /Info \(file.unparse(info))" }
        if let id = file.get(trailer, "/ID") { fields += " /ID \(file.unparse(id))" }
        let update = PDFIncrementalUpdate(original: original, previous: previous, size: size, trailerFields: fields,
                                          crossReference: usesStream ? .stream : .table)
        return update.appending(objects)
    }
}
