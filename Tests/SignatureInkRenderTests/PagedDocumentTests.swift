// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkRender
import Testing

@Suite struct PagedDocumentTests {
    /// 40 sections of numbered words (`s12w7`), each with a heading and a few paragraphs of different lengths.
    static func sections(_ count: Int = 40) -> (blocks: [DocumentBlock], words: [String]) {
        var blocks: [DocumentBlock] = [.heading("Study consent", level: 1, bookmark: true)]
        var words: [String] = ["Study", "consent"]
        for s in 1...count {
            blocks.append(.heading("Section \(s)", level: 2, bookmark: true))
            words += ["Section", "\(s)"]
            for p in 0..<(1 + s % 3) {
                let text = (1...(12 + (s * 7 + p * 13) % 70)).map { "s\(s)p\(p)w\($0)" }
                words += text
                let paragraph = Paragraph([TextRun(text.joined(separator: " "))], font: TextFont(size: 11))
                blocks.append(p == 1 ? .listItem(paragraph, marker: "•") : .paragraph(paragraph))
            }
        }
        return (blocks, words)
    }

    static let signature = Signature(
        strokes: [[InkSample(x: 10, y: 40, t: 0), InkSample(x: 60, y: 10, t: 40), InkSample(x: 110, y: 45, t: 80)]],
        canvas: Canvas(width: 120, height: 60), startTime: 1_735_560_000_000)

    /// The text of each page as pdftotext reads it, line by line as the lines sit on the page.
    static func pageTexts(_ pdf: [UInt8], pages: Int) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(UUID().uuidString).pdf")
        try Data(pdf).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try (1...pages).map { try PDFInspection.run("pdftotext", ["-layout", "-f", "\($0)", "-l", "\($0)", file.path, "-"]) }
    }

    @Test func fortySectionsBreakAcrossPagesWithNoLostOrRepeatedLine() throws {
        let (blocks, words) = Self.sections()
        let document = PagedDocument(blocks: blocks, title: "Study consent", creationDate: "2026-11-24T12:00:00Z")
        let count = try document.pageCount()
        #expect(count >= 5)
        let pdf = try document.pdf()
        #expect(try PDFInspection(pdf).pages == count)
        var read: [String] = []
        for (index, text) in try Self.pageTexts(pdf, pages: count).enumerated() {
            var lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            // The running header and the footer.
            #expect(lines.first == "Study consent", "page \(index + 1)")
            #expect(lines.last == "Page \(index + 1) of \(count)")
            lines.removeFirst(); lines.removeLast()
            if index == 0 { #expect(lines.first == "Study consent") }
            // No heading is the last line of a page.
            #expect(!(lines.last ?? "").hasPrefix("Section "), "page \(index + 1) ends with a heading")
            read += lines.flatMap { $0.split(separator: " ").map(String.init) }.filter { $0 != "•" }
        }
        #expect(read.count == words.count)
        let firstDifference = zip(read, words).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first difference at word \(firstDifference ?? -1)")
    }

    @Test func headingsAreBookmarksAndTheSameInputGivesTheSameBytes() throws {
        let (blocks, _) = Self.sections(6)
        let document = PagedDocument(blocks: blocks, setup: .letter, title: "T", subject: "S")
        let pdf = try document.pdf()
        #expect(pdf == (try document.pdf()))
        let raw = String(decoding: pdf, as: UTF8.self)
        for s in 1...6 { #expect(raw.contains("/Title (Section \(s))")) }
        #expect(raw.contains("/Title (Study consent)"))
        let sizes = try PDFInspection(pdf).pageSizes
        #expect(sizes.allSatisfy { $0.width == 612 && $0.height == 792 })
    }

    @Test func signaturesStayVectorAndWhole() throws {
        var blocks = Self.sections(3).blocks
        for name in ["Ada Lovelace", "Charles Babbage"] {
            blocks.append(.signature(SignatureBlock(signature: Self.signature, signerName: name, date: "2026-11-24"), height: 110))
        }
        let document = PagedDocument(blocks: blocks)
        let pdf = try document.pdf()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sig-\(UUID().uuidString).pdf")
        try Data(pdf).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let images = try PDFInspection.run("pdfimages", ["-list", file.path]).split(separator: "\n")
        #expect(images.count == 2, "\(images)")  // the header lines only: no image
        let all = try Self.pageTexts(pdf, pages: document.pageCount()).joined()
        #expect(all.contains("Ada Lovelace") && all.contains("Charles Babbage"))
        let last = try DecodedPNG(document.png(page: document.pageCount(), dpi: 72))
        #expect(last.width == 596 && last.height == 842)
        #expect(throws: RenderError.self) { try document.png(page: 99) }
    }

    @Test func badBlocksAreRefused() {
        #expect(throws: RenderError.invalidOption(option: "heading level", message: "4; must be 1, 2 or 3")) {
            try PagedDocument(blocks: [.heading("x", level: 4, bookmark: false)]).pdf()
        }
        #expect(throws: RenderError.self) {
            try PagedDocument(blocks: [], setup: PageSetup(width: 100, height: 100, margin: 20)).pdf()
        }
    }
}
