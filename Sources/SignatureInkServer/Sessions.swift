// SPDX-License-Identifier: Apache-2.0
import Hummingbird
import FoundationEssentials
import SignatureInkConsent
import SignatureInkStore
import Synchronization

/// A signed-in user on a device: whose requests a session cookie carries, and the token that state-changing requests
/// must send back in ``Sessions/csrfHeader``.
struct Session: Sendable, Hashable {
    /// The user's identifier.
    var user: String
    /// The device's identifier as the store keeps it (the SHA-256 of its cookie).
    var device: String
    /// The CSRF token: 32 random bytes in hexadecimal.
    var csrf: String
    /// Whether the user is an administrator (looked up at sign-in): the session may then use the administrator's
    /// routes as the administrator's token does.
    var isAdministrator = false
}

/// The sessions of signed-in users, in this process's memory, at most ``capacity`` of them.
///
/// Why in memory and not hummingbird-auth's `SessionMiddleware`: a session here is a user on a device with its CSRF
/// token, looked up at every request and ended when another user signs in on the device; hummingbird-auth keeps a
/// session through a persist driver whose in-memory one has no bound on its entries, and would add a package to the
/// build for a table of a few fields. What that costs: the sessions of a server that restarts end (users sign in
/// again), and several server processes behind one address need the client to come back to the same process.
///
/// Each session has a random identifier (32 bytes from swift-crypto's generator) sent as an `HttpOnly; SameSite=Strict;
/// Path=/` cookie (`Secure` with ``ServerConfiguration/secureCookies``), kept here only as its SHA-256, so that the
/// identifiers cannot be read back from memory. A sign-in gives a new identifier and ends every other session of the
/// device (rotation: an older cookie no longer works), a sign-out ends it, and a session not used for
/// ``ServerConfiguration/sessionIdleTimeout`` seconds ends. When ``capacity`` sessions are open, one more ends the
/// one unused for the longest time.
final class Sessions: Sendable {
    /// The cookie of a session.
    static let cookie = "signature-ink-session"
    /// The header a state-changing request with a session cookie must carry, with the session's CSRF token.
    static let csrfHeader = HTTPFields.Element.Name("X-CSRF-Token")!

    private struct Entry {
        var session: Session
        var lastUsed: Int64
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Milliseconds a session may stay unused.
    private let idle: Int64
    /// Most sessions at once.
    let capacity: Int

    /// Creates an empty table.
    /// - Parameters:
    ///   - idleTimeout: seconds a session may stay unused, >= 1.
    ///   - capacity: most sessions at once, >= 1.
    init(idleTimeout: Int, capacity: Int) {
        idle = Int64(max(1, idleTimeout)) * 1000
        self.capacity = max(1, capacity)
    }

    /// Opens a session for `user` on `device`, ending the device's other sessions.
    /// - Parameter isAdministrator: whether the user is an administrator.
    /// - Returns: the session and its identifier, for the cookie (shown this once).
    func open(user: String, device: String, isAdministrator: Bool = false, now: Int64) -> (id: String, session: Session) {
        let id = PasscodeHash.randomHex(bytes: 32)
        let session = Session(user: user, device: device, csrf: PasscodeHash.randomHex(bytes: 32), isAdministrator: isAdministrator)
        entries.withLock { entries in
            entries = entries.filter { $0.value.session.device != device && now - $0.value.lastUsed < idle }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                entries[oldest] = nil
            }
            entries[Self.key(id)] = Entry(session: session, lastUsed: now)
        }
        return (id, session)
    }

    /// The session of a cookie's identifier, marked as used now; `nil` when it is unknown or ended (and then forgotten).
    func session(_ id: String, now: Int64) -> Session? {
        let key = Self.key(id)
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now - entry.lastUsed < idle else {
                entries[key] = nil
                return nil
            }
            entries[key]?.lastUsed = now
            return entry.session
        }
    }

    /// Ends the session of a cookie's identifier.
    func close(_ id: String) {
        entries.withLock { _ = $0.removeValue(forKey: Self.key(id)) }
    }

    /// Open sessions, expired ones included until they are next looked at (for tests).
    var count: Int { entries.withLock { $0.count } }

    /// What the table keeps of an identifier.
    private static func key(_ id: String) -> String { HexDigest.sha256(Array(id.utf8)) }
}
