// SPDX-License-Identifier: Apache-2.0

extension ConsentWords {
    /// A word of the consent walk-through page: a title, a button, a label, a dialog's text, what the signature form
    /// cell says or announces. Its raw value is its field in the document's `words` object.
    ///
    /// A word with placeholders in braces (`{n}`, `{slot}`) must keep every placeholder its ``english`` has: the page
    /// puts the page number, the role or the reference there.
    public enum PageWord: String, CaseIterable, CodingKey, Sendable {
        case cancel, back, next, allow, deny, notNow, progress
        case quit, quitMessage, no, yes, consentRequired, consentRequiredMessage, ok
        case sharingOptions, shareBroadly, shareInvestigatorOnly
        case review, agree, disagree
        case yourName, nameTitle, signatureTitle, typeYourName, typedNote
        case signing, thankYou, ready, reference, downloadPDF, downloadRecord, abandoned, declined, signingFailed
        case signature, required, padLabel, canvasLabel, tapToSign, savedSignature, clear, save, reenter
        case unsigned, padReady, signed, saving, saved, saveFailed
        case typeInstead, savedTyped, downloadStored
        case useSaved, useSavedConfirm, queued

        /// The English word: what the page shows when the document gives none.
        public var english: String {
            switch self {
            case .cancel: "Cancel"
            case .back: "Back"
            case .next: "Next"
            case .allow: "Allow"
            case .deny: "Deny"
            case .notNow: "Not Now"
            case .progress: "{form}: {n} of {N}"
            case .quit: "Quit?"
            case .quitMessage: "Your answers so far will not be kept."
            case .no: "No"
            case .yes: "Yes"
            case .consentRequired: "Consent required"
            case .consentRequiredMessage: "This form must be allowed to take part."
            case .ok: "OK"
            case .sharingOptions: "Sharing options"
            case .shareBroadly: "Share my data with {investigator} and qualified researchers worldwide"
            case .shareInvestigatorOnly: "Only share my data with {investigator}"
            case .review: "Review"
            case .agree: "Agree"
            case .disagree: "Disagree"
            case .yourName: "Your name"
            case .nameTitle: "{slot}: your name"
            case .signatureTitle: "{slot}: your signature"
            case .typeYourName: "Or type your name to sign"
            case .typedNote: "For anyone who cannot draw: your typed name is your signature, and the record says it was typed."
            case .signing: "Signing…"
            case .thankYou: "Thank you"
            case .ready: "Your signed consent ({pages} pages) and its record are ready."
            case .reference: "It is kept under the reference {id}."
            case .downloadPDF: "Download the signed PDF"
            case .downloadRecord: "Download the consent record"
            case .abandoned: "You left the consent"
            case .declined: "You did not consent"
            case .signingFailed: "The consent could not be signed"
            case .signature: "Signature"
            case .required: "required"
            case .padLabel: "Signature pad. Enter starts signing, Escape cancels."
            case .canvasLabel: "Signature pad: draw your signature here"
            case .tapToSign: "Tap to Sign"
            case .savedSignature: "Saved signature"
            case .clear: "Clear"
            case .save: "Save"
            case .reenter: "Re-enter Signature"
            case .unsigned: "Not signed."
            case .padReady: "The signature pad is ready: draw your signature."
            case .signed: "Signed. Save keeps it; Clear starts again."
            case .saving: "Saving…"
            case .saved: "Saved: SHA-256 {digest}"
            case .saveFailed: "The signature could not be saved: {reason}"
            case .typeInstead: "Or type your name instead of drawing"
            case .savedTyped: "Saved as a typed signature: SHA-256 {digest}"
            case .downloadStored: "Download the stored record"
            case .useSaved: "Use My Saved Signature"
            case .useSavedConfirm: "Sign the {slot} line with the signature you saved? It is yours to give only if you are the {slot}."
            case .queued: "The consent is kept on this device, locked with your passcode, and sent to the server as soon as the connection allows."
            }
        }

        /// The placeholders of ``english`` (`{n}`, `{slot}`), which the document's word must keep too.
        public var placeholders: [String] {
            var found: [String] = []
            var rest = Substring(english)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                found.append(String(rest[open...close]))
                rest = rest[rest.index(after: close)...]
            }
            return found
        }
    }

    /// Most characters in one of the walk-through page's words: its sentences (a dialog's text, the typed signature's
    /// note) are longer than the PDF's words.
    public static let maxPageWordLength = 300

    /// The walk-through page's `word`: the document's, else English.
    public subscript(word: PageWord) -> String {
        get { pageWords[word] ?? word.english }
        // An English word is not kept, so that words set to English equal ``english`` and are not written.
        set { pageWords[word] = newValue == word.english ? nil : newValue }
    }

    /// Every word of the walk-through page, the document's or English, by its field: what the page is given. The
    /// page's sections link to more with ``learnMore``, the PDF's word.
    public var page: [String: String] {
        Dictionary(uniqueKeysWithValues: PageWord.allCases.map { ($0.stringValue, self[$0]) } + [("learnMore", learnMore)])
    }
}
