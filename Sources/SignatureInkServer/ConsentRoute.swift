// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkForms
import SignatureInkRender
import SignatureInkStore

/// `POST /consent/sign`: the consent page's body translated onto a `ConsentSubmission`, which signs it through the
/// engine's `ConsentFlow` (so the server accepts exactly what the walk-through and the command line accept), kept in
/// the store, and answered with the consent's identifier, the signed PDF, the consent record and the page count.
enum ConsentRoute {
    /// The body: `{submission?, document?, decisions: [{form, decision}], sharing?, utcOffsetMinutes?, pageSize?,
    /// signers: [{slot, name?, ink?, typed?}]}`, `ink` being a signature in the native format as JSON text and `typed`
    /// the name a signer typed in its place. A field it does not have is refused.
    ///
    /// `submission` is an identifier the client chooses once per walk-through (a UUID in lower case): the consent is
    /// kept under it, and the same submission sent again (a retry after a lost answer) is answered with the consent
    /// kept the first time rather than kept twice. `document` is the digest of the document the page showed; a
    /// submission for another version than the server's is refused.
    struct Body: Decodable {
        struct Decision: Decodable {
            var form: String
            var decision: ConsentFlow.Decision

            init(from decoder: any Decoder) throws {
                let fields = try StrictFields(decoder, ["form", "decision"])
                form = try fields.value("form")
                decision = try fields.choice("decision")
            }
        }

        struct Signer: Decodable {
            var slot: String
            var name: String?
            var ink: String?
            var typed: String?

            init(from decoder: any Decoder) throws {
                let fields = try StrictFields(decoder, ["slot", "name", "ink", "typed"])
                slot = try fields.value("slot")
                name = try fields.optional("name")
                ink = try fields.optional("ink")
                typed = try fields.optional("typed")
            }
        }

        var submission: String?
        var document: String?
        var decisions: [Decision]
        var sharing: SharingChoice?
        var utcOffsetMinutes: Int
        var pageSize: PageSize
        var signers: [Signer]

        init(from decoder: any Decoder) throws {
            let fields = try StrictFields(decoder, ["submission", "document", "decisions", "sharing", "utcOffsetMinutes", "pageSize", "signers"])
            submission = try fields.optional("submission")
            document = try fields.optional("document")
            decisions = try fields.value("decisions")
            sharing = try fields.optionalChoice("sharing")
            utcOffsetMinutes = try fields.wholeNumber("utcOffsetMinutes") ?? 0
            pageSize = try fields.optionalChoice("pageSize") ?? .a4
            signers = try fields.value("signers")
        }

        /// Where in the body a part of the submission is: `decisions[1]`, `signers[0].ink`.
        func path(of field: ConsentSubmission.Field) -> String {
            func signer(_ slot: String, _ part: String) -> String {
                signers.lastIndex { $0.slot == slot }.map { "signers[\($0)]\(part)" } ?? "signers"
            }
            switch field {
            case let .decision(form): return decisions.lastIndex { $0.form == form }.map { "decisions[\($0)]" } ?? "decisions"
            case .sharing: return "sharing"
            case let .signer(slot): return signer(slot, "")
            case let .name(slot): return signer(slot, ".name")
            case let .ink(slot): return signer(slot, ".ink")
            case .utcOffset: return "utcOffsetMinutes"
            }
        }
    }

    /// The `document` a body names, in lower case, or `nil` when it names none (or is no JSON object: signing then says
    /// what is wrong with it).
    static func documentDigest(in body: [UInt8]) -> String? {
        struct Probe: Decodable { var document: String? }
        return (try? JSONDecoder().decode(Probe.self, from: Data(body)))?.document?.lowercased()
    }

    /// The answer: the consent's identifier in the store (`nil` when the server keeps nothing), the PDF in base64,
    /// the record as JSON text, the page count.
    static func answer(id: String?, pdf: [UInt8], record json: [UInt8], pages: Int) throws -> Response {
        try .json(Numbers(id: id, pages: pages), adding: ["pdf": Array(Data(pdf).base64EncodedString().utf8), "record": json])
    }

    /// The answer's short fields (`id` left out when `nil`).
    struct Numbers: Encodable {
        var id: String?
        var pages: Int
    }

    /// A signed submission, not yet kept.
    struct Signed: Sendable {
        var submission: String?
        var signed: ConsentSubmission.Signed
    }

    /// Reads and signs a submission, on a worker.
    /// - Throws: `APIError` 400 for a body that is not a submission, 422 naming the field at fault.
    /// With the configuration's seal, the PDF is sealed and its audit trail names `client` and `userAgent`.
    static func sign(_ bytes: [UInt8], document: ConsentDocument, configuration: ServerConfiguration, client: String? = nil,
                     userAgent: String? = nil) throws -> Signed {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(bytes))
        } catch {
            throw APIError(.badRequest, "the submission is not valid: \(BodyError.describe(error))")
        }
        if let submission = body.submission, !ConsentStore.isIdentifier(submission) {
            throw APIError(.unprocessableContent, "submission: must be 1 to 64 lower-case letters, digits and '-', such as a UUID")
        }
        if let digest = body.document, digest.lowercased() != document.digest {
            throw APIError(.unprocessableContent,
                           "document: the page showed another version of the document than this server signs (\(document.digest)); load it again")
        }
        var signers: [ConsentSubmission.Signer] = []
        for (i, signer) in body.signers.enumerated() {
            var ink: Signature?
            if let text = signer.ink {
                do {
                    ink = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(text.utf8), as: .native).signature
                } catch {
                    throw APIError(.unprocessableContent, "signers[\(i)].ink: the signature of '\(signer.slot)': \(error)")
                }
            }
            signers.append(.init(slot: signer.slot, name: signer.name, ink: ink, typed: signer.typed))
        }
        let now = ConsentDate.currentMilliseconds()
        let seal = configuration.seal.map { identity in
            ConsentSeal(signature: PDFDigitalSignature(identity: identity, millisecondsSince1970: now),
                        clientAddress: client, userAgent: userAgent)
        }
        do {
            let signed = try ConsentSubmission(
                document: document, decisions: body.decisions.map { .init(form: $0.form, decision: $0.decision) },
                sharing: body.sharing, signers: signers, utcOffsetMinutes: body.utcOffsetMinutes, pageSize: body.pageSize
            ).sign(now: now, seal: seal)
            return Signed(submission: body.submission, signed: signed)
        } catch let ConsentError.invalidSubmission(field, message) {
            throw APIError(.unprocessableContent, "\(body.path(of: field)): \(message)")
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
    }

    /// Keeps a signed submission and answers it: 200 with the consent once it is committed to the store. A submission
    /// kept already is answered with what was kept the first time (its PDF and record, not the ones just signed).
    /// An identifier kept already by another collector (or by a submission without a session, when this one has one)
    /// is 409 like another submission's: a user never gets another's consent back.
    /// - Parameter provenance: the client, and the signed-in user and device who collected the consent, if any.
    /// - Throws: `APIError` 503 when the store fails (nothing was kept).
    static func keep(_ signed: Signed, store: ConsentStore?, provenance: Provenance) async throws -> Response {
        guard let store else {
            return try answer(id: nil, pdf: signed.signed.pdf, record: signed.signed.record.json, pages: signed.signed.pageCount)
        }
        let kept: StoredConsent
        do {
            kept = try await store.keep(signed.signed.record, pdf: signed.signed.pdf, pages: signed.signed.pageCount,
                                        id: signed.submission, provenance: provenance)
        } catch .alreadyKept(let id) {
            let (kept, pdf) = try await StoreRoutes.run { (try await store.consent(id: id), try await store.pdf(ofConsent: id)) }
            // Only the same submission gets the first answer back: an identifier alone must not read another's consent.
            guard sameSubmission(kept.record, signed.signed.record), kept.provenance.user == provenance.user else {
                throw APIError(.conflict, "submission: '\(id)' was kept already with other decisions or signatures; choose a new identifier")
            }
            return try answer(id: kept.id, pdf: pdf, record: kept.recordJSON, pages: kept.pages)
        } catch {
            throw StoreRoutes.apiError(error)
        }
        return try answer(id: kept.id, pdf: signed.signed.pdf, record: kept.recordJSON, pages: kept.pages)
    }

    /// Whether two records are the same submission signed at two moments: the same document, decisions, sharing
    /// answer, paper, and signers with the same names and ink.
    static func sameSubmission(_ a: ConsentRecord, _ b: ConsentRecord) -> Bool {
        a.documentDigest == b.documentDigest && a.decisions == b.decisions && a.sharing == b.sharing && a.pageSize == b.pageSize
            && a.signers.map { [$0.slot, $0.name, $0.signatureDigest ?? ""] } == b.signers.map { [$0.slot, $0.name, $0.signatureDigest ?? ""] }
    }
}
