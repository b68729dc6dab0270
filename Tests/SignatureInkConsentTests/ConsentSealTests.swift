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

        let audit = try PDFCheck.text(signed.pdf, page: signed.pageCount)
        for words in ["Audit trail", "Review agreed", "Signed by Ada Lovelace as Participant", "Signed by Charles Babbage as Investigator",
                      "Form “Newsletter”: not now", "from 192.0.2.7 with the user agent Pad/1.0", inside.documentDigest,
                      try #require(inside.signers.first?.signatureDigest), "2026-11-25T14:30:00+01:00"] {
            #expect(audit.replacingOccurrences(of: "\n", with: " ").contains(words), "\(words)")
        }
        #expect(audit.filter { !$0.isWhitespace }.contains(inside.contentDigest))
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
