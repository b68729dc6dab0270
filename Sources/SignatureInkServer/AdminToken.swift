// SPDX-License-Identifier: Apache-2.0
import Crypto
import Foundation

/// The administrator's token: a request that reads or exports the store, or withdraws a consent, must carry it as
/// `Authorization: Bearer TOKEN`.
///
/// Only the token's SHA-256 is kept, and a request's token is compared by its SHA-256 with every byte looked at,
/// so the time an answer takes says nothing about how much of a guess was right.
public struct AdminToken: Sendable {
    private let digest: [UInt8]

    /// Fewest bytes a token may have.
    public static let minimumBytes = 16

    /// A token read from a file: its first line, without surrounding white space.
    /// - Throws: `AdminToken.Failure` naming the file when it cannot be read or the token is shorter than
    ///   ``minimumBytes``.
    public init(file path: String) throws(Failure) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw Failure(message: "\(path): cannot be read: \(error.localizedDescription)")
        }
        let token = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard token.utf8.count >= Self.minimumBytes else {
            throw Failure(message: "\(path): the token must have at least \(Self.minimumBytes) bytes on its first line")
        }
        self.init(token: token)
    }

    /// A token given as text.
    public init(token: String) {
        digest = Array(SHA256.hash(data: Array(token.utf8)))
    }

    /// Whether an `Authorization` header carries the token.
    func admits(_ authorization: String?) -> Bool {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { return false }
        let candidate = Array(SHA256.hash(data: Array(authorization.dropFirst(7).utf8)))
        var difference: UInt8 = 0
        for (a, b) in zip(candidate, digest) { difference |= a ^ b }
        return difference == 0
    }

    /// Why a token file was refused.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
