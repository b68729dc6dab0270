// SPDX-License-Identifier: Apache-2.0
import Crypto
import _CryptoExtras
import SwiftASN1
import X509

/// The digest of a PAdES signature: over the signed bytes of the PDF, the certificate, and the signed attributes.
enum CMSDigest: Sendable {
    case sha256, sha384, sha512

    /// Its object identifier (RFC 5754), written without parameters.
    var identifier: ASN1ObjectIdentifier {
        switch self {
        case .sha256: [2, 16, 840, 1, 101, 3, 4, 2, 1]
        case .sha384: [2, 16, 840, 1, 101, 3, 4, 2, 2]
        case .sha512: [2, 16, 840, 1, 101, 3, 4, 2, 3]
        }
    }

    /// The digest of `parts` one after another.
    func hash(_ parts: [ArraySlice<UInt8>]) -> [UInt8] {
        func run<H: HashFunction>(_ hasher: H) -> [UInt8] {
            var hasher = hasher
            for part in parts { hasher.update(data: part) }
            return Array(hasher.finalize())
        }
        switch self {
        case .sha256: return run(SHA256())
        case .sha384: return run(SHA384())
        case .sha512: return run(SHA512())
        }
    }
}

/// A detached CMS SignedData (RFC 5652) as PAdES baseline B-B wants it (ETSI EN 319 142-1, 6.3): no encapsulated
/// content, the signer named by issuer and serial number, and exactly three signed attributes: content-type,
/// message-digest and ESS signing-certificate-v2 (RFC 5035). The signing time is not among them; PAdES puts it in
/// the signature dictionary's `/M`.
///
/// swift-certificates' own `CMS.sign` is SPI and cannot add signing-certificate-v2, so the structure is written
/// here with swift-asn1's DER serializer from swift-certificates' public parts; the digests and the signature itself
/// are swift-crypto's.
enum CMSSignedData {
    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    static let contentType: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 3]
    static let messageDigest: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 4]
    static let signingCertificateV2: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 16, 2, 47]

    /// The DER of a SignedData over `parts` (the PDF's bytes outside `/Contents`), signed by `identity`.
    static func sign(_ parts: [ArraySlice<UInt8>], by identity: PDFSigningIdentity) throws(PDFFormError) -> [UInt8] {
        do {
            let attributes = try signedAttributes(digest: identity.digest.hash(parts), identity: identity)
            // The signature covers the attributes as a SET OF (tag 0x31), not as the [0] they are written with.
            var set = DER.Serializer()
            try set.serializeSetOf(attributes, identifier: .set)
            let signature = try identity.key.sign(bytes: set.serializedBytes, signatureAlgorithm: identity.signatureAlgorithm)
            return try contentInfo(attributes: attributes, signature: signature.rawRepresentation, identity: identity)
        } catch let error as PDFFormError {
            throw error
        } catch {
            throw .signingIdentity("signing failed: \(error)")
        }
    }

    /// The largest SignedData `identity` makes, in bytes: one with the longest signature its key gives (an ECDSA
    /// signature's DER length varies with its two numbers), so that a PDF can reserve room for it before its bytes
    /// are signed.
    static func maximumSize(for identity: PDFSigningIdentity) throws(PDFFormError) -> Int {
        do {
            let attributes = try signedAttributes(digest: identity.digest.hash([]), identity: identity)
            let longest = [UInt8](repeating: 0xFF, count: identity.maximumSignatureSize)
            return try contentInfo(attributes: attributes, signature: longest, identity: identity).count
        } catch let error as PDFFormError {
            throw error
        } catch {
            throw .signingIdentity("signing failed: \(error)")
        }
    }

    /// The three signed attributes, each as its DER.
    private static func signedAttributes(digest: [UInt8], identity: PDFSigningIdentity) throws -> [RawDER] {
        func attribute(_ type: ASN1ObjectIdentifier, _ value: (inout DER.Serializer) throws -> Void) throws -> RawDER {
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(type)
                try coder.appendConstructedNode(identifier: .set, value)
            }
            return RawDER(bytes: coder.serializedBytes)
        }
        var certificate = DER.Serializer()
        try certificate.serialize(identity.certificate)
        return [
            try attribute(contentType) { try $0.serialize(data) },
            try attribute(messageDigest) { try $0.serialize(ASN1OctetString(contentBytes: digest[...])) },
            // SigningCertificateV2 { certs: [ESSCertIDv2 { certHash (SHA-256, the default algorithm, so not written),
            // issuerSerial { issuer: [directoryName], serialNumber } }] }
            try attribute(signingCertificateV2) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(SHA256.hash(data: certificate.serializedBytes))))
                            try coder.appendConstructedNode(identifier: .sequence) { coder in
                                try coder.appendConstructedNode(identifier: .sequence) { coder in
                                    try coder.serialize(explicitlyTaggedWithTagNumber: 4, tagClass: .contextSpecific) { coder in
                                        try coder.serialize(identity.certificate.issuer)
                                    }
                                }
                                try coder.serialize(identity.certificate.serialNumber.bytes)
                            }
                        }
                    }
                }
            },
        ]
    }

    /// ContentInfo { signedData, [0] SignedData }.
    private static func contentInfo(attributes: [RawDER], signature: [UInt8], identity: PDFSigningIdentity) throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(signedData)
            try coder.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(1)
                    try coder.appendConstructedNode(identifier: .set) { coder in try algorithm(identity.digest.identifier, into: &coder) }
                    try coder.appendConstructedNode(identifier: .sequence) { coder in try coder.serialize(data) }
                    try coder.serializeSetOf([identity.certificate] + identity.chain,
                                             identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
                    try coder.appendConstructedNode(identifier: .set) { coder in
                        try signerInfo(attributes: attributes, signature: signature, identity: identity, into: &coder)
                    }
                }
            }
        }
        return coder.serializedBytes
    }

    /// SignerInfo { version 1, issuerAndSerialNumber, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature }.
    private static func signerInfo(attributes: [RawDER], signature: [UInt8], identity: PDFSigningIdentity,
                                   into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(1)
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(identity.certificate.issuer)
                try coder.serialize(identity.certificate.serialNumber.bytes)
            }
            try algorithm(identity.digest.identifier, into: &coder)
            try coder.serializeSetOf(attributes, identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
            switch identity.signatureAlgorithm {
            case .ecdsaWithSHA256: try algorithm([1, 2, 840, 10045, 4, 3, 2], into: &coder)
            case .ecdsaWithSHA384: try algorithm([1, 2, 840, 10045, 4, 3, 3], into: &coder)
            case .ecdsaWithSHA512: try algorithm([1, 2, 840, 10045, 4, 3, 4], into: &coder)
            default: try algorithm([1, 2, 840, 113549, 1, 1, 11], nullParameters: true, into: &coder)
            }
            try coder.serialize(ASN1OctetString(contentBytes: signature[...]))
        }
    }

    /// AlgorithmIdentifier { algorithm, parameters }: no parameters for digests and ECDSA (RFC 5754, RFC 5758), NULL
    /// for RSA (RFC 4055).
    private static func algorithm(_ identifier: ASN1ObjectIdentifier, nullParameters: Bool = false,
                                  into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(identifier)
            if nullParameters { try coder.serialize(ASN1Null()) }
        }
    }
}

/// Bytes that are already DER, for a SET OF that swift-asn1 sorts.
private struct RawDER: DERSerializable {
    let bytes: [UInt8]
    func serialize(into coder: inout DER.Serializer) { coder.serializeRawBytes(bytes) }
}

extension PDFSigningIdentity {
    /// The longest signature the key gives, in bytes: an RSA key's modulus; for ECDSA, the DER of two numbers of the
    /// curve's size, each with a leading zero byte.
    var maximumSignatureSize: Int {
        if let rsa = _RSA.Signing.PublicKey(certificate.publicKey) { return (rsa.keySizeInBits + 7) / 8 }
        let coordinate = switch digest { case .sha256: 32; case .sha384: 48; case .sha512: 66 }
        let number = 2 + coordinate + 1
        return 3 + 2 * number
    }
}
