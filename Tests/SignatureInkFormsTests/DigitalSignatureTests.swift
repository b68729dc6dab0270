// SPDX-License-Identifier: Apache-2.0
import Crypto
import _CryptoExtras
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkForms
import SwiftASN1
import Testing
@_spi(CMS) import X509

/// A signed PDF's signatures, read back as a reader does: each `/ByteRange`, the bytes it covers and its CMS.
struct SignedRanges {
    let ranges: [(start: Int, length: Int, contents: [UInt8], file: Int)]

    init(_ pdf: [UInt8]) {
        let text = String(decoding: pdf, as: UTF8.self)
        var found: [(Int, Int, [UInt8], Int)] = []
        for match in text.matches(of: /\/ByteRange \[0 (\d+) (\d+) (\d+)\s*\]/) {
            let open = Int(match.1)!, close = Int(match.2)!, tail = Int(match.3)!
            let hex = Array(pdf[(open + 1)..<(close - 1)])
            var der: [UInt8] = []
            var i = 0
            while i + 1 < hex.count {
                der.append(UInt8(String(decoding: hex[i...(i + 1)], as: UTF8.self), radix: 16)!)
                i += 2
            }
            // The CMS is padded with zeros to the room reserved for it: its DER length says where it ends.
            found.append((open, close, Array(der.prefix(Self.derLength(der))), close + tail))
        }
        ranges = found.map { (start: $0.0, length: $0.1, contents: $0.2, file: $0.3) }
    }

    /// The length of the DER element at the start of `der`, header included.
    static func derLength(_ der: [UInt8]) -> Int {
        guard der.count > 2 else { return der.count }
        guard der[1] & 0x80 != 0 else { return 2 + Int(der[1]) }
        let count = Int(der[1] & 0x7F)
        return 2 + count + der[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The bytes signature `index` covers.
    func signedBytes(_ index: Int, of pdf: [UInt8]) -> [UInt8] {
        let r = ranges[index]
        return Array(pdf[0..<r.start] + pdf[r.length..<r.file])
    }

    /// Whether swift-certificates' own CMS verifier accepts signature `index` against the test root.
    func verifies(_ index: Int, of pdf: [UInt8]) async -> Bool {
        let der = ranges[index].contents
        let result = await CMS.isValidSignature(
            dataBytes: signedBytes(index, of: pdf), signatureBytes: der,
            additionalIntermediateCertificates: [TestPKI.intermediate.certificate],
            trustRoots: CertificateStore([TestPKI.root.certificate])) { RFC5280Policy() }
        if case .success = result { return true }
        return false
    }
}

extension TestPKI {
    /// The identity of `party`, with the intermediate as its chain.
    static func identity(_ party: Party, chain: Bool = true) throws -> PDFSigningIdentity {
        try PDFSigningIdentity(keyPEM: party.keyPEM, certificatePEM: party.certificatePEM,
                               chainPEM: chain ? intermediate.certificatePEM : nil)
    }
}

@Suite struct DigitalSignatureTests {
    static let time = PDFDigitalSignature(identity: try! TestPKI.identity(TestPKI.p256), millisecondsSince1970: 1_795_613_400_000,
                                          utcOffsetMinutes: 60)

    func sign(_ form: String, field: String, as party: TestPKI.Party, bytes: [UInt8]? = nil) throws -> [UInt8] {
        let original = try bytes ?? Forms.bytes(form)
        let signature = PDFDigitalSignature(identity: try TestPKI.identity(party), millisecondsSince1970: 1_795_613_400_000,
                                            utcOffsetMinutes: 60)
        return try PDFForm(bytes: original, name: form)
            .sign(.field(field), ink: Forms.ink, options: FormSigningOptions(digitalSignature: signature))
    }

    @Test(arguments: [("simple.pdf", "Signature1"), ("objstm.pdf", "Signature1"), ("nested.pdf", "signatures.courier")])
    func aSignedFieldCoversTheWholeFileAndVerifies(form: String, field: String) async throws {
        for party in [TestPKI.p256, TestPKI.p384, TestPKI.rsa] {
            let original = try Forms.bytes(form)
            let signed = try sign(form, field: field, as: party)
            #expect(Array(signed.prefix(original.count)) == original, "an incremental update keeps every original byte")
            let ranges = SignedRanges(signed)
            #expect(ranges.ranges.count == 1)
            #expect(ranges.ranges.first?.file == signed.count, "the byte range ends at the end of the file")
            #expect(await ranges.verifies(0, of: signed))
            let text = String(decoding: signed.suffix(from: original.count), as: UTF8.self)
            #expect(text.contains("/Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M (D:20261125143000+01'00')"))
            let reread = try PDFForm(bytes: signed, name: form)
            #expect(reread.digitallySignedFields.map(\.name) == [field])
        }
    }

    @Test func anyChangedByteInTheSignedRangeFailsVerification() async throws {
        let signed = try sign("simple.pdf", field: "Signature1", as: TestPKI.rsa)
        let ranges = SignedRanges(signed)
        #expect(await ranges.verifies(0, of: signed))
        for offset in [0, 400, ranges.ranges[0].start - 1, ranges.ranges[0].length, signed.count - 1] {
            var changed = signed
            changed[offset] ^= 1
            #expect(!(await ranges.verifies(0, of: changed)), "byte \(offset) changed")
        }
    }

    @Test func aSecondSignerKeepsTheFirstSignatureValid() async throws {
        let first = try sign("two-signers.pdf", field: "Customer", as: TestPKI.p256)
        let second = try sign("two-signers.pdf", field: "Courier", as: TestPKI.rsa, bytes: first)
        #expect(Array(second.prefix(first.count)) == first)
        let ranges = SignedRanges(second)
        #expect(ranges.ranges.count == 2)
        #expect(ranges.ranges[0].file == first.count, "the first signature covers the file as it was signed")
        #expect(ranges.ranges[1].file == second.count)
        #expect(await ranges.verifies(0, of: second))
        #expect(await ranges.verifies(1, of: second))
        #expect(try PDFForm(bytes: second).digitallySignedFields.map(\.name) == ["Customer", "Courier"])
    }

    @Test func signingTimeIsWrittenInTheSignersOffset() throws {
        let signed = try sign("simple.pdf", field: "Signature1", as: TestPKI.p384)
        #expect(String(decoding: signed, as: UTF8.self).contains("/M (D:20261125143000+01'00')"))
        let utc = PDFDigitalSignature(identity: try TestPKI.identity(TestPKI.p384), millisecondsSince1970: 1_795_613_400_000)
        let inUTC = try Forms.form("simple.pdf").sign(.field("Signature1"), ink: Forms.ink,
                                                      options: FormSigningOptions(digitalSignature: utc))
        #expect(String(decoding: inUTC, as: UTF8.self).contains("/M (D:20261125133000Z)"))
    }

    @Test func aKeyThatIsNotTheCertificatesIsRefused() throws {
        #expect(throws: PDFFormError.self) {
            try PDFSigningIdentity(keyPEM: TestPKI.p384.keyPEM, certificatePEM: TestPKI.p256.certificatePEM)
        }
        do {
            _ = try PDFSigningIdentity(keyPEM: TestPKI.p384.keyPEM, certificatePEM: TestPKI.p256.certificatePEM)
        } catch {
            #expect("\(error)".contains("the key is not the certificate's"))
        }
        #expect(throws: PDFFormError.self) {
            try PDFSigningIdentity(keyPEM: "not a key", certificatePEM: TestPKI.p256.certificatePEM)
        }
        #expect(throws: PDFFormError.self) {
            try PDFSigningIdentity(keyPEM: TestPKI.p256.keyPEM, certificatePEM: TestPKI.p256.certificatePEM, chainPEM: "junk")
        }
    }

    @Test func aSealCertifiesAFilledFormButNotASignedOne() async throws {
        let identity = try TestPKI.identity(TestPKI.p256)
        let record = PDFAttachment(fileName: "record.json", mimeType: "application/json", description: "A record", data: Array("{}\n".utf8))
        // simple.pdf's text field has a value (/V): that is not a signature.
        let sealed = try PDFSeal.certify(try Forms.bytes("simple.pdf"), attachments: [record], signature: Self.time)
        let report = try await PDFSeal.verify(sealed, trustedRootsPEM: TestPKI.root.certificatePEM)
        #expect(report.problems == [])
        #expect(report.attachments == [record])
        #expect(throws: PDFFormError.invalidOption("signed.pdf is already digitally signed ('Approval'); a seal certifies a file before any other signature")) {
            try PDFSeal.certify(try Forms.bytes("signed.pdf"), name: "signed.pdf", attachments: [],
                                signature: PDFDigitalSignature(identity: identity, millisecondsSince1970: 0))
        }
    }

    @Test func aFileWhoseSizeIsTooSmallIsRefusedRatherThanSealedOverItsObjects() throws {
        // The seal numbers its objects from the trailer's /Size: simple.pdf has objects 1 to 11 and /Size 12; written
        // /Size 9, objects 9 to 11 would be taken again. qpdf names the damage, and nothing is sealed.
        var bytes = try Forms.bytes("simple.pdf")
        let size = try #require(ByteSearch.offset(of: Array("/Size 12".utf8), in: bytes, from: 0))
        bytes.replaceSubrange(size..<(size + 8), with: Array("/Size 9 ".utf8))
        #expect(throws: PDFFormError.damaged(file: "document.pdf", message: """
            reported number of objects (9) is not one plus the highest object number (11)
            """)) {
            try PDFSeal.certify(bytes, attachments: [], signature: Self.time)
        }
        // Written right, the same file is sealed after object 11.
        let sealed = try PDFSeal.certify(try Forms.bytes("simple.pdf"), attachments: [], signature: Self.time)
        let update = String(decoding: sealed[try Forms.bytes("simple.pdf").count...], as: UTF8.self)
        #expect(update.contains("\n12 0 obj\n") && !update.contains("\n11 0 obj\n<< /Type /Annot"))
    }

    @Test func aDigitalSignatureNeedsAFieldAndNoFlattening() throws {
        let form = try Forms.form("simple.pdf")
        let rect = SignaturePlacement.rect(page: 1, Rect(x: 72, y: 72, width: 200, height: 60))
        #expect(throws: PDFFormError.invalidOption("a digital signature goes into a signature field: give --field, without --flatten")) {
            try form.sign(rect, ink: Forms.ink, options: FormSigningOptions(digitalSignature: Self.time))
        }
        #expect(throws: PDFFormError.invalidOption("a digital signature goes into a signature field: give --field, without --flatten")) {
            try form.sign(.field("Signature1"), ink: Forms.ink, options: FormSigningOptions(flatten: true, digitalSignature: Self.time))
        }
    }
}
