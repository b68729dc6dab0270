// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkRender
import Testing

@Suite struct ParagraphTests {
    /// Numbered words, so that a lost or repeated word shows in the text read back.
    static func words(_ count: Int) -> String { (1...count).map { "word\($0)" }.joined(separator: " ") }

    @Test func aNarrowerWidthGivesMoreLinesOfTheSameHeight() throws {
        let paragraph = Paragraph([TextRun(Self.words(60))], font: TextFont(size: 10))
        let wide = try paragraph.lines(width: 400), narrow = try paragraph.lines(width: 150)
        #expect(wide.count >= 2 && narrow.count > wide.count)
        for line in wide + narrow {
            // Noto Sans is about 1.36 em from ascent to descent; the default spacing is 1.15 of that.
            #expect(abs(line.height - 10 * 1.36 * 1.15) < 0.5, "\(line)")
            #expect(line.baseline > 0 && line.baseline < line.height)
        }
        #expect(try Paragraph([TextRun("one line")], font: TextFont(size: 10)).lines(width: 400).count == 1)
    }

    @Test func linesDrawnOnTwoPagesGiveEveryWordOnceInOrder() throws {
        let text = Self.words(120)
        let paragraph = Paragraph([TextRun(text)], font: TextFont(size: 11))
        let lines = try paragraph.lines(width: 300)
        let split = lines.count / 2
        let document = PDFDocument(title: "Paragraph")
        try document.addPage(width: 400, height: 600) { page in
            try paragraph.draw(lines: 0..<split, width: 300, at: Point(50, 50), on: page)
        }
        try document.addPage(width: 400, height: 600) { page in
            try paragraph.draw(lines: split..<lines.count, width: 300, at: Point(50, 50), on: page)
        }
        let read = try TextScriptsTests.pdfText(document.finish())
        #expect(read == text)
    }

    @Test func emphasisAndLinksAreDrawnAndLinked() throws {
        let paragraph = Paragraph([TextRun("Read the "), TextRun("study plan", bold: true), TextRun(" and "),
                                   TextRun("privacy notice", italic: true, link: "https://example.org/privacy?a=1&b='2'"),
                                   TextRun(".")], font: TextFont(size: 12))
        let document = PDFDocument()
        try document.addPage(width: 400, height: 200) { page in
            try paragraph.draw(lines: 0..<1, width: 300, at: Point(20, 20), on: page)
        }
        let pdf = try document.finish()
        #expect(try TextScriptsTests.pdfText(pdf) == "Read the study plan and privacy notice.")
        let raw = String(decoding: pdf, as: UTF8.self)
        #expect(raw.contains("/URI (https://example.org/privacy?a=1&b='2')"))
        #expect(raw.components(separatedBy: "/Subtype /Link").count == 2)
    }

    @Test func rightToLeftLinesStartAtTheRight() throws {
        let hebrew = Paragraph([TextRun("שלום עולם")], font: TextFont(size: 20))
        let document = PDFDocument()
        try document.addPage(width: 400, height: 100) { page in
            try hebrew.draw(lines: 0..<1, width: 360, at: Point(20, 20), on: page)
        }
        let image = try PDFInspection.rasterize(document.finish(), dpi: 72)
        var left = 0, right = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y).red < 128 { if x < 200 { left += 1 } else { right += 1 } }
        }
        #expect(right > 50 && left == 0, "left \(left), right \(right)")
    }

    @Test func aParagraphSetAgainKeepsItsOwnDirectionAndColour() throws {
        // A font map keeps the layouts it made for the next document: the same text in another direction or colour
        // must still be laid out and drawn as asked, in the first document and in the next.
        func ink(_ paragraph: Paragraph) throws -> (left: Int, right: Int, red: Int) {
            let document = PDFDocument()
            try document.addPage(width: 400, height: 100) { page in
                try paragraph.draw(lines: 0..<1, width: 360, at: Point(20, 20), on: page)
            }
            let image = try PDFInspection.rasterize(document.finish(), dpi: 72)
            var left = 0, right = 0, red = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let pixel = image.pixel(x: x, y: y)
                    if pixel.red < 128 && pixel.green < 128 { if x < 200 { left += 1 } else { right += 1 } }
                    if pixel.red > 200 && pixel.green < 100 { red += 1 }
                }
            }
            return (left, right, red)
        }
        let text = [TextRun("Hello world")], font = TextFont(size: 20)
        for round in 1...2 {
            let start = try ink(Paragraph(text, font: font, direction: .leftToRight))
            #expect(start.left > 50 && start.right == 0 && start.red == 0, "round \(round): \(start)")
            let end = try ink(Paragraph(text, font: font, direction: .rightToLeft))
            #expect(end.right > 50 && end.left == 0, "round \(round): \(end)")
            let red = try ink(Paragraph(text, font: font, color: Color(red: 255, green: 0, blue: 0), direction: .leftToRight))
            #expect(red.red > 50 && red.left == 0, "round \(round): \(red)")
        }
    }

    @Test func badArgumentsAreRefused() throws {
        let paragraph = Paragraph([TextRun("text")], font: TextFont(size: 10))
        #expect(throws: RenderError.invalidOption(option: "width", message: "0.0; must be a positive number of units")) {
            try paragraph.lines(width: 0)
        }
        let document = PDFDocument()
        try document.addPage(width: 100, height: 100) { page in
            #expect(throws: RenderError.self) { try paragraph.draw(lines: 0..<3, width: 80, at: Point(0, 0), on: page) }
        }
        #expect(throws: RenderError.invalidOption(option: "outline", message: "page 2 is not one of the 1 pages added")) {
            try document.addOutlineEntry("Two", page: 2)
        }
    }

    @Test func outlineEntriesAndMetadataAreWritten() throws {
        let document = PDFDocument(title: "Consent", subject: "Study ABC")
        for n in 1...2 { try document.addPage(width: 200, height: 200) { _ in } ; _ = n }
        let top = try document.addOutlineEntry("First", page: 1)
        try document.addOutlineEntry("Second", page: 2, y: 50, parent: top)
        #expect(document.pageCount == 2)
        let raw = String(decoding: try document.finish(), as: UTF8.self)
        #expect(raw.contains("/Outlines"))
        #expect(raw.contains("/Title (First)") && raw.contains("/Title (Second)"))
        #expect(raw.contains("/Subject (Study ABC)"))
    }
}

@Suite struct PageImageTests {
    @Test func aPageDrawnAsAnImageMatchesItsPDF() throws {
        let paragraph = Paragraph([TextRun(ParagraphTests.words(30))], font: TextFont(size: 12))
        func draw(_ page: CairoTarget) throws(RenderError) {
            try paragraph.draw(lines: 0..<2, width: 200, at: Point(20, 20), on: page)
        }
        let image = try DecodedPNG(PageImage.png(width: 240, height: 100, dpi: 144, draw: draw))
        #expect(image.width == 480 && image.height == 200)
        #expect(abs((image.pixelsPerInch ?? 0) - 144) < 0.01)  // pHYs holds whole pixels per metre
        let document = PDFDocument()
        try document.addPage(width: 240, height: 100) { page in try draw(page) }
        let reference = try PDFInspection.rasterize(document.finish(), dpi: 144)
        // The same glyphs in the same places: every dark pixel of each has a dark pixel of the other within one
        // pixel (the two rasterisers antialias edges differently).
        func dark(_ image: DecodedPNG, _ x: Int, _ y: Int) -> Bool {
            x >= 0 && y >= 0 && x < image.width && y < image.height && image.pixel(x: x, y: y).red < 128
        }
        func near(_ image: DecodedPNG, _ x: Int, _ y: Int) -> Bool {
            (-1...1).contains { dx in (-1...1).contains { dy in dark(image, x + dx, y + dy) } }
        }
        var count = 0, unmatched = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                if dark(image, x, y) { count += 1; if !near(reference, x, y) { unmatched += 1 } }
                if dark(reference, x, y), !near(image, x, y) { unmatched += 1 }
            }
        }
        #expect(count > 1000)
        #expect(Double(unmatched) < 0.01 * Double(count), "\(unmatched) of \(count)")
        #expect(throws: RenderError.self) { try PageImage.png(width: 240, height: 100, dpi: 5000) { _ throws(RenderError) in } }
    }
}
