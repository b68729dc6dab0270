// SPDX-License-Identifier: Apache-2.0
import Crypto
import _CryptoExtras
import SwiftASN1
import X509

/// Who signs a PDF digitally: a private key, its certificate, and the certificates between it and a root.
///
/// Read from PEM with apple/swift-certificates: a P-256, P-384 or P-521 key (PKCS#8 `PRIVATE KEY` or SEC1
/// `EC PRIVATE KEY`) or an RSA key of at least 2048 bits (`PRIVATE KEY` or `RSA PRIVATE KEY`), whose public key must be
/// the certificate's. The digest follows the key: SHA-256 for P-256 and RSA, SHA-384 for P-384, SHA-512 for P-521.
public struct PDFSigningIdentity: Sendable {
    let key: Certificate.PrivateKey
    let certificate: Certificate
    let chain: [Certificate]
    let digest: CMSDigest
    let signatureAlgorithm: Certificate.SignatureAlgorithm
    /// The bytes of the largest CMS this identity signs (``CMSSignedData/maximumSize(for:)``): the room a signature
    /// reserves. Measured once, here, rather than for every signature (0.38 M instructions each).
    private(set) var cmsRoom = 0

    /// The signer's certificate subject, as a distinguished name (`CN=Ada Lovelace,O=Clinic`).
    public let subject: String

    /// Reads an identity from PEM text.
    /// - Parameters:
    ///   - keyPEM: the private key.
    ///   - certificatePEM: the signer's certificate.
    ///   - chainPEM: the intermediate certificates, leaf side first, or `nil`; they go into the signature so that a
    ///     reader who trusts only the root can verify it.
    /// - Throws: ``PDFFormError/signingIdentity(_:)`` saying which part is wrong: not PEM, a key kind that is not
    ///   supported, or a key that is not the certificate's.
    public init(keyPEM: String, certificatePEM: String, chainPEM: String? = nil) throws(PDFFormError) {
        do {
            key = try Certificate.PrivateKey(pemEncoded: keyPEM)
        } catch {
            throw .signingIdentity("the key is not a PEM private key (P-256, P-384, P-521 or RSA): \(error)")
        }
        do {
            certificate = try Certificate(pemEncoded: certificatePEM)
        } catch {
            throw .signingIdentity("the certificate is not a PEM certificate: \(error)")
        }
        do {
            chain = try chainPEM.map { try PEMDocument.parseMultiple(pemString: $0).map(Certificate.init(pemDocument:)) } ?? []
        } catch {
            throw .signingIdentity("the chain is not a list of PEM certificates: \(error)")
        }
        if chainPEM != nil && chain.isEmpty { throw .signingIdentity("the chain holds no PEM certificate") }
        subject = certificate.subject.description
        guard key.publicKey == certificate.publicKey else {
            throw .signingIdentity("the key is not the certificate's: its public key differs from the one '\(certificate.subject)' certifies")
        }
        let publicKey = certificate.publicKey
        if P256.Signing.PublicKey(publicKey) != nil {
            (digest, signatureAlgorithm) = (.sha256, .ecdsaWithSHA256)
        } else if P384.Signing.PublicKey(publicKey) != nil {
            (digest, signatureAlgorithm) = (.sha384, .ecdsaWithSHA384)
        } else if P521.Signing.PublicKey(publicKey) != nil {
            (digest, signatureAlgorithm) = (.sha512, .ecdsaWithSHA512)
        } else if _RSA.Signing.PublicKey(publicKey) != nil {
            (digest, signatureAlgorithm) = (.sha256, .sha256WithRSAEncryption)
        } else {
            throw .signingIdentity("the key is neither ECDSA (P-256, P-384, P-521) nor RSA, which PAdES readers check")
        }
        cmsRoom = try CMSSignedData.maximumSize(for: self)
    }
}
