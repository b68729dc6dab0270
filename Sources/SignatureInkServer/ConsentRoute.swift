// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender

/// `POST /consent/sign`: the consent page's body translated onto a `ConsentSubmission`, which signs it through the
/// engine's `ConsentFlow` (so the server accepts exactly what the walk-through and the command line accept),
/// answered with the signed PDF, the consent record and the page count.
enum ConsentRoute {
    /// The body: `{decisions: [{form, decision}], sharing?, utcOffsetMinutes?, pageSize?, signers: [{slot, name?,
    /// ink?}]}`, `ink` being a signature in the native format as JSON text. A field it does not have is refused.
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

            init(from decoder: any Decoder) throws {
                let fields = try StrictFields(decoder, ["slot", "name", "ink"])
                slot = try fields.value("slot")
                name = try fields.optional("name")
                ink = try fields.optional("ink")
            }
        }

        var decisions: [Decision]
        var sharing: SharingChoice?
        var utcOffsetMinutes: Int
        var pageSize: PageSize
        var signers: [Signer]

        init(from decoder: any Decoder) throws {
            let fields = try StrictFields(decoder, ["decisions", "sharing", "utcOffsetMinutes", "pageSize", "signers"])
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

    struct Signed: Encodable {
        var pdf: String
        var record: String
        var pages: Int
    }

    static func sign(_ bytes: [UInt8], document: ConsentDocument, configuration: ServerConfiguration) throws -> Response {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(bytes))
        } catch {
            throw APIError(.badRequest, "the submission is not valid: \(BodyError.describe(error))")
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
            signers.append(.init(slot: signer.slot, name: signer.name, ink: ink))
        }
        do {
            let signed = try ConsentSubmission(
                document: document, decisions: body.decisions.map { .init(form: $0.form, decision: $0.decision) },
                sharing: body.sharing, signers: signers, utcOffsetMinutes: body.utcOffsetMinutes, pageSize: body.pageSize
            ).sign()
            return try .json(Signed(pdf: Data(signed.pdf).base64EncodedString(), record: String(decoding: signed.record.json, as: UTF8.self),
                                    pages: signed.pageCount))
        } catch let ConsentError.invalidSubmission(field, message) {
            throw APIError(.unprocessableContent, "\(body.path(of: field)): \(message)")
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
    }
}
