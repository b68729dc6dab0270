// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
@testable import SignatureInkRender
import Testing

@Suite struct PDFTests {
    @Test func onePageAtSeventyTwoPointsPerInch() throws {
        let s = try Fixtures.sample("long-name")
        let info = try PDFInspection(SignatureRenderer().pdf(s))
        #expect(info.pages == 1)
        #expect(info.pageSizes.count == 1 && info.pageSizes[0] == (450, 225))
    }

    @Test func theBoxAndTheResolutionSetThePageSize() throws {
        let boxed = try PDFInspection(SignatureRenderer(options: RenderOptions(box: OutputSize(width: 200, height: 100), framing: .fit)).pdf(Fixtures.cross))
        #expect(boxed.pageSizes[0] == (150, 75))
        let dense = try PDFInspection(SignatureRenderer(options: RenderOptions(dpi: 300)).pdf(Fixtures.cross))
        #expect(abs(dense.pageSizes[0].width - 24) < 0.01 && abs(dense.pageSizes[0].height - 12) < 0.01)
    }

    @Test func aStraightStrokeTakesTheSameRoomWhateverItsSamples() throws {
        // The outline has two lines an ink point; the PDF gets its straight runs simplified. The line wobbles by
        // a twentieth of a unit, so that its sides are not exactly straight (Cairo merges exactly collinear lines).
        func line(_ n: Int) -> Signature {
            Signature(strokes: [(0...n).map {
                InkSample(x: 20 + 200 * Double($0) / Double(n), y: 40 + 0.05 * sin(Double($0)), t: Double($0) * 400 / Double(n))
            }])
        }
        let o = RenderOptions(penStyle: .constant(4))
        let sparse = try SignatureRenderer(options: o).pdf(line(40)).count
        let dense = try SignatureRenderer(options: o).pdf(line(400)).count
        #expect(abs(dense - sparse) < 100, "\(sparse) bytes for 41 samples, \(dense) for 401")
    }

    @Test func theSameInputGivesTheSameBytesDatedByTheCapture() throws {
        let o = RenderOptions(decorations: Decorations(signatureLine: true, watermark: "VOID", timestamp: .iso8601))
        let a = try SignatureRenderer(options: o).pdf(Fixtures.cross)
        let b = try SignatureRenderer(options: o).pdf(Fixtures.cross)
        #expect(a == b)
        #expect(try PDFInspection(a).creationDate?.contains("Dec 30 12:00:00 2024") == true)
        var undated = Fixtures.cross
        undated.startTime = nil
        #expect(try PDFInspection(SignatureRenderer().pdf(undated)).creationDate?.contains("2000") == true)
    }

    @Test func theVectorPageLooksLikeThePNG() throws {
        let s = try Fixtures.sample("long-name")
        let o = RenderOptions(background: .white)
        let png = try DecodedPNG(SignatureRenderer(options: o).png(s))
        let page = try PDFInspection.rasterize(SignatureRenderer(options: o).pdf(s), dpi: 96)
        #expect(page.width == png.width && page.height == png.height)
        var differing = 0, inked = 0
        for y in 0..<png.height {
            for x in 0..<png.width {
                let a = Int(png.pixel(x: x, y: y).red), b = Int(page.pixel(x: x, y: y).red)
                if a < 128 { inked += 1 }
                if abs(a - b) > 96 { differing += 1 }
            }
        }
        #expect(inked > 1000)
        #expect(Double(differing) < Double(inked) * 0.05, "\(differing) of \(inked) inked pixels differ")
    }

    @Test func viewModeOverlapsDoNotDarkenInPDF() throws {
        let o = RenderOptions(background: .white, penWidth: 4).viewMode()
        let page = try PDFInspection.rasterize(SignatureRenderer(options: o).pdf(Fixtures.cross), dpi: 96)
        let crossing = page.pixel(x: 50, y: 25), single = page.pixel(x: 30, y: 15)
        #expect(abs(Int(crossing.red) - Int(single.red)) <= 3)
        #expect(abs(Int(single.red) - 128) <= 8)
    }
}
