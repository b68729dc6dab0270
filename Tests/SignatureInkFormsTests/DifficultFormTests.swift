// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkForms
import SignatureInkRender
import Testing

/// Forms that real-world files make hard: turned pages, `/NeedAppearances`, damaged data.
enum TurnedPages {
    /// A "Γ": a long bar along the top and a short one down the left. Its ink's centre of mass lies up and to the
    /// left of its box's centre, so the four ways it can be turned are told apart.
    static let gamma: Signature = {
        let top = (0...30).map { InkSample(x: Double($0) * 10, y: 0, t: Double($0) * 8) }
        let left = (0...10).map { InkSample(x: 0, y: Double($0) * 10, t: 400 + Double($0) * 8) }
        return Signature(strokes: [top, left])
    }()

    /// Where `rect` (default user space) shows in pdftoppm's image of a page whose media box is `box`, turned `turn`
    /// degrees clockwise: left, top, right, bottom in pixels at 72 dpi.
    static func shown(_ rect: Rect, box media: Rect, turn: Int) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let corners = [(rect.minX, rect.minY), (rect.maxX, rect.maxY)].map { x, y -> (Double, Double) in
            let u = x - media.minX, v = media.maxY - y  // the page unturned, y down
            switch turn {
            case 90: return (media.height - v, u)
            case 180: return (media.width - u, media.height - v)
            case 270: return (v, media.width - u)
            default: return (u, v)
            }
        }
        return (min(corners[0].0, corners[1].0), min(corners[0].1, corners[1].1),
                max(corners[0].0, corners[1].0), max(corners[0].1, corners[1].1))
    }
}

@Suite struct TurnedPageTests {
    enum Mode: String, CaseIterable, Sendable { case appearance, flattened, rectangle }

    /// rotated.pdf turns its pages 0, 90, 180 and 270 degrees (the quarter turns inherited from the page tree), each
    /// with a crop box of [20 30 592 772] inside a Letter media box and a field that reads 216 x 72 on the turned page.
    @Test(arguments: [0, 90, 180, 270], Mode.allCases)
    func theInkReadsUprightInsideItsRectangle(turn: Int, mode: Mode) throws {
        let original = try Forms.bytes("rotated.pdf")
        let form = try Forms.form("rotated.pdf")
        let page = [0, 90, 180, 270].firstIndex(of: turn)! + 1
        let field = try #require(form.fields.first { $0.name == "Sign\(turn)" })
        #expect(field.page == page)
        let rect = try #require(field.rect)
        let placement: SignaturePlacement = mode == .rectangle ? .rect(page: page, rect) : .field(field.name)
        let signed = try form.sign(placement, ink: TurnedPages.gamma, options: FormSigningOptions(flatten: mode == .flattened))
        #expect(try PDFCheck.qpdfProblems(signed) == nil)
        let changed = try Forms.changedPixels(original, signed, page: page)
        let ink = (box: try #require(changed.box), centre: try #require(changed.centre))
        let expected = TurnedPages.shown(rect, box: Rect(x: 0, y: 0, width: 612, height: 792), turn: turn)
        // Inside the rectangle as the page shows it (a pixel of antialiasing either side)...
        #expect(Double(ink.box.minX) >= expected.minX - 1 && Double(ink.box.maxX) <= expected.maxX + 1
                && Double(ink.box.minY) >= expected.minY - 1 && Double(ink.box.maxY) <= expected.maxY + 1,
                "\(ink.box) in \(expected)")
        // ...filling it, as the Γ has the rectangle's proportions...
        #expect(Double(ink.box.maxX - ink.box.minX) > 0.9 * (expected.maxX - expected.minX) - 6, "\(ink.box) in \(expected)")
        #expect(Double(ink.box.maxY - ink.box.minY) > 0.9 * (expected.maxY - expected.minY) - 6, "\(ink.box) in \(expected)")
        // ...and upright: its long bar at the top, its short one on the left.
        let middle = (x: Double(ink.box.minX + ink.box.maxX) / 2, y: Double(ink.box.minY + ink.box.maxY) / 2)
        #expect(ink.centre.x < middle.x - 10 && ink.centre.y < middle.y - 10, "centre \(ink.centre), box \(ink.box)")
        for other in 1...4 where other != page {
            #expect(try Forms.changedPixels(original, signed, page: other).count == 0, "page \(other)")
        }
    }

    @Test func aRectangleOffThePageIsNamedInTheWayRectanglesAreGiven() throws {
        // A rectangle is given in the page's own space, before it turns: on page 2 (turned 90 degrees, crop box
        // 20,30 572 x 742) the top right corner of this one is off the page.
        let form = try Forms.form("rotated.pdf")
        #expect(throws: PDFFormError.rectangleOffPage(page: 2, message: "the rectangle 500,700,200,100.5 is not inside the "
                        + "page's visible area (its crop box), 20,30,572,742; both are left,bottom,width,height in points")) {
            _ = try form.sign(.rect(page: 2, Rect(x: 500, y: 700, width: 200, height: 100.5)), ink: TurnedPages.gamma)
        }
    }
}

@Suite struct FormFileTests {
    @Test func rectanglesAreWrittenOneWay() {
        #expect(PDFForm.describe(Rect(x: 72, y: 500, width: 216, height: 72)) == "72,500,216,72")
        #expect(PDFForm.describe(Rect(x: 10.5, y: 20.25, width: 100.004, height: 0.05)) == "10.5,20.25,100,0.05")
        #expect(PDFForm.describe(Rect(x: -0.5, y: -12.345, width: 1e-9, height: 3.999)) == "-0.5,-12.35,0,4")
    }

    @Test func aRealFormsOwnSignatureFieldTakesTheInkAndNothingElseChanges() throws {
        // VA Form 21-0966: an AcroForm with an XFA part, whose signature field is 279 x 12.9 points at 39.33,417.63
        // on page 2 (shown 39...319 across, 792 - 430.5 = 361...375 down).
        let original = try Forms.bytes("va21-0966.pdf")
        let form = try Forms.form("va21-0966.pdf")
        let name = "F[0].#subform[1].Digital_Signature[0]"
        #expect(form.emptySignatureFields.map(\.name) == [name])
        #expect(form.emptySignatureFields.first.flatMap(\.rect).map(PDFForm.describe) == "39.33,417.63,279.13,12.87")
        for options in [FormSigningOptions(), FormSigningOptions(flatten: true)] {
            let signed = try form.sign(.field(name), ink: Forms.ink, options: options)
            #expect(try PDFCheck.qpdfProblems(signed) == nil)
            let changed = try Forms.changedPixels(original, signed, page: 2)
            #expect(changed.count > 50, "\(changed.count)")
            let box = try #require(changed.box)
            #expect(box.minX >= 39 && box.maxX <= 319 && box.minY >= 361 && box.maxY <= 375, "\(box)")
            #expect(try Forms.changedPixels(original, signed, page: 1).count == 0)
            #expect(try PDFCheck.text(signed) == (try PDFCheck.text(original)))
            let reread = try PDFForm(bytes: signed)
            #expect(reread.fields.filter { $0.name != name } == form.fields.filter { $0.name != name })
            #expect(reread.emptySignatureFields.isEmpty)
        }
    }

    @Test func aFormThatAsksViewersToRedrawItsFieldsStillShowsTheInk() throws {
        // need-appearances.pdf says /NeedAppearances true: a viewer that honours it draws every field anew, and one
        // that cannot draw a signature field would show it empty.
        // The signed copy shows the ink, and the text field Name exactly as before (its value drawn by the viewer).
        let original = try Forms.bytes("need-appearances.pdf")
        let form = try Forms.form("need-appearances.pdf")
        let ways = [FormSigningOptions(), FormSigningOptions(flatten: true), FormSigningOptions(incremental: true)]
        for options in ways {
            let signed = try form.sign(.field("Signature1"), ink: Forms.ink, name: "Ada Lovelace", options: options)
            #expect(try PDFCheck.qpdfProblems(signed) == nil)
            if options.incremental { #expect(Array(signed.prefix(original.count)) == original) }
            let changed = try Forms.changedPixels(original, signed, page: 1)
            #expect(changed.count > 200, "flatten \(options.flatten), incremental \(options.incremental): \(changed.count) pixels")
            let box = try #require(changed.box)
            #expect(box.minX >= 72 && box.maxX <= 288 && box.minY >= 220 && box.maxY <= 292, "\(box)")
            #expect(try PDFCheck.text(signed, page: 1).contains("Ada Lovelace"))
            // The flag goes with a filled field; a flattened one leaves no field for it to redraw.
            let written = options.incremental ? Array(signed[original.count...]) : signed
            #expect(String(decoding: written, as: UTF8.self).contains("/NeedAppearances true") == options.flatten)
        }
    }

    @Test func aStreamThatDoesNotDecodeIsCopiedAsItIs() throws {
        // corrupt-content.pdf: page 1's content stream is Flate data cut short. The signed copy must hold the same
        // bytes, not the part of the page that decodes.
        let original = try Forms.bytes("corrupt-content.pdf")
        let start = try #require(original.firstRange(of: Array("stream\n".utf8))).upperBound
        let end = try #require(original[start...].firstRange(of: Array("\nendstream".utf8))).lowerBound
        let stored = Array(original[start..<end])
        #expect(stored.count > 40)
        for placement in [SignaturePlacement.field("Signature1"), .rect(page: 2, Rect(x: 72, y: 72, width: 216, height: 72))] {
            let signed = try Forms.form("corrupt-content.pdf").sign(placement, ink: Forms.ink)
            #expect(signed.firstRange(of: stored) != nil, "\(placement)")
            #expect(try Forms.changedPixels(original, signed, page: placement == .field("Signature1") ? 2 : 1).count == 0)
        }
    }

    @Test func aFileReadOnlyByMendingItIsRefusedSayingWhat() throws {
        // bad-length.pdf: a stream's /Length is 5 bytes too long. qpdf finds its end by looking for `endstream`
        // once it reads the stream; the form is refused with what was wrong and where, rather than signed as qpdf
        // guessed it.
        let form = try Forms.form("bad-length.pdf")
        #expect(form.fields.map(\.name) == ["Signature1", "Name"])
        for options in [FormSigningOptions(), FormSigningOptions(flatten: true)] {
            #expect(throws: PDFFormError.damaged(file: "bad-length.pdf",
                                                 message: "a stream's /Length does not reach its endstream (object 8 0, at byte 1009)")) {
                _ = try form.sign(.field("Signature1"), ink: Forms.ink, options: options)
            }
        }
        let error = PDFFormError.damaged(file: "bad-length.pdf", message: "x")
        #expect(error.description == "bad-length.pdf: the PDF is damaged: x; it was not signed, so nothing in it was lost or changed")
        // bad-xref.pdf: every offset of the cross-reference table is 12 bytes short. qpdf would rebuild the table;
        // the form is refused as soon as it is read, naming the first object that is not where the table says.
        #expect(throws: PDFFormError.damaged(file: "bad-xref.pdf", message: "the cross-reference table points where no object "
                        + "starts (object 5 0, at byte 498) (and 3 more problems)")) {
            _ = try Forms.form("bad-xref.pdf")
        }
        // damaged.pdf is cut short: its cross-reference table is gone. Nothing is guessed at.
        #expect {
            _ = try Forms.form("damaged.pdf")
        } throws: { error in
            guard case let .unreadable(file, message)? = error as? PDFFormError else { return false }
            return file == "damaged.pdf" && message == "can't find startxref"
        }
    }
}
