// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInk
import SignatureInkFormats
import SignatureInkForms
public import SignatureInkRender

/// The record of a consent: what document was agreed to, what was decided, who signed when, and the PDF made, each
/// identified by its SHA-256.
///
/// The record carries the document and each signature's samples too (in the engine's native format), so that
/// ``verify(pdf:)`` can recompute every digest from the record alone and say which one no longer matches.
public struct ConsentRecord: Sendable, Hashable, Codable {
    /// One signer.
    public struct Signer: Sendable, Hashable, Codable {
        /// The slot's identifier.
        public var slot: String
        /// The slot's role title, as printed.
        public var role: String
        /// The printed name.
        public var name: String
        /// When it was signed, ISO 8601 with the signer's offset.
        public var date: String
        /// SHA-256 of the signature's canonical samples (a saved signature record's digest), or `nil` without ink.
        public var signatureDigest: String?
        /// The signature in the engine's native JSON format, or `nil` without ink.
        public var signature: String?
        /// `typed` for a signature the signer typed in place of drawing (its text is ``typedSignature``); `nil` for a
        /// drawn one, or none, as in every record written before typed signatures.
        public var kind: ConsentSignature.Kind?
        /// The name the signer typed in place of drawing, or `nil`.
        public var typedSignature: String?

        /// A signer's entry.
        /// - Parameters:
        ///   - slot: the slot's identifier.
        ///   - role: the role title.
        ///   - name: the printed name.
        ///   - date: ISO 8601 with the offset.
        ///   - signatureDigest: SHA-256 of the ink's canonical samples, or `nil`.
        ///   - signature: the ink in the native format, or `nil`.
        ///   - typedSignature: the typed name, or `nil`; with one, ``kind`` is `typed`.
        public init(slot: String, role: String, name: String, date: String, signatureDigest: String?, signature: String?,
                    typedSignature: String? = nil) {
            self.slot = slot
            self.role = role
            self.name = name
            self.date = date
            self.signatureDigest = signatureDigest
            self.signature = signature
            self.kind = typedSignature == nil ? nil : .typed
            self.typedSignature = typedSignature
        }
    }

    /// The record's format version.
    public var version = 1
    /// SHA-256 of the document's canonical JSON (``ConsentDocument/digest``).
    public var documentDigest: String
    /// The document as its canonical JSON text.
    public var document: String
    /// Each form's decision, in order.
    public var decisions: [ConsentFlowResult.FormDecision]
    /// The sharing answer, or `nil` when the document asks none.
    public var sharing: SharingChoice?
    /// The signers, in slot order.
    public var signers: [Signer]
    /// The paper the PDF was laid out on, written `"a4"` or `"letter"`.
    public var pageSize: PageSize
    /// SHA-256 of the PDF file.
    public var pdfSHA256: String

    /// Makes the record of a signed copy and the PDF made of it.
    /// - Parameters:
    ///   - signed: the signed copy.
    ///   - decisions: each form's decision; default every walk-through form allowed.
    ///   - sharing: the sharing answer; default `nil`.
    ///   - pageSize: the paper the PDF was laid out on.
    ///   - pdf: the PDF's bytes.
    /// - Throws: ``ConsentError/rendering(_:)`` when a signature cannot be written in the native format.
    public init(signed: ConsentDocument, decisions: [ConsentFlowResult.FormDecision]? = nil, sharing: SharingChoice? = nil,
                pageSize: PageSize, pdf: [UInt8]) throws(ConsentError) {
        documentDigest = signed.digest
        document = String(decoding: signed.canonicalJSON, as: UTF8.self)
        self.decisions = decisions ?? signed.walkThroughForms.map { .init(form: $0.identifier, decision: .allowed) }
        self.sharing = sharing
        var signers: [Signer] = []
        for slot in signed.slots {
            guard let applied = signed.appliedSignature(for: slot.identifier) else { continue }
            var text: String?
            if let ink = applied.signature {
                do {
                    text = String(decoding: try InkEncoder().encode(ink, as: .native), as: UTF8.self)
                } catch {
                    throw .rendering("the signature of '\(slot.identifier)' cannot be stored: \(error)")
                }
            }
            signers.append(Signer(slot: slot.identifier, role: slot.title, name: applied.name, date: applied.date.iso8601,
                                  signatureDigest: applied.signature.map { SignatureRecord.digest(of: $0) }, signature: text,
                                  typedSignature: applied.typedSignature))
        }
        self.signers = signers
        self.pageSize = pageSize
        pdfSHA256 = HexDigest.sha256(pdf)
    }

    /// The record as JSON: sorted keys, two-space indents, a final newline.
    public var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return ((try? Array(encoder.encode(self))) ?? []) + [10]
    }

    /// SHA-256 of the record's JSON with ``pdfSHA256`` empty: the digest of everything the record says of the
    /// consent, which the PDF can print (a sealed PDF's audit trail does) without depending on its own bytes.
    public var contentDigest: String { HexDigest.sha256(contentJSON) }

    /// The record's JSON with ``pdfSHA256`` empty: what ``contentDigest`` hashes.
    var contentJSON: [UInt8] {
        var content = self
        content.pdfSHA256 = ""
        return content.json
    }

    /// ``json`` made from `content`, this record's ``contentJSON``, by writing ``pdfSHA256`` into it rather than
    /// encoding the record again (a sealed consent needs both, and the record carries the document and every
    /// signature as text). The key can occur only once: inside a string every quote is escaped.
    func json(filling content: [UInt8]) -> [UInt8] {
        let empty = Array(#""pdfSHA256" : """#.utf8)
        guard let at = ByteSearch.offset(of: empty, in: content, from: 0) else { return json }
        var filled = content
        filled.insert(contentsOf: pdfSHA256.utf8, at: at + empty.count - 1)
        return filled
    }

    /// Most bytes of a record read back: a document at its limit plus eight signatures at theirs.
    public static let maxBytes = 64 << 20

    /// Reads a record.
    /// - Throws: ``ConsentError/invalidDocument(field:message:)`` naming the field at fault.
    public init(json: [UInt8]) throws(ConsentError) {
        guard json.count <= Self.maxBytes else { throw .limitExceeded(field: "record size in bytes", limit: Self.maxBytes, actual: json.count) }
        do {
            self = try JSONDecoder().decode(ConsentRecord.self, from: Data(json))
        } catch {
            throw ConsentDocument.describe(error)
        }
    }

    /// One check that failed.
    public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
        /// What was checked (`pdfSHA256`, `signers[0].signatureDigest`).
        public var field: String
        /// What is wrong.
        public var message: String
        public var description: String { "\(field): \(message)" }
    }

    /// Checks every digest: the document's against its text, each signature's against its samples, the PDF's
    /// against `pdf`.
    /// - Parameter pdf: the PDF file that came with the record.
    /// - Returns: what does not match; empty when the record and the PDF agree.
    public func verify(pdf: [UInt8]) -> [Mismatch] {
        var problems: [Mismatch] = []
        let actual = HexDigest.sha256(pdf)
        if actual != pdfSHA256.lowercased() {
            problems.append(Mismatch(field: "pdfSHA256", message: "the PDF's SHA-256 is \(actual), the record says \(pdfSHA256)"))
        }
        do {
            let parsed = try ConsentDocument(json: Array(document.utf8))
            if parsed.digest != documentDigest.lowercased() {
                problems.append(Mismatch(field: "documentDigest", message: "the document's SHA-256 is \(parsed.digest), the record says \(documentDigest)"))
            }
            for (i, signer) in signers.enumerated() where parsed.slot(signer.slot) == nil {
                problems.append(Mismatch(field: "signers[\(i)].slot", message: "the document has no slot '\(signer.slot)'"))
            }
        } catch {
            problems.append(Mismatch(field: "document", message: "cannot be read: \(error)"))
        }
        for (i, signer) in signers.enumerated() {
            let field = "signers[\(i)]"
            if ConsentDate(iso8601: signer.date) == nil {
                problems.append(Mismatch(field: field + ".date", message: "'\(signer.date)' is not an ISO 8601 date"))
            }
            switch (signer.signature, signer.signatureDigest) {
            case (nil, nil): break
            case let (text?, expected?):
                do {
                    let ink = try InkDecoder().decode(Data(text.utf8), as: .native).signature
                    let digest = SignatureRecord.digest(of: ink)
                    if digest != expected.lowercased() {
                        problems.append(Mismatch(field: field + ".signatureDigest", message: "the signature's SHA-256 is \(digest), the record says \(expected)"))
                    }
                } catch {
                    problems.append(Mismatch(field: field + ".signature", message: "cannot be read: \(error)"))
                }
            default:
                problems.append(Mismatch(field: field, message: "has a signature without its digest or a digest without its signature"))
            }
            switch (signer.kind, signer.typedSignature) {
            case (nil, nil), (.typed?, _?): break
            default:
                problems.append(Mismatch(field: field + ".kind", message: "a typed signature needs kind 'typed' and its text, and only a typed one has them"))
            }
            if signer.typedSignature != nil && signer.signature != nil {
                problems.append(Mismatch(field: field, message: "has both ink and a typed signature"))
            }
        }
        return problems
    }
}
