// SPDX-License-Identifier: Apache-2.0
public import SignatureInk
import Crypto

/// The digest of a saved signature, as stored beside it and checked when it is read back.
///
/// The digest is the SHA-256 of `SignatureRecord.canonicalSamples`, from swift-crypto. It lives in
/// this module, beside the consent record that carries each signer's digest, rather than beside `SignatureRecord`:
/// swift-crypto brings BoringSSL's C and Foundation, which neither the geometry core (standard library only) nor the
/// decoders of `SignatureInkFormats` need, so a program that only reads and draws ink builds without them. Records
/// saved by earlier versions keep their digests: the canonical encoding has not changed, and the tests check stored
/// records against the digests they were saved with.
extension SignatureRecord {
    /// SHA-256 of `SignatureRecord.canonicalSamples`, as 64 lower-case hexadecimal digits.
    ///
    /// Re-encoding the record's signature in any lossless format and decoding it again gives the same digest; any
    /// changed sample changes it. Computed on each access, in time linear in the samples.
    public var digest: String { SignatureRecord.digest(of: signature) }

    /// The digest a record of `signature` has.
    /// - Parameter signature: the samples.
    /// - Returns: 64 lower-case hexadecimal digits.
    public static func digest(of signature: Signature) -> String {
        HexDigest.sha256(CanonicalSamples.encode(signature))
    }

    /// Whether `expected`, a digest stored with the record, matches its samples.
    /// - Parameter expected: 64 hexadecimal digits; upper case is accepted.
    public func verifies(digest expected: String) -> Bool { digest == expected.lowercased() }
}

/// SHA-256 as lower-case hexadecimal text, the form records, batch manifests and NDJSON results carry.
public enum HexDigest {
    /// The SHA-256 of `bytes` as 64 lower-case hexadecimal digits.
    /// - Parameter bytes: the data, any length.
    public static func sha256(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// Bytes as lower-case hexadecimal text, two digits a byte.
    /// - Parameter bytes: the data, any length.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
