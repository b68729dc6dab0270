// SPDX-License-Identifier: Apache-2.0

/// Why the store refused or could not do something.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database could not be opened or reached (the folder, the file or the PostgreSQL server named, with no
    /// password).
    case unreachable(location: String, reason: String)
    /// No consent has this identifier.
    case unknownConsent(String)
    /// No user has this identifier.
    case unknownUser(String)
    /// An event with this identifier is kept already (a submission sent again).
    case alreadyKept(String)
    /// The consent was withdrawn already, by the withdrawal named.
    case alreadyWithdrawn(consent: String, withdrawal: String, at: String)
    /// A value given to the store is not acceptable (an empty reason, a page size out of range), named by field.
    case invalid(field: String, message: String)
    /// The database refused or failed the operation; nothing of it was kept.
    case database(String)
    /// What the database holds cannot be read as the store wrote it (a row changed by hand past recognition).
    case corrupt(String)

    public var description: String {
        switch self {
        case let .unreachable(location, reason): "the store at \(location) cannot be opened: \(reason)"
        case let .unknownConsent(id): "no consent has the identifier '\(id)'"
        case let .unknownUser(id): "no user has the identifier '\(id)'"
        case let .alreadyKept(id): "a consent with the identifier '\(id)' is kept already"
        case let .alreadyWithdrawn(consent, withdrawal, at): "the consent '\(consent)' was withdrawn already, at \(at) (withdrawal '\(withdrawal)')"
        case let .invalid(field, message): "\(field): \(message)"
        case let .database(message): "the database failed: \(message)"
        case let .corrupt(message): "the store holds something it did not write: \(message)"
        }
    }
}
