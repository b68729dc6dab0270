// SPDX-License-Identifier: Apache-2.0
import Crypto
import FoundationEssentials
import _CryptoExtras
import SignatureInkConsent

/// A passcode as the store keeps it: scrypt (swift-crypto's `_CryptoExtras`, BoringSSL's `EVP_PBE_scrypt`) of its
/// UTF-8 text with a random salt of its own, never the passcode.
///
/// scrypt is memory-hard: each guess costs an attacker who holds the database `128 × N × r` bytes and the time to
/// fill and read them, 128 MiB and about 0.4 s of one core with the ``Cost/standard`` cost, so guesses on graphics
/// cards or in parallel are costly. The cost is kept with each hash, so a later, higher cost applies to new passcodes
/// while the old ones still verify.
public struct PasscodeHash: Sendable, Hashable {
    /// scrypt's cost parameters.
    public struct Cost: Sendable, Hashable, CustomStringConvertible {
        /// The CPU and memory cost `N`: a power of 2, >= 2.
        public var rounds: Int
        /// The block size `r`, >= 1.
        public var blockSize: Int
        /// The parallelism `p`, >= 1.
        public var parallelism: Int

        /// N = 2^17, r = 8, p = 1: OWASP's Password Storage Cheat Sheet's minimum for scrypt (128 MiB a hash).
        public static let standard = Cost(unchecked: 1 << 17, 8, 1)

        /// Creates a cost; `nil` when `rounds` is no power of 2 >= 2 or the others are < 1.
        public init?(rounds: Int, blockSize: Int, parallelism: Int) {
            guard rounds >= 2, rounds & (rounds - 1) == 0, blockSize >= 1, parallelism >= 1, rounds <= 1 << 24,
                  blockSize <= 64, parallelism <= 16 else { return nil }
            self.rounds = rounds
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        private init(unchecked rounds: Int, _ blockSize: Int, _ parallelism: Int) {
            (self.rounds, self.blockSize, self.parallelism) = (rounds, blockSize, parallelism)
        }

        /// The cost as the store keeps it: `scrypt:N=131072,r=8,p=1`.
        public var description: String { "scrypt:N=\(rounds),r=\(blockSize),p=\(parallelism)" }

        /// A cost read from its ``description``; `nil` for any other text.
        init?(text: String) {
            guard text.hasPrefix("scrypt:") else { return nil }
            var values: [String: Int] = [:]
            for part in text.dropFirst(7).split(separator: ",") {
                let pair = part.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, let value = Int(pair[1]) else { return nil }
                values[String(pair[0])] = value
            }
            guard values.count == 3, let n = values["N"], let r = values["r"], let p = values["p"] else { return nil }
            self.init(rounds: n, blockSize: r, parallelism: p)
        }
    }

    /// Fewest characters (Unicode code points, as JSON Schema counts them) a passcode may have: 8, NIST SP 800-63B's
    /// minimum for a memorized secret.
    public static let minimumLength = 8
    /// Most characters (Unicode code points) a passcode may have: 128.
    public static let maximumLength = 128
    /// Bytes of the random salt: 16.
    static let saltBytes = 16
    /// Bytes of the derived key that is kept: 32.
    static let keyBytes = 32

    /// The cost it was derived with.
    public let cost: Cost
    /// The salt, 16 random bytes.
    let salt: [UInt8]
    /// scrypt's output, 32 bytes.
    let key: [UInt8]

    /// Hashes a new passcode with a new random salt.
    /// - Parameters:
    ///   - passcode: ``minimumLength``...``maximumLength`` characters, no control characters.
    ///   - cost: scrypt's cost; default ``Cost/standard``.
    /// - Throws: ``StoreError/invalid(field:message:)`` naming `passcode` (the message never quotes it).
    public init(passcode: String, cost: Cost = .standard) throws(StoreError) {
        try Self.check(passcode)
        let salt = Self.randomBytes(Self.saltBytes)
        self.init(cost: cost, salt: salt, key: try Self.derive(passcode, salt: salt, cost: cost))
    }

    /// A hash as kept.
    init(cost: Cost, salt: [UInt8], key: [UInt8]) {
        self.cost = cost
        self.salt = salt
        self.key = key
    }

    /// Whether `passcode` is the one hashed, comparing every byte of the derived keys whatever the first difference.
    /// It costs what hashing costs (``Cost``): run it where a few hundred milliseconds of one core may be spent.
    public func matches(_ passcode: String) -> Bool {
        guard passcode.unicodeScalars.count <= Self.maximumLength, let candidate = try? Self.derive(passcode, salt: salt, cost: cost),
              candidate.count == key.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(candidate, key) { difference |= a ^ b }
        return difference == 0
    }

    /// Throws unless `passcode` is acceptable as a new passcode.
    static func check(_ passcode: String) throws(StoreError) {
        guard passcode.unicodeScalars.count >= minimumLength else {
            throw .invalid(field: "passcode", message: "must have at least \(minimumLength) characters")
        }
        guard passcode.unicodeScalars.count <= maximumLength else {
            throw .invalid(field: "passcode", message: "must have at most \(maximumLength) characters")
        }
        guard !passcode.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalid(field: "passcode", message: "must not contain control characters")
        }
    }

    /// scrypt of `passcode`'s UTF-8 text.
    private static func derive(_ passcode: String, salt: [UInt8], cost: Cost) throws(StoreError) -> [UInt8] {
        do {
            let key = try KDF.Scrypt.deriveKey(from: Array(passcode.utf8), salt: salt, outputByteCount: keyBytes, rounds: cost.rounds,
                                               blockSize: cost.blockSize, parallelism: cost.parallelism)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw .database("scrypt failed with the cost \(cost)")
        }
    }

    /// `count` bytes from the system's cryptographically secure generator (swift-crypto's key generation).
    static func randomBytes(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    /// `count` random bytes as lower-case hexadecimal text: an identifier, a code or a token.
    public static func randomHex(bytes count: Int) -> String {
        HexDigest.hex(randomBytes(count))
    }
}
