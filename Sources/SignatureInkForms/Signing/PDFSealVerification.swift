// SPDX-License-Identifier: Apache-2.0
import CQPDF
import Crypto
import _CryptoExtras
import SwiftASN1
import X509

/// What checking a sealed PDF found: who sealed it and when, what it carries, and everything that does not hold.
public struct PDFSealVerification: Sendable {
    /// The sealer's certificate subject (`CN=Clinic Records,O=Clinic`), or empty when the signature could not be read.
    public var signer: String
    /// The signing time as the signature dictionary's `/M` gives it (`D:20261125143000+01'00'`).
    public var signingTime: String
    /// The files the PDF carries as associated files, in the order of its `/AF`.
    public var attachments: [PDFAttachment]
    /// The bytes the seal's update follows: the PDF as it was before it was sealed.
    public var unsealed: ArraySlice<UInt8>
    /// What does not hold, each in a sentence; empty when the seal is intact, covers the whole file and was made by
    /// a certificate that chains to a trusted root.
    public var problems: [String]
}

extension PDFSeal {
    /// Checks a sealed PDF: its certification signature covers the whole file, its message digest and signature
    /// match the file's bytes, and the signer's certificate chains to one of `trustedRootsPEM` (RFC 5280, at the
    /// current time). Reads the files it carries.
    /// - Parameters:
    ///   - pdf: the sealed PDF.
    ///   - name: how messages name it; default `document.pdf`.
    ///   - trustedRootsPEM: one or more PEM root certificates.
    /// - Returns: the findings; ``PDFSealVerification/problems`` lists what does not hold.
    /// - Throws: ``PDFFormError`` for a file that is not a readable PDF, has no seal, or roots that are not PEM.
    public static func verify(_ pdf: [UInt8], name: String = "document.pdf", trustedRootsPEM: String) async throws(PDFFormError)
        -> PDFSealVerification {
        let roots: [Certificate]
        do { roots = try PEMDocument.parseMultiple(pemString: trustedRootsPEM).map(Certificate.init(pemDocument:)) } catch {
            throw .signingIdentity("the trusted roots are not PEM certificates: \(error)")
        }
        guard !roots.isEmpty else { throw .signingIdentity("no trusted root certificate was given") }
        let found = try SealReading(pdf, name: name)
        var report = PDFSealVerification(signer: "", signingTime: found.time, attachments: found.attachments,
                                         unsealed: found.unsealed, problems: found.problems)
        guard let signed = found.signed else { return report }
        let cms: SignedContent
        do { cms = try SignedContent(der: found.contents) } catch {
            report.problems.append("the seal's signature is not a CMS SignedData this engine reads: \(error)")
            return report
        }
        report.signer = cms.signer.subject.description
        report.problems += cms.check(signed)
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) { RFC5280Policy() }
        let result = await verifier.validate(leaf: cms.signer, intermediates: CertificateStore(cms.certificates))
        if case let .couldNotValidate(failures) = result {
            let reasons = failures.map { "\($0.policyFailureReason)" }
            report.problems.append("the sealer's certificate (\(cms.signer.subject)) does not chain to a trusted root"
                                   + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; ")))
        }
        return report
    }
}

/// The seal of a PDF as qpdf reads it: the signature dictionary the catalog's `/Perms /DocMDP` names, its byte range
/// and the bytes it covers, and the attachments.
private struct SealReading {
    var time = ""
    var contents: [UInt8] = []
    var signed: [ArraySlice<UInt8>]?
    var unsealed: ArraySlice<UInt8>
    var attachments: [PDFAttachment] = []
    var problems: [String] = []

    init(_ pdf: [UInt8], name: String) throws(PDFFormError) {
        unsealed = pdf[...]
        let file = try QPDFFile(bytes: pdf, name: name)
        guard let permissions = file.get(file.root, "/Perms"), let value = file.get(permissions, "/DocMDP"),
              let range = file.get(value, "/ByteRange") else {
            throw .unreadable(file: name, message: "it has no seal: its catalog names no certification signature (/Perms /DocMDP)")
        }
        time = file.text(file.get(value, "/M")) ?? ""
        let numbers = file.items(range).compactMap { file.integer($0) }
        guard numbers.count == 4, numbers[0] == 0, numbers[1] > 0, numbers[2] >= numbers[1] + 2, numbers[3] >= 0,
              numbers[2] + numbers[3] <= pdf.count, pdf[numbers[1]] == UInt8(ascii: "<"),
              pdf[numbers[2] - 1] == UInt8(ascii: ">") else {
            problems.append("the seal's /ByteRange \(numbers) does not frame its /Contents")
            return
        }
        let (open, close, end) = (numbers[1], numbers[2], numbers[2] + numbers[3])
        if end != pdf.count {
            problems.append("the file was changed after it was sealed: \(pdf.count - end) bytes follow the part the seal covers")
        }
        contents = Self.firstElement(Self.bytes(hex: pdf[(open + 1)..<(close - 1)]))
        signed = [pdf[..<open], pdf[close..<end]]
        // The seal's update starts after the end-of-file marker that precedes its signature dictionary.
        if let marker = pdf[..<open].lastRange(of: Array("%%EOF".utf8)) {
            var cut = marker.upperBound
            while cut < pdf.count && (pdf[cut] == 10 || pdf[cut] == 13) { cut += 1 }
            unsealed = pdf[..<cut]
        }
        for spec in file.items(file.get(file.root, "/AF")) {
            guard let stream = file.get(file.get(spec, "/EF") ?? spec, "/F"), file.isStream(stream) else {
                problems.append("an associated file has no embedded data")
                continue
            }
            let data = try file.streamData(stream, decoded: true)
            let type = file.name(file.get(qpdf.qpdf_oh_get_dict(file.pdf, stream), "/Subtype")).map(PDFSyntax.decodedName) ?? ""
            attachments.append(PDFAttachment(
                fileName: file.text(file.get(spec, "/UF")) ?? file.text(file.get(spec, "/F")) ?? "", mimeType: type,
                description: file.text(file.get(spec, "/Desc")) ?? "",
                relationship: file.name(file.get(spec, "/AFRelationship")).map { String($0.dropFirst()) } ?? "Unspecified",
                data: data))
        }
    }

    /// The DER element at the start of `bytes`, without the zeros that pad `/Contents` to the room reserved for it
    /// (all of `bytes` when its header is not a definite length).
    static func firstElement(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > 2 else { return bytes }
        var length = Int(bytes[1]), header = 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), bytes.count > 2 + count else { return bytes }
            length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
            header += count
        }
        return header + length <= bytes.count ? Array(bytes.prefix(header + length)) : bytes
    }

    /// The bytes of hexadecimal digits (whitespace skipped; an odd last digit is followed by 0, as PDF reads it).
    static func bytes(hex: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8?
        for c in hex {
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: continue
            }
            if let h = high { out.append(h << 4 | digit); high = nil } else { high = digit }
        }
        if let h = high { out.append(h << 4) }
        return out
    }
}

/// A detached SignedData read back with swift-asn1 and held to the form PAdES baseline B-B gives it: version 1, the
/// signer's digest among the digest algorithms, `id-data` content not carried, one signer named by issuer and serial,
/// and exactly three signed attributes (content-type `id-data`, message-digest, signing-certificate-v2 naming the
/// signer's certificate by its SHA-256).
private struct SignedContent {
    var certificates: [Certificate] = []
    var signer: Certificate
    var digest: CMSDigest
    var signedAttributes: [UInt8]
    var messageDigest: [UInt8] = []
    var signatureAlgorithm: Certificate.SignatureAlgorithm
    var signature: [UInt8]
    /// What the structure says that PAdES B-B does not allow, each in a sentence.
    var departures: [String] = []

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    init(der: [UInt8]) throws {
        let contextZero = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        /// The parts of `node`, a structure tagged `tag` (a SEQUENCE unless said otherwise): any other tag is refused.
        func children(_ node: ASN1Node, _ tag: ASN1Identifier = .sequence) throws -> [ASN1Node] {
            guard node.identifier == tag, case let .constructed(nodes) = node.content else {
                throw Unreadable(description: "a \(node.identifier) where a \(tag) structure belongs")
            }
            return Array(nodes)
        }
        /// Part `i` of `node`: a structure with fewer parts is refused, never read past.
        func child(_ node: ASN1Node, _ i: Int, _ tag: ASN1Identifier = .sequence) throws -> ASN1Node {
            let nodes = try children(node, tag)
            guard i < nodes.count else { throw Unreadable(description: "a structure with parts missing") }
            return nodes[i]
        }
        let info = try children(try DER.parse(der))
        guard info.count == 2, try ASN1ObjectIdentifier(derEncoded: info[0]) == CMSSignedData.signedData else {
            throw Unreadable(description: "not a SignedData")
        }
        // SignedData { version, digestAlgorithms, encapContentInfo, [0] certificates, signerInfos }
        let data = try children(try child(info[1], 0, contextZero))
        guard data.count >= 4, let infos = data.last else { throw Unreadable(description: "a SignedData with parts missing") }
        if try Int(derEncoded: data[0]) != 1 { departures.append("its SignedData is not version 1") }
        let content = try children(data[2])
        let contentType = try content.first.map { try ASN1ObjectIdentifier(derEncoded: $0) }
        if content.count != 1 || contentType != CMSSignedData.data {
            departures.append("it is not a detached signature of data (its encapsulated content is not id-data alone)")
        }
        for node in data where node.identifier == contextZero {
            certificates = try children(node, contextZero).map { try Certificate(derEncoded: $0) }
            // Certificate { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }: swift-certificates reads
            // a signature's bytes whatever its count of unused bits says, which DER fixes at 0 for ECDSA and RSA.
            let unpadded = try children(node, contextZero).allSatisfy { certificate in
                let parts = try children(certificate)
                guard parts.count == 3, case let .primitive(bits) = parts[2].content else { return false }
                return bits.first == 0
            }
            if !unpadded { departures.append("a certificate's signature has unused bits") }
        }
        let signers = try children(infos, .set)
        guard signers.count == 1 else { throw Unreadable(description: "\(signers.count) signers, where a seal has one") }
        // SignerInfo { version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature }
        let info0 = try children(signers[0])
        guard info0.count == 6 else { throw Unreadable(description: "a SignerInfo of \(info0.count) parts, where B-B has 6") }
        if try Int(derEncoded: info0[0]) != 1 { departures.append("its SignerInfo is not version 1") }
        let issuer = try DistinguishedName(derEncoded: try child(info0[1], 0))
        let serial = try ArraySlice<UInt8>(derEncoded: try child(info0[1], 1))
        guard let signer = certificates.first(where: { $0.issuer == issuer && $0.serialNumber.bytes == serial }) else {
            throw Unreadable(description: "the signer's certificate is not among the signature's certificates")
        }
        self.signer = signer
        let digestOID = try ASN1ObjectIdentifier(derEncoded: try child(info0[2], 0))
        guard let digest = [CMSDigest.sha256, .sha384, .sha512].first(where: { $0.identifier == digestOID }) else {
            throw Unreadable(description: "the digest algorithm \(digestOID) is not SHA-256, SHA-384 or SHA-512")
        }
        self.digest = digest
        let listed = try children(data[1], .set).map { try ASN1ObjectIdentifier(derEncoded: try child($0, 0)) }
        if !listed.contains(digestOID) { departures.append("its digest algorithms do not list the signer's") }
        guard info0[3].identifier == contextZero else { throw Unreadable(description: "no signed attributes") }
        // The signature covers the attributes as a SET OF: the same bytes with the SET tag.
        signedAttributes = Array(info0[3].encodedBytes)
        signedAttributes[0] = 0x31
        var types: [ASN1ObjectIdentifier] = []
        var certificateHash: [UInt8]?
        for attribute in try children(info0[3], contextZero) {
            let type = try ASN1ObjectIdentifier(derEncoded: try child(attribute, 0))
            let values = try children(try child(attribute, 1), .set)
            types.append(type)
            guard values.count == 1 else {
                departures.append("its signed attribute \(type) has \(values.count) values")
                continue
            }
            switch type {
            case CMSSignedData.messageDigest: messageDigest = Array(try ASN1OctetString(derEncoded: values[0]).bytes)
            case CMSSignedData.contentType:
                if try ASN1ObjectIdentifier(derEncoded: values[0]) != CMSSignedData.data { departures.append("its content-type is not id-data") }
            case CMSSignedData.signingCertificateV2:
                // SigningCertificateV2 { certs: [ESSCertIDv2 { [hashAlgorithm], certHash, ... }] }
                let first = try child(try child(values[0], 0), 0)
                let parts = try children(first)
                let hashed = try parts.first { $0.identifier == .octetString }.map { Array(try ASN1OctetString(derEncoded: $0).bytes) }
                if let algorithm = parts.first, algorithm.identifier == .sequence,
                   try ASN1ObjectIdentifier(derEncoded: try child(algorithm, 0)) != CMSDigest.sha256.identifier {
                    departures.append("its signing-certificate-v2 names the certificate by another digest than SHA-256")
                }
                certificateHash = hashed
            default: break
            }
        }
        let required = [CMSSignedData.contentType, CMSSignedData.messageDigest, CMSSignedData.signingCertificateV2]
        if types.count != 3 || !required.allSatisfy(types.contains) {
            departures.append("its signed attributes are not exactly content-type, message-digest and signing-certificate-v2")
        }
        var encoded = DER.Serializer()
        try encoded.serialize(signer)
        if certificateHash != Array(SHA256.hash(data: encoded.serializedBytes)) {
            departures.append("its signing-certificate-v2 does not name the signer's certificate")
        }
        let algorithm = try ASN1ObjectIdentifier(derEncoded: try child(info0[4], 0))
        let known: [(ASN1ObjectIdentifier, Certificate.SignatureAlgorithm)] = [
            ([1, 2, 840, 10045, 4, 3, 2], .ecdsaWithSHA256), ([1, 2, 840, 10045, 4, 3, 3], .ecdsaWithSHA384),
            ([1, 2, 840, 10045, 4, 3, 4], .ecdsaWithSHA512), ([1, 2, 840, 113549, 1, 1, 11], .sha256WithRSAEncryption),
            ([1, 2, 840, 113549, 1, 1, 12], .sha384WithRSAEncryption), ([1, 2, 840, 113549, 1, 1, 13], .sha512WithRSAEncryption),
        ]
        guard let match = known.first(where: { $0.0 == algorithm }) else {
            throw Unreadable(description: "the signature algorithm \(algorithm) is not ECDSA or RSA with SHA-2")
        }
        signatureAlgorithm = match.1
        signature = Array(try ASN1OctetString(derEncoded: info0[5]).bytes)
    }

    /// What does not match `signed`, the bytes the signature covers, and what departs from PAdES B-B.
    func check(_ signed: [ArraySlice<UInt8>]) -> [String] {
        var problems = departures.map { "the seal's signature is not PAdES B-B: \($0)" }
        if messageDigest != digest.hash(signed) {
            problems.append("the file's bytes do not match the seal's message digest: the file was changed after it was sealed")
        }
        if !signer.publicKey.isValidSignature(signature, for: signedAttributes, signatureAlgorithm: signatureAlgorithm) {
            problems.append("the seal's signature does not verify with the key of \(signer.subject)")
        }
        return problems
    }
}

extension PDFSyntax {
    /// A name's text without its slash, `#xx` escapes undone (`/application#2Fjson` is `application/json`).
    static func decodedName(_ name: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(name.utf8.dropFirst())[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "#"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
