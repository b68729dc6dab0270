// SPDX-License-Identifier: Apache-2.0
import Crypto
import _CryptoExtras
public import Foundation
public import X509

/// A throw-away PKI made by the tests: a root, an intermediate, and signers with P-256, P-384 and RSA keys.
public enum TestPKI {
    /// A key and its certificate.
    public struct Party: Sendable {
        public let key: Certificate.PrivateKey
        public let certificate: Certificate
        /// The private key as PKCS #8 PEM.
        public var keyPEM: String { try! key.serializeAsPEM().pemString }
        /// The certificate as PEM.
        public var certificatePEM: String { try! certificate.serializeAsPEM().pemString }
    }

    /// The self-signed root.
    public static let root = party("SignatureInk Test Root", key: .init(P256.Signing.PrivateKey()), issuer: nil, authority: true)
    /// The intermediate, which issues the signers.
    public static let intermediate = party("SignatureInk Test Intermediate", key: .init(P256.Signing.PrivateKey()), issuer: root,
                                    authority: true)
    /// Signers with a P-256, a P-384 and an RSA-2048 key.
    public static let p256 = party("Ada Lovelace", key: .init(P256.Signing.PrivateKey()), issuer: intermediate)
    public static let p384 = party("Grace Hopper", key: .init(P384.Signing.PrivateKey()), issuer: intermediate)
    public static let rsa = party("Alan Turing", key: .init(try! _RSA.Signing.PrivateKey(keySize: .bits2048)), issuer: intermediate)

    /// A party named `name` with `key`, certified by `issuer` (self-signed without one).
    public static func party(_ name: String, key: Certificate.PrivateKey, issuer: Party?, authority: Bool = false) -> Party {
        let subject = try! DistinguishedName { CommonName(name) }
        let extensions = try! Certificate.Extensions {
            if authority {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            } else {
                Critical(KeyUsage(digitalSignature: true, nonRepudiation: true))
            }
        }
        let certificate = try! Certificate(
            version: .v3, serialNumber: .init(), publicKey: key.publicKey,
            notValidBefore: Date.now.addingTimeInterval(-3600), notValidAfter: Date.now.addingTimeInterval(86_400),
            issuer: issuer?.certificate.subject ?? subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: issuer?.key ?? key)
        return Party(key: key, certificate: certificate)
    }


    /// Writes `party`'s key and certificate, the intermediate and the root as PEM files into `directory`, and gives
    /// their paths, for the command-line tools.
    public static func files(_ party: Party, in directory: URL) throws -> (key: String, certificate: String, chain: String, root: String) {
        let paths = (key: directory.appendingPathComponent("key.pem").path, certificate: directory.appendingPathComponent("cert.pem").path,
                     chain: directory.appendingPathComponent("chain.pem").path, root: directory.appendingPathComponent("root.pem").path)
        try party.keyPEM.write(toFile: paths.key, atomically: true, encoding: .utf8)
        try party.certificatePEM.write(toFile: paths.certificate, atomically: true, encoding: .utf8)
        try intermediate.certificatePEM.write(toFile: paths.chain, atomically: true, encoding: .utf8)
        try root.certificatePEM.write(toFile: paths.root, atomically: true, encoding: .utf8)
        return paths
    }
}
