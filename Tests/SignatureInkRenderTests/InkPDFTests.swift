// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
@testable import SignatureInkRender
import Testing

/// The PDF the engine writes itself for ink alone: readers take it, it shows what the PNG shows, and anything more
/// still goes through Cairo.
@Suite struct InkPDFTests {
    static let navy = Color(red: 0, green: 0, blue: 128)
    static let halfCrimson = Color(red: 220, green: 20, blue: 60, alpha: 128)

    static func text(_ pdf: [UInt8]) -> String { String(decoding: pdf, as: UTF8.self) }

    @Test func inkAloneIsWrittenByTheEngineAndQPDFFindsNoFault() throws {
        let pdf = try SignatureRenderer().pdf(Fixtures.sample("long-name"))
        #expect(Self.text(pdf).contains("/Producer (signature-ink)"))
        let check = try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { try ExternalTool.run("qpdf", ["--check", $0]) }
        #expect(check.contains("No syntax or stream encoding errors"))
        // A signature line is drawn by Cairo, which names itself the producer.
        let lined = try SignatureRenderer(options: RenderOptions(decorations: Decorations(signatureLine: true))).pdf(Fixtures.cross)
        #expect(Self.text(lined).contains("/Producer (cairo"))
    }

    @Test func pensKeepTheirColoursAndTranslucencyOnThePage() throws {
        // Navy at y 20, half-transparent crimson at y 40, over white: the page shows what the PNG shows.
        let s = PenRenderTests.signature(pens: [PenRenderTests.pad(Self.navy), PenRenderTests.pad(Self.halfCrimson)])
        let o = RenderOptions(background: .white)
        let pdf = try SignatureRenderer(options: o).pdf(s)
        #expect(Self.text(pdf).contains("/a128 << /Type /ExtGState /CA 0.502 /ca 0.502 >>"))
        let page = try PDFInspection.rasterize(pdf, dpi: 96)
        let png = try DecodedPNG(SignatureRenderer(options: o).png(s))
        #expect(page.width == png.width && page.height == png.height)
        for (x, y) in [(40, 20), (40, 40), (60, 40), (40, 30)] {
            let a = page.pixel(x: x, y: y), b = png.pixel(x: x, y: y)
            #expect(abs(Int(a.red) - Int(b.red)) <= 8 && abs(Int(a.green) - Int(b.green)) <= 8
                    && abs(Int(a.blue) - Int(b.blue)) <= 8, "pixel (\(x), \(y)): page \(a), PNG \(b)")
        }
        // Half crimson over white, not crimson: the opacity was kept.
        #expect(abs(Int(page.pixel(x: 60, y: 40).green) - (255 + 20) / 2) <= 16)
    }

    @Test func severalFillsAtAnOpacityAreOneGroupThroughCairo() throws {
        // Painted one by one at half opacity, the two pens would darken where they meet; Cairo paints them as a group.
        let s = PenRenderTests.signature(pens: [PenRenderTests.pad(Self.navy), PenRenderTests.pad(.black)])
        let pdf = try SignatureRenderer(options: RenderOptions(penColor: Self.navy).viewMode()).pdf(s)
        #expect(Self.text(pdf).contains("/Producer (cairo"))
    }

    @Test func noInkIsAnEmptyPageReadersTake() throws {
        let pdf = try SignatureRenderer(options: RenderOptions(background: .white))
            .pdf(Signature(strokes: [], canvas: Canvas(width: 120, height: 60)))
        let check = try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { try ExternalTool.run("qpdf", ["--check", $0]) }
        #expect(check.contains("No syntax or stream encoding errors"))
        let page = try PDFInspection.rasterize(pdf, dpi: 96)
        #expect(page.width == 120 && page.height == 60 && page.pixel(x: 60, y: 30).red == 255)
    }

    @Test func anEraserStillErasesTheInkAndNotTheBackground() throws {
        let s = PenRenderTests.signature(pens: [PenRenderTests.pad(.black), PenRenderTests.pad(.black),
                                                PenRenderTests.pad(.black, erases: true, radius: 6)], eraser: true)
        let page = try PDFInspection.rasterize(SignatureRenderer(options: RenderOptions(background: .white)).pdf(s), dpi: 96)
        #expect(page.pixel(x: 50, y: 20).red > 240 && page.pixel(x: 30, y: 20).red < 16)
    }

    @Test func datesAreWrittenAsPDFDatesOrLeftToCairo() {
        #expect(InkPDF.pdfDate("2024-12-30T12:00:00Z") == "D:20241230120000Z")
        #expect(InkPDF.pdfDate("2024-12-30T12:00:00+01:00") == nil)
        #expect(InkPDF.pdfDate("2024-12-30 12:00:00Z") == nil)
        #expect(InkPDF.pdfDate("20x4-12-30T12:00:00Z") == nil)
    }

    @Test func numbersArePrintedAsPDFReadsThem() {
        var out = InkPDF.ContentStream()
        for v in [450.0, 0.0075, 12.5, -1.25, 0.00004, 1 / 3.0] { out.decimal(v); out.append(" ") }
        for n in [0, -7, 1_234_567, Int.min + 1] { out.integer(n); out.append(" ") }
        #expect(String(decoding: out.bytes, as: UTF8.self)
                == "450 0.0075 12.5 -1.25 0 0.3333 0 -7 1234567 -9223372036854775807 ")
    }
}
