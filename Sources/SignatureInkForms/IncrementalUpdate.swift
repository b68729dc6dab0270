// SPDX-License-Identifier: Apache-2.0
import CQPDF

/// Writes changed and new objects after a PDF's original bytes, as an incremental update (ISO 32000-2, 7.5.6).
///
/// qpdf writes whole files, which would move every byte a digital signature covers. So the update is written
/// here: each object in its plain syntax (qpdf's `unparseResolved`; streams with their stored data), then a
/// cross-reference section of the same kind as the file's last one (a table, or a cross-reference stream for a
/// file that uses them) whose trailer points back to it with `/Prev`. The original bytes come first, unchanged.
enum IncrementalUpdate {
    static func append(changed: [qpdf_oh], new: [qpdf_oh], of file: QPDFFile, original: [UInt8]) throws(PDFFormError) -> [UInt8] {
        guard let previous = lastCrossReference(in: original) else {
            throw .unreadable(file: file.name, message: "no startxref near the end of the file")
        }
        let usesStream = !original[previous...].starts(with: Array("xref".utf8))
        let trailer = file.trailer
        guard let size = file.number(file.get(trailer, "/Size")).map(Int.init), let root = file.get(trailer, "/Root") else {
            throw .unreadable(file: file.name, message: "the trailer has no /Size or /Root")
        }
        var out = original
        if out.last != 10 && out.last != 13 { out.append(10) }
        var offsets: [(number: Int, generation: Int, offset: Int)] = []
        var written = Set<Int>()
        for object in changed + new {
            guard let id = file.identity(object) else { throw .qpdf("a changed object is not an indirect object") }
            guard written.insert(id.number).inserted else { continue }
            offsets.append((id.number, id.generation, out.count))
            out += Array("\(id.number) \(id.generation) obj\n".utf8)
            if file.isStream(object) {
                let data = try file.streamData(object, decoded: false)
                let dictionary = qpdf.qpdf_oh_get_dict(file.pdf, object)
                try file.set(dictionary, "/Length", qpdf.qpdf_oh_new_integer(file.pdf, Int64(data.count)))
                out += file.unparseResolved(dictionary) + Array("\nstream\n".utf8) + data + Array("\nendstream".utf8)
            } else {
                out += file.unparseResolved(object)
            }
            out += Array("\nendobj\n".utf8)
        }
        var newSize = Swift.max(size, (offsets.map(\.number).max() ?? 0) + 1)
        var fields = "/Root \(file.unparse(root))"
        if let info = file.get(trailer, "/Info") { fields += " /Info \(file.unparse(info))" }
        if let id = file.get(trailer, "/ID") { fields += " /ID \(file.unparse(id))" }
        let start = out.count
        if usesStream {
            // The cross-reference stream is an object too: the next number.
            let own = newSize
            newSize += 1
            offsets.append((own, 0, start))
            var data: [UInt8] = []
            var index = ""
            for entry in offsets.sorted(by: { $0.number < $1.number }) {
                data.append(1)
                data += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: entry.offset >> $0) }
                data += [UInt8(truncatingIfNeeded: entry.generation >> 8), UInt8(truncatingIfNeeded: entry.generation)]
                index += " \(entry.number) 1"
            }
            out += Array("\(own) 0 obj\n<< /Type /XRef /Size \(newSize) \(fields) /Prev \(previous) /W [1 4 2] /Index [\(index.dropFirst())] /Length \(data.count) >>\nstream\n".utf8)
            out += data + Array("\nendstream\nendobj\n".utf8)
        } else {
            var table = "xref\n"
            for entry in offsets.sorted(by: { $0.number < $1.number }) {
                let digits = String(entry.offset), generation = String(entry.generation)
                table += "\(entry.number) 1\n" + String(repeating: "0", count: 10 - digits.count) + digits + " "
                    + String(repeating: "0", count: Swift.max(0, 5 - generation.count)) + generation + " n \n"
            }
            table += "trailer\n<< /Size \(newSize) \(fields) /Prev \(previous) >>\n"
            out += Array(table.utf8)
        }
        out += Array("startxref\n\(start)\n%%EOF\n".utf8)
        return out
    }

    /// The offset `startxref` gives at the end of the file.
    static func lastCrossReference(in bytes: [UInt8]) -> Int? {
        let tail = bytes.suffix(1024)
        let text = String(decoding: tail, as: UTF8.self)
        guard let marker = text.ranges(of: "startxref").last else { return nil }
        let digits = text[marker.upperBound...].drop { $0 == " " || $0 == "\r" || $0 == "\n" }.prefix { $0.isNumber }
        guard let offset = Int(digits), offset >= 0, offset < bytes.count else { return nil }
        return offset
    }
}
