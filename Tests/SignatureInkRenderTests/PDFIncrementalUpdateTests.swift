// SPDX-License-Identifier: Apache-2.0
@testable import SignatureInkRender
import Testing

@Suite struct PDFIncrementalUpdateTests {
    /// A small PDF with a cross-reference table, and the offset of that table.
    func original(endingInNewline: Bool = true) -> (bytes: [UInt8], xref: Int) {
        var text = "%PDF-1.4\n"
        let catalog = text.utf8.count
        text += "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
        let pages = text.utf8.count
        text += "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
        let xref = text.utf8.count
        func entry(_ offset: Int) -> String {
            let digits = String(offset)
            return String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        text += "xref\n0 3\n0000000000 65535 f \n" + entry(catalog) + entry(pages)
        text += "trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF" + (endingInNewline ? "\n" : "")
        return (Array(text.utf8), xref)
    }

    /// The text of `bytes` from `offset`, `count` bytes at most.
    func text(_ bytes: [UInt8], at offset: Int, count: Int) -> String {
        String(decoding: bytes[offset..<min(bytes.count, offset + count)], as: UTF8.self)
    }

    let objects = [
        PDFIncrementalUpdate.Object(number: 4, body: Array("<< /Type /Annot >>".utf8)),
        PDFIncrementalUpdate.Object(number: 2, generation: 3, body: Array("<< /Type /Pages /Kids [] /Count 0 >>".utf8)),
    ]

    @Test func findsTheLastCrossReference() {
        let (bytes, xref) = original()
        #expect(PDFIncrementalUpdate.lastCrossReference(in: bytes) == xref)
        #expect(PDFIncrementalUpdate.lastCrossReference(in: Array("%PDF-1.4\n%%EOF\n".utf8)) == nil)
        #expect(PDFIncrementalUpdate.lastCrossReference(in: Array("startxref\n999\n%%EOF\n".utf8)) == nil)
    }

    @Test(arguments: [true, false])
    func tableListsEachObjectAtItsOffsetAndPointsBack(endingInNewline: Bool) throws {
        let (bytes, xref) = original(endingInNewline: endingInNewline)
        let update = PDFIncrementalUpdate(original: bytes, previous: xref, size: 3, trailerFields: "/Root 1 0 R")
        let out = update.appending(objects)
        // The original bytes first, unchanged; a line break before the first new object.
        #expect(Array(out.prefix(bytes.count)) == bytes)
        let start = try #require(PDFIncrementalUpdate.lastCrossReference(in: out))
        #expect(start > bytes.count)
        let section = text(out, at: start, count: out.count - start)
        let lines = section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // One subsection per object, in number order, each entry 20 bytes with its generation.
        #expect(lines[0] == "xref")
        #expect(lines[1] == "2 1" && lines[3] == "4 1")
        #expect(lines[2].hasSuffix(" 00003 n ") && lines[4].hasSuffix(" 00000 n "))
        for (header, entry) in [(lines[1], lines[2]), (lines[3], lines[4])] {
            let number = try #require(Int(header.split(separator: " ")[0]))
            let offset = try #require(Int(entry.prefix(10)))
            let generation = number == 2 ? 3 : 0
            #expect(text(out, at: offset, count: 20).hasPrefix("\(number) \(generation) obj\n<< /Type"))
        }
        #expect(lines[5] == "trailer")
        #expect(lines[6] == "<< /Size 5 /Root 1 0 R /Prev \(xref) >>")
        #expect(section.hasSuffix("startxref\n\(start)\n%%EOF\n"))
    }

    @Test func streamIsAnObjectNumberedAfterTheOthers() throws {
        let (bytes, xref) = original()
        let update = PDFIncrementalUpdate(original: bytes, previous: xref, size: 7, trailerFields: "/Root 1 0 R /ID [<01> <02>]",
                                          crossReference: .stream)
        let out = update.appending(objects)
        let start = try #require(PDFIncrementalUpdate.lastCrossReference(in: out))
        let header = text(out, at: start, count: 200)
        #expect(header.hasPrefix("7 0 obj\n<< /Type /XRef /Size 8 /Root 1 0 R /ID [<01> <02>] /Prev \(xref) /W [1 4 2] "
                                 + "/Index [2 1 4 1 7 1] /Length 21 >>\nstream\n"))
        // Entries of 1 + 4 + 2 bytes: type 1, offset, generation, in the order of /Index.
        let data = try #require(header.utf8.firstRange(of: "stream\n".utf8)).upperBound
        let dataStart = start + header.utf8.distance(from: header.utf8.startIndex, to: data)
        let entries = Array(out[dataStart..<dataStart + 21])
        for (k, (number, generation)) in [(2, 3), (4, 0), (7, 0)].enumerated() {
            let e = Array(entries[k * 7..<k * 7 + 7])
            #expect(e[0] == 1)
            let offset = e[1...4].reduce(0) { $0 << 8 | Int($1) }
            #expect(Int(e[5]) << 8 | Int(e[6]) == generation)
            #expect(text(out, at: offset, count: 12).hasPrefix("\(number) \(generation) obj\n"))
        }
        #expect(text(out, at: out.count - 40, count: 40).hasSuffix("endstream\nendobj\nstartxref\n\(start)\n%%EOF\n"))
    }
}
