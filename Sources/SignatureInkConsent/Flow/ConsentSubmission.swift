// SPDX-License-Identifier: Apache-2.0
public import SignatureInk
import SignatureInkFormats
import SignatureInkForms
public import SignatureInkRender

/// Everything a signed consent needs in one value: each form's decision, the sharing answer, each signer's printed
/// name, ink and date, the signers' UTC offset and the paper; checked against the document where it is built, and
/// signed by ``sign(now:seal:)`` through the walk-through's own ``ConsentFlow`` and its `CaptureSession`.
///
/// The command line's `signature-ink consent sign` and the server's `POST /consent/sign` each translate their flags
/// or JSON onto this value and call ``sign(now:seal:)``: they refuse the same submissions with the same messages, date a
/// signature by the same rule (``ConsentDate/signing(given:inkStartTime:now:utcOffsetMinutes:)``) and write the same
/// bytes.
///
/// Building it is strict: every form, slot and option must be one the document has, given once and consistent with
/// it, and nothing given is dropped. A problem is a ``ConsentError/invalidSubmission(_:message:)`` whose ``Field``
/// says where, so that each front end can name it its own way (`--sign`, `signers[1].ink`).
///
/// ```swift
/// let submission = try ConsentSubmission(
///     document: document,
///     decisions: [.init(form: "newsletter", decision: .notNow)], undecided: .allowed,
///     sharing: .investigatorOnly,
///     signers: [.init(slot: "participant", name: "Ada Lovelace", ink: ink)],
///     utcOffsetMinutes: 60, pageSize: .letter)
/// let signed = try submission.sign(now: now)   // signed.pdf, signed.pageCount, signed.record
/// ```
public struct ConsentSubmission: Sendable, Hashable {
    /// One signer: a slot of the document, and what the slot asks for.
    public struct Signer: Sendable, Hashable {
        /// The identifier of the ``SignatureSlot`` signed.
        public var slot: String
        /// The printed name, or `nil` (an empty or blank name is none); given exactly when the slot requires one.
        public var name: String?
        /// The drawn signature, or `nil`; given exactly when the slot requires a signature and it is not ``typed``.
        public var ink: Signature?
        /// The name typed in place of drawing, or `nil`; refused with ``ink``, or where the slot requires a drawn
        /// signature.
        public var typed: String?
        /// The date the signer states, or `nil` for the ink's capture time or the time of signing (see
        /// ``ConsentDate/signing(given:inkStartTime:now:utcOffsetMinutes:)``).
        public var date: ConsentDate?

        /// Creates a signer.
        /// - Parameters:
        ///   - slot: the slot's identifier.
        ///   - name: the printed name; default `nil`.
        ///   - ink: the signature; default `nil`.
        ///   - typed: the name typed in place of the ink; default `nil`.
        ///   - date: the stated date; default `nil`.
        public init(slot: String, name: String? = nil, ink: Signature? = nil, typed: String? = nil, date: ConsentDate? = nil) {
            self.slot = slot
            self.name = name
            self.ink = ink
            self.typed = typed
            self.date = date
        }
    }

    /// Where a submission is at fault, for a front end to name in its own words.
    public enum Field: Sendable, Hashable, CustomStringConvertible {
        /// The decision on a form (the form's identifier as given).
        case decision(form: String)
        /// The sharing answer.
        case sharing
        /// A signer as a whole: an unknown slot, a slot given twice, a slot that asks for nothing.
        case signer(slot: String)
        /// A signer's printed name.
        case name(slot: String)
        /// A signer's ink.
        case ink(slot: String)
        /// The UTC offset.
        case utcOffset

        public var description: String {
            switch self {
            case let .decision(form): "decision on '\(form)'"
            case .sharing: "sharing answer"
            case let .signer(slot): "signer '\(slot)'"
            case let .name(slot): "name of '\(slot)'"
            case let .ink(slot): "signature of '\(slot)'"
            case .utcOffset: "UTC offset"
            }
        }
    }

    /// The signed consent: the PDF, its page count and its record, from one layout.
    public struct Signed: Sendable, Hashable {
        /// The signed copy of the document.
        public var document: ConsentDocument
        /// The PDF file.
        public var pdf: [UInt8]
        /// The number of pages of the PDF, >= 1.
        public var pageCount: Int
        /// The consent record of the PDF.
        public var record: ConsentRecord
    }

    /// The document signed.
    public let document: ConsentDocument
    /// One decision per walk-through form (``ConsentDocument/walkThroughForms``), in the forms' order.
    public let decisions: [ConsentFlowResult.FormDecision]
    /// The sharing answer: given exactly when the document asks the sharing question.
    public let sharing: SharingChoice?
    /// One entry per slot that requires a name or a signature, in the document's slot order, names trimmed.
    public let signers: [Signer]
    /// The signers' UTC offset in minutes, `-1080...1080`: the dates that come from the ink or the clock are
    /// printed in it.
    public let utcOffsetMinutes: Int
    /// The paper the PDF is laid out on.
    public let pageSize: PageSize

    /// Builds a submission and checks it against the document.
    /// - Parameters:
    ///   - document: the document; it should have passed ``ConsentDocument/validate(limits:)``.
    ///   - decisions: decisions on walk-through forms, each form at most once; a mandatory form only allowed.
    ///   - undecided: the decision of every walk-through form `decisions` leaves out; default `nil`, which refuses a
    ///     submission that leaves one out.
    ///   - sharing: the sharing answer: required when the document asks the question, refused when it does not.
    ///   - signers: one per slot that requires a name or a signature, in any order; each slot once, with the name
    ///     and the ink exactly as the slot requires.
    ///   - utcOffsetMinutes: the signers' UTC offset in minutes, `-1080...1080`; default 0.
    ///   - pageSize: the paper; default `PageSize.a4`.
    /// - Throws: ``ConsentError/invalidSubmission(_:message:)`` naming the first problem.
    public init(document: ConsentDocument, decisions: [ConsentFlowResult.FormDecision],
                undecided: ConsentFlow.Decision? = nil, sharing: SharingChoice?, signers: [Signer],
                utcOffsetMinutes: Int = 0, pageSize: PageSize = .a4) throws(ConsentError) {
        func refuse(_ field: Field, _ message: String) -> ConsentError { .invalidSubmission(field, message: message) }
        guard ConsentDate.utcOffsetRange.contains(utcOffsetMinutes) else {
            throw refuse(.utcOffset, "the UTC offset of \(utcOffsetMinutes) minutes is outside -1080...1080 (±18 hours)")
        }

        let forms = document.walkThroughForms
        var decided: [String: ConsentFlow.Decision] = [:]
        for given in decisions {
            guard let form = forms.first(where: { $0.identifier == given.form }) else {
                throw refuse(.decision(form: given.form), "no form is named '\(given.form)'; the forms are "
                             + forms.map { "'\($0.identifier)'" }.joined(separator: ", "))
            }
            if let earlier = decided[form.identifier] {
                throw refuse(.decision(form: form.identifier), earlier == given.decision
                             ? "form '\(form.identifier)' is given twice"
                             : "form '\(form.identifier)' is both \(earlier.words) and \(given.decision.words)")
            }
            decided[form.identifier] = given.decision
        }
        var ordered: [ConsentFlowResult.FormDecision] = []
        for form in forms {
            guard let decision = decided[form.identifier] ?? undecided else {
                throw refuse(.decision(form: form.identifier), "form '\(form.identifier)' has no decision")
            }
            if form.isMandatory && decision != .allowed {
                throw refuse(.decision(form: form.identifier), "form '\(form.identifier)' is mandatory: consent is required to sign")
            }
            ordered.append(.init(form: form.identifier, decision: decision))
        }

        switch (document.sharing, sharing) {
        case (.some, nil):
            throw refuse(.sharing, "the document asks the sharing question and it has no answer: "
                         + SharingChoice.allCases.map(\.rawValue).joined(separator: " or "))
        case (nil, .some): throw refuse(.sharing, "the document asks no sharing question")
        default: break
        }

        var given: [String: Signer] = [:]
        for var signer in signers {
            guard let slot = document.slot(signer.slot) else {
                throw refuse(.signer(slot: signer.slot),
                             "\(ConsentError.unknownSlot(signer.slot, known: document.slots.map(\.identifier)))")
            }
            let id = slot.identifier
            guard given[id] == nil else { throw refuse(.signer(slot: id), "signature slot '\(id)' is given twice") }
            guard slot.requiresName || slot.requiresSignature else {
                throw refuse(.signer(slot: id), "signature slot '\(id)' asks for no name and no signature: it is signed on paper")
            }
            let name = signer.name?.trimmingWhitespace() ?? ""
            signer.name = name.isEmpty ? nil : name
            if signer.name != nil && !slot.requiresName {
                throw refuse(.name(slot: id), "signature slot '\(id)' asks for no printed name")
            }
            do { try ConsentSignature.validate(name: name, field: "name") } catch {
                switch error {
                case let .limitExceeded(_, limit, actual):
                    throw refuse(.name(slot: id), "the name of '\(id)' has \(actual) characters; at most \(limit) are allowed")
                case let .invalidSignature(_, message): throw refuse(.name(slot: id), "the name of '\(id)': \(message)")
                default: throw refuse(.name(slot: id), "the name of '\(id)' cannot be used")
                }
            }
            if (signer.ink != nil || signer.typed != nil) && !slot.requiresSignature {
                throw refuse(.ink(slot: id), "signature slot '\(id)' takes no signature")
            }
            if signer.ink?.isEmpty == true { signer.ink = nil }
            if let typed = signer.typed {
                if signer.ink != nil { throw refuse(.ink(slot: id), "the signature of '\(id)' is either drawn or typed, not both") }
                do { signer.typed = try ConsentSignature.typed(typed, for: slot) } catch {
                    switch error {
                    case let .invalidSignature(_, message): throw refuse(.ink(slot: id), message)
                    case .missingSignature: throw refuse(.ink(slot: id), "the typed signature of '\(id)' is empty")
                    default: throw refuse(.ink(slot: id), "the typed signature of '\(id)': \(error)")
                    }
                }
            }
            given[id] = signer
        }
        var collected: [Signer] = []
        for slot in document.slots where slot.requiresName || slot.requiresSignature {
            let signer = given[slot.identifier] ?? Signer(slot: slot.identifier)
            if slot.requiresName && signer.name == nil {
                throw refuse(.name(slot: slot.identifier), "\(ConsentError.missingName(slot: slot.identifier))")
            }
            if slot.requiresSignature && signer.ink == nil && signer.typed == nil {
                throw refuse(.ink(slot: slot.identifier), "\(ConsentError.missingSignature(slot: slot.identifier))")
            }
            collected.append(signer)
        }

        self.document = document
        self.decisions = ordered
        self.sharing = sharing
        self.signers = collected
        self.utcOffsetMinutes = utcOffsetMinutes
        self.pageSize = pageSize
    }

    /// Signs the document: walks it through a ``ConsentFlow`` with this submission's decisions, sharing answer,
    /// names and dates, replays each signer's ink through the flow's `CaptureSession` and saves it at `now` (so the
    /// session's `SignatureMinimums` and every rule of the walk-through apply), then lays the signed copy out once
    /// for its PDF and page count and makes its ``ConsentRecord``.
    ///
    /// Each signature is dated by ``ConsentDate/signing(given:inkStartTime:now:utcOffsetMinutes:)``: the signer's
    /// stated date, else the ink's capture start time, else `now`. The same submission and `now` always give the same
    /// bytes.
    ///
    /// With a `seal`, the PDF gets an **Audit trail** page, carries the record as an associated file, and is certified
    /// with a digital signature (see ``ConsentSeal``). The record inside the PDF gives the SHA-256 of the PDF as laid
    /// out (the sealed file's bytes before the seal's update); the returned record, that of the sealed file. An ECDSA
    /// key signs differently each time, so its sealed PDFs differ inside the signature; an RSA key's do not.
    /// - Parameters:
    ///   - now: the time of signing in milliseconds since 1970; default the system clock
    ///     (``ConsentDate/currentMilliseconds()``).
    ///   - seal: who seals the PDF, or `nil` (the default) for a PDF without a seal or audit trail.
    /// - Returns: the signed copy, its PDF, the PDF's page count and the record.
    /// - Throws: ``ConsentError/invalidSubmission(_:message:)`` when the walk-through or the capture session refuses
    ///   a part (ink too small to be a signature: ``Field/ink(slot:)``); ``ConsentError`` when the document cannot
    ///   be laid out or drawn.
    public func sign(now: Double = ConsentDate.currentMilliseconds(), seal: ConsentSeal? = nil) throws(ConsentError) -> Signed {
        guard ConsentDate(millisecondsSince1970: now) != nil else {
            throw .invalidSignature(field: "time of signing", message: "\(now) ms since 1970 is not in the years 1...9999")
        }
        var flow = ConsentFlow(document: document, utcOffsetMinutes: utcOffsetMinutes, clock: { now })
        func send(_ event: ConsentFlow.Event, _ field: Field) throws(ConsentError) {
            do { try flow.send(event) } catch { throw Self.refusal(error, field) }
        }
        for (form, decided) in zip(flow.forms, decisions) {
            let field = Field.decision(form: form.identifier)
            for _ in form.sections.dropFirst() { try send(.next, field) }
            try send(decided.decision.event, field)
        }
        if flow.step == .sharing, let sharing { try send(.share(sharing), .sharing) }
        // With every form decided, only an open sharing question keeps Agree away.
        try send(.agree, .sharing)
        try send(.confirmAgreement(true), .sharing)
        while !flow.step.isFinished {
            let k: Int
            switch flow.step {
            case let .name(signer), let .signature(signer): k = signer
            default: throw .invalidSubmission(.sharing, message: "the walk-through stopped before the signatures")
            }
            let slot = flow.signers[k]
            guard let signer = signers.first(where: { $0.slot == slot.identifier }) else {
                throw .invalidSubmission(.signer(slot: slot.identifier), message: "\(ConsentError.missingSignature(slot: slot.identifier))")
            }
            // A stated date is given at the signer's first step: the name, or the signature when no name is asked.
            if let date = signer.date, flow.step == .name(signer: k) || !slot.requiresName {
                try send(.enterDate(date), .signer(slot: slot.identifier))
            }
            if flow.step == .name(signer: k) {
                try send(.enterName(signer.name ?? ""), .name(slot: slot.identifier))
                continue
            }
            if let typed = signer.typed {
                try send(.typeSignature(typed), .ink(slot: slot.identifier))
                continue
            }
            guard let ink = signer.ink else {
                throw .invalidSubmission(.ink(slot: slot.identifier), message: "\(ConsentError.missingSignature(slot: slot.identifier))")
            }
            do { try flow.replay(ink, savedAt: now) } catch {
                throw .invalidSubmission(.ink(slot: slot.identifier), message: "the signature of '\(slot.identifier)': \(error)")
            }
            try send(.acceptSignature, .ink(slot: slot.identifier))
        }

        let result = flow.result
        let signed = try result.signedDocument()
        var layout = try signed.layout(setup: pageSize.setup)
        var record = try ConsentRecord(signed: signed, decisions: result.decisions, sharing: result.sharingChoice,
                                       pageSize: pageSize, pdf: [])
        // A sealed PDF carries the record, whose content digest its audit trail prints: one encoding serves both.
        let content = seal == nil ? [] : record.contentJSON
        if let seal, let time = ConsentDate(millisecondsSince1970: now, utcOffsetMinutes: utcOffsetMinutes) {
            layout.blocks += seal.auditTrail(document: signed, record: record, contentDigest: HexDigest.sha256(content), at: time)
        }
        let pdf: [UInt8], pageCount: Int
        do { (pdf, pageCount) = try layout.pdfAndPageCount() } catch {
            throw .rendering("\(error)")
        }
        record.pdfSHA256 = HexDigest.sha256(pdf)
        guard let seal else { return Signed(document: signed, pdf: pdf, pageCount: pageCount, record: record) }
        let attachment = PDFAttachment(fileName: ConsentSeal.recordFileName, mimeType: "application/json",
                                       description: "The consent record", data: record.json(filling: content))
        let sealed: [UInt8]
        do { sealed = try PDFSeal.certify(pdf, name: "consent.pdf", attachments: [attachment], signature: seal.signature) } catch {
            throw .rendering("sealing the PDF: \(error)")
        }
        // The record inside describes the PDF as laid out, before the seal; the one beside it, the sealed file.
        record.pdfSHA256 = HexDigest.sha256(sealed)
        return Signed(document: signed, pdf: sealed, pageCount: pageCount, record: record)
    }

    /// A refusal of the walk-through as a submission error on `field`.
    private static func refusal(_ refusal: ConsentFlow.Refusal, _ field: Field) -> ConsentError {
        switch refusal {
        case .notOffered: .invalidSubmission(field, message: "the walk-through does not take it at this point")
        case .invalidName, .invalidTypedSignature, .signatureNotSaved, .capture: .invalidSubmission(field, message: "\(refusal)")
        }
    }
}

extension ConsentFlow.Decision {
    /// The decision in words, for messages.
    fileprivate var words: String {
        switch self {
        case .allowed: "allowed"
        case .denied: "denied"
        case .notNow: "not now"
        }
    }

    /// The walk-through event that makes this decision.
    fileprivate var event: ConsentFlow.Event {
        switch self {
        case .allowed: .allow
        case .denied: .deny
        case .notNow: .notNow
        }
    }
}
