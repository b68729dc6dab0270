// SPDX-License-Identifier: Apache-2.0
// The README's Swift examples, each as it is printed, inside a function whose parameters are the names the README
// leaves to the reader (`signature`, `ink`, a Cairo context). `swift build` compiles them, and
// Tests/README/readme_commands.py checks that every line of every README Swift block is here, so the README cannot
// show code that no longer builds; Articles.swift holds the DocC articles' examples.
import Foundation
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender

/// A pointer event as a browser reports it: the README's captures read its `timeStamp`.
struct BrowserEvent { var timeStamp: Double }

func decodeAndRender() throws -> [UInt8] {
    // Decode a stored signature, or build one from pointer samples.
    let signature = try NativeDecoder().decode(Data(contentsOf: URL(fileURLWithPath: "SampleStrokes/short-name.json")))

    // Render it at twice the canvas resolution in dark blue over a transparent background.
    let renderer = SignatureRenderer(options: RenderOptions(scale: 2, penColor: Color(hex: "#1a237e")!))
    let png: [UInt8] = try renderer.png(signature)
    return png
}

func coveragePNG() throws -> [UInt8] {
    let width = 600, height = 300
    var coverage = [UInt8](repeating: 0, count: width * height)  // e.g. a Cairo A8 surface
    for x in 100..<500 { coverage[150 * width + x] = 255 }
    var encoder = CoveragePNGEncoder()
    let palette = CoveragePNGEncoder.palette(ink: Color(hex: "#1a237e")!, background: .clear)
    let png = try coverage.withUnsafeBufferPointer {
        try encoder.encode(coverage: $0, width: width, height: height, stride: width, palette: palette,
                           metadata: PNGMetadata(pixelsPerInch: 96, text: [("Software", "signature-ink")]))
    }
    return png
}

func viewMode(_ signature: Signature) throws -> [UInt8] {
    let saved = SignatureRenderer(options: RenderOptions(penColor: Color(hex: "#1a237e")!).viewMode())
    let png = try saved.png(signature)
    return png
}

func vectorOutputs(_ signature: Signature) throws -> (String, [UInt8]) {
    let svg: String = try SignatureRenderer().svg(signature)
    let pdf: [UInt8] = try SignatureRenderer(options: RenderOptions(box: OutputSize(width: 300, height: 100), framing: .fit)).pdf(signature)
    return (svg, pdf)
}

func embedding(_ signature: Signature, myCairoContext: OpaquePointer) throws -> [UInt8] {
    let document = PDFDocument(title: "Consent")
    try document.addPage(width: 595, height: 842) { page in              // A4 in points
        // ... the form's own drawing, through page.unsafeContext ...
        try SignatureBlock(signature: signature, signerName: "Ada Lovelace")
            .draw(in: Rect(x: 72, y: 640, width: 240, height: 110), on: page)
    }
    let consentPDF: [UInt8] = try document.finish()

    // Into a context the form renderer created itself:
    try SignatureRenderer().draw(signature, in: Rect(x: 72, y: 500, width: 200, height: 80),
                                 on: CairoTarget(unsafeContext: myCairoContext))
    return consentPDF
}

func documentsAndText(_ signature: Signature) throws -> ([UInt8], [UInt8]) {
    let body = Paragraph([TextRun("Read the "), TextRun("study plan", bold: true), TextRun(" and the "),
                          TextRun("privacy notice", link: "https://example.org/privacy"), TextRun(".")],
                         font: TextFont(size: 11))
    let document = PagedDocument(blocks: [
        .heading("Study consent", level: 1, bookmark: true),
        .paragraph(body),
        .listItem(Paragraph([TextRun("You can withdraw at any time.")], font: TextFont(size: 11)), marker: "•"),
        .signature(SignatureBlock(signature: signature, signerName: "Ada Lovelace", date: "2026-11-24"), height: 110),
    ], setup: .letter, title: "Study consent")
    let pdf = try document.pdf()
    let preview = try document.png(page: 1, dpi: 96)
    return (pdf, preview)
}

func consent(bytes: [UInt8], ink: Signature, now: Double) throws -> [UInt8] {
    // A whole consent at once, as `signature-ink consent` and `POST /consent/sign` submit it: checked where it is built
    // (every form decided once, the sharing answer, each slot's name and ink), signed through the walk-through and its
    // capture session (so the signature minimums apply), laid out once.
    let submission = try ConsentSubmission(
        document: try ConsentDocument(json: bytes),
        decisions: [.init(form: "study", decision: .allowed), .init(form: "newsletter", decision: .notNow)],
        sharing: .investigatorOnly,
        signers: [.init(slot: "participant", name: "Ada Lovelace", ink: ink),
                  .init(slot: "investigator", name: "Charles Babbage", ink: ink)],
        utcOffsetMinutes: 60, pageSize: .a4)
    let signed = try submission.sign()              // the PDF, its page count and the record
    print(signed.pageCount, signed.record.pdfSHA256)

    // Or step by step, as a page drives it:
    var flow = ConsentFlow(document: try ConsentDocument(json: bytes), utcOffsetMinutes: 60)
    try flow.send(.next)                      // "2 of 5"; Allow, Deny and Not Now wait for the last page
    // ... Allow, the sharing answer, Agree and its confirmation, the name ...
    try flow.capture { (session) throws(CaptureSession.Refusal) in try session.replay(ink); _ = try session.save(at: now) }
    try flow.send(.acceptSignature)
    let copy = try flow.result.signedDocument()   // a copy: the document itself is never changed
    let pdf = try copy.pdf(setup: .a4)
    return pdf
}

func capture(event: BrowserEvent, nowInUnixMilliseconds: Double) throws -> SignatureRecord {
    var session = CaptureSession(configuration: .init(canvas: Canvas(width: 600, height: 300), isRequired: true))
    try session.activate()
    try session.handle(PointerEvent(.down, sample: InkSample(x: 10, y: 20, t: event.timeStamp, pressure: 0.4)))
    // ... moves; coalesced batches with handle(coalesced:); session.appendNewGeometry(to: &livePath) for a live view
    try session.handle(PointerEvent(.up, sample: InkSample(x: 180, y: 60, t: event.timeStamp)))
    let record = try session.save(at: nowInUnixMilliseconds)
    print(record.digest)  // SHA-256 of the samples' canonical encoding (import SignatureInkConsent)
    return record
}

// Compiled, not run, but for this: `swift run doc-examples` renders the first example end to end.
let png = try decodeAndRender()
print("README example: \(png.count) bytes of PNG")
