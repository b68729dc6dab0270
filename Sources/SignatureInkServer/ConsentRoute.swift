// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender

/// `POST /consent/sign`: the consent pages' decisions and signatures, replayed through the engine's
/// `ConsentFlow` (so the server accepts exactly what the walk-through allows), answered with the signed PDF and
/// the consent record.
enum ConsentRoute {
    struct Submission: Decodable {
        struct Signer: Decodable {
            var slot: String
            var name: String?
            /// The signature in the native format, as JSON text.
            var ink: String?
        }

        var decisions: [ConsentFlowResult.FormDecision]
        var sharing: SharingChoice?
        var utcOffsetMinutes: Int?
        var pageSize: String?
        var signers: [Signer]
    }

    struct Signed: Encodable {
        var pdf: String
        var record: String
        var pages: Int
    }

    static func sign(_ body: [UInt8], document: ConsentDocument, configuration: ServerConfiguration) throws -> Response {
        let submission: Submission
        do {
            submission = try JSONDecoder().decode(Submission.self, from: Data(body))
        } catch {
            throw APIError(.badRequest, "the submission is not valid: \(error)")
        }
        let now = (Date().timeIntervalSince1970 * 1000).rounded()
        var flow = ConsentFlow(document: document, utcOffsetMinutes: submission.utcOffsetMinutes ?? 0)
        func send(_ event: ConsentFlow.Event) throws {
            do { try flow.send(event) } catch { throw APIError(.unprocessableContent, "\(error)") }
        }
        // The forms, page by page, with their decisions in order.
        for form in flow.forms {
            guard let decision = submission.decisions.first(where: { $0.form == form.identifier })?.decision else {
                throw APIError(.unprocessableContent, "form '\(form.identifier)' has no decision")
            }
            for _ in 1..<form.sections.count { try send(.next) }
            try send(decision == .allowed ? .allow : decision == .denied ? .deny : .notNow)
            if case .consentRequired = flow.step {
                throw APIError(.unprocessableContent, "form '\(form.identifier)' is mandatory: consent is required")
            }
        }
        if flow.step == .sharing {
            guard let choice = submission.sharing else { throw APIError(.unprocessableContent, "the sharing question has no answer") }
            try send(.share(choice))
        }
        try send(.agree)
        try send(.confirmAgreement(true))
        while !flow.step.isFinished {
            switch flow.step {
            case let .name(k):
                let slot = flow.signers[k].identifier
                try send(.enterName(submission.signers.first { $0.slot == slot }?.name ?? ""))
            case let .signature(k):
                let slot = flow.signers[k].identifier
                guard let text = submission.signers.first(where: { $0.slot == slot })?.ink else {
                    throw APIError(.unprocessableContent, "signature slot '\(slot)' has no signature")
                }
                let ink: Signature
                do {
                    ink = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(text.utf8), as: .native).signature
                } catch {
                    throw APIError(.unprocessableContent, "the signature of '\(slot)': \(error)")
                }
                do {
                    try flow.capture { (session) throws(CaptureSession.Refusal) in
                        try session.replay(ink)
                        _ = try session.save(at: now)
                    }
                } catch {
                    throw APIError(.unprocessableContent, "the signature of '\(slot)': \(error)")
                }
                try send(.acceptSignature)
            default:
                throw APIError(.unprocessableContent, "the walk-through stopped at \(flow.step)")
            }
        }
        let result = flow.result
        let setup: PageSetup = submission.pageSize == "letter" ? .letter : .a4
        do {
            let signed = try result.signedDocument()
            let pdf = try signed.pdf(setup: setup)
            let record = try ConsentRecord(signed: signed, decisions: result.decisions, sharing: result.sharingChoice,
                                           pageSize: submission.pageSize == "letter" ? "letter" : "a4", pdf: pdf)
            return try .json(Signed(pdf: Data(pdf).base64EncodedString(), record: String(decoding: record.json, as: UTF8.self),
                                    pages: try signed.pageCount(setup: setup)))
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
    }
}
