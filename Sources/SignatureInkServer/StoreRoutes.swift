// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import NIOCore
import SignatureInkConsent
import SignatureInkRender
import SignatureInkStore

/// The store's routes for an administrator: list consents, read one with its PDF, withdraw one, list saved
/// signatures, export every event as NDJSON, and verify the chain. Each needs the administrator's token
/// (``AdminToken``) or the session of a user who is an administrator; a request with neither gets 401 and no data.
enum StoreRoutes {
    /// Adds the routes to `router`. Without a store, they answer 404 saying the server keeps nothing.
    static func add(to router: Router<ServerContext>, store: ConsentStore?, token: AdminToken?, answers: ConsentAnswers) {
        /// The store, once the request is the administrator's.
        @Sendable func admitted(_ request: Request, _ context: ServerContext) throws -> ConsentStore {
            try admit(request, context, store: store, token: token)
        }
        router.get("/consents") { request, context -> Response in
            let store = try admitted(request, context)
            let query = try query(request.uri.queryParameters)
            let page = try await run { try await store.consents(query) }
            return try .json(ListPage(key: "consents", items: page.consents.map(ConsentSummary.init), next: page.next))
        }
        router.get("/consents/{id}") { request, context -> Response in
            let store = try admitted(request, context)
            let id = try identifier(context)
            // The answer but its withdrawal never changes: written once, then kept (ConsentAnswers).
            var answer: [UInt8]
            let withdrawal: StoredWithdrawal?
            if let kept = answers.answer(for: id) {
                answer = kept
                withdrawal = try await run { try await store.withdrawal(ofConsent: id) }
            } else {
                let consent = try await run { try await store.consent(id: id) }
                var summary = ConsentSummary(consent)
                summary.withdrawal = nil
                // The record as JSON text, byte for byte the one returned at signing.
                answer = try Response.openJSONObject(summary, adding: ["record": consent.recordJSON])
                answers.keep(answer, for: id)
                withdrawal = consent.withdrawal
            }
            if let withdrawal { answer += Array(#","withdrawal":"#.utf8) + (try Response.jsonBytes(withdrawal)) }
            return .json(openObject: answer)
        }
        router.get("/consents/{id}/pdf") { request, context -> Response in
            let store = try admitted(request, context)
            let id = try identifier(context)
            let pdf = try await run { try await store.pdf(ofConsent: id) }
            return .bytes(pdf, contentType: "application/pdf")
        }
        router.post("/consents/{id}/withdrawal") { request, context -> Response in
            let store = try admitted(request, context)
            let id = try identifier(context)
            let body = try await request.jsonBody(limit: 16 << 10)
            let reason: String
            do {
                reason = try JSONDecoder().decode(WithdrawalBody.self, from: Data(body)).reason
            } catch {
                throw APIError(.badRequest, "the withdrawal is not valid: \(BodyError.describe(error))")
            }
            let withdrawal = try await run {
                try await store.withdraw(consent: id, reason: reason, provenance: provenance(of: context))
            }
            var response = try Response.json(withdrawal)
            response.status = .created
            return response
        }
        router.get("/signatures") { request, context -> Response in
            let store = try admitted(request, context)
            let (after, limit) = try paging(request.uri.queryParameters, known: [])
            let page = try await run { try await store.signatures(after: after, limit: limit) }
            return try .json(ListPage(key: "signatures", items: page.signatures, next: page.next))
        }
        router.get("/events") { request, context -> Response in
            let store = try admitted(request, context)
            let (start, _) = try paging(request.uri.queryParameters, known: ["after"], allowPaging: false)
            var headers = HTTPFields()
            headers[.contentType] = "application/x-ndjson"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                var after = start
                while true {
                    let events = try await store.events(after: after, limit: ConsentQuery.maxLimit)
                    guard let last = events.last else { break }
                    var buffer = ByteBuffer()
                    for event in events { buffer.writeBytes(event.exportLine) }
                    try await writer.write(buffer)
                    after = last.sequence
                }
                try await writer.finish(nil)
            })
        }
        router.get("/store/verify") { request, context -> Response in
            let store = try admitted(request, context)
            _ = try paging(request.uri.queryParameters, known: [], allowPaging: false)
            let verification = try await run { try await store.verify() }
            return try .json(Verification(verification))
        }
    }

    /// The store, once the request carries the administrator's token or is made in the session of a user who is an
    /// administrator (whose state-changing requests ``SessionGate`` has checked for the CSRF token).
    /// - Throws: `APIError` 401 with neither, 404 without a store.
    static func admit(_ request: Request, _ context: ServerContext, store: ConsentStore?, token: AdminToken?) throws -> ConsentStore {
        guard context.session?.isAdministrator == true || token?.admits(request.headers[.authorization]) == true else {
            throw APIError(.unauthorized, token == nil ? "this server was started without --admin-token-file: only an administrator's session may use the store's routes"
                                                       : "the administrator's token is required: Authorization: Bearer TOKEN",
                           fields: [.wwwAuthenticate: #"Bearer realm="signature-ink""#])
        }
        guard let store else { throw APIError(.notFound, "this server was started with --no-store: it keeps nothing") }
        return store
    }

    /// Runs a store call, its errors as answers: 404 unknown, 409 withdrawn or kept already, 422 refused, 503 for the
    /// database (nothing was kept), 500 for what the store did not write.
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            throw apiError(error)
        }
    }

    /// A store error as an answer.
    static func apiError(_ error: StoreError) -> APIError {
        switch error {
        case .unknownConsent, .unknownUser: APIError(.notFound, error.description)
        case .alreadyWithdrawn, .alreadyKept: APIError(.conflict, error.description)
        case .invalid: APIError(.unprocessableContent, error.description)
        case .unreachable, .database:
            APIError(.serviceUnavailable, "\(error.description); nothing was kept", fields: [.retryAfter: String(SignatureInkServer.retryAfter)])
        case .corrupt: APIError(.internalServerError, error.description)
        }
    }

    /// Where an administrator's request comes from, as the store records it: the client's address, and the
    /// administrator's user and device when it is made in an administrator's session.
    static func provenance(of context: ServerContext) -> Provenance {
        guard let session = context.session, session.isAdministrator else { return Provenance(client: client(of: context)) }
        return Provenance(client: client(of: context), user: session.user, device: session.device)
    }

    /// The client's address, as the store records it.
    static func client(of context: ServerContext) -> String? {
        context.channel.remoteAddress?.ipAddress
    }

    /// The `{id}` of a path: a consent's identifier, at most 64 letters, digits and `-`.
    static func identifier(_ context: ServerContext) throws -> String {
        let id = context.parameters.get("id") ?? ""
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy({ $0 == 45 || (48...57).contains($0) || (97...122).contains($0) }) else {
            throw APIError(.notFound, "no consent has this identifier")
        }
        return id
    }

    /// `after` and `limit`, and no parameter but `known` and, when `allowPaging`, these two.
    static func paging(_ parameters: Parameters, known: Set<String>, allowPaging: Bool = true) throws -> (after: Int64, limit: Int) {
        let allowed = known.union(allowPaging ? ["after", "limit"] : [])
        for (key, _) in parameters where !allowed.contains(String(key)) {
            throw APIError(.badRequest, "unknown query parameter '\(String(key).prefix(40))'"
                           + (allowed.isEmpty ? "; this path takes none" : "; expected one of \(allowed.sorted().joined(separator: ", "))"))
        }
        var after: Int64 = 0
        if let text = parameters.get("after") {
            guard let value = Int64(text), value >= 0 else { throw APIError(.badRequest, "after: must be a whole number >= 0") }
            after = value
        }
        var limit = 100
        if let text = parameters.get("limit") {
            guard let value = Int(text), (1...ConsentQuery.maxLimit).contains(value) else {
                throw APIError(.badRequest, "limit: must be a whole number in 1...\(ConsentQuery.maxLimit)")
            }
            limit = value
        }
        return (after, limit)
    }

    /// The list's query: `document`, `signer`, `from`, `to`, `withdrawn`, `after`, `limit`.
    static func query(_ parameters: Parameters) throws -> ConsentQuery {
        let (after, limit) = try paging(parameters, known: ["document", "signer", "from", "to", "withdrawn"])
        var query = ConsentQuery(after: after, limit: limit)
        if let digest = parameters.get("document") {
            guard digest.utf8.count == 64, digest.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0 | 0x20) }) else {
                throw APIError(.badRequest, "document: must be a document's SHA-256, 64 hexadecimal digits")
            }
            query.documentDigest = digest
        }
        if let signer = parameters.get("signer") {
            guard (1...256).contains(signer.utf8.count) else { throw APIError(.badRequest, "signer: must have 1 to 256 bytes") }
            query.signerName = signer
        }
        func date(_ name: String) throws -> Date? {
            guard let text = parameters.get(name) else { return nil }
            guard let date = ConsentDate(iso8601: text) else {
                throw APIError(.badRequest, "\(name): must be an ISO 8601 date such as 2026-11-25 or 2026-11-25T14:30:00+01:00")
            }
            return Date(timeIntervalSince1970: date.millisecondsSince1970 / 1000)
        }
        query.from = try date("from")
        query.to = try date("to")
        if let withdrawn = parameters.get("withdrawn") {
            guard withdrawn == "true" || withdrawn == "false" else { throw APIError(.badRequest, "withdrawn: must be true or false") }
            query.withdrawn = withdrawn == "true"
        }
        return query
    }

    struct WithdrawalBody: Decodable {
        var reason: String

        init(from decoder: any Decoder) throws {
            let fields = try StrictFields(decoder, ["reason"])
            reason = try fields.value("reason")
        }
    }

    /// A page of a list: its items under `key`, then `next`, the position to ask for the next page from, written as
    /// `null` on the last page (the users', consents' and signatures' lists alike).
    struct ListPage<Item: Encodable>: Encodable {
        var key: String
        var items: [Item]
        var next: Int64?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StrictFields.Key.self)
            try container.encode(items, forKey: StrictFields.Key(stringValue: key))
            try container.encode(next, forKey: StrictFields.Key(stringValue: "next"))
        }
    }

    struct SignerSummary: Encodable {
        var slot: String
        var role: String
        var name: String
        var date: String
        var signatureDigest: String?
        /// `typed` for a typed signature; absent for a drawn one.
        var kind: ConsentSignature.Kind?
        var typedSignature: String?
    }

    struct ConsentSummary: Encodable {
        var id: String
        var sequence: Int64
        var recordedAt: String
        var documentDigest: String
        var decisions: [ConsentFlowResult.FormDecision]
        var sharing: SharingChoice?
        var pageSize: PageSize
        var pdfSHA256: String
        var signers: [SignerSummary]
        var provenance: Provenance
        var withdrawal: StoredWithdrawal?

        init(_ consent: StoredConsent) {
            id = consent.id
            sequence = consent.sequence
            recordedAt = consent.recordedAt
            documentDigest = consent.record.documentDigest
            decisions = consent.record.decisions
            sharing = consent.record.sharing
            pageSize = consent.record.pageSize
            pdfSHA256 = consent.record.pdfSHA256
            signers = consent.record.signers.map {
                SignerSummary(slot: $0.slot, role: $0.role, name: $0.name, date: $0.date, signatureDigest: $0.signatureDigest,
                              kind: $0.kind, typedSignature: $0.typedSignature)
            }
            provenance = consent.provenance
            withdrawal = consent.withdrawal
        }
    }


    struct Verification: Encodable {
        var events: Int64
        var head: String
        var ok: Bool
        var failure: Failure?

        struct Failure: Encodable {
            var sequence: Int64
            var id: String
            var message: String
        }

        init(_ verification: StoreVerification) {
            events = verification.events
            head = verification.head
            ok = verification.failure == nil
            failure = verification.failure.map { Failure(sequence: $0.sequence, id: $0.id, message: $0.message) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(events, forKey: .events)
            try container.encode(head, forKey: .head)
            try container.encode(ok, forKey: .ok)
            try container.encode(failure, forKey: .failure)
        }

        enum Keys: String, CodingKey { case events, head, ok, failure }
    }
}
