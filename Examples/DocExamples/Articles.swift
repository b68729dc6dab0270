// SPDX-License-Identifier: Apache-2.0
// The DocC articles' Swift examples, each as it is printed, inside a function whose parameters are the names the
// article leaves to the reader. Tests/README/readme_commands.py checks that every block of every article is here.
import Foundation
import Logging
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkForms
import SignatureInkRender
import SignatureInkServer
import SignatureInkStore

enum GettingStarted {
    static func renderOneFile() throws -> ([UInt8], String, [UInt8]) {
        let signature = try InkDecoder().decode(Data(contentsOf: URL(fileURLWithPath: "sig.json"))).signature
        let renderer = SignatureRenderer(options: RenderOptions(scale: 2, penColor: Color(hex: "#1a237e")!))
        let png: [UInt8] = try renderer.png(signature)
        let svg: String = try renderer.svg(signature)
        let pdf: [UInt8] = try renderer.pdf(signature)
        return (png, svg, pdf)
    }

    static func drawIntoAContext(_ signature: Signature, myCairoContext: OpaquePointer) throws {
        try SignatureRenderer().draw(signature, in: Rect(x: 72, y: 500, width: 200, height: 80),
                                     on: CairoTarget(unsafeContext: myCairoContext))
    }

    static func receipt(_ signature: Signature) throws -> [UInt8] {
        let document = PDFDocument(title: "Delivery receipt")
        try document.addPage(width: 595, height: 842) { page in
            try SignatureBlock(signature: signature, signerName: "Ada Lovelace")
                .draw(in: Rect(x: 72, y: 640, width: 240, height: 110), on: page)
        }
        let receipt: [UInt8] = try document.finish()
        return receipt
    }
}

enum DocumentsAndText {
    static func coverage(signerName: String, options: RenderOptions) throws {
        let missing = try TextCoverage.missingCharacters(in: signerName)
        if !missing.isEmpty {
            print("warning: no font can draw \(TextCoverage.describe(missing))")
        }
        // The decorations' texts at once: [(decoration: "watermark", characters: [...])]
        let problems = try options.decorations.missingCharacters()
        print(problems.count)
    }

    static func pagedDocument(_ signature: Signature) throws -> ([UInt8], [UInt8]) {
        let document = PagedDocument(blocks: [
            .heading("Study consent", level: 1, bookmark: true),
            .heading("Overview", level: 2, bookmark: true),
            .paragraph(Paragraph([TextRun("You are invited to take part in a study.")], font: TextFont(size: 11))),
            .signature(SignatureBlock(signature: signature, signerName: "Ada Lovelace", date: "2026-11-24"),
                       height: 110),
        ], setup: .a4, title: "Study consent", creationDate: "2026-11-24T10:00:00Z")
        let pdf: [UInt8] = try document.pdf()
        let preview: [UInt8] = try document.png(page: 1, dpi: 96)
        return (pdf, preview)
    }
}

enum RenderRequests {
    static func request(_ signature: Signature) throws -> [UInt8] {
        var request = RenderRequest()
        try request.set(.penColor, to: "#1a237e")   // text, as a query or a flag gives it
        try request.set(.fit, to: "true")
        request.box = RenderRequest.Box(width: 400, height: 150)
        try request.validate()                      // every range, every contradiction
        let png = try request.render(signature)
        for override in request.overrides(of: signature) {
            print(override.sentence(naming: \.name)) // "pen-color replaces the pen colour the file records: #c0392b80"
        }
        return png
    }
}

enum SignatureInkRenderOverview {
    static func outputs(_ signature: Signature) throws -> ([UInt8], String, [UInt8]) {
        let renderer = SignatureRenderer(options: RenderOptions(scale: 2).viewMode())
        let png = try renderer.png(signature)
        let svg = try renderer.svg(signature)
        let pdf = try renderer.pdf(signature)
        return (png, svg, pdf)
    }
}

enum SignatureInkServerOverview {
    static func serve() async throws {
        let app = try SignatureInkServer.application(
            configuration: ServerConfiguration(port: 8080, maxBody: 1 << 20),
            logger: Logger(label: "signature-ink-server"))
        try await app.runService()
    }
}

enum SignatureInkFormsOverview {
    static func sign(bytes: [UInt8], signature: Signature) throws -> [UInt8] {
        let form = try PDFForm(bytes: bytes, name: "delivery-note.pdf")
        for field in form.emptySignatureFields { print(field.name, field.page.map(String.init) ?? "no page", field.rect.map { "\($0)" } ?? "no rectangle") }
        let signed = try form.sign(.field("Signature1"), ink: signature, name: "Ada Lovelace", date: "2026-11-25")
        return signed
    }

    static func signDigitally(bytes: [UInt8], signature: Signature, keyPEM: String, certificatePEM: String, chainPEM: String?,
                              now: Double) throws -> [UInt8] {
        let identity = try PDFSigningIdentity(keyPEM: keyPEM, certificatePEM: certificatePEM, chainPEM: chainPEM)
        let options = FormSigningOptions(digitalSignature: PDFDigitalSignature(identity: identity, millisecondsSince1970: now,
                                                                                utcOffsetMinutes: 60))
        let signed = try PDFForm(bytes: bytes).sign(.field("Customer"), ink: signature, options: options)
        return signed
    }
}

enum SignatureInkFormatsOverview {
    static func convert() throws -> Data {
        let data = try Data(contentsOf: URL(fileURLWithPath: "signature.json"))
        let result = try InkDecoder().decode(data)          // detects the format
        for note in result.assumptions { print("note:", note) }
        let inkml = try InkEncoder().encode(result.signature, as: .inkml)
        return inkml
    }
}

enum FormatsAndLimits {
    static func decode(url: URL) throws {
        let result = try InkDecoder().decode(Data(contentsOf: url))
        print(result.format.displayName, result.signature.strokeCount, result.assumptions)
    }
}

enum ConsentDocuments {
    static func submit(document: ConsentDocument, ada: Signature, charles: Signature, now: Double) throws -> ConsentSubmission.Signed {
        let submission = try ConsentSubmission(
            document: document,
            decisions: [.init(form: "newsletter", decision: .notNow)], undecided: .allowed,
            sharing: .investigatorOnly,
            signers: [.init(slot: "participant", name: "Ada Lovelace", ink: ada),
                      .init(slot: "investigator", name: "Charles Babbage", ink: charles)],
            utcOffsetMinutes: 60, pageSize: .a4)
        let signed = try submission.sign(now: now)     // signed.pdf, signed.pageCount, signed.record
        return signed
    }
}

enum SignatureInkConsentOverview {
    static func sign(bytes: [UInt8], ink: Signature, now: Double) throws -> ConsentSubmission.Signed {
        let document = try ConsentDocument(json: bytes)
        let submission = try ConsentSubmission(
            document: document, decisions: [], undecided: .allowed, sharing: nil,
            signers: [.init(slot: "participant", name: "Ada Lovelace", ink: ink,
                            date: ConsentDate(iso8601: "2026-11-25T14:30:00+01:00"))],
            pageSize: .a4)
        let signed = try submission.sign(now: now)
        assert(signed.record.verify(pdf: signed.pdf).isEmpty)
        return signed
    }
}

enum CaptureSessions {
    static func capture(movesSinceTheLastFrame: [InkSample]) throws {
        var session = CaptureSession(configuration: .init(canvas: Canvas(width: 600, height: 300), isRequired: true))
        try session.activate()
        try session.handle(PointerEvent(.down, sample: InkSample(x: 10, y: 20, t: 0, pressure: 0.4)))
        try session.handle(coalesced: movesSinceTheLastFrame)   // every sample the browser coalesced
        var live = Path()
        _ = session.appendNewGeometry(to: &live)                  // only what is new since the last frame
        try session.handle(PointerEvent(.up, sample: InkSample(x: 180, y: 60, t: 420)))
    }
}

enum SignatureInkStoreOverview {
    static func keep(signed: ConsentSubmission.Signed) async throws -> StoreVerification {
        let store = try await ConsentStore.open("signature-ink-data")
        let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: signed.pageCount,
                                        provenance: Provenance(client: "192.0.2.10"))
        let found = try await store.consents(ConsentQuery(signerName: "lovelace", withdrawn: false))
        try await store.withdraw(consent: kept.id, reason: "Asked by phone on 2026-12-01")
        let verification = try await store.verify()      // verification.failure == nil, verification.head
        _ = found
        return verification
    }
}
