// SPDX-License-Identifier: Apache-2.0

/// A user as others see them on a shared device: a name, a title and a subtitle (a role, a site), and initials shown
/// in place of a picture. No secret is part of it.
public struct UserProfile: Sendable, Hashable {
    /// The user's identifier, a UUID in lower case.
    public var id: String
    /// The name shown, 1...``maxCharacters`` characters.
    public var displayName: String
    /// A title such as "Study nurse", at most ``maxCharacters`` characters; `nil` for none.
    public var title: String?
    /// A subtitle such as a site or a team, at most ``maxCharacters`` characters; `nil` for none.
    public var subtitle: String?
    /// Whether the user is an administrator: signed in, they may do what the administrator's token allows (create
    /// users, issue enrolment codes, read the store, withdraw consents, retire a document). Default `false`, which is
    /// what a user created before administrators were users is.
    public var isAdministrator: Bool

    /// Most characters of each text field: 100.
    public static let maxCharacters = 100

    /// Creates a profile; ``check()`` says whether its fields are acceptable.
    public init(id: String, displayName: String, title: String? = nil, subtitle: String? = nil, isAdministrator: Bool = false) {
        self.id = id
        self.displayName = displayName
        self.title = title
        self.subtitle = subtitle
        self.isAdministrator = isAdministrator
    }

    /// Up to two letters from the display name: the first letter of its first word and of its last, in upper case
    /// ("Ada King Lovelace" gives "AL", "Ada" gives "A"); empty for a name without letters.
    public var initials: String {
        let words = displayName.split(whereSeparator: { $0.isWhitespace || $0 == "-" })
        let letters = [words.first, words.count > 1 ? words.last : nil].compactMap { $0?.first(where: \.isLetter) }
        return letters.map { $0.uppercased() }.joined()
    }

    /// Throws unless every field is acceptable: a display name that is not blank, no field longer than
    /// ``maxCharacters``, no control characters.
    /// - Throws: ``StoreError/invalid(field:message:)`` naming `displayName`, `title` or `subtitle`.
    public func check() throws(StoreError) {
        if displayName.allSatisfy(\.isWhitespace) { throw .invalid(field: "displayName", message: "must not be empty") }
        for (field, text) in [("displayName", displayName), ("title", title), ("subtitle", subtitle)] {
            guard let text else { continue }
            guard text.count <= Self.maxCharacters else {
                throw .invalid(field: field, message: "has \(text.count) characters; at most \(Self.maxCharacters)")
            }
            guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw .invalid(field: field, message: "must not contain control characters")
            }
        }
    }
}

/// An enrolment code just issued: shown once to the administrator, who hands it to the user; the store keeps only
/// its SHA-256.
public struct EnrolmentCode: Sendable, Hashable {
    /// The code: 20 characters, 100 bits from the system's secure generator, in groups of 4 (`k3m9-...`) of the
    /// letters and digits that are not easily confused.
    public var code: String
    /// The user it onboards.
    public var user: String
    /// When it stops being accepted, in milliseconds since 1970.
    public var expiresAt: Int64
}

/// What a sign-in attempt came to.
public enum SignInOutcome: Sendable, Hashable {
    /// The passcode is right: the count of wrong ones starts again at 0.
    case signedIn(UserProfile)
    /// The passcode is wrong; `remaining` more wrong ones lead to a wait.
    case wrongPasscode(remaining: Int)
    /// The user must wait `retryAfter` seconds before trying again (this attempt's passcode was not looked at, or it
    /// was the wrong one that started the wait).
    case waiting(retryAfter: Int)
    /// This wrong passcode was one too many: the enrolment on this device is revoked, and the user must be onboarded
    /// again with a new code.
    case revoked
    /// The user is not onboarded on this device (never, or revoked before).
    case notOnboarded
}
