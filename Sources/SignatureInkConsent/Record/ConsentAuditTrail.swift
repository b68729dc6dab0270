// SPDX-License-Identifier: Apache-2.0
import SignatureInkFormats
public import SignatureInkForms
import SignatureInkRender

/// How a consent PDF is sealed: who seals it, and what the audit trail says of the submission.
///
/// With a seal, ``ConsentSubmission/sign(now:seal:)`` adds an **Audit trail** page, embeds the consent record in the
/// PDF as an associated file (`consent-record.json`, `/AFRelationship /Data`), and certifies the whole file with a
/// PAdES signature that allows form filling and further signatures (`PDFSeal` of SignatureInkForms). Anyone with the PDF alone can then
/// tell whether it was changed, with any PDF reader that checks signatures.
public struct ConsentSeal: Sendable {
    /// Who seals, and when (the seal's `/M`).
    public var signature: PDFDigitalSignature
    /// The client's network address, as the server saw it, or `nil`.
    public var clientAddress: String?
    /// The client's `User-Agent`, or `nil`.
    public var userAgent: String?

    /// A seal.
    /// - Parameters:
    ///   - signature: the sealer's key and certificates, and the time.
    ///   - clientAddress: the client's address, for the audit trail; default `nil`.
    ///   - userAgent: the client's user agent, for the audit trail; default `nil`.
    public init(signature: PDFDigitalSignature, clientAddress: String? = nil, userAgent: String? = nil) {
        self.signature = signature
        self.clientAddress = clientAddress
        self.userAgent = userAgent
    }

    /// Most characters of a user agent the audit trail prints; the rest is cut off.
    public static let maxUserAgent = 256

    /// The name of the record inside a sealed PDF.
    public static let recordFileName = "consent-record.json"

    /// The last page of a sealed consent, its headings and labels in the document's ``ConsentDocument/words``: the
    /// document (title, SHA-256), each event of the submission under its time and UTC offset (each form shown and
    /// decided, the sharing answer, the review agreed, each signature with its signer, role and ink digest or typed
    /// text, and where it came from), and the record's content digest (``ConsentRecord/contentDigest``, given).
    func auditTrail(document: ConsentDocument, record: ConsentRecord, contentDigest: String, at now: ConsentDate) -> [DocumentBlock] {
        let time = now.iso8601
        var events: [(time: String, text: String)] = []
        let forms = document.walkThroughForms
        for decided in record.decisions {
            let title = forms.first { $0.identifier == decided.form }?.title ?? decided.form
            let words = switch decided.decision { case .allowed: "allowed"; case .denied: "denied"; case .notNow: "not now" }
            events += [(time, "Form shown: “\(title)”"), (time, "Form “\(title)”: \(words)")]
        }
        if let sharing = record.sharing {
            let words = switch sharing {
            case .broadly: "with the study team and qualified researchers worldwide"
            case .investigatorOnly: "with the study team only"
            }
            events.append((time, "Sharing: \(words)"))
        }
        events.append((time, "Review agreed"))
        for signer in record.signers {
            let who = signer.name.isEmpty ? "Signed" : "Signed by \(signer.name)"
            let ink = signer.typedSignature.map { "; typed signature “\($0)”" }
                ?? signer.signatureDigest.map { "; ink SHA-256 \($0)" } ?? "; no ink"
            events.append((signer.date, "\(who) as \(signer.role)\(ink)"))
        }
        if clientAddress != nil || userAgent != nil {
            let agent = userAgent.map { String($0.prefix(Self.maxUserAgent)) }
            let parts = [clientAddress.map { "from \($0)" }, agent.map { "with the user agent \($0)" }].compactMap(\.self)
            events.append((time, "Submitted " + parts.joined(separator: " ")))
        }
        let sealed = ConsentDate(millisecondsSince1970: signature.millisecondsSince1970, utcOffsetMinutes: signature.utcOffsetMinutes)
        events.append((sealed?.iso8601 ?? time, "Sealed with a digital signature by \(signature.identity.subject)"))

        // Every text given from outside (a user agent, a name) is one line: a line break in it cannot forge an entry.
        let body = TextFont(size: 10, language: "en")
        func paragraph(_ runs: [TextRun]) -> Paragraph { Paragraph(runs, font: body, direction: .leftToRight) }
        let words = document.words
        var blocks: [DocumentBlock] = [
            .pageBreak, .heading(words.auditTrail, level: 2, bookmark: true),
            .paragraph(paragraph([TextRun("\(words.document): \(Self.oneLine(document.title))")])),
            .paragraph(paragraph([TextRun("\(words.version): SHA-256 \(record.documentDigest)")])),
            .heading(words.events, level: 3, bookmark: false),
        ]
        // Events in order under their time, each time written once for the events that follow it: the words of an
        // event (a form shown, the review agreed, the seal) are then the same in every consent to the document, and
        // a batch lays them out once (Paragraph's layouts are kept by the font map).
        var current: String?
        for event in events {
            if event.time != current {
                blocks.append(.paragraph(paragraph([TextRun(Self.oneLine(event.time), bold: true)])))
                current = event.time
            }
            blocks.append(.listItem(paragraph([TextRun(Self.oneLine(event.text))]), marker: "•"))
        }
        blocks += [
            .space(8),
            .paragraph(paragraph([TextRun("\(words.record): \(Self.recordFileName), attached to this PDF; SHA-256 of its content: \(contentDigest)")])),
        ]
        return blocks
    }

    /// `text` with every control character (a line break, a tab) and line or paragraph separator as a space.
    static func oneLine(_ text: String) -> String {
        // Unicode's line and paragraph separators are exactly U+2028 and U+2029 (categories Zl and Zp).
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.isControl || scalar == "\u{2028}" || scalar == "\u{2029}" ? " " : scalar
        }))
    }
}
