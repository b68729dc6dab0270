// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInkServer
import SignatureInkStore
import Synchronization
import Testing

/// Users on a shared device through the server: onboarding, sign-in, sessions, CSRF, the attempt limit, and each
/// user's own signatures and consents.
@Suite struct AccountRouteTests {
    static let passcode = "correct horse 42"
    static let admin = StoreRouteTests.admin

    /// A clock the test moves by hand.
    final class TestClock: Sendable {
        private let now = Mutex(Date(timeIntervalSince1970: 1_795_613_400))
        func read() -> Date { now.withLock { $0 } }
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    /// A browser: the cookies it keeps and the CSRF token its page holds.
    struct Browser {
        var cookies: [String: String] = [:]
        var csrf: String?

        var headers: HTTPFields {
            var headers = HTTPFields()
            if !cookies.isEmpty { headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            if let csrf { headers[HTTPFields.Element.Name("X-CSRF-Token")!] = csrf }
            return headers
        }

        /// Keeps what the answer's `Set-Cookie` fields set, and removes what they expire.
        mutating func keep(_ setCookies: [String]) {
            for line in setCookies {
                let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]), value = String(pair[1])
                cookies[name] = line.contains("Max-Age=0") ? nil : value
            }
        }
    }

    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var bytes: [UInt8]
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:] }
        var setCookies: [String] { headers[values: .setCookie] }
    }

    /// A server with a store in a new folder, a cheap passcode cost and a clock moved by hand.
    static func withServer<T: Sendable>(secure: Bool = false, maxSessions: Int = 10_000, log: CapturedLog? = nil,
                                        _ body: @escaping @Sendable (RouterClient, TestClock) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await ConsentStore.open(folder)
        let clock = TestClock()
        let configuration = ServerConfiguration(
            secureCookies: secure, accountPolicy: AccountPolicy(passcodeCost: PasscodeHash.Cost(rounds: 16, blockSize: 1, parallelism: 1)!),
            maxSessions: maxSessions, clock: { clock.read() })
        let router = try SignatureInkServer.router(configuration: configuration, store: store, adminToken: AdminToken(token: StoreRouteTests.token))
        let app = log.map { Application(router: router, logger: $0.logger()) } ?? Application(router: router)
        let result = try await app.withRouterClient { client in try await body(client, clock) }
        await store.close()
        return result
    }

    static func call(_ client: RouterClient, _ uri: String, _ method: HTTPRequest.Method = .get, headers: HTTPFields = [:],
                     json: Any? = nil) async throws -> Answer {
        let body = try json.map { ByteBuffer(bytes: Array(try JSONSerialization.data(withJSONObject: $0))) }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
            Answer(status: response.status, headers: response.headers, bytes: Array(response.body.readableBytesView))
        }
    }

    /// A browser's call: its cookies and token sent, the answer's cookies kept.
    static func call(_ client: RouterClient, _ browser: inout Browser, _ uri: String, _ method: HTTPRequest.Method = .get,
                     json: Any? = nil) async throws -> Answer {
        let answer = try await call(client, uri, method, headers: browser.headers, json: json)
        browser.keep(answer.setCookies)
        return answer
    }

    /// Creates a user; answers its identifier and enrolment code.
    static func createUser(_ client: RouterClient, _ name: String) async throws -> (id: String, code: String) {
        let created = try await call(client, "/users", .post, headers: admin, json: ["displayName": name, "title": "Study nurse"])
        #expect(created.status == .created)
        let user = try #require(created.object["user"] as? [String: Any])
        let code = try #require(created.object["enrolmentCode"] as? [String: Any])
        return (try #require(user["id"] as? String), try #require(code["code"] as? String))
    }

    /// Creates a user and onboards them on `browser`; answers the user's identifier.
    static func onboard(_ client: RouterClient, _ browser: inout Browser, _ name: String,
                        passcode: String = passcode) async throws -> String {
        let (id, code) = try await createUser(client, name)
        let onboarded = try await call(client, &browser, "/device/users", .post, json: ["code": code, "passcode": passcode])
        #expect(onboarded.status == .created)
        return id
    }

    /// Signs `browser` in as the user.
    static func signIn(_ client: RouterClient, _ browser: inout Browser, _ id: String, passcode: String = passcode) async throws -> Answer {
        let answer = try await call(client, &browser, "/device/users/\(id)/session", .post, json: ["passcode": passcode])
        if answer.status == .ok { browser.csrf = answer.object["csrfToken"] as? String }
        return answer
    }

    @Test func anAdministratorCreatesAUserWhoOnboardsABrowserAsADevice() async throws {
        try await Self.withServer { client, _ in
            #expect(try await Self.call(client, "/users", .post, json: ["displayName": "Ada"]).status == .unauthorized)
            let refused = try await Self.call(client, "/users", .post, headers: Self.admin, json: ["displayName": "Ada", "title": String(repeating: "x", count: 101)])
            #expect(refused.status == .unprocessableContent)
            #expect((refused.object["error"] as? String)?.hasPrefix("title:") == true)
            let created = try await Self.call(client, "/users", .post, headers: Self.admin,
                                              json: ["displayName": "Ada Lovelace", "title": "Study nurse", "subtitle": "Ward 3"])
            #expect(created.status == .created)
            let user = try #require(created.object["user"] as? [String: Any])
            #expect(user["initials"] as? String == "AL")
            let code = try #require((created.object["enrolmentCode"] as? [String: Any])?["code"] as? String)
            #expect((created.object["enrolmentCode"] as? [String: Any])?["expiresAt"] as? String == "2026-11-26T13:30:00Z")

            var browser = Browser()
            #expect((try await Self.call(client, &browser, "/device/users").object["users"] as? [Any])?.isEmpty == true)
            let short = try await Self.call(client, &browser, "/device/users", .post, json: ["code": code, "passcode": "short"])
            #expect(short.status == .unprocessableContent)
            #expect((short.object["error"] as? String)?.hasPrefix("passcode:") == true)
            let onboarded = try await Self.call(client, &browser, "/device/users", .post, json: ["code": code, "passcode": Self.passcode])
            #expect(onboarded.status == .created)
            let cookie = try #require(onboarded.setCookies.first { $0.hasPrefix("signature-ink-device=") })
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=34560000"] { #expect(cookie.contains(attribute)) }
            #expect(!cookie.contains("Secure"))
            // The code is used up.
            var other = Browser()
            #expect(try await Self.call(client, &other, "/device/users", .post, json: ["code": code, "passcode": Self.passcode]).status
                    == .unprocessableContent)
            // Only this device lists the user.
            let listed = try await Self.call(client, &browser, "/device/users")
            #expect((listed.object["users"] as? [[String: Any]])?.map { $0["displayName"] as? String } == ["Ada Lovelace"])
            #expect(!String(decoding: listed.bytes, as: UTF8.self).contains("scrypt"))
            #expect((try await Self.call(client, &other, "/device/users").object["users"] as? [Any])?.isEmpty == true)
            other.cookies["signature-ink-device"] = String(repeating: "0", count: 64)
            #expect((try await Self.call(client, &other, "/device/users").object["users"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func cookiesAreSecureBehindTLS() async throws {
        try await Self.withServer(secure: true) { client, _ in
            var browser = Browser()
            let id = try await Self.onboard(client, &browser, "Ada")
            #expect(browser.cookies["signature-ink-device"] != nil)
            let signedIn = try await Self.signIn(client, &browser, id)
            #expect(signedIn.status == .ok)
            let cookie = try #require(signedIn.setCookies.first { $0.hasPrefix("signature-ink-session=") })
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Secure"] { #expect(cookie.contains(attribute)) }
        }
    }

    @Test func aSignInRotatesTheSessionAndASignOutEndsIt() async throws {
        try await Self.withServer { client, clock in
            var browser = Browser()
            let ada = try await Self.onboard(client, &browser, "Ada")
            let charles = try await Self.onboard(client, &browser, "Charles")
            #expect(try await Self.call(client, &browser, "/me/signatures").status == .unauthorized)
            #expect(try await Self.signIn(client, &browser, ada).status == .ok)
            let first = browser
            #expect((try await Self.call(client, &browser, "/session").object["user"] as? [String: Any])?["id"] as? String == ada)
            // A new sign-in (the same user, or another on this device) gives a new session; the old cookie ends.
            #expect(try await Self.signIn(client, &browser, charles).status == .ok)
            #expect(browser.cookies["signature-ink-session"] != first.cookies["signature-ink-session"])
            var old = first
            #expect(try await Self.call(client, &old, "/me/signatures").status == .unauthorized)
            #expect(try await Self.call(client, &browser, "/me/signatures").status == .ok)
            // Idle: 15 minutes unused end the session.
            clock.advance(899)
            #expect(try await Self.call(client, &browser, "/me/signatures").status == .ok)
            clock.advance(900)
            var idle = browser
            #expect(try await Self.call(client, &idle, "/me/signatures").status == .unauthorized)
            // Sign out.
            #expect(try await Self.signIn(client, &browser, ada).status == .ok)
            let signedIn = browser
            let out = try await Self.call(client, &browser, "/session", .delete)
            #expect(out.status == .noContent)
            #expect(browser.cookies["signature-ink-session"] == nil)
            var after = signedIn
            #expect(try await Self.call(client, &after, "/me/signatures").status == .unauthorized)
            // A save with the ended session's cookie is refused, not kept for nobody.
            #expect(try await Self.call(client, &after, "/signatures", .post, json: ["typed": "Ada"]).status == .unauthorized)
            #expect((try await Self.call(client, "/signatures", headers: Self.admin).object["signatures"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func theSessionUnusedLongestEndsWhenTheTableIsFull() async throws {
        try await Self.withServer(maxSessions: 2) { client, clock in
            var browsers = [Browser(), Browser(), Browser()]
            for i in browsers.indices {
                let id = try await Self.onboard(client, &browsers[i], "User \(i)")
                #expect(try await Self.signIn(client, &browsers[i], id).status == .ok)
                clock.advance(1)
                // The first browser's session is used again before the third signs in: the second's ends.
                if i == 1 { #expect(try await Self.call(client, &browsers[0], "/session").status == .ok) }
            }
            #expect(try await Self.call(client, &browsers[0], "/session").status == .ok)
            #expect(try await Self.call(client, &browsers[1], "/session").status == .unauthorized)
            #expect(try await Self.call(client, &browsers[2], "/session").status == .ok)
        }
    }

    @Test func everyStateChangingRequestOfASessionNeedsItsCSRFToken() async throws {
        try await Self.withServer { client, _ in
            var browser = Browser()
            let ada = try await Self.onboard(client, &browser, "Ada")
            #expect(try await Self.signIn(client, &browser, ada).status == .ok)
            let (_, code) = try await Self.createUser(client, "Charles")
            let routes: [(String, HTTPRequest.Method, Any?)] = [
                ("/signatures", .post, ["typed": "Ada Lovelace"]),
                ("/consent/sign", .post, try StoreRouteTests.submission()),
                ("/device/users", .post, ["code": code, "passcode": Self.passcode]),
                ("/device/users/\(ada)/session", .post, ["passcode": Self.passcode]),
                ("/session", .delete, nil),
            ]
            for (uri, method, json) in routes {
                // No token, and the session's token with its first digit changed.
                let real = try #require(browser.csrf)
                let wrong = (real.hasPrefix("0") ? "1" : "0") + real.dropFirst()
                for token in [nil, wrong] {
                    var forged = browser
                    forged.csrf = token
                    let refused = try await Self.call(client, &forged, uri, method, json: json)
                    #expect(refused.status == .forbidden, "\(method) \(uri)")
                    #expect((refused.object["error"] as? String)?.hasPrefix("X-CSRF-Token:") == true)
                }
            }
            // Nothing was done: no signature, no consent, Charles onboarded nowhere, the session still open.
            #expect((try await Self.call(client, "/signatures", headers: Self.admin).object["signatures"] as? [Any])?.isEmpty == true)
            #expect((try await Self.call(client, "/consents", headers: Self.admin).object["consents"] as? [Any])?.isEmpty == true)
            #expect((try await Self.call(client, &browser, "/device/users").object["users"] as? [Any])?.count == 1)
            #expect(try await Self.call(client, &browser, "/me/signatures").status == .ok)
            // With the token, each works.
            #expect(try await Self.call(client, &browser, "/signatures", .post, json: ["typed": "Ada Lovelace"]).status == .ok)
            #expect(try await Self.call(client, &browser, "/consent/sign", .post, json: try StoreRouteTests.submission()).status == .ok)
            #expect(try await Self.call(client, &browser, "/device/users", .post, json: ["code": code, "passcode": Self.passcode]).status == .created)
            #expect(try await Self.call(client, &browser, "/session", .delete).status == .noContent)
            // Without a session cookie, no token is asked for (the form cell page of a server without users).
            #expect(try await Self.call(client, "/signatures", .post, json: ["typed": "Ada Lovelace"]).status == .ok)
        }
    }

    @Test func wrongPasscodesLeadToAWaitThenToRevocation() async throws {
        try await Self.withServer { client, clock in
            var browser = Browser()
            let ada = try await Self.onboard(client, &browser, "Ada")
            for _ in 1...4 {
                let wrong = try await Self.signIn(client, &browser, ada, passcode: "wrong passcode")
                #expect(wrong.status == .unauthorized)
                #expect(wrong.headers[.wwwAuthenticate] != nil)
            }
            let waiting = try await Self.signIn(client, &browser, ada, passcode: "wrong passcode")
            #expect(waiting.status == .tooManyRequests)
            #expect(waiting.headers[.retryAfter] == "300")
            clock.advance(200)
            let still = try await Self.signIn(client, &browser, ada)
            #expect(still.status == .tooManyRequests)
            #expect(still.headers[.retryAfter] == "100")
            clock.advance(100)
            #expect(try await Self.signIn(client, &browser, ada).status == .ok)
            // The count starts again: 5 wrong, a wait, 5 wrong, revoked.
            for _ in 1...4 { #expect(try await Self.signIn(client, &browser, ada, passcode: "wrong passcode").status == .unauthorized) }
            #expect(try await Self.signIn(client, &browser, ada, passcode: "wrong passcode").status == .tooManyRequests)
            clock.advance(300)
            for _ in 1...4 { #expect(try await Self.signIn(client, &browser, ada, passcode: "wrong passcode").status == .unauthorized) }
            let revoked = try await Self.signIn(client, &browser, ada, passcode: "wrong passcode")
            #expect(revoked.status == .unauthorized)
            #expect((revoked.object["error"] as? String)?.contains("revoked") == true)
            #expect(try await Self.signIn(client, &browser, ada).status == .notFound)
            #expect((try await Self.call(client, &browser, "/device/users").object["users"] as? [Any])?.isEmpty == true)
            // The administrator issues a new code; the user onboards again.
            let code = try await Self.call(client, "/users/\(ada)/enrolment-code", .post, headers: Self.admin)
            #expect(code.status == .created)
            let again = try await Self.call(client, &browser, "/device/users", .post,
                                            json: ["code": try #require(code.object["code"] as? String), "passcode": "a new passcode"])
            #expect(again.status == .created)
            #expect(try await Self.signIn(client, &browser, ada, passcode: "a new passcode").status == .ok)
        }
    }

    @Test func eachUserSeesOnlyTheirOwnSignaturesAndConsents() async throws {
        try await Self.withServer { client, _ in
            var browser = Browser()
            let ada = try await Self.onboard(client, &browser, "Ada")
            let charles = try await Self.onboard(client, &browser, "Charles")
            #expect(try await Self.signIn(client, &browser, ada).status == .ok)
            let signature = try #require(try await Self.call(client, &browser, "/signatures", .post, json: ["typed": "Ada Lovelace"]).object["id"] as? String)
            let consent = try #require(try await Self.call(client, &browser, "/consent/sign", .post,
                                                           json: try StoreRouteTests.submission("ada-consent")).object["id"] as? String)
            let adaView = browser
            #expect((try await Self.call(client, &browser, "/me/signatures").object["signatures"] as? [[String: Any]])?.map { $0["id"] as? String } == [signature])
            #expect(try await Self.call(client, &browser, "/me/signatures/\(signature)").status == .ok)
            #expect((try await Self.call(client, &browser, "/me/consents").object["consents"] as? [[String: Any]])?.map { $0["id"] as? String } == [consent])
            #expect(try await Self.call(client, &browser, "/me/consents/\(consent)").status == .ok)
            #expect(try await Self.call(client, &browser, "/me/consents/\(consent)/pdf").status == .ok)

            #expect(try await Self.signIn(client, &browser, charles).status == .ok)
            #expect((try await Self.call(client, &browser, "/me/signatures").object["signatures"] as? [Any])?.isEmpty == true)
            #expect((try await Self.call(client, &browser, "/me/consents").object["consents"] as? [Any])?.isEmpty == true)
            for uri in ["/me/signatures/\(signature)", "/me/consents/\(consent)", "/me/consents/\(consent)/pdf"] {
                let hidden = try await Self.call(client, &browser, uri)
                #expect(hidden.status == .notFound, "\(uri)")
                #expect(!String(decoding: hidden.bytes, as: UTF8.self).contains("Ada"))
            }
            // The same submission identifier sent by Charles does not give Ada's consent back.
            let resent = try await Self.call(client, &browser, "/consent/sign", .post, json: try StoreRouteTests.submission("ada-consent"))
            #expect(resent.status == .conflict)
            // Ada's old cookie ended with Charles's sign-in.
            var old = adaView
            #expect(try await Self.call(client, &old, "/me/signatures/\(signature)").status == .unauthorized)
            // The administrator sees everything, with its owner.
            let all = try await Self.call(client, "/signatures", headers: Self.admin)
            let owners = (all.object["signatures"] as? [[String: Any]])?.map { ($0["provenance"] as? [String: Any])?["user"] as? String }
            #expect(owners == [ada])
            let consents = try await Self.call(client, "/consents/\(consent)", headers: Self.admin)
            #expect((consents.object["provenance"] as? [String: Any])?["user"] as? String == ada)
        }
    }

    @Test func noPasscodeIsInAnyLogLine() async throws {
        let log = CapturedLog()
        let secret = "unlogged-passcode-4711"
        try await Self.withServer(log: log) { client, _ in
            var browser = Browser()
            let (id, code) = try await Self.createUser(client, "Ada")
            _ = try await Self.call(client, &browser, "/device/users", .post, json: ["code": code, "passcode": "short"])
            _ = try await Self.call(client, &browser, "/device/users", .post, json: ["code": code, "passcode": secret, "extra": secret])
            #expect(try await Self.call(client, &browser, "/device/users", .post, json: ["code": code, "passcode": secret]).status == .created)
            _ = try await Self.signIn(client, &browser, id, passcode: secret + "x")
            _ = try await Self.call(client, &browser, "/device/users/\(id)/session", .post, json: ["passcode": 42])
            #expect(try await Self.signIn(client, &browser, id, passcode: secret).status == .ok)
        }
        #expect(log.all.count > 5)
        for event in log.all {
            let line = "\(event.message) \(event.metadata ?? [:])"
            #expect(!line.contains("unlogged-passcode"), "\(line)")
        }
    }
}
