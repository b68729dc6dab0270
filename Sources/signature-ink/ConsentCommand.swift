// SPDX-License-Identifier: Apache-2.0
public import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
public import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender

struct ConsentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent",
        abstract: "Sign a consent document into a PDF and its record, check them, or preview a page.",
        subcommands: [ConsentSignCommand.self, ConsentVerifyCommand.self, ConsentPreviewCommand.self],
        defaultSubcommand: ConsentSignCommand.self)
}

/// Paper sizes of the consent commands.
enum PaperSize: String, ExpressibleByArgument, CaseIterable {
    case a4, letter
    var setup: PageSetup { self == .a4 ? .a4 : .letter }
}

extension SharingChoice: ExpressibleByArgument {}

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
            name or a signature must get it. Every form of the walk-through is recorded as allowed unless named \
            with --deny or --not-now (optional forms only). The date is printed in each slot's date pattern, in \
            the offset the date is given in.
            """)

    @Argument(help: "The consent document (JSON; the schema is in the Consent documents article).")
    var document: String

    @Option(name: .customLong("sign"), help: ArgumentHelp("A signer's ink, in any stroke format the engine reads.", valueName: "role=ink-file"))
    var signatures: [String] = []

    @Option(name: .customLong("name"), help: ArgumentHelp("A signer's printed name.", valueName: "role=Given Family"))
    var names: [String] = []

    @Option(help: ArgumentHelp("""
        The signing date, ISO 8601: 2026-11-25, or 2026-11-25T14:30:00+01:00 (a time needs its offset). Default: \
        each ink's capture time when it has one, else now, in UTC.
        """, valueName: "date"))
    var date: String?

    @Option(name: .customLong("deny"), help: ArgumentHelp("Record an optional form as denied.", valueName: "form"))
    var denied: [String] = []

    @Option(name: .customLong("not-now"), help: ArgumentHelp("Record an optional form as not now.", valueName: "form"))
    var notNow: [String] = []

    @Option(help: ArgumentHelp("The answer to the sharing question, when the document asks one: broadly or investigatorOnly.",
                               valueName: "choice"))
    var sharing: SharingChoice?

    @Option(name: .customLong("page-size"), help: "Paper: a4 or letter.")
    var pageSize: PaperSize = .a4

    @Option(name: .shortAndLong, help: ArgumentHelp("The signed PDF.", valueName: "file.pdf"))
    var output: String

    @Option(help: ArgumentHelp("The consent record (JSON).", valueName: "file.json"))
    var record: String

    @OptionGroup var input: InputOptions

    func validate() throws {
        if let date, ConsentDate(iso8601: date) == nil {
            throw ValidationError("--date: '\(date)' is not an ISO 8601 date such as 2026-11-25 or 2026-11-25T14:30:00+01:00")
        }
        for pair in signatures + names where !pair.contains("=") {
            throw ValidationError("'\(pair)' must be ROLE=VALUE")
        }
        if output == record { throw ValidationError("--output and --record must be different files") }
    }

    func run() throws {
        do {
            try sign()
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode.failure
        }
    }

    /// Splits `role=value` pairs and matches each role to a slot.
    private func pairs(_ values: [String], in document: ConsentDocument, option: String) throws(InputFailure) -> [String: String] {
        var result: [String: String] = [:]
        for pair in values {
            let role = String(pair.prefix { $0 != "=" }), value = String(pair.drop { $0 != "=" }.dropFirst())
            guard let slot = document.slots.first(where: { $0.identifier == role })
                    ?? document.slots.first(where: { $0.title.lowercased() == role.lowercased() }) else {
                throw InputFailure(path: option, reason: "\(ConsentError.unknownSlot(role, known: document.slots.map(\.identifier)))")
            }
            guard result.updateValue(value, forKey: slot.identifier) == nil else {
                throw InputFailure(path: option, reason: "'\(slot.identifier)' is given twice")
            }
        }
        return result
    }

    private func sign() throws(InputFailure) {
        let consent = try loadConsentDocument(document)
        let inkFiles = try pairs(signatures, in: consent, option: "--sign")
        let printedNames = try pairs(names, in: consent, option: "--name")
        let given = date.flatMap { ConsentDate(iso8601: $0) }
        let now = Date().timeIntervalSince1970 * 1000

        var signed = consent
        for slot in consent.slots {
            let ink = try inkFiles[slot.identifier].map { (path) throws(InputFailure) in try input.loader.load(path) }
            let name = printedNames[slot.identifier] ?? ""
            guard ink != nil || !name.isEmpty || slot.requiresName || slot.requiresSignature else { continue }
            let when = given ?? ConsentDate(millisecondsSince1970: ink?.startTime ?? now) ?? ConsentDate(millisecondsSince1970: now)!
            do {
                signed = try signed.signing(ConsentSignature(slot: slot.identifier, name: name, signature: ink, date: when))
            } catch {
                let option = error == .missingSignature(slot: slot.identifier) ? "--sign" : "--name"
                throw InputFailure(path: option, reason: "\(error)")
            }
        }
        let decisions = try self.decisions(for: consent)
        if consent.sharing != nil && sharing == nil {
            throw InputFailure(path: "--sharing", reason: "the document asks the sharing question; answer it with --sharing broadly or --sharing investigatorOnly")
        }
        if consent.sharing == nil && sharing != nil {
            throw InputFailure(path: "--sharing", reason: "the document asks no sharing question")
        }
        let pdf: [UInt8]
        let entry: ConsentRecord
        do {
            pdf = try signed.pdf(setup: pageSize.setup)
            entry = try ConsentRecord(signed: signed, decisions: decisions, sharing: sharing, pageSize: pageSize.rawValue, pdf: pdf)
        } catch {
            throw InputFailure(path: document, reason: "\(error)")
        }
        let stagedPDF = try OutputWriter.stage(pdf, to: output)
        let stagedRecord: OutputWriter.Staged
        do { stagedRecord = try OutputWriter.stage(entry.json, to: record) } catch { stagedPDF.discard(); throw error }
        do { try stagedPDF.commit() } catch { stagedRecord.discard(); throw error }
        try stagedRecord.commit()
        print("\(output): \(consent.title), \(entry.signers.count) signer\(entry.signers.count == 1 ? "" : "s"); record \(record)")
    }

    /// Every walk-through form's decision: allowed unless named by --deny or --not-now.
    private func decisions(for consent: ConsentDocument) throws(InputFailure) -> [ConsentFlowResult.FormDecision] {
        let forms = consent.walkThroughForms
        for (option, names) in [("--deny", denied), ("--not-now", notNow)] {
            for name in names {
                guard let form = forms.first(where: { $0.identifier == name }) else {
                    throw InputFailure(path: option, reason: "no form is named '\(name)'; the forms are \(forms.map { "'\($0.identifier)'" }.joined(separator: ", "))")
                }
                if form.isMandatory {
                    throw InputFailure(path: option, reason: "form '\(name)' is mandatory: consent is required to sign")
                }
            }
        }
        return forms.map { form in
            .init(form: form.identifier, decision: denied.contains(form.identifier) ? .denied : notNow.contains(form.identifier) ? .notNow : .allowed)
        }
    }
}

struct ConsentVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a consent record against its PDF: the document's, each signature's and the PDF's SHA-256.",
        discussion: "Exit status 0 when everything matches; 1 with each mismatch printed otherwise.")

    @Argument(help: "The consent record (JSON).")
    var record: String

    @Argument(help: "The signed PDF.")
    var pdf: String

    func run() throws {
        var limits = DecodingLimits.default
        limits.maxBytes = ConsentRecord.maxBytes
        let reader = InputLoader(limits: limits)
        let problems: [String]
        let entry: ConsentRecord
        do {
            entry = try ConsentRecord(json: Array(try reader.readBounded(record)))
        } catch let failure as InputFailure {
            Diagnostics.error(failure.description)
            throw ExitCode.failure
        } catch {
            Diagnostics.error("\(record): \(error)")
            throw ExitCode.failure
        }
        do {
            problems = entry.verify(pdf: Array(try reader.readBounded(pdf))).map { "\(record): \($0)" }
        } catch {
            Diagnostics.error(error.description)
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
    var pageSize: PaperSize = .a4

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
