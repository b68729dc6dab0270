// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInkConsent
import SignatureInkForms
import Testing

@Suite struct ConsentSealTests {
    static func seal(_ party: TestPKI.Party = TestPKI.rsa, client: String? = nil, userAgent: String? = nil) throws -> ConsentSeal {
        let identity = try PDFSigningIdentity(keyPEM: party.keyPEM, certificatePEM: party.certificatePEM,
                                              chainPEM: TestPKI.intermediate.certificatePEM)
        return ConsentSeal(signature: PDFDigitalSignature(identity: identity, millisecondsSince1970: ConsentSubmissionTests.now,
                                                          utcOffsetMinutes: 60),
                           clientAddress: client, userAgent: userAgent)
    }

    static func verify(_ pdf: [UInt8], root: TestPKI.Party = TestPKI.root) async throws -> PDFSealVerification {
        try await PDFSeal.verify(pdf, name: "consent.pdf", trustedRootsPEM: root.certificatePEM)
    }

    @Test func aSealedConsentCarriesItsRecordAndAnAuditTrailAndVerifies() async throws {
        let plain = try ConsentSubmissionTests.sample().sign(now: ConsentSubmissionTests.now)
        let signed = try ConsentSubmissionTests.sample()
            .sign(now: ConsentSubmissionTests.now, seal: try Self.seal(client: "192.0.2.7", userAgent: "Pad/1.0"))
        #expect(signed.pageCount == plain.pageCount + 1, "the audit trail is one more page")
        let report = try await Self.verify(signed.pdf)
        #expect(report.problems == [])
        #expect(report.signer == TestPKI.rsa.certificate.subject.description)
        #expect(report.signingTime == "D:20261125143000+01'00'")

        let attachment = try #require(report.attachments.first)
        #expect(report.attachments.count == 1)
        #expect(attachment.fileName == ConsentSeal.recordFileName)
        #expect(attachment.mimeType == "application/json" && attachment.relationship == "Data")
        let inside = try ConsentRecord(json: attachment.data)
        #expect(inside.verify(pdf: Array(report.unsealed)) == [], "the record inside describes the PDF before its seal")
        #expect(signed.record.verify(pdf: signed.pdf) == [], "the record beside it describes the sealed file")
        #expect(inside.contentDigest == signed.record.contentDigest)
        var same = inside
        same.pdfSHA256 = signed.record.pdfSHA256
        #expect(same.json == signed.record.json, "the two records differ in the PDF's digest only")
        #expect(Array(attachment.data) == inside.json, "the attached record is its own JSON, byte for byte")

        let audit = try PDFCheck.text(signed.pdf, page: signed.pageCount)
        for words in ["Audit trail", "Review agreed", "Signed by Ada Lovelace as Participant", "Signed by Charles Babbage as Investigator",
                      "Form “Newsletter”: not now", "from 192.0.2.7 with the user agent Pad/1.0", inside.documentDigest,
                      try #require(inside.signers.first?.signatureDigest), "2026-11-25T14:30:00+01:00"] {
            #expect(audit.replacingOccurrences(of: "\n", with: " ").contains(words), "\(words)")
        }
        #expect(audit.filter { !$0.isWhitespace }.contains(inside.contentDigest))
    }

    @Test func theAttachedRecordIsExactWhateverItsTextsSay() async throws {
        // The record inside is written by filling the PDF's digest into the encoding its content digest was taken
        // of: a name that looks like that key must not be taken for it.
        var signers = try ConsentSubmissionTests.signers()
        signers[0].name = #"pdfSHA256" : ""#
        let signed = try ConsentSubmissionTests.sample(signers: signers)
            .sign(now: ConsentSubmissionTests.now, seal: try Self.seal(TestPKI.p256))
        let report = try await Self.verify(signed.pdf)
        let attachment = try #require(report.attachments.first)
        let inside = try ConsentRecord(json: attachment.data)
        #expect(Array(attachment.data) == inside.json)
        #expect(inside.signers.first?.name == #"pdfSHA256" : ""#)
        #expect(inside.verify(pdf: Array(report.unsealed)) == [])
        #expect(inside.contentDigest == signed.record.contentDigest)
    }

    @Test func aChangedByteOrAnAppendedUpdateOrAnUntrustedRootIsNamed() async throws {
        let signed = try ConsentSubmissionTests.sample().sign(now: ConsentSubmissionTests.now, seal: try Self.seal(TestPKI.p256))
        var changed = signed.pdf
        changed[600] ^= 1
        let tampered = try await Self.verify(changed)
        #expect(tampered.problems.contains { $0.contains("do not match the seal's message digest") }, "\(tampered.problems)")

        let appended = try await Self.verify(signed.pdf + Array("\n% a later update\n".utf8))
        #expect(appended.problems.contains { $0.contains("changed after it was sealed") }, "\(appended.problems)")

        let stranger = TestPKI.party("Another Root", key: TestPKI.p256.key, issuer: nil, authority: true)
        let untrusted = try await Self.verify(signed.pdf, root: stranger)
        #expect(untrusted.problems.contains { $0.contains("does not chain to a trusted root") }, "\(untrusted.problems)")
    }

    /// `/Contents` lies outside the signed bytes, so anyone can put anything there: every truncation of the CMS and
    /// 120 seeded bit flips in it must be named as a problem, never crash the reader or pass.
    @Test func aDamagedSignatureIsNamedNeverTrusted() async throws {
        let signed = try ConsentSubmissionTests.sample().sign(now: ConsentSubmissionTests.now, seal: try Self.seal(TestPKI.p256))
        let text = String(decoding: signed.pdf, as: UTF8.self)
        let match = try #require(text.firstMatch(of: /\/ByteRange \[0 (\d+) (\d+)/))
        let open = Int(match.1)! + 1, close = Int(match.2)! - 1
        let hex = Array(signed.pdf[open..<close])
        func bytes(_ hex: [UInt8]) -> [UInt8] {
            stride(from: 0, to: hex.count - 1, by: 2).map { UInt8(String(decoding: hex[$0...($0 + 1)], as: UTF8.self), radix: 16)! }
        }
        let der = bytes(hex)
        // The DER's own length (a long form of one or two bytes): the rest is padding.
        let count = Int(der[1] & 0x7F)
        let length = 2 + count + der[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        func with(_ cms: [UInt8]) -> [UInt8] {
            let digits = Array("0123456789ABCDEF".utf8)
            var pdf = signed.pdf
            for (k, byte) in (cms + [UInt8](repeating: 0, count: der.count - cms.count)).enumerated() {
                pdf[open + 2 * k] = digits[Int(byte >> 4)]
                pdf[open + 2 * k + 1] = digits[Int(byte & 15)]
            }
            return pdf
        }
        var damaged: [[UInt8]] = stride(from: 0, to: length, by: 37).map { Array(der.prefix($0)) }
        var random = SeededRandom(seed: 31)
        for _ in 0..<120 {
            var flipped = Array(der.prefix(length))
            let at = Int(random.next() % UInt64(length)), bit = random.next() % 8
            flipped[at] ^= UInt8(1 << bit)
            damaged.append(flipped)
        }
        for (k, cms) in damaged.enumerated() {
            let report = try await Self.verify(with(cms))
            #expect(!report.problems.isEmpty, "damage \(k) passed")
        }
    }

    @Test func anUnsealedPDFIsRefusedAsHavingNoSeal() async throws {
        let plain = try ConsentSubmissionTests.sample().sign(now: ConsentSubmissionTests.now)
        await #expect(throws: PDFFormError.self) { try await Self.verify(plain.pdf) }
    }

    @Test func anRSASealGivesTheSameBytesEachTime() throws {
        let first = try ConsentSubmissionTests.sample().sign(now: ConsentSubmissionTests.now, seal: try Self.seal())
        let second = try ConsentSubmissionTests.sample().sign(now: ConsentSubmissionTests.now, seal: try Self.seal())
        #expect(first.pdf == second.pdf)
    }
}
