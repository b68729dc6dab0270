// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkRender
import Testing

@Suite struct RecordRenderTests {
    /// A saved record made through the capture session, in dark blue.
    func savedRecord() throws -> SignatureRecord {
        var session = CaptureSession(configuration: .init(canvas: Canvas(width: 200, height: 80),
                                                          penColor: Color(hex: "#1a237e")!))
        let samples = (0..<30).map { i in
            InkSample(x: 20 + Double(i) * 5, y: 40 + 15 * sin(Double(i) / 3), t: 1000 + Double(i) * 10, pressure: 0.6)
        }
        try session.replay(Signature(strokes: [samples]))
        return try session.save(at: 1_767_225_599_000)  // 2025-12-31T23:59:59Z
    }

    @Test func aRecordRendersInTheSavedLookWithItsOwnInk() throws {
        let record = try savedRecord()
        let options = record.renderOptions()
        #expect(options.opacity == RenderOptions.defaultViewOpacity)
        #expect(options.penColor == record.penColor)
        #expect(options.penStyle == record.style)
        let png = try DecodedPNG(SignatureRenderer(options: options).png(record.signature))
        let opaque = try DecodedPNG(SignatureRenderer(options: record.renderOptions(viewMode: false)).png(record.signature))
        // The same pixels are inked; in view mode at half the opacity, in the record's colour.
        let inked = stride(from: 0, to: opaque.rgba.count, by: 4).filter { opaque.rgba[$0 + 3] == 255 }
        #expect(!inked.isEmpty)
        for i in inked {
            #expect(png.rgba[i + 3] == 128)
            #expect(Array(png.rgba[i..<i + 3]) == [0x1a, 0x23, 0x7e])
        }
    }

    @Test func aConsentBlockNamesTheSignerAndTheSaveDate() throws {
        let record = try savedRecord()
        let block = SignatureBlock(record: record, signerName: "Ada Lovelace")
        #expect(block.date == "2025-12-31")
        #expect(block.signerName == "Ada Lovelace")
        #expect(block.options.opacity == 1)
        let pdf = try block.pdf()
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        // The ink stays vector: the page draws paths, and there is no image in the file.
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(!text.contains("/Subtype /Image"))
    }
}
