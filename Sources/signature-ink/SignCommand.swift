// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
import SignatureInkFormats
import SignatureInkForms
import SignatureInkRender

struct SignCommand: ParsableCommand {
    typealias Name = SignRequest.Option

    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign an existing PDF form: draw the ink as vector paths into a signature field or a rectangle.",
        discussion: """
            The ink keeps its aspect ratio, centred in the field's widget rectangle (or the given rectangle, in PDF \
            points in the page's default user space, origin at the bottom left), upright on a turned page. The field \
            gets the ink as its appearance and becomes read-only; --flatten draws it into the page instead. A form \
            that is already digitally signed is refused unless --incremental, which appends the change and leaves \
            every signed byte as it was. Every other page and field stays as it was. With --key and --cert the field \
            also gets a PAdES digital signature (always appended as an incremental update, so a later signer on \
            another field keeps it valid), timed by --date when it gives a time, else now.
            """)

    @Argument(help: "The PDF form.")
    var form: String

    @Flag(name: .customLong(Name.listFields.rawValue),
          help: "Print the form's signature fields (name, page, rectangle, empty or signed) and stop.")
    var listFields = false

    @Option(name: .customLong(Name.ink.rawValue),
            help: ArgumentHelp("The signature, in any stroke format the engine reads.", valueName: "ink-file"))
    var ink: String?

    @Option(name: .customLong(Name.field.rawValue),
            help: ArgumentHelp("The empty signature field to sign, by its full name.", valueName: "name"))
    var field: String?

    @Option(name: .customLong(Name.page.rawValue), help: ArgumentHelp("The page of --rect, from 1.", valueName: "n"))
    var page: Int?

    @Option(name: .customLong(Name.rect.rawValue),
            help: ArgumentHelp("A rectangle in PDF points on --page: left, bottom, width, height.", valueName: "x,y,w,h"))
    var rect: String?

    @Option(name: .customLong(Name.name.rawValue), help: ArgumentHelp("The printed name under the ink.", valueName: "Given Family"))
    var name: String?

    @Option(name: .customLong(Name.date.rawValue), help: ArgumentHelp("The date under the ink, ISO 8601 (2026-11-25 or 2026-11-25T14:30:00+01:00), printed as yyyy-MM-dd in its own offset.", valueName: "date"))
    var date: String?

    @Flag(name: .customLong(Name.viewMode.rawValue), help: "Draw the ink semi-transparent, as a saved signature is shown.")
    var viewMode = false

    @Flag(name: .customLong(Name.flatten.rawValue), help: "Draw the ink into the page's content and remove the field.")
    var flatten = false

    @Flag(name: .customLong(Name.incremental.rawValue),
          help: "Append the signature as an incremental update, leaving the original bytes untouched.")
    var incremental = false

    @Option(name: .customLong(Name.key.rawValue), help: ArgumentHelp("A private key (PEM: P-256, P-384, P-521 or RSA) to sign the field digitally with, PAdES B-B; needs --field and --cert.", valueName: "key.pem"))
    var key: String?

    @Option(name: .customLong(Name.cert.rawValue), help: ArgumentHelp("The certificate of --key (PEM).", valueName: "cert.pem"))
    var cert: String?

    @Option(name: .customLong(Name.chain.rawValue), help: ArgumentHelp("The intermediate certificates between --cert and its root (PEM), put into the signature.", valueName: "chain.pem"))
    var chain: String?

    @Option(name: [.customShort("o"), .customLong(Name.output.rawValue)], help: ArgumentHelp("The signed PDF.", valueName: "file.pdf"))
    var output: String?

    @OptionGroup var input: InputOptions

    /// What the flags say, as a request.
    var request: SignRequest {
        SignRequest(form: form, listFields: listFields, ink: ink, field: field, page: page, rect: rect, name: name,
                    date: date, viewMode: viewMode, flatten: flatten, incremental: incremental, key: key, cert: cert,
                    chain: chain, output: output)
    }

    func validate() throws { try request.validate() }

    func run() throws { try request.run(loader: input.loader) }
}

/// One `sign` run as plain values: what ``SignCommand`` parsed, or what ``QuickOptions`` read from a command line
/// without ArgumentParser. Every rule lives here, so both paths refuse and sign alike.
struct SignRequest {
    /// The options of `sign`, by their long names (`-o` is also `--output`): ``SignCommand`` declares each under this
    /// name, and ``QuickOptions`` reads it.
    enum Option: String, CaseIterable {
        case listFields = "list-fields", ink, field, page, rect, name, date, viewMode = "view-mode", flatten
        case incremental, key, cert, chain, output

        /// Whether the option takes no value.
        var isSwitch: Bool { [.listFields, .viewMode, .flatten, .incremental].contains(self) }
    }

    var form: String
    var listFields = false
    var ink: String?
    var field: String?
    var page: Int?
    var rect: String?
    var name: String?
    var date: String?
    var viewMode = false
    var flatten = false
    var incremental = false
    var key: String?
    var cert: String?
    var chain: String?
    var output: String?

    /// Largest form read, in bytes.
    static let maxFormBytes = 256 << 20

    /// Sets `option` from its text as the command line gives it (`true` for a switch).
    /// - Returns: `false` when the text is not of the option's kind (a page that is not a whole number).
    mutating func set(_ option: Option, to text: String) -> Bool {
        switch option {
        case .listFields: listFields = true
        case .ink: ink = text
        case .field: field = text
        case .page:
            guard let n = Int(text) else { return false }
            page = n
        case .rect: rect = text
        case .name: name = text
        case .date: date = text
        case .viewMode: viewMode = true
        case .flatten: flatten = true
        case .incremental: incremental = true
        case .key: key = text
        case .cert: cert = text
        case .chain: chain = text
        case .output: output = text
        }
        return true
    }

    /// Checks the options together.
    /// - Throws: `ValidationError` saying what is missing or in conflict.
    func validate() throws(ValidationError) {
        if listFields { return }
        guard ink != nil else { throw ValidationError("--ink is required to sign (or give --list-fields)") }
        guard output != nil else { throw ValidationError("-o/--output is required to sign") }
        switch (field, page, rect) {
        case (_?, nil, nil): break
        case (nil, _?, _?): guard parsedRect != nil else { throw ValidationError("--rect: '\(rect ?? "")' must be four numbers x,y,w,h") }
        case (_?, _, _): throw ValidationError("give either --field or --page with --rect, not both")
        default: throw ValidationError("give --field NAME, or --page N with --rect X,Y,W,H")
        }
        if let date, ISO8601Time.parse(date, lenient: true) == nil {
            throw ValidationError("--date: '\(date)' is not an ISO 8601 date such as 2026-11-25 or 2026-11-25T14:30:00+01:00")
        }
        if output == form { throw ValidationError("the output must not overwrite the form") }
        switch (key, cert) {
        case (nil, nil): if chain != nil { throw ValidationError("--chain needs --key and --cert") }
        case (_?, _?): if field == nil || flatten { throw ValidationError("a digital signature (--key) goes into a signature field: give --field, without --flatten") }
        default: throw ValidationError("a digital signature needs both --key and --cert")
        }
    }

    private var parsedRect: Rect? {
        let numbers = (rect ?? "").split(separator: ",").map { Double($0.filter { $0 != " " && $0 != "\t" }) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let w = numbers[2], let h = numbers[3] else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// Signs (or lists the fields), reading the ink with `loader`; a failure is said on standard error.
    func run(loader: InputLoader) throws {
        do {
            try work(loader: loader)
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode.failure
        }
    }

    private func work(loader: InputLoader) throws(InputFailure) {
        // The name and date are set in the appearance after the form is read: a thread of their own opens HarfBuzz
        // and the face and makes the shaping plan meanwhile (1.8 M instructions), and is waited for before signing
        // (and before returning, so that the process never exits under it).
        let lines = [name, date].compactMap { $0 }.filter { !$0.isEmpty }
        let prepared = DispatchGroup()
        if !listFields && !lines.isEmpty {
            prepared.enter()
            WorkerThread.start(stackSize: 1 << 20) {
                ProjectFonts.prepareLines(lines, size: 10)
                prepared.leave()
            }
        }
        defer { prepared.wait() }
        var limits = DecodingLimits.default
        limits.maxBytes = Self.maxFormBytes
        let bytes = Array(try InputLoader(limits: limits).readBounded(form))
        let pdf: PDFForm
        do { pdf = try PDFForm(bytes: bytes, name: form) } catch { throw InputFailure(path: form, reason: "\(error)".removingPrefix("\(form): ")) }
        if listFields {
            print(Self.listing(pdf))
            return
        }
        guard let ink, let output else { return }
        let signature = try loader.load(ink)
        let placement: SignaturePlacement = field.map { .field($0) } ?? .rect(page: page ?? 1, parsedRect ?? Rect(x: 0, y: 0, width: 0, height: 0))
        var options = FormSigningOptions(flatten: flatten, incremental: incremental)
        options.digitalSignature = try digitalSignature()
        if viewMode { options.render = options.render.viewMode() }
        let printedDate = date.flatMap { text -> String? in
            guard let (ms, offset) = ISO8601Time.parse(text, lenient: true) else { return nil }
            return (try? TimestampFormat(pattern: "yyyy-MM-dd"))?.string(millisecondsSince1970: ms, utcOffsetMinutes: offset)
        }
        let signed: [UInt8]
        prepared.wait()
        do {
            signed = try pdf.sign(placement, ink: signature, name: name, date: printedDate, options: options)
        } catch {
            throw InputFailure(path: form, reason: "\(error)".removingPrefix("\(form): "))
        }
        try OutputWriter.write(signed, to: output)
    }

    /// The digital signature of --key, --cert and --chain, at the time --date gives when it has one (else now, in
    /// UTC), or `nil` without --key.
    private func digitalSignature() throws(InputFailure) -> PDFDigitalSignature? {
        guard let key, let cert else { return nil }
        let identity = try SigningKeys.identity(key: key, certificate: cert, chain: chain)
        if let date, date.containsText("T"), let (ms, offset) = ISO8601Time.parse(date, lenient: true) {
            return PDFDigitalSignature(identity: identity, millisecondsSince1970: ms, utcOffsetMinutes: offset)
        }
        return PDFDigitalSignature(identity: identity, millisecondsSince1970: (Date().timeIntervalSince1970 * 1000).rounded())
    }

    /// One line per signature field: name, page, rectangle and whether it is empty; then the count of empty ones.
    static func listing(_ form: PDFForm) -> String {
        var lines = form.signatureFields.map { field in
            let page = field.page.map { "page \($0)" } ?? "no page"
            let rect = field.rect.map(PDFForm.describe) ?? "no rectangle"
            let state = field.hasValue ? "digitally signed" : field.isReadOnly ? "read-only" : "empty"
            return "\(field.name)\t\(page)\t\(rect)\t\(state)"
        }
        let empty = form.emptySignatureFields.count
        lines.append("\(form.signatureFields.count) signature field\(form.signatureFields.count == 1 ? "" : "s"), \(empty) empty")
        return lines.joined(separator: "\n")
    }
}

private extension String {
    /// The string without `prefix` when it starts with it.
    func removingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
