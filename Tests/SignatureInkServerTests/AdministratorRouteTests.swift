// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInkServer
import Testing

/// Administrators as users of a shared device, and retired document versions, through the server.
@Suite struct AdministratorRouteTests {
    typealias Browser = AccountRouteTests.Browser
    static let admin = StoreRouteTests.admin

    /// A browser's call (`AccountRouteTests.call`), its body last.
    static func call(_ client: RouterClient, _ browser: inout Browser, _ uri: String, _ method: HTTPRequest.Method,
                     _ json: Any?) async throws -> AccountRouteTests.Answer {
        try await AccountRouteTests.call(client, &browser, uri, method, json: json)
    }

    /// Creates an administrator (with the token), onboards them on `browser` and signs them in; answers their identifier.
    static func signedInAdministrator(_ client: RouterClient, _ browser: inout Browser, _ name: String = "Grace Hopper") async throws -> String {
        let created = try await AccountRouteTests.call(client, "/users", .post, headers: admin,
                                                       json: ["displayName": name, "title": "Study coordinator", "administrator": true])
        #expect(created.status == .created)
        let user = try #require(created.object["user"] as? [String: Any])
        #expect(user["administrator"] as? Bool == true)
        let code = try #require((created.object["enrolmentCode"] as? [String: Any])?["code"] as? String)
        #expect(try await Self.call(client, &browser, "/device/users", .post, ["code": code, "passcode": AccountRouteTests.passcode]).status == .created)
        let id = try #require(user["id"] as? String)
        let session = try await AccountRouteTests.signIn(client, &browser, id)
        #expect((session.object["user"] as? [String: Any])?["administrator"] as? Bool == true)
        return id
    }

    /// The SHA-256 of the server's own document: the ETag of `GET /consent/document`.
    static func serverDocument(_ client: RouterClient) async throws -> String {
        let answer = try await AccountRouteTests.call(client, "/consent/document")
        return try #require(answer.headers[.eTag]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    @Test func anAdministratorsSessionUsesTheAdministratorsRoutesAndAnotherUsersDoesNot() async throws {
        try await AccountRouteTests.withServer { client, _ in
            var nurse = Browser()
            let ada = try await AccountRouteTests.onboard(client, &nurse, "Ada")
            #expect(try await AccountRouteTests.signIn(client, &nurse, ada).status == .ok)
            #expect((try await Self.call(client, &nurse, "/session", .get, nil).object["user"] as? [String: Any])?["administrator"] as? Bool == false)
            let consent = try #require(try await Self.call(client, &nurse, "/consent/sign", .post, try StoreRouteTests.submission()).object["id"] as? String)
            var coordinator = Browser()
            let grace = try await Self.signedInAdministrator(client, &coordinator)

            let reads = ["/users", "/consents", "/consents/\(consent)", "/consents/\(consent)/pdf", "/signatures", "/events", "/store/verify"]
            for uri in reads {
                #expect(try await Self.call(client, &coordinator, uri, .get, nil).status == .ok, "\(uri)")
                #expect(try await Self.call(client, &nurse, uri, .get, nil).status == .unauthorized, "\(uri)")
            }
            // A user created in the administrator's session, kept with the administrator as its provenance.
            let created = try await Self.call(client, &coordinator, "/users", .post, ["displayName": "Charles Babbage"])
            #expect(created.status == .created)
            let charles = try #require((created.object["user"] as? [String: Any])?["id"] as? String)
            #expect((created.object["user"] as? [String: Any])?["administrator"] as? Bool == false)
            #expect(try await Self.call(client, &coordinator, "/users/\(charles)/enrolment-code", .post, nil).status == .created)
            let withdrawn = try await Self.call(client, &coordinator, "/consents/\(consent)/withdrawal", .post, ["reason": "asked by phone"])
            #expect(withdrawn.status == .created)
            #expect((withdrawn.object["provenance"] as? [String: Any])?["user"] as? String == grace)
            // Another user's session gets what a request without the token gets, and nothing is done.
            for (uri, json) in [("/users", ["displayName": "Eve"]), ("/users/\(charles)/enrolment-code", nil),
                                ("/consent/document/retirement", ["document": String(repeating: "a", count: 64), "reason": "no"])] as [(String, Any?)] {
                #expect(try await Self.call(client, &nurse, uri, .post, json).status == .unauthorized, "\(uri)")
            }
            // State-changing requests of the administrator's session need its CSRF token, as every session's do.
            var forged = coordinator
            forged.csrf = nil
            #expect(try await Self.call(client, &forged, "/users", .post, ["displayName": "Eve"]).status == .forbidden)
            let users = try await AccountRouteTests.call(client, "/users", headers: Self.admin)
            #expect((users.object["users"] as? [[String: Any]])?.compactMap { $0["displayName"] as? String } == ["Ada", "Grace Hopper", "Charles Babbage"])
            let events = String(decoding: try await AccountRouteTests.call(client, "/events", headers: Self.admin).bytes, as: UTF8.self)
            let userEvent = try #require(events.split(separator: "\n").first { $0.contains(#""id":"\#(charles)""#) })
            #expect(userEvent.contains(#""user":"\#(grace)""#))
        }
    }

    @Test func aDocumentVersionIsRetiredOnceByAnAdministrator() async throws {
        try await AccountRouteTests.withServer { client, _ in
            let digest = String(repeating: "0123456789abcdef", count: 4)
            let body = ["document": digest, "reason": "a typo in the dosage"]
            #expect(try await AccountRouteTests.call(client, "/consent/document/retirement", .post, json: body).status == .unauthorized)
            for (json, field) in [(["document": "0123", "reason": "why"], "document:"), (["document": digest.uppercased(), "reason": "why"], "document:"),
                                  (["document": digest, "reason": "line\nbreak"], "reason:"),
                                  (["document": digest, "reason": String(repeating: "x", count: 501)], "reason:")] {
                let refused = try await AccountRouteTests.call(client, "/consent/document/retirement", .post, headers: Self.admin, json: json)
                #expect(refused.status == .unprocessableContent)
                #expect((refused.object["error"] as? String)?.hasPrefix(field) == true, "\(refused.object)")
            }
            let unknown = try await AccountRouteTests.call(client, "/consent/document/retirement", .post, headers: Self.admin,
                                                           json: ["document": digest, "reason": "why", "version": 2])
            #expect(unknown.status == .badRequest)
            #expect((unknown.object["error"] as? String)?.contains("unknown field 'version'") == true)

            var coordinator = Browser()
            _ = try await Self.signedInAdministrator(client, &coordinator)
            let retired = try await Self.call(client, &coordinator, "/consent/document/retirement", .post, body)
            #expect(retired.status == .created)
            #expect(retired.object["document"] as? String == digest)
            #expect(retired.object["reason"] as? String == "a typo in the dosage")
            #expect(retired.object["retiredAt"] as? String == "2026-11-25T13:30:00.000Z")
            let by = try #require(retired.object["by"] as? [String: Any])
            #expect(by["displayName"] as? String == "Grace Hopper")
            #expect(by["title"] as? String == "Study coordinator")
            #expect(by["initials"] as? String == "GH")
            #expect(by["administrator"] as? Bool == true)
            // Again, with the token and another reason: the first retirement, and nothing appended.
            let again = try await AccountRouteTests.call(client, "/consent/document/retirement", .post, headers: Self.admin,
                                                         json: ["document": digest, "reason": "another reason"])
            #expect(again.status == .ok)
            #expect(again.bytes == retired.bytes)
            let events = String(decoding: try await AccountRouteTests.call(client, "/events", headers: Self.admin).bytes, as: UTF8.self)
            #expect(events.components(separatedBy: #""kind":"retirement""#).count == 2)
            // Retired with the token, a version names nobody.
            let byToken = try await AccountRouteTests.call(client, "/consent/document/retirement", .post, headers: Self.admin,
                                                           json: ["document": String(repeating: "f", count: 64), "reason": "withdrawn study"])
            #expect(byToken.status == .created)
            #expect(byToken.object["by"] is NSNull)
            #expect((try await AccountRouteTests.call(client, "/store/verify", headers: Self.admin)).object["ok"] as? Bool == true)
        }
    }

    @Test func aRetiredVersionIsRefusedBeforeSigningAndNothingIsKept() async throws {
        try await AccountRouteTests.withServer { client, _ in
            let own = try await Self.serverDocument(client)
            var coordinator = Browser()
            _ = try await Self.signedInAdministrator(client, &coordinator)
            // A version the page may still show, retired: a submission naming it is refused, though it is not the server's.
            let old = String(repeating: "ab", count: 32)
            #expect(try await Self.call(client, &coordinator, "/consent/document/retirement", .post, ["document": old, "reason": "replaced"]).status == .created)
            var submission = try StoreRouteTests.submission()
            submission["document"] = old.uppercased()
            let stale = try await AccountRouteTests.call(client, "/consent/sign", .post, json: submission)
            #expect(stale.status == .conflict)
            #expect((stale.object["retirement"] as? [String: Any])?["document"] as? String == old)
            #expect(try await AccountRouteTests.call(client, "/consent/sign", .post, json: try StoreRouteTests.submission()).status == .ok)

            let reason = "section 2 names the wrong dosage"
            #expect(try await Self.call(client, &coordinator, "/consent/document/retirement", .post, ["document": own, "reason": reason]).status == .created)
            for body in [try StoreRouteTests.submission(), try StoreRouteTests.submission().merging(["document": own]) { $1 }] {
                let refused = try await AccountRouteTests.call(client, "/consent/sign", .post, json: body)
                #expect(refused.status == .conflict)
                #expect(refused.object["error"] as? String == "document: this version of the document (\(own.prefix(12))…) was retired by "
                        + "Grace Hopper on 2026-11-25: \(reason); nothing was kept")
                let retirement = try #require(refused.object["retirement"] as? [String: Any])
                #expect(retirement["document"] as? String == own)
                #expect(retirement["reason"] as? String == reason)
                #expect((retirement["by"] as? [String: Any])?["displayName"] as? String == "Grace Hopper")
            }
            // In a session too; and only the consent signed before the retirement is kept.
            #expect(try await Self.call(client, &coordinator, "/consent/sign", .post, try StoreRouteTests.submission()).status == .conflict)
            #expect((try await AccountRouteTests.call(client, "/consents", headers: Self.admin).object["consents"] as? [Any])?.count == 1)
            // The page cannot load the document any longer.
            let gone = try await AccountRouteTests.call(client, "/consent/document")
            #expect(gone.status == .gone)
            #expect((gone.object["error"] as? String)?.hasPrefix("document: this version of the document (\(own.prefix(12))…) was retired by Grace Hopper") == true)
            #expect((gone.object["retirement"] as? [String: Any])?["reason"] as? String == reason)
            #expect(gone.object["status"] as? Int == 410)
        }
    }

    @Test func aNewCodeResetsAForgottenPasscodeOnTheSameDevice() async throws {
        try await AccountRouteTests.withServer { client, _ in
            var tablet = Browser()
            let ada = try await AccountRouteTests.onboard(client, &tablet, "Ada")
            for _ in 1...4 { #expect(try await AccountRouteTests.signIn(client, &tablet, ada, passcode: "forgotten").status == .unauthorized) }
            #expect(try await AccountRouteTests.signIn(client, &tablet, ada, passcode: "forgotten").status == .tooManyRequests)
            let code = try #require(try await AccountRouteTests.call(client, "/users/\(ada)/enrolment-code", .post, headers: Self.admin)
                .object["code"] as? String)
            let again = try await Self.call(client, &tablet, "/device/users", .post, ["code": code, "passcode": "a new passcode"])
            #expect(again.status == .created)
            #expect(again.setCookies.isEmpty)
            // The wait is lifted at once, the old passcode no longer works, and the device lists Ada once.
            #expect(try await AccountRouteTests.signIn(client, &tablet, ada, passcode: AccountRouteTests.passcode).status == .unauthorized)
            #expect(try await AccountRouteTests.signIn(client, &tablet, ada, passcode: "a new passcode").status == .ok)
            #expect((try await Self.call(client, &tablet, "/device/users", .get, nil).object["users"] as? [Any])?.count == 1)
        }
    }

    @Test func theDocumentNamesTheCollectorsSlot() async throws {
        try await AccountRouteTests.withServer { client, _ in
            let document = try await AccountRouteTests.call(client, "/consent/document")
            let slots = try #require(document.object["slots"] as? [[String: Any]])
            #expect(slots.map { $0["identifier"] as? String } == ["participant", "investigator"])
            #expect(slots.map { $0["signedByCollector"] as? Bool } == [nil, true])
        }
    }
}
