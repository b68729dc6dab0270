// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkForms
import SignatureInkRender
import Testing

/// Forms from `Tests/Fixtures/forms/` (see its SOURCES.md) and real ink.
enum Forms {
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestData.repositoryRoot.appendingPathComponent("Tests/Fixtures/forms/\(name)")))
    }

    static func form(_ name: String) throws -> PDFForm { try PDFForm(bytes: try bytes(name), name: name) }

    static let ink: Signature = {
        let url = TestData.sampleStrokes.appendingPathComponent("long-name.json")
        return try! InkDecoder().decode(try! Data(contentsOf: url)).signature
    }()

    /// The pixels (at 72 dpi, a pixel a point, in the page as displayed) where two renderings of a page differ:
    /// how many, their box and their centre of mass.
    static func changedPixels(_ a: [UInt8], _ b: [UInt8], page: Int)
        throws -> (count: Int, box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?, centre: (x: Double, y: Double)?) {
        let ra = try PDFCheck.raster(a, page: page), rb = try PDFCheck.raster(b, page: page)
        guard ra.width == rb.width, ra.height == rb.height else { return (ra.width * ra.height, nil, nil) }
        var count = 0, minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, sumX = 0, sumY = 0
        for y in 0..<ra.height {
            for x in 0..<ra.width where ra.pixel(x, y) != rb.pixel(x, y) {
                count += 1; sumX += x; sumY += y
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard count > 0 else { return (0, nil, nil) }
        return (count, (minX, minY, maxX, maxY), (Double(sumX) / Double(count), Double(sumY) / Double(count)))
    }
}

@Suite struct FormFieldTests {
    @Test func fieldsAreFoundThroughKidsWithInheritedTypesAndTheirPages() throws {
        let simple = try Forms.form("simple.pdf")
        #expect(simple.pageCount == 2)
        #expect(simple.fields.map(\.name) == ["Signature1", "Name"])
        #expect(simple.signatureFields.map(\.name) == ["Signature1"])
        #expect(simple.signatureFields.first?.rect == Rect(x: 72, y: 500, width: 216, height: 72))
        #expect(simple.signatureFields.first?.page == 1)

        let nested = try Forms.form("nested.pdf")
        #expect(nested.signatureFields.map(\.name) == ["signatures.customer", "signatures.courier"])
        #expect(nested.signatureFields.map(\.page) == [1, 2])
        #expect(nested.fields.first { $0.name == "notes" }?.type == "/Tx")

        let objstm = try Forms.form("objstm.pdf")
        #expect(objstm.fields.map(\.name) == simple.fields.map(\.name))

        let signed = try Forms.form("signed.pdf")
        #expect(signed.digitallySignedFields.map(\.name) == ["Approval"])
        #expect(signed.emptySignatureFields.map(\.name) == ["Witness"])
    }

    @Test func badFilesAreRefusedWithWhatIsWrong() throws {
        #expect(throws: PDFFormError.encrypted(file: "encrypted.pdf")) { _ = try Forms.form("encrypted.pdf") }
        #expect {
            _ = try Forms.form("damaged.pdf")
        } throws: { error in
            guard case let .unreadable(file, message)? = error as? PDFFormError else { return false }
            return file == "damaged.pdf" && !message.isEmpty
        }
        #expect(throws: PDFFormError.self) { _ = try PDFForm(bytes: Array("%PDF-1.7\nnot really".utf8)) }
        #expect(throws: PDFFormError.self) { _ = try PDFForm(bytes: []) }
    }
}

@Suite struct FormSigningTests {
    @Test func aSignatureFieldGetsVectorInkInsideItAndNothingElseChanges() throws {
        let original = try Forms.bytes("simple.pdf")
        let signed = try Forms.form("simple.pdf").sign(.field("Signature1"), ink: Forms.ink, name: "Ada Lovelace", date: "2026-11-25")
        #expect(try PDFCheck.qpdfProblems(signed) == nil)
        #expect(try PDFCheck.imageCount(signed) == 0)
        // The ink, the line, the name and the date are drawn inside the widget (72,500 216 x 72: pixels 72...288 across,
        // 220...292 down on the 792-point page), and nothing else on the page moved.
        let changed = try Forms.changedPixels(original, signed, page: 1)
        #expect(changed.count > 200)
        let box = try #require(changed.box)
        #expect(box.minX >= 72 && box.maxX <= 288 && box.minY >= 220 && box.maxY <= 292, "\(box)")
        #expect(try Forms.changedPixels(original, signed, page: 2).count == 0)
        for page in 1...2 {
            let before = try PDFCheck.text(original, page: page), after = try PDFCheck.text(signed, page: page)
            #expect(after.hasPrefix(before.trimmingCharacters(in: .whitespacesAndNewlines)), "page \(page)")
        }
        #expect(try PDFCheck.text(signed, page: 1).contains("Ada Lovelace"))
        // Viewers show it and do not offer to sign it again; the other field keeps its value.
        let reread = try PDFForm(bytes: signed)
        let field = try #require(reread.signatureFields.first)
        #expect(field.isReadOnly && !field.hasValue)
        #expect(reread.emptySignatureFields.isEmpty)
        #expect(reread.fields.first { $0.name == "Name" }?.hasValue == true)
        // The same input gives the same bytes.
        #expect(try Forms.form("simple.pdf").sign(.field("Signature1"), ink: Forms.ink, name: "Ada Lovelace", date: "2026-11-25") == signed)
    }

    @Test func onATurnedPageTheInkReadsUpright() throws {
        let original = try Forms.bytes("nested.pdf")
        let signed = try Forms.form("nested.pdf").sign(.field("signatures.courier"), ink: Forms.ink)
        #expect(try PDFCheck.qpdfProblems(signed) == nil)
        // Page 2 turns 90 degrees clockwise: the widget at x 300...372, y 200...416 shows at 200...416 across and
        // 300...372 down, 216 points wide and 72 high; the ink is wider than tall, as written.
        let changed = try Forms.changedPixels(original, signed, page: 2)
        let box = try #require(changed.box)
        #expect(box.minX >= 200 && box.maxX <= 416 && box.minY >= 300 && box.maxY <= 372, "\(box)")
        #expect(box.maxX - box.minX > 2 * (box.maxY - box.minY))
        #expect(try Forms.changedPixels(original, signed, page: 1).count == 0)
        #expect(try Forms.changedPixels(original, signed, page: 3).count == 0)
    }

    @Test func aCropBoxMovesThePageNotTheField() throws {
        let original = try Forms.bytes("nested.pdf")
        let signed = try Forms.form("nested.pdf").sign(.field("signatures.customer"), ink: Forms.ink)
        // Page 1's crop box is [36 36 576 756]; the widget at 100,400 216 x 72 is where its /Rect says in the media
        // box that pdftoppm draws: 100...316 across, 320...392 down.
        let box = try #require(try Forms.changedPixels(original, signed, page: 1).box)
        #expect(box.minX >= 100 && box.maxX <= 316 && box.minY >= 320 && box.maxY <= 392, "\(box)")
    }

    @Test func flattenedInkIsPageContentAndTheFieldIsGone() throws {
        let original = try Forms.bytes("simple.pdf")
        let signed = try Forms.form("simple.pdf").sign(.field("Signature1"), ink: Forms.ink,
                                                          options: FormSigningOptions(flatten: true))
        #expect(try PDFCheck.qpdfProblems(signed) == nil)
        let reread = try PDFForm(bytes: signed)
        #expect(reread.signatureFields.isEmpty)
        #expect(reread.fields.map(\.name) == ["Name"])
        let box = try #require(try Forms.changedPixels(original, signed, page: 1).box)
        #expect(box.minX >= 72 && box.maxX <= 288 && box.minY >= 220 && box.maxY <= 292, "\(box)")
    }

    @Test func aRectangleOnARealFormLeavesEveryFieldAndPageAsItWas() throws {
        let original = try Forms.bytes("f1040-2010.pdf")
        let form = try Forms.form("f1040-2010.pdf")
        let signed = try form.sign(.rect(page: 2, Rect(x: 101, y: 122, width: 170, height: 22)), ink: Forms.ink)
        #expect(try PDFCheck.qpdfProblems(signed) == nil)
        let box = try #require(try Forms.changedPixels(original, signed, page: 2).box)
        // 101...271 across, 792 - 144 = 648 ... 670 down.
        #expect(box.minX >= 101 && box.maxX <= 271 && box.minY >= 648 && box.maxY <= 670, "\(box)")
        #expect(try Forms.changedPixels(original, signed, page: 1).count == 0)
        #expect(try PDFCheck.text(signed) == (try PDFCheck.text(original)))
        let reread = try PDFForm(bytes: signed)
        #expect(reread.fields == form.fields)
    }

    @Test func aDigitallySignedFormIsRefusedUnlessTheUpdateIsIncremental() throws {
        let original = try Forms.bytes("signed.pdf")
        let form = try Forms.form("signed.pdf")
        #expect(throws: PDFFormError.digitallySigned(fields: ["Approval"])) {
            _ = try form.sign(.field("Witness"), ink: Forms.ink)
        }
        let signed = try form.sign(.field("Witness"), ink: Forms.ink, name: "Ada Lovelace",
                                   options: FormSigningOptions(incremental: true))
        #expect(Array(signed.prefix(original.count)) == original)
        #expect(signed.count > original.count)
        #expect(try PDFCheck.qpdfProblems(signed) == nil)
        let reread = try PDFForm(bytes: signed)
        #expect(reread.digitallySignedFields.map(\.name) == ["Approval"])
        #expect(reread.signatureFields.first { $0.name == "Witness" }?.isReadOnly == true)
        let box = try #require(try Forms.changedPixels(original, signed, page: 1).box)
        // Witness: 72,460 216 x 60, shown 72...288 across and 272...332 down.
        #expect(box.minX >= 72 && box.maxX <= 288 && box.minY >= 272 && box.maxY <= 332, "\(box)")
        #expect(throws: PDFFormError.unusableField("Approval", message: "it carries a digital signature already")) {
            _ = try form.sign(.field("Approval"), ink: Forms.ink, options: FormSigningOptions(incremental: true))
        }
    }

    @Test func anIncrementalUpdateOfAFileWithCrossReferenceStreamsUsesOne() throws {
        let original = try Forms.bytes("objstm.pdf")
        let signed = try Forms.form("objstm.pdf").sign(.field("Signature1"), ink: Forms.ink,
                                                          options: FormSigningOptions(incremental: true))
        #expect(Array(signed.prefix(original.count)) == original)
        #expect(String(decoding: signed[original.count...], as: UTF8.self).contains("/Type /XRef"))
        #expect(try PDFCheck.qpdfProblems(signed) == nil)
        #expect(try PDFForm(bytes: signed).emptySignatureFields.isEmpty)
        let plain = try Forms.form("simple.pdf").sign(.field("Signature1"), ink: Forms.ink, options: FormSigningOptions(incremental: true))
        #expect(String(decoding: plain[(try Forms.bytes("simple.pdf")).count...], as: UTF8.self).contains("\nxref\n"))
        #expect(try PDFCheck.qpdfProblems(plain) == nil)
    }

    @Test func aFormSignedAgainGivesTheSameFileAsTheFirstSigning() throws {
        // The first signing works on the file the form was read into, each later one on the bytes read again.
        let form = try Forms.form("ten-pages.pdf")
        let first = try form.sign(.field("CustomerSignature"), ink: Forms.ink, name: "Ada Lovelace", date: "2026-11-25")
        let second = try form.sign(.field("CustomerSignature"), ink: Forms.ink, name: "Ada Lovelace", date: "2026-11-25")
        #expect(second == first)
        #expect(try PDFForm(bytes: first).emptySignatureFields.isEmpty)
        #expect(try form.sign(.field("CustomerSignature"), ink: Forms.ink) != first)
    }

    @Test func mistakesAreNamed() throws {
        let form = try Forms.form("simple.pdf")
        #expect(throws: PDFFormError.unknownField("Nope", signatureFields: ["Signature1"])) {
            _ = try form.sign(.field("Nope"), ink: Forms.ink)
        }
        #expect(throws: PDFFormError.unusableField("Name", message: "it is a /Tx field, not a signature field (/Sig)")) {
            _ = try form.sign(.field("Name"), ink: Forms.ink)
        }
        #expect(throws: PDFFormError.noSuchPage(3, pageCount: 2)) {
            _ = try form.sign(.rect(page: 3, Rect(x: 10, y: 10, width: 50, height: 50)), ink: Forms.ink)
        }
        #expect(throws: PDFFormError.self) {
            _ = try form.sign(.rect(page: 1, Rect(x: 600, y: 10, width: 50, height: 50)), ink: Forms.ink)
        }
        #expect(throws: PDFFormError.invalidOption("the signature has no ink")) {
            _ = try form.sign(.field("Signature1"), ink: Signature())
        }
        #expect(throws: PDFFormError.self) {
            _ = try form.sign(.rect(page: 1, Rect(x: 10, y: 10, width: 50, height: 50)), ink: Forms.ink,
                              options: FormSigningOptions(incremental: true))
        }
    }
}
