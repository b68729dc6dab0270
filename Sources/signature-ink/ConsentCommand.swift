// SPDX-License-Identifier: Apache-2.0
public import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
public import SignatureInkConsent
import SignatureInkFormats
import SignatureInkForms
import SignatureInkRender

struct ConsentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent",
        abstract: "Sign a consent document into a PDF and its record, check them, or preview a page.",
        subcommands: [ConsentSignCommand.self, ConsentVerifyCommand.self, ConsentPreviewCommand.self],
        defaultSubcommand: ConsentSignCommand.self)
}

extension SharingChoice: ExpressibleByArgument {}

extension PageSize: ExpressibleByArgument {}

/// Reads a consent document file, within the document size limit.
func loadConsentDocument(_ path: String) throws(InputFailure) -> ConsentDocument {
    var limits = DecodingLimits.default
    limits.maxBytes = ConsentLimits.default.maxBytes
    let data = try InputLoader(limits: limits).readBounded(path)
    do {
        return try ConsentDocument(json: Array(data))
    } catch {
        throw InputFailure(path: path, reason: "\(error)")
    }
}

struct ConsentSignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a consent document: write the signed PDF and the consent record (both or neither).",
        discussion: """
            ROLE is a signature slot's identifier or its title (case does not matter). Every slot that requires a \
            name or a signature must get it, once, and nothing it does not ask for; the ink must be enough to be a \
            signature, as in the walk-through. Every form of the walk-through is recorded as allowed unless named \
            with --deny or --not-now (optional forms only). The date is printed in each slot's date pattern, in \
            the offset the date is given in.
            """)

    typealias Name = ConsentSignRequest.Option

    @Argument(help: "The consent document (JSON; the schema is in the Consent documents article).")
    var document: String

    @Option(name: .customLong(Name.sign.rawValue),
            help: ArgumentHelp("A signer's ink, in any stroke format the engine reads.", valueName: "role=ink-file"))
    var signatures: [String] = []

    @Option(name: .customLong(Name.name.rawValue), help: ArgumentHelp("A signer's printed name.", valueName: "role=Given Family"))
    var names: [String] = []

    @Option(name: .customLong(Name.type.rawValue), help: ArgumentHelp("""
        A signer's typed signature, in place of --sign: the name as the signer typed it, written in a handwriting \
        face; refused where the slot requires a drawn signature.
        """, valueName: "role=Given Family"))
    var typed: [String] = []

    @Option(name: .customLong(Name.date.rawValue), help: ArgumentHelp("""
        The signing date, ISO 8601: 2026-11-25, or 2026-11-25T14:30:00+01:00 (a time needs its offset). Default: \
        each ink's capture time when it has one, else now, in UTC.
        """, valueName: "date"))
    var date: String?

    @Option(name: .customLong(Name.deny.rawValue), help: ArgumentHelp("Record an optional form as denied.", valueName: "form"))
    var denied: [String] = []

    @Option(name: .customLong(Name.notNow.rawValue), help: ArgumentHelp("Record an optional form as not now.", valueName: "form"))
    var notNow: [String] = []

    @Option(name: .customLong(Name.sharing.rawValue),
            help: ArgumentHelp("The answer to the sharing question, when the document asks one: broadly or investigatorOnly.",
                               valueName: "choice"))
    var sharing: SharingChoice?

    @Option(name: .customLong(Name.pageSize.rawValue), help: "Paper: a4 or letter.")
    var pageSize: PageSize = .a4

    @Option(name: [.customShort("o"), .customLong(Name.output.rawValue)], help: ArgumentHelp("The signed PDF.", valueName: "file.pdf"))
    var output: String

    @Option(name: .customLong(Name.record.rawValue), help: ArgumentHelp("The consent record (JSON).", valueName: "file.json"))
    var record: String

    @Option(name: .customLong(Name.sealKey.rawValue), help: ArgumentHelp("""
        Seal the PDF with this private key (PEM: P-256, P-384, P-521 or RSA): an Audit trail page, the record \
        inside the PDF, and a certification signature (PAdES B-B) over the whole file; needs --seal-cert.
        """, valueName: "key.pem"))
    var sealKey: String?

    @Option(name: .customLong(Name.sealCert.rawValue), help: ArgumentHelp("The certificate of --seal-key (PEM).", valueName: "cert.pem"))
    var sealCert: String?

    @Option(name: .customLong(Name.sealChain.rawValue),
            help: ArgumentHelp("The intermediate certificates between --seal-cert and its root (PEM).", valueName: "chain.pem"))
    var sealChain: String?

    @Option(name: .customLong(Name.store.rawValue), help: ArgumentHelp("""
        Also keep the consent in this consent store, committed before the files are written: the folder \
        signature-ink-server --data uses, or the PostgreSQL database its --database names (a password given in the \
        environment's PGPASSWORD rather than in the URL stays out of the process list). signature-ink-store, beside \
        this tool or on PATH, keeps it.
        """, valueName: "dir|postgres://user@host/database"))
    var store: String?

    @OptionGroup var input: InputOptions

    /// What the options say, as a request.
    var request: ConsentSignRequest {
        ConsentSignRequest(document: document, signatures: signatures, names: names, typed: typed, date: date,
                           denied: denied, notNow: notNow, sharing: sharing, pageSize: pageSize, output: output,
                           record: record, sealKey: sealKey, sealCert: sealCert, sealChain: sealChain, store: store)
    }

    func validate() throws { try request.validate() }

    func run() throws { try request.run(loader: input.loader) }
}

/// One `consent sign` run as plain values: what ``ConsentSignCommand`` parsed, or what ``QuickOptions`` read from a
/// command line without ArgumentParser. Every rule lives here, so both paths refuse and sign alike.
struct ConsentSignRequest {
    /// The options of `consent sign`, by their long names (`-o` is also `--output`): ``ConsentSignCommand`` declares
    /// each under this name, and ``QuickOptions`` reads it.
    enum Option: String, CaseIterable {
        case sign, name, type, date, deny, notNow = "not-now", sharing, pageSize = "page-size", output, record
        case sealKey = "seal-key", sealCert = "seal-cert", sealChain = "seal-chain", store

        /// Whether the option may be given more than once (each a value of its own).
        var repeats: Bool { [.sign, .name, .type, .deny, .notNow].contains(self) }
    }

    var document: String
    var signatures: [String] = []
    var names: [String] = []
    var typed: [String] = []
    var date: String?
    var denied: [String] = []
    var notNow: [String] = []
    var sharing: SharingChoice?
    var pageSize: PageSize = .a4
    var output = ""
    var record = ""
    var sealKey: String?
    var sealCert: String?
    var sealChain: String?
    var store: String?

    /// Sets (or, for a repeated option, adds) `option` from its text as the command line gives it.
    /// - Returns: `false` when the text is not one of the option's values (a sharing choice or page size).
    mutating func set(_ option: Option, to text: String) -> Bool {
        switch option {
        case .sign: signatures.append(text)
        case .name: names.append(text)
        case .type: typed.append(text)
        case .date: date = text
        case .deny: denied.append(text)
        case .notNow: notNow.append(text)
        case .sharing:
            guard let choice = SharingChoice(rawValue: text) else { return false }
            sharing = choice
        case .pageSize:
            guard let size = PageSize(rawValue: text) else { return false }
            pageSize = size
        case .output: output = text
        case .record: record = text
        case .sealKey: sealKey = text
        case .sealCert: sealCert = text
        case .sealChain: sealChain = text
        case .store: store = text
        }
        return true
    }

    /// Checks the options together.
    /// - Throws: `ValidationError` saying what is wrong.
    func validate() throws(ValidationError) {
        if let date, ConsentDate(iso8601: date) == nil {
            throw ValidationError("--date: '\(date)' is not an ISO 8601 date such as 2026-11-25 or 2026-11-25T14:30:00+01:00")
        }
        for pair in signatures + names + typed where !pair.containsText("=") {
            throw ValidationError("'\(pair)' must be ROLE=VALUE")
        }
        if output == record { throw ValidationError("--output and --record must be different files") }
        if (sealKey == nil) != (sealCert == nil) { throw ValidationError("a seal needs both --seal-key and --seal-cert") }
        if sealChain != nil && sealKey == nil { throw ValidationError("--seal-chain needs --seal-key and --seal-cert") }
    }

    /// Signs, reading the ink with `loader`; a failure is said on standard error.
    func run(loader: InputLoader) throws {
        do {
            try sign(loader: loader)
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode.failure
        }
    }

    /// The slot a role names: a slot's identifier, else a slot's title in any case; any other role is passed on as
    /// it is, for the submission to refuse with the slots there are.
    private func slot(_ pair: String, in document: ConsentDocument) -> String {
        let role = String(pair.prefix { $0 != "=" })
        let slot = document.slots.first { $0.identifier == role } ?? document.slots.first { $0.title.lowercased() == role.lowercased() }
        return slot?.identifier ?? role
    }

    /// The value of a `role=value` pair.
    private func value(_ pair: String) -> String { String(pair.drop { $0 != "=" }.dropFirst()) }

    private func sign(loader: InputLoader) throws(InputFailure) {
        let consent = try loadConsentDocument(document)
        let given = date.flatMap { ConsentDate(iso8601: $0) }
        // Each --sign is a signer, and each --type; each --name joins the first signer of its slot without a name, else
        // is one more.
        var signers: [ConsentSubmission.Signer] = []
        for pair in signatures {
            signers.append(.init(slot: slot(pair, in: consent), ink: try loader.load(value(pair)), date: given))
        }
        for pair in typed {
            let role = slot(pair, in: consent)
            if let k = signers.firstIndex(where: { $0.slot == role && $0.typed == nil && $0.ink == nil }) { signers[k].typed = value(pair) } else {
                signers.append(.init(slot: role, typed: value(pair), date: given))
            }
        }
        for pair in names {
            let role = slot(pair, in: consent)
            if let k = signers.firstIndex(where: { $0.slot == role && $0.name == nil }) { signers[k].name = value(pair) } else {
                signers.append(.init(slot: role, name: value(pair), date: given))
            }
        }
        let decisions = denied.map { ConsentFlowResult.FormDecision(form: $0, decision: .denied) }
            + notNow.map { ConsentFlowResult.FormDecision(form: $0, decision: .notNow) }
        let now = ConsentDate.currentMilliseconds()
        var seal: ConsentSeal?
        if let sealKey, let sealCert {
            let identity = try SigningKeys.identity(key: sealKey, certificate: sealCert, chain: sealChain)
            seal = ConsentSeal(signature: PDFDigitalSignature(identity: identity, millisecondsSince1970: now))
        }
        let signed: ConsentSubmission.Signed
        do {
            signed = try ConsentSubmission(document: consent, decisions: decisions, undecided: .allowed, sharing: sharing,
                                           signers: signers, pageSize: pageSize).sign(now: now, seal: seal)
        } catch let .invalidSubmission(field, message) {
            throw InputFailure(path: option(naming: field, in: consent), reason: message)
        } catch {
            throw InputFailure(path: document, reason: "\(error)")
        }
        let stagedPDF = try OutputWriter.stage(signed.pdf, to: output)
        let stagedRecord: OutputWriter.Staged
        do { stagedRecord = try OutputWriter.stage(signed.record.json, to: record) } catch { stagedPDF.discard(); throw error }
        var kept: String?
        if let store {
            do {
                kept = try StoreBridge.keep(pdf: stagedPDF.temporary, record: stagedRecord.temporary,
                                            pages: signed.pageCount, in: store)
            } catch {
                stagedPDF.discard()
                stagedRecord.discard()
                throw InputFailure(path: store, reason: "\(error.reason); nothing was written")
            }
        }
        do { try stagedPDF.commit() } catch { stagedRecord.discard(); throw error }
        try stagedRecord.commit()
        let count = signed.record.signers.count
        print("\(output): \(consent.title), \(count) signer\(count == 1 ? "" : "s"); record \(record)"
              + (kept.map { "; kept in \(store ?? "") as \($0)" } ?? ""))
    }

    /// The option that gave the part of the submission at fault.
    private func option(naming field: ConsentSubmission.Field, in consent: ConsentDocument) -> String {
        switch field {
        case let .decision(form): return notNow.contains(form) ? "--not-now" : "--deny"
        case .sharing: return "--sharing"
        case let .signer(role):
            let drawn = signatures.filter { slot($0, in: consent) == role }.count
            let inked = drawn + typed.filter { slot($0, in: consent) == role }.count
            let named = names.filter { slot($0, in: consent) == role }.count
            return inked > 1 || (inked == 1 && named < 2) ? (drawn > 0 ? "--sign" : "--type") : "--name"
        case .name: return "--name"
        case let .ink(role):
            return typed.contains { slot($0, in: consent) == role } && !signatures.contains { slot($0, in: consent) == role } ? "--type" : "--sign"
        case .utcOffset: return "--date"
        }
    }
}

struct ConsentVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a consent record against its PDF, or a sealed consent PDF on its own.",
        discussion: """
            With RECORD and PDF: the document's, each signature's and the PDF's SHA-256 against the record. With a \
            sealed PDF alone and --trust: the seal covers the whole file, its digest and signature match, its \
            certificate chains to a trusted root, and the record inside the PDF matches the PDF as it was laid out. \
            Exit status 0 when everything matches; 1 with each mismatch printed otherwise.
            """)

    @Argument(help: ArgumentHelp("The consent record (JSON) and the signed PDF, or a sealed PDF alone.", valueName: "record.json file.pdf"))
    var files: [String] = []

    @Option(help: ArgumentHelp("Trusted root certificates (PEM): check the PDF's seal against them.", valueName: "root.pem"))
    var trust: String?

    func validate() throws {
        switch files.count {
        case 2: break
        case 1: guard trust != nil else { throw ValidationError("a PDF alone is checked by its seal: give --trust ROOT.pem, or the record too") }
        default: throw ValidationError("give RECORD.json FILE.pdf, or a sealed FILE.pdf with --trust ROOT.pem")
        }
    }

    func run() throws {
        var limits = DecodingLimits.default
        limits.maxBytes = ConsentRecord.maxBytes
        let reader = InputLoader(limits: limits)
        let pdfPath = files[files.count - 1]
        var problems: [String] = []
        let entry: ConsentRecord
        do {
            let pdf = Array(try reader.readBounded(pdfPath))
            var checked = pdf[...]
            var recordJSON: [UInt8]?
            let source = files.count == 2 ? files[0] : "\(pdfPath) (\(ConsentSeal.recordFileName))"
            if let trust {
                let roots = String(decoding: try reader.readBounded(trust), as: UTF8.self)
                let seal = try SealCheck.run(pdf, name: pdfPath, roots: roots)
                problems += seal.problems.map { "\(pdfPath): \($0)" }
                if files.count == 1 {
                    guard let inside = seal.attachments.first(where: { $0.fileName == ConsentSeal.recordFileName }) else {
                        throw InputFailure(path: pdfPath, reason: "the PDF carries no \(ConsentSeal.recordFileName)")
                    }
                    recordJSON = inside.data
                    checked = seal.unsealed
                }
                if problems.isEmpty { print("\(pdfPath): sealed by \(seal.signer) at \(seal.signingTime); the seal is intact and trusted") }
            }
            let json = try recordJSON ?? Array(reader.readBounded(files[0]))
            do { entry = try ConsentRecord(json: json) } catch { throw InputFailure(path: source, reason: "\(error)") }
            problems += entry.verify(pdf: Array(checked)).map { "\(source): \($0)" }
        } catch let failure as InputFailure {
            Diagnostics.error(failure.description)
            throw ExitCode.failure
        } catch {
            Diagnostics.error("\(pdfPath): \(error)")
            throw ExitCode.failure
        }
        guard problems.isEmpty else {
            for problem in problems { Diagnostics.error(problem) }
            throw ExitCode.failure
        }
        print("ok: the document, \(entry.signers.count) signature\(entry.signers.count == 1 ? "" : "s") and the PDF match the record")
    }
}

struct ConsentPreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Write one page of an unsigned consent document as a PNG, for a review screen.")

    @Argument(help: "The consent document (JSON).")
    var document: String

    @Option(help: "The page, from 1.")
    var page = 1

    @Option(help: "Pixels per inch, 18...1200.")
    var dpi: Double = 96

    @Option(name: .customLong("page-size"), help: "Paper: a4 or letter.")
    var pageSize: PageSize = .a4

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG file.", valueName: "file.png"))
    var output: String

    func run() throws {
        do throws(InputFailure) {
            let consent = try loadConsentDocument(document)
            let png: [UInt8]
            do { png = try consent.pagePreview(page: page, dpi: dpi, setup: pageSize.setup) } catch {
                throw InputFailure(path: document, reason: "\(error)")
            }
            try OutputWriter.write(png, to: output)
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode.failure
        }
    }
}
