// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
@testable import SignatureInkRender
import Testing

/// A form renderer's use: its own PDF pages, with signatures drawn into rectangles of them.
@Suite struct EmbeddingTests {
    /// Counts pixels darker than `threshold` (red channel) inside and outside `r` (in pixels).
    func inked(_ page: DecodedPNG, inside r: Rect, threshold: UInt8 = 160) -> (inside: Int, outside: Int) {
        var inside = 0, outside = 0
        for y in 0..<page.height {
            for x in 0..<page.width where page.pixel(x: x, y: y).red < threshold {
                if r.contains(Point(Double(x), Double(y))) { inside += 1 } else { outside += 1 }
            }
        }
        return (inside, outside)
    }

    @Test func aSignatureBlockOnAFormPage() throws {
        let signature = try Fixtures.sample("long-name")
        let document = PDFDocument(title: "Consent")
        let blockRect = Rect(x: 72, y: 600, width: 240, height: 120)
        try document.addPage(width: 595, height: 842) { page in
            try SignatureBlock(signature: signature, signerName: "Selane Harlaye", date: "2026-11-22")
                .draw(in: blockRect, on: page)
        }
        try document.addPage(width: 300, height: 200) { page in
            try SignatureRenderer().draw(signature, in: Rect(x: 10, y: 10, width: 280, height: 180), on: page,
                                         opacity: RenderOptions.defaultViewOpacity)
        }
        let pdf = try document.finish()
        let info = try PDFInspection(pdf)
        #expect(info.pages == 2)
        #expect(info.pageSizes.count == 2 && info.pageSizes[0] == (595, 842) && info.pageSizes[1] == (300, 200))

        // At 72 dpi one pixel is one point: all the ink, line and text are inside the block.
        let first = try PDFInspection.rasterize(pdf, page: 1, dpi: 72)
        let counts = inked(first, inside: blockRect.outsetBy(1))
        #expect(counts.inside > 500)
        #expect(counts.outside == 0)
        // The line runs under the ink, across the block.
        let lineY = Int(blockRect.minY + SignatureBlock.lineY(height: blockRect.height))
        let lineRow = (Int(blockRect.minX) + 2..<Int(blockRect.maxX) - 2).filter { x in
            (lineY - 1...lineY + 1).contains { first.pixel(x: x, y: $0).red < 230 }
        }
        #expect(lineRow.count > 220)
        // Name under the line on the left, date on the right.
        let textBand = Rect(x: blockRect.minX, y: Double(lineY) + 3, width: blockRect.width, height: blockRect.maxY - Double(lineY) - 3)
        let left = inked(first, inside: Rect(x: textBand.minX, y: textBand.minY, width: 100, height: textBand.height)).inside
        let right = inked(first, inside: Rect(x: textBand.maxX - 70, y: textBand.minY, width: 70, height: textBand.height)).inside
        #expect(left > 20 && right > 20)

        // Page two: the signature, fitted and in view mode, is mid-grey rather than black.
        let second = try PDFInspection.rasterize(pdf, page: 2, dpi: 72)
        let darkest = (0..<second.height).flatMap { y in (0..<second.width).map { second.pixel(x: $0, y: y).red } }.min() ?? 0
        #expect(darkest >= 110 && darkest <= 150)
    }

    @Test func drawingTwiceLeavesTheContextAsItWas() throws {
        // If the first draw leaked its translation, the second would land elsewhere.
        let document = PDFDocument()
        let a = Rect(x: 0, y: 0, width: 100, height: 50), b = Rect(x: 150, y: 100, width: 100, height: 50)
        try document.addPage(width: 300, height: 200) { page in
            try SignatureRenderer().draw(Fixtures.cross, in: a, on: page)
            try SignatureRenderer().draw(Fixtures.cross, in: b, on: page)
        }
        let page = try PDFInspection.rasterize(try document.finish(), dpi: 72)
        #expect(inked(page, inside: a).inside > 50)
        #expect(inked(page, inside: b).inside == inked(page, inside: a).inside)
        // Nothing outside the two rectangles.
        #expect(inked(page, inside: a).outside == inked(page, inside: b).inside)
    }

    @Test func theBlockAloneIsAOnePagePDF() throws {
        let block = SignatureBlock(signature: Fixtures.cross, signerName: "A. Signer")
        #expect(block.date == "2024-12-30")
        let pdf = try block.pdf()
        let info = try PDFInspection(pdf)
        #expect(info.pages == 1 && info.pageSizes[0] == (288, 108))
        #expect(try block.pdf() == pdf)
    }

    @Test func misuseIsAnError() throws {
        #expect(throws: RenderError.self) { try PDFDocument().finish() }
        let document = PDFDocument()
        #expect(throws: RenderError.self) { try document.addPage(width: 0, height: 100) { _ in } }
        #expect(throws: RenderError.self) { try document.addPage(width: 100, height: 1e6) { _ in } }
        try document.addPage(width: 100, height: 100) { page in
            #expect(throws: RenderError.self) {
                try SignatureRenderer().draw(Fixtures.cross, in: Rect(x: 0, y: 0, width: 0, height: 10), on: page)
            }
            #expect(throws: RenderError.self) {
                try SignatureBlock(signature: Fixtures.cross).draw(in: Rect(x: 0, y: 0, width: 10, height: 10), on: page)
            }
        }
        _ = try document.finish()
        #expect(throws: RenderError.self) { try document.finish() }

        // A page whose drawing throws leaves the document unusable rather than half drawn.
        struct FormError: Error {}
        let broken = PDFDocument()
        #expect(throws: FormError.self) { try broken.addPage(width: 100, height: 100) { _ in throw FormError() } }
        #expect(throws: RenderError.invalidOption(option: "page", message: PDFDocument.failedMessage)) { try broken.finish() }
        // Dropped unfinished with a page drawn: Cairo ends the document into a sink that must still be there.
        do {
            let abandoned = PDFDocument()
            try abandoned.addPage(width: 100, height: 100) { page in
                try SignatureRenderer().draw(Fixtures.cross, in: Rect(x: 0, y: 0, width: 100, height: 100), on: page)
            }
        }
        #expect(throws: RenderError.self) { try document.addPage(width: 100, height: 100) { _ in } }
    }
}
