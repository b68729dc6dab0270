// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInkStore

/// `POST /consent/document/retirement`: an administrator retires a consent document version (a mistake found in it, or
/// a new version in its place), and from then on the server refuses to sign it: `POST /consent/sign` for that version
/// is 409, and `GET /consent/document` is 410 when it is the server's own, each with the retirement in the answer.
enum RetirementRoute {
    /// The body: `{"document": SHA-256, "reason": text}` and no other field.
    struct Body: Decodable {
        var document: String
        var reason: String

        init(from decoder: any Decoder) throws {
            let fields = try StrictFields(decoder, ["document", "reason"])
            document = try fields.value("document")
            reason = try fields.value("reason")
        }
    }

    /// A retirement as the routes answer it: the version, why, when, and the administrator who retired it (`null` when
    /// it was retired with the administrator's token).
    struct Answer: Encodable {
        var document: String
        var reason: String
        /// ISO 8601 in UTC.
        var retiredAt: String
        var by: AccountRoutes.UserAnswer?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(document, forKey: .document)
            try container.encode(reason, forKey: .reason)
            try container.encode(retiredAt, forKey: .retiredAt)
            try container.encode(by, forKey: .by)
        }

        enum Keys: String, CodingKey { case document, reason, retiredAt, by }
    }

    /// Adds the route to `router`: 201 with the retirement, 200 with the first one for a version retired already.
    static func add(to router: Router<ServerContext>, store: ConsentStore?, token: AdminToken?, configuration: ServerConfiguration) {
        router.post("/consent/document/retirement") { request, context -> Response in
            let store = try StoreRoutes.admit(request, context, store: store, token: token)
            let body = try AccountRoutes.decode(Body.self, try await request.jsonBody(limit: AccountRoutes.maxBody))
            let (retirement, isNew) = try await StoreRoutes.run {
                try await store.retire(document: body.document, reason: body.reason, provenance: StoreRoutes.provenance(of: context),
                                       at: configuration.clock())
            }
            var response = try Response.json(try await answer(retirement, store: store))
            if isNew { response.status = .created }
            return response
        }
    }

    /// The answer of a retirement, with the profile of the administrator who retired it.
    static func answer(_ retirement: StoredRetirement, store: ConsentStore) async throws -> Answer {
        var by: AccountRoutes.UserAnswer?
        if let user = retirement.provenance.user {
            do {
                by = AccountRoutes.UserAnswer(try await store.user(id: user))
            } catch .unknownUser {
                by = nil
            } catch {
                throw StoreRoutes.apiError(error)
            }
        }
        return Answer(document: retirement.document, reason: retirement.reason, retiredAt: retirement.recordedAt, by: by)
    }

    /// Refuses the version `digest` when it is retired, with `status` and the retirement (one read of the store, none
    /// without a store).
    /// - Parameter consequence: what the refusal means for the request, ending the message ("nothing was kept").
    /// - Throws: `APIError` with `{"error": "document: this version of the document (…) was retired by … on …: reason;
    ///   consequence", "retirement": {...}}`.
    static func refuseRetired(_ digest: String, store: ConsentStore?, status: HTTPResponse.Status, consequence: String) async throws {
        guard let store, let retirement = try await StoreRoutes.run({ try await store.retirement(ofDocument: digest) }) else { return }
        let answer = try await answer(retirement, store: store)
        throw try APIError(status, "document: this version of the document (\(digest.prefix(12))…) was retired by "
                           + "\(answer.by?.displayName ?? "an administrator") on \(answer.retiredAt.prefix(10)): \(answer.reason); \(consequence)",
                           detail: "retirement", answer)
    }
}
