// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInkServer
import SignatureInkStore
import Testing

/// The store behind the server: what `POST /consent/sign` and `POST /signatures` keep, and the administrator's routes
/// that read, withdraw, export and verify it.
@Suite struct StoreRouteTests {
    static let token = "an-administrator-token-0123456789"
    static var admin: HTTPFields { [.authorization: "Bearer \(token)"] }

    /// A server with a store in a new folder, given to `body` with the folder; the folder is removed after.
    static func withServer<T: Sendable>(store kept: Bool = true, _ body: @escaping @Sendable (RouterClient, String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-route-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = kept ? try await ConsentStore.open(folder) : nil
        let app = Application(router: try SignatureInkServer.router(store: store, adminToken: AdminToken(token: token)))
        let result = try await app.withRouterClient { client in try await body(client, folder) }
        await store?.close()
        return result
    }

    struct Answer {
        var status: HTTPResponse.Status
        var bytes: [UInt8]
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:] }
    }

    static func call(_ client: RouterClient, _ uri: String, _ method: HTTPRequest.Method = .get, headers: HTTPFields = [:],
                     json: Any? = nil) async throws -> Answer {
        let body = try json.map { ByteBuffer(bytes: Array(try JSONSerialization.data(withJSONObject: $0))) }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
            Answer(status: response.status, bytes: Array(response.body.readableBytesView))
        }
    }

    static func submission(_ id: String? = nil, participant: String = "Ada Lovelace") throws -> [String: Any] {
        var body = try ConsentRouteTests.body()
        var signers = try ConsentRouteTests.signers()
        signers[0]["name"] = participant
        body["signers"] = signers
        if let id { body["submission"] = id }
        return body
    }

    @Test func aSignedConsentIsKeptAndOnlyTheAdministratorReadsIt() async throws {
        try await Self.withServer { client, _ in
            let signed = try await Self.call(client, "/consent/sign", .post, json: try Self.submission())
            #expect(signed.status == .ok)
            let id = try #require(signed.object["id"] as? String)
            let pdf = try #require(Data(base64Encoded: signed.object["pdf"] as? String ?? ""))
            for headers: HTTPFields in [[:], [.authorization: "Bearer wrong-token-0123456789"], [.authorization: Self.token]] {
                let refused = try await Self.call(client, "/consents/\(id)", headers: headers)
                #expect(refused.status == .unauthorized)
                #expect(!String(decoding: refused.bytes, as: UTF8.self).contains(id))
            }
            let read = try await Self.call(client, "/consents/\(id)", headers: Self.admin)
            #expect(read.status == .ok)
            #expect(read.object["record"] as? String == signed.object["record"] as? String)
            #expect((read.object["withdrawal"] as Any?) == nil || read.object["withdrawal"] is NSNull)
            let file = try await Self.call(client, "/consents/\(id)/pdf", headers: Self.admin)
            #expect(file.status == .ok)
            #expect(Data(file.bytes) == pdf)
            let listed = try await Self.call(client, "/consents?signer=lovelace", headers: Self.admin)
            #expect((listed.object["consents"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect(try await Self.call(client, "/consents?signer=turing", headers: Self.admin).object["consents"] as? [Any] != nil)
            #expect((try await Self.call(client, "/consents?signer=turing", headers: Self.admin).object["consents"] as? [Any])?.isEmpty == true)

            let withdrawn = try await Self.call(client, "/consents/\(id)/withdrawal", .post, headers: Self.admin, json: ["reason": "by phone"])
            #expect(withdrawn.status == .created)
            #expect(withdrawn.object["consent"] as? String == id)
            let again = try await Self.call(client, "/consents/\(id)/withdrawal", .post, headers: Self.admin, json: ["reason": "again"])
            #expect(again.status == .conflict)
            let withdrawnList = try await Self.call(client, "/consents?withdrawn=true", headers: Self.admin)
            #expect((withdrawnList.object["consents"] as? [[String: Any]])?.count == 1)
            // The answer read before the withdrawal is kept in memory; the withdrawal is read again every time.
            let reread = try await Self.call(client, "/consents/\(id)", headers: Self.admin)
            #expect((reread.object["withdrawal"] as? [String: Any])?["reason"] as? String == "by phone")
            #expect(reread.object["record"] as? String == signed.object["record"] as? String)
            #expect(Set(reread.object.keys) == Set(read.object.keys).union(["withdrawal"]))

            let export = try await Self.call(client, "/events", headers: Self.admin)
            #expect(export.status == .ok)
            let kinds = String(decoding: export.bytes, as: UTF8.self).split(separator: "\n").map {
                ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["kind"] as? String
            }
            #expect(kinds == ["document", "consent", "withdrawal"])
            let verified = try await Self.call(client, "/store/verify", headers: Self.admin)
            #expect(verified.object["ok"] as? Bool == true)
            #expect(verified.object["events"] as? Int == 3)
        }
    }

    @Test func aSubmissionSentAgainIsAnsweredWithTheConsentKeptFirst() async throws {
        try await Self.withServer { client, _ in
            let id = "0f4c3b1e-5f7a-4c2d-9a51-2b8e6d1c0a93"
            let first = try await Self.call(client, "/consent/sign", .post, json: try Self.submission(id))
            let second = try await Self.call(client, "/consent/sign", .post, json: try Self.submission(id))
            #expect(first.status == .ok)
            #expect(second.status == .ok)
            #expect(second.object["id"] as? String == id)
            #expect(second.object["pdf"] as? String == first.object["pdf"] as? String)
            #expect(second.object["record"] as? String == first.object["record"] as? String)
            // The same identifier with another signer is not the same submission.
            let other = try await Self.call(client, "/consent/sign", .post, json: try Self.submission(id, participant: "Grace Hopper"))
            #expect(other.status == .conflict)
            #expect(!String(decoding: other.bytes, as: UTF8.self).contains("Ada"))
            let bad = try await Self.call(client, "/consent/sign", .post, json: try Self.submission("Not An Id"))
            #expect(bad.status == .unprocessableContent)
            #expect(bad.object["error"] as? String == "submission: must be 1 to 64 lower-case letters, digits and '-', such as a UUID")
            let export = try await Self.call(client, "/events", headers: Self.admin)
            #expect(String(decoding: export.bytes, as: UTF8.self).split(separator: "\n").count == 2)
        }
    }

    @Test func aSubmissionForAnotherVersionOfTheDocumentIsRefused() async throws {
        try await Self.withServer { client, _ in
            let document = try await Self.call(client, "/consent/document")
            let tag = try #require(document.status == .ok ? document : nil)
            _ = tag
            var body = try Self.submission()
            body["document"] = String(repeating: "ab", count: 32)
            let refused = try await Self.call(client, "/consent/sign", .post, json: body)
            #expect(refused.status == .unprocessableContent)
            #expect((refused.object["error"] as? String)?.hasPrefix("document: ") == true)
            let digest = try await client.execute(uri: "/consent/document", method: .get) { $0.headers[.eTag] }
            body["document"] = try #require(digest).replacingOccurrences(of: "\"", with: "")
            #expect(try await Self.call(client, "/consent/sign", .post, json: body).status == .ok)
        }
    }

    @Test func theAdministratorsRoutesRefuseWhatTheyDoNotKnow() async throws {
        try await Self.withServer { client, _ in
            let cases: [(String, HTTPResponse.Status)] = [
                ("/consents/no-such-consent", .notFound), ("/consents/NOT%20AN%20ID", .notFound),
                ("/consents/no-such-consent/pdf", .notFound), ("/consents?colour=red", .badRequest), ("/consents?limit=0", .badRequest),
                ("/consents?limit=501", .badRequest), ("/consents?from=yesterday", .badRequest), ("/consents?withdrawn=maybe", .badRequest),
                ("/consents?document=abc", .badRequest), ("/events?limit=3", .badRequest), ("/store/verify?after=1", .badRequest),
                ("/signatures?after=-1", .badRequest),
            ]
            for (uri, status) in cases {
                let answer = try await Self.call(client, uri, headers: Self.admin)
                #expect(answer.status == status, "\(uri)")
                #expect(answer.object["error"] is String, "\(uri)")
            }
            let unknown = try await Self.call(client, "/consents/no-such-consent/withdrawal", .post, headers: Self.admin, json: ["reason": "x"])
            #expect(unknown.status == .notFound)
            let noReason = try await Self.call(client, "/consents/no-such-consent/withdrawal", .post, headers: Self.admin, json: ["why": "x"])
            #expect(noReason.status == .badRequest)
        }
    }

    @Test func aSavedSignatureIsKept() async throws {
        try await Self.withServer { client, _ in
            let ink = Array(try Data(contentsOf: ConsentRouteTests.sample("short-name.json")))
            let saved = try await client.execute(uri: "/signatures", method: .post, headers: [.contentType: "application/json"],
                                                 body: ByteBuffer(bytes: ink)) { Answer(status: $0.status, bytes: Array($0.body.readableBytesView)) }
            #expect(saved.status == .ok)
            let id = try #require(saved.object["id"] as? String)
            let listed = try await Self.call(client, "/signatures", headers: Self.admin)
            let signatures = try #require(listed.object["signatures"] as? [[String: Any]])
            #expect(signatures.map { $0["id"] as? String } == [id])
            #expect(signatures.first?["digest"] as? String == saved.object["digest"] as? String)
        }
    }

    @Test func aTypedSignatureIsKeptAsTyped() async throws {
        try await Self.withServer { client, _ in
            let saved = try await Self.call(client, "/signatures", .post, json: ["typed": "Ada Lovelace"])
            #expect(saved.status == .ok)
            let id = try #require(saved.object["id"] as? String)
            let listed = try await Self.call(client, "/signatures", headers: Self.admin)
            let signatures = try #require(listed.object["signatures"] as? [[String: Any]])
            #expect(signatures.map { $0["id"] as? String } == [id])
            #expect(signatures.first?["typedSignature"] as? String == "Ada Lovelace")
            #expect(signatures.first?["signature"] == nil)
            #expect(signatures.first?["digest"] as? String == saved.object["digest"] as? String)
            // The chain with a typed signature in it verifies.
            let verified = try await Self.call(client, "/store/verify", headers: Self.admin)
            #expect(verified.object["ok"] as? Bool == true, "\(verified.object)")
        }
    }

    @Test func aServerWithoutAStoreSignsAndKeepsNothing() async throws {
        try await Self.withServer(store: false) { client, _ in
            let signed = try await Self.call(client, "/consent/sign", .post, json: try Self.submission())
            #expect(signed.status == .ok)
            #expect(signed.object["id"] == nil || signed.object["id"] is NSNull)
            #expect(try await Self.call(client, "/consents", headers: Self.admin).status == .notFound)
        }
    }
}
