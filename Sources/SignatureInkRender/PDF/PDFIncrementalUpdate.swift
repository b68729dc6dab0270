// SPDX-License-Identifier: Apache-2.0

/// Writes an incremental update of a PDF (ISO 32000-2, 7.5.6): objects appended after the file's bytes, then a
/// cross-reference section listing them whose trailer points back to the file's last one with `/Prev`.
///
/// The one writer of an update's section, for a form signed with `--incremental` and a sealed consent
/// (SignatureInkForms, which reads and unparses the objects with qpdf). Rewriting the whole file instead would move
/// every byte a digital signature covers. The original bytes come first, unchanged.
package struct PDFIncrementalUpdate {
    /// One object of the update: its number, its generation, and its bytes between the `N G obj` line and `endobj`
    /// (a stream's dictionary, `stream`, its data and `endstream`).
    package struct Object {
        /// The object number, >= 1.
        package var number: Int
        /// The generation number, 0...65535.
        package var generation: Int
        /// The object's bytes, without the `obj` and `endobj` lines.
        package var body: [UInt8]

        /// An object of the update.
        package init(number: Int, generation: Int = 0, body: [UInt8]) {
            self.number = number
            self.generation = generation
            self.body = body
        }
    }

    /// The kind of cross-reference section: the same as the file's last one.
    package enum CrossReference {
        /// A `xref` table and a `trailer` dictionary.
        case table
        /// A cross-reference stream (PDF 1.5), itself an object numbered after the file's others.
        case stream
    }

    /// The file's bytes.
    package var original: [UInt8]
    /// The offset of the file's last cross-reference section, as its `startxref` gives it (the update's `/Prev`).
    package var previous: Int
    /// The file's trailer `/Size`: one more than its highest object number.
    package var size: Int
    /// The trailer's entries besides `/Size` and `/Prev`, as PDF text, such as `/Root 1 0 R /Info 2 0 R`.
    package var trailerFields: String
    /// The kind of section to write.
    package var crossReference: CrossReference

    /// An update of `original`.
    /// - Parameters:
    ///   - original: the file's bytes.
    ///   - previous: the offset its `startxref` gives (see ``lastCrossReference(in:)``).
    ///   - size: its trailer's `/Size`.
    ///   - trailerFields: the trailer entries the update carries over (`/Root`, and `/Info` and `/ID` when present).
    ///   - crossReference: `.table` (the default) or `.stream`, as the file's last section.
    package init(original: [UInt8], previous: Int, size: Int, trailerFields: String, crossReference: CrossReference = .table) {
        self.original = original
        self.previous = previous
        self.size = size
        self.trailerFields = trailerFields
        self.crossReference = crossReference
    }

    /// The file with `objects` appended (in the order given, each number once), the cross-reference section and
    /// `startxref`. The new `/Size` is the larger of ``size`` and one more than the highest number written.
    package func appending(_ objects: [Object]) -> [UInt8] {
        var out = original
        if out.last != 10 && out.last != 13 { out.append(10) }
        var offsets: [(number: Int, generation: Int, offset: Int)] = []
        for object in objects {
            offsets.append((object.number, object.generation, out.count))
            out += Array("\(object.number) \(object.generation) obj\n".utf8)
            out += object.body
            out += Array("\nendobj\n".utf8)
        }
        var newSize = Swift.max(size, (offsets.map(\.number).max() ?? 0) + 1)
        let start = out.count
        switch crossReference {
        case .stream:
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
            out += Array("\(own) 0 obj\n<< /Type /XRef /Size \(newSize) \(trailerFields) /Prev \(previous) /W [1 4 2] /Index [\(index.dropFirst())] /Length \(data.count) >>\nstream\n".utf8)
            out += data + Array("\nendstream\nendobj\n".utf8)
        case .table:
            var table = "xref\n"
            for entry in offsets.sorted(by: { $0.number < $1.number }) {
                let digits = String(entry.offset), generation = String(entry.generation)
                table += "\(entry.number) 1\n" + String(repeating: "0", count: 10 - digits.count) + digits + " "
                    + String(repeating: "0", count: Swift.max(0, 5 - generation.count)) + generation + " n \n"
            }
            table += "trailer\n<< /Size \(newSize) \(trailerFields) /Prev \(previous) >>\n"
            out += Array(table.utf8)
        }
        out += Array("startxref\n\(start)\n%%EOF\n".utf8)
        return out
    }

    /// The offset `startxref` gives near the end of `bytes` (in its last 1024 bytes), or `nil` when there is none
    /// or it points outside the file.
    package static func lastCrossReference(in bytes: [UInt8]) -> Int? {
        let tail = bytes.suffix(1024)
        let text = String(decoding: tail, as: UTF8.self)
        guard let marker = text.ranges(of: "startxref").last else { return nil }
        let digits = text[marker.upperBound...].drop { $0 == " " || $0 == "\r" || $0 == "\n" }.prefix { $0.isNumber }
        guard let offset = Int(digits), offset >= 0, offset < bytes.count else { return nil }
        return offset
    }
}
