// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// The consent walk-through as a state machine, with no user interface: a page, a server or a test drives it with
/// events and shows what ``step`` says.
///
/// The order: each of the document's forms (``ConsentDocument/walkThroughForms``) page by page, with Allow, Deny and
/// (on optional forms) Not Now on the last page; the sharing question when the document has one; the review with
/// Agree and Disagree, Agree asking to confirm the reason for consent; then for each signer, the name when the slot
/// requires one and the signature, captured by a `CaptureSession` with its own life cycle (or replayed from recorded
/// ink with ``replay(_:savedAt:)``). Cancel asks whether to quit: Yes abandons the whole flow, No goes back to where
/// it was. Deny on a mandatory form raises the "consent required" alert and stays on the form; Deny or Not Now on an
/// optional form records the decline and goes on.
///
/// ```swift
/// var flow = ConsentFlow(document: document)
/// try flow.send(.allow)                       // a single-page form
/// try flow.send(.agree)
/// try flow.send(.confirmAgreement(true))
/// try flow.send(.enterName("Ada Lovelace"))
/// try flow.capture { session in try session.replay(ink); _ = try session.save(at: now) }
/// try flow.send(.acceptSignature)
/// let signed = try flow.result.signedDocument()
/// ```
///
/// Each signature is dated by ``ConsentDate/signing(given:inkStartTime:now:utcOffsetMinutes:)``: the date given with
/// ``Event/enterDate(_:)``, else the ink's capture start time, else the time of signing (when the signature was
/// saved, or for a slot without ink, the flow's clock when the name was entered), printed in ``utcOffsetMinutes``.
///
/// Every event that the current step does not offer is refused with a ``Refusal`` and changes nothing.
public struct ConsentFlow: Sendable {
    /// Where the flow is.
    public indirect enum Step: Sendable, Hashable {
        /// Page `page` (from 0) of form `form` (an index into ``ConsentFlow/forms``).
        case form(Int, page: Int)
        /// "Do you want to quit?": Yes abandons the flow, No returns to `returnTo`.
        case confirmingCancel(returnTo: Step)
        /// The alert after Deny on a mandatory form: consent is required to go on. Dismissing it returns to the form.
        case consentRequired(form: Int)
        /// The sharing question.
        case sharing
        /// The review of the whole document, with Agree and Disagree.
        case review
        /// The confirmation of the reason for consent after Agree.
        case confirmingAgreement
        /// Name entry for signer `signer` (an index into ``ConsentFlow/signers``).
        case name(signer: Int)
        /// Signature capture for signer `signer`, through ``ConsentFlow/captureSession``.
        case signature(signer: Int)
        /// Done: every form decided, agreed, every signer signed.
        case completed
        /// Quit through Cancel.
        case abandoned
        /// The participant disagreed at the review.
        case declined

        /// Whether the flow has ended.
        public var isFinished: Bool { self == .completed || self == .abandoned || self == .declined }
    }

    /// What a person can do.
    public enum Event: Sendable, Hashable {
        /// The next page of a sequential form.
        case next
        /// The previous page of a sequential form.
        case back
        /// Allow, on a form's last page.
        case allow
        /// Deny, on a form's last page.
        case deny
        /// Not Now, on an optional form's last page.
        case notNow
        /// Cancel, anywhere before the end: asks whether to quit.
        case cancel
        /// The answer to "Do you want to quit?": `true` quits.
        case confirmQuit(Bool)
        /// Closes the "consent required" alert.
        case dismissAlert
        /// The answer to the sharing question.
        case share(SharingChoice)
        /// Agree, at the review.
        case agree
        /// Disagree, at the review: the flow ends declined.
        case disagree
        /// The answer to the reason-for-consent confirmation: `true` agrees, `false` returns to the review.
        case confirmAgreement(Bool)
        /// The printed name, at name entry.
        case enterName(String)
        /// The date the signer states, at name entry or signature capture: it dates the signature in place of the
        /// ink's capture time and the time of signing.
        case enterDate(ConsentDate)
        /// Takes the signature saved in ``ConsentFlow/captureSession`` and goes on.
        case acceptSignature
        /// Signs with a typed name instead of drawing, and goes on: for a person who cannot draw. Refused where the
        /// slot requires a drawn signature (``SignatureSlot/requiresDrawnSignature``).
        case typeSignature(String)
    }

    /// Why an event was refused.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The event is not offered at this step.
        case notOffered(Event, at: Step)
        /// The name is empty, too long or has control characters.
        case invalidName(String)
        /// The typed signature is empty, too long or has control characters, or the slot requires a drawn one.
        case invalidTypedSignature(String)
        /// The signature has not been saved in the capture session (its state is given).
        case signatureNotSaved(CaptureSession.State)
        /// The capture session refused an action.
        case capture(CaptureSession.Refusal)

        public var description: String {
            switch self {
            case let .notOffered(event, step): return "\(event) is not offered at \(step)"
            case let .invalidName(message): return "the name cannot be used: \(message)"
            case let .invalidTypedSignature(message): return "the typed signature cannot be used: \(message)"
            case let .signatureNotSaved(state): return "the signature is not saved yet (the capture is \(state.rawValue))"
            case let .capture(refusal): return "\(refusal)"
            }
        }
    }

    /// A form's decision.
    public enum Decision: String, Sendable, Hashable, Codable, CaseIterable {
        /// Allowed.
        case allowed
        /// Denied (optional forms only: a mandatory form cannot be denied and go on).
        case denied
        /// Not Now (optional forms only).
        case notNow
    }

    /// The document walked through.
    public let document: ConsentDocument
    /// The forms, in order (``ConsentDocument/walkThroughForms``).
    public let forms: [ConsentForm]
    /// The slots this flow collects, in order.
    public let signers: [SignatureSlot]
    /// The UTC offset signing dates are printed in, in minutes, `-1080...1080`.
    public let utcOffsetMinutes: Int
    /// How signatures are captured.
    public let captureConfiguration: CaptureSession.Configuration

    /// The current step.
    public private(set) var step: Step
    /// Each form's decision so far, by form identifier, in the order they were made.
    public private(set) var decisions: [(form: String, decision: Decision)] = []
    /// The sharing answer, once given.
    public private(set) var sharingChoice: SharingChoice?
    /// Whether the participant agreed at the review.
    public private(set) var agreed = false
    /// The signatures collected so far.
    public private(set) var signatures: [ConsentSignature] = []
    /// The capture of the current signer's signature, at a ``Step/signature(signer:)`` step; `nil` elsewhere.
    public private(set) var captureSession: CaptureSession?
    private var pendingName = ""
    private var pendingDate: ConsentDate?
    /// The record ``replay(_:savedAt:)`` saved and the ink it replayed, to keep what only the ink says.
    private var replayed: (record: SignatureRecord, ink: Signature)?
    /// The time of signing for a slot without ink, in milliseconds since 1970.
    private let clock: @Sendable () -> Double

    /// Starts a flow at the first page of the first form.
    /// - Parameters:
    ///   - document: the document; it should have passed ``ConsentDocument/validate(limits:)``.
    ///   - signers: identifiers of the slots to collect, in order; `nil` for every slot that requires a name or a
    ///     signature. Unknown identifiers are left out.
    ///   - utcOffsetMinutes: the signer's UTC offset for the printed dates, `-1080...1080`; default 0.
    ///   - captureConfiguration: how the signature is captured; default a required signature with the default pen.
    ///   - clock: the time of signing of a slot without ink, read when its name is entered, in milliseconds since
    ///     1970; default the system clock (``ConsentDate/currentMilliseconds()``).
    public init(document: ConsentDocument, signers: [String]? = nil, utcOffsetMinutes: Int = 0,
                captureConfiguration: CaptureSession.Configuration = CaptureSession.Configuration(isRequired: true),
                clock: @escaping @Sendable () -> Double = { ConsentDate.currentMilliseconds() }) {
        self.document = document
        self.forms = document.walkThroughForms
        let wanted = signers ?? document.slots.filter { $0.requiresName || $0.requiresSignature }.map(\.identifier)
        self.signers = wanted.compactMap { document.slot($0) }
        let offsets = ConsentDate.utcOffsetRange
        self.utcOffsetMinutes = max(offsets.lowerBound, min(offsets.upperBound, utcOffsetMinutes))
        self.captureConfiguration = captureConfiguration
        self.clock = clock
        step = .review
        step = afterForms(from: 0)
    }

    /// The events the current step offers.
    public var offeredEvents: [Event] {
        switch step {
        case let .form(f, page):
            let last = page == forms[f].sections.count - 1
            var events: [Event] = []
            if !last { events.append(.next) }
            if page > 0 { events.append(.back) }
            if last { events += forms[f].isMandatory ? [.allow, .deny] : [.allow, .deny, .notNow] }
            return events + [.cancel]
        case .confirmingCancel: return [.confirmQuit(true), .confirmQuit(false)]
        case .consentRequired: return [.dismissAlert]
        case .sharing: return [.share(.broadly), .share(.investigatorOnly), .cancel]
        case .review: return [.agree, .disagree, .cancel]
        case .confirmingAgreement: return [.confirmAgreement(true), .confirmAgreement(false)]
        case .name: return [.enterName(""), .enterDate(.unixEpoch), .cancel]
        case let .signature(k):
            return [.acceptSignature] + (signers[k].requiresDrawnSignature ? [] : [.typeSignature("")]) + [.enterDate(.unixEpoch), .cancel]
        case .completed, .abandoned, .declined: return []
        }
    }

    /// Where a form page stands, for its header: page `page` of `count` of form `title`.
    public var pageInfo: (title: String, page: Int, count: Int, section: ConsentSection?)? {
        guard case let .form(f, page) = step else { return nil }
        return (forms[f].title, page + 1, forms[f].sections.count, document.section(forms[f].sections[page]))
    }

    /// Handles one event.
    /// - Throws: ``Refusal`` when the step does not offer the event, a name is refused, or the signature is not
    ///   saved; the flow is then unchanged.
    public mutating func send(_ event: Event) throws(Refusal) {
        let refuse = Refusal.notOffered(event, at: step)
        switch (step, event) {
        case let (.form(f, page), .next) where page + 1 < forms[f].sections.count:
            step = .form(f, page: page + 1)
        case let (.form(f, page), .back) where page > 0:
            step = .form(f, page: page - 1)
        case let (.form(f, page), .allow) where page + 1 == forms[f].sections.count:
            decide(f, .allowed)
        case let (.form(f, page), .deny) where page + 1 == forms[f].sections.count:
            if forms[f].isMandatory { step = .consentRequired(form: f) } else { decide(f, .denied) }
        case let (.form(f, page), .notNow) where page + 1 == forms[f].sections.count && !forms[f].isMandatory:
            decide(f, .notNow)
        case (.form, .cancel), (.sharing, .cancel), (.review, .cancel), (.name, .cancel), (.signature, .cancel):
            step = .confirmingCancel(returnTo: step)
        case let (.confirmingCancel(back), .confirmQuit(quit)):
            step = quit ? .abandoned : back
            if quit { captureSession = nil }
        case let (.consentRequired(f), .dismissAlert):
            step = .form(f, page: forms[f].sections.count - 1)
        case let (.sharing, .share(choice)):
            sharingChoice = choice
            step = .review
        case (.review, .agree):
            step = .confirmingAgreement
        case (.review, .disagree):
            step = .declined
        case let (.confirmingAgreement, .confirmAgreement(confirmed)):
            if confirmed { agreed = true; step = signerStep(0) } else { step = .review }
        case let (.name(k), .enterName(name)):
            let trimmed = name.trimmingWhitespace()
            do { try ConsentSignature.validate(name: trimmed, field: "name") } catch { throw .invalidName("\(error)") }
            guard !trimmed.isEmpty else { throw .invalidName("a name is required for \(signers[k].title)") }
            pendingName = trimmed
            if signers[k].requiresSignature { startCapture(k) } else { finishSigner(k, signature: nil, savedAt: nil) }
        case let (.name, .enterDate(date)), let (.signature, .enterDate(date)):
            pendingDate = date
        case let (.signature(k), .acceptSignature):
            guard let session = captureSession, session.state == .saved, let record = session.record else {
                throw .signatureNotSaved(captureSession?.state ?? .inactive)
            }
            var signature = record.signature
            if let replayed, replayed.record == record {
                // What pointer events do not carry comes from the replayed ink.
                signature.canvas = replayed.ink.canvas ?? signature.canvas
                signature.startTime = replayed.ink.startTime ?? signature.startTime
                signature.metadata = replayed.ink.metadata
                signature.pens = replayed.ink.pens
            }
            finishSigner(k, signature: signature, savedAt: record.savedAt)
        case let (.signature(k), .typeSignature(text)):
            let typed: String
            do { typed = try ConsentSignature.typed(text, for: signers[k]) } catch { throw .invalidTypedSignature("\(error)") }
            finishSigner(k, signature: nil, typed: typed, savedAt: nil)
        default:
            throw refuse
        }
    }

    /// Works the capture session of the current signer: activate, pointer events, clear, save, re-enter.
    /// - Parameter body: what to do with the session.
    /// - Returns: what `body` returns.
    /// - Throws: ``Refusal/notOffered(_:at:)`` away from a signature step, ``Refusal/capture(_:)`` when the session
    ///   refuses an action (the session keeps what was done before it).
    public mutating func capture<R>(_ body: (inout CaptureSession) throws(CaptureSession.Refusal) -> R) throws(Refusal) -> R {
        guard case .signature = step, var session = captureSession else { throw .notOffered(.acceptSignature, at: step) }
        defer { captureSession = session }
        do { return try body(&session) } catch { throw .capture(error) }
    }

    /// Signs the current signer with recorded ink instead of live pointer input: a new capture session (with
    /// ``captureConfiguration``) replays the ink's strokes and saves them at `time`, so that the session's rules,
    /// `SignatureMinimums` among them, apply as to drawn ink. ``Event/acceptSignature`` then takes it.
    ///
    /// The session keeps what pointer events carry: each sample's position, time from the first sample, pressure
    /// and tilt. The accepted signature keeps as well what only the ink says about itself: its canvas, its capture
    /// start time, its metadata and its strokes' pens.
    /// - Parameters:
    ///   - ink: the recorded signature.
    ///   - time: the save time, the time of signing, in milliseconds since 1970.
    /// - Throws: ``Refusal/notOffered(_:at:)`` away from a signature step; ``Refusal/capture(_:)`` when the session
    ///   refuses the ink, such as `CaptureSession.Refusal.tooSmall(_:)`. A refused replay changes nothing.
    public mutating func replay(_ ink: Signature, savedAt time: Double) throws(Refusal) {
        guard case .signature = step else { throw .notOffered(.acceptSignature, at: step) }
        var session = CaptureSession(configuration: captureConfiguration)
        let record: SignatureRecord
        do {
            try session.replay(ink)
            record = try session.save(at: time)
        } catch {
            throw .capture(error)
        }
        captureSession = session
        replayed = (record, ink)
    }

    /// What was decided, so far or at the end.
    public var result: ConsentFlowResult {
        ConsentFlowResult(document: document, step: step, decisions: decisions.map { ConsentFlowResult.FormDecision(form: $0.form, decision: $0.decision) },
                          sharingChoice: sharingChoice, agreed: agreed, signatures: signatures)
    }

    // MARK: Moving on

    private mutating func decide(_ form: Int, _ decision: Decision) {
        decisions.append((forms[form].identifier, decision))
        step = afterForms(from: form + 1)
    }

    /// The step after the forms before `index` are decided.
    private func afterForms(from index: Int) -> Step {
        if index < forms.count { return .form(index, page: 0) }
        return document.sharing != nil ? .sharing : .review
    }

    /// The first step of signer `k`, or completion after the last.
    private mutating func signerStep(_ k: Int) -> Step {
        pendingName = ""
        pendingDate = nil
        replayed = nil
        guard k < signers.count else { return .completed }
        if signers[k].requiresName { return .name(signer: k) }
        if signers[k].requiresSignature {
            captureSession = CaptureSession(configuration: captureConfiguration)
            return .signature(signer: k)
        }
        return signerStep(k + 1)
    }

    private mutating func startCapture(_ k: Int) {
        captureSession = CaptureSession(configuration: captureConfiguration)
        step = .signature(signer: k)
    }

    /// Records signer `k`'s signature, dated by the one rule (a clock out of range gives ``ConsentDate/unixEpoch``).
    private mutating func finishSigner(_ k: Int, signature: Signature?, typed: String? = nil, savedAt: Double?) {
        let date = ConsentDate.signing(given: pendingDate, inkStartTime: signature?.startTime, now: savedAt ?? clock(),
                                       utcOffsetMinutes: utcOffsetMinutes) ?? .unixEpoch
        signatures.append(ConsentSignature(slot: signers[k].identifier, name: pendingName, signature: signature,
                                           typedSignature: typed, date: date))
        captureSession = nil
        step = signerStep(k + 1)
    }
}

/// What a consent flow decided: each form's decision, the sharing answer, the agreement and the signatures.
public struct ConsentFlowResult: Sendable, Hashable {
    /// One form's decision.
    public struct FormDecision: Sendable, Hashable, Codable {
        /// The form's identifier.
        public var form: String
        /// What was decided.
        public var decision: ConsentFlow.Decision

        /// Creates a decision.
        /// - Parameters:
        ///   - form: the form's identifier.
        ///   - decision: what was decided.
        public init(form: String, decision: ConsentFlow.Decision) {
            self.form = form
            self.decision = decision
        }
    }

    /// The document.
    public var document: ConsentDocument
    /// Where the flow ended (or stands).
    public var step: ConsentFlow.Step
    /// Each form's decision, in order.
    public var decisions: [FormDecision]
    /// The sharing answer, or `nil` when not asked (or not answered yet).
    public var sharingChoice: SharingChoice?
    /// Whether the participant agreed at the review.
    public var agreed: Bool
    /// The signatures collected.
    public var signatures: [ConsentSignature]

    /// Whether consent was given: the flow completed with every mandatory form allowed and the review agreed.
    public var consented: Bool { step == .completed && agreed }

    /// The document with every collected signature applied, as a signed copy.
    /// - Throws: ``ConsentError`` when the flow has not completed, or a signature does not fit its slot.
    public func signedDocument() throws(ConsentError) -> ConsentDocument {
        guard consented else {
            throw .invalidSignature(field: "flow", message: "the flow ended \(step) without consent; there is nothing to sign")
        }
        var copy = document
        for signature in signatures { copy = try copy.signing(signature) }
        return copy
    }
}
