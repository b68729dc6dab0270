// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

/// `sign --key/--cert/--chain` and `consent sign --seal-key/...` with `consent verify --trust`, run as a user runs them,
/// with keys of the tests' own PKI.
@Suite struct DigitalSignatureCommandTests {
    @Test func signsAFieldDigitallyAndASecondSignerAppends() throws {
        let dir = try TemporaryDirectory()
        let alan = try TestPKI.files(TestPKI.rsa, in: dir.url)
        let first = try CLIRunner.run(["sign", SignCommandTests.form("two-signers.pdf"), "--ink", SignCommandTests.ink,
                                       "--field", "Customer", "--key", alan.key, "--cert", alan.certificate, "--chain", alan.chain,
                                       "--date", "2026-11-25T14:30:00+01:00", "-o", dir.path("one.pdf")])
        #expect(first.status == 0, "\(first.stderr)")
        let one = try Data(contentsOf: URL(fileURLWithPath: dir.path("one.pdf")))
        let text = String(decoding: one, as: UTF8.self)
        #expect(text.contains("/SubFilter /ETSI.CAdES.detached /M (D:20261125143000+01'00') /ByteRange [0 "))
        let listed = try CLIRunner.run(["sign", dir.path("one.pdf"), "--list-fields"])
        #expect(listed.stdout.contains("Customer\tpage 1\t72,560,216,60\tdigitally signed"))

        let second = try CLIRunner.run(["sign", dir.path("one.pdf"), "--ink", SignCommandTests.ink, "--field", "Courier",
                                        "--key", alan.key, "--cert", alan.certificate, "-o", dir.path("two.pdf")])
        #expect(second.status == 0, "\(second.stderr)")
        let two = try Data(contentsOf: URL(fileURLWithPath: dir.path("two.pdf")))
        #expect(two.prefix(one.count) == one, "the second signature is appended after every byte the first signed")
    }

    @Test func keysThatCannotSignAreRefusedNamingTheFile() throws {
        let dir = try TemporaryDirectory()
        let ada = try TestPKI.files(TestPKI.p256, in: dir.url)
        let other = try dir.write("other-cert.pem", TestPKI.p384.certificatePEM)
        let junk = try dir.write("junk.pem", "not a certificate\n")
        let base = ["sign", SignCommandTests.form("simple.pdf"), "--ink", SignCommandTests.ink, "-o", dir.path("out.pdf")]
        let cases: [([String], String)] = [
            (["--field", "Signature1", "--key", ada.key, "--cert", other], "\(ada.key): digital signature: the key is not the certificate's"),
            (["--field", "Signature1", "--key", ada.key, "--cert", ada.certificate, "--chain", junk], "the chain holds no PEM certificate"),
            (["--field", "Signature1", "--key", ada.certificate, "--cert", ada.certificate], "the key is not a PEM private key"),
            (["--field", "Signature1", "--key", ada.key], "a digital signature needs both --key and --cert"),
            (["--page", "1", "--rect", "72,72,200,60", "--key", ada.key, "--cert", ada.certificate], "goes into a signature field"),
            (["--field", "Signature1", "--flatten", "--key", ada.key, "--cert", ada.certificate], "goes into a signature field"),
        ]
        for (extra, message) in cases {
            let r = try CLIRunner.run(base + extra)
            #expect(r.status != 0, "\(extra)")
            #expect(r.stderr.contains(message), "\(extra): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.pdf")))
    }

    @Test func aSealedConsentVerifiesAloneAndWithItsRecordAndNamesWhatChanged() throws {
        let dir = try TemporaryDirectory()
        let clinic = try TestPKI.files(TestPKI.p384, in: dir.url)
        let signed = try CLIRunner.run(ConsentCommandTests.signing(dir, extra: ["--seal-key", clinic.key, "--seal-cert", clinic.certificate,
                                                                                 "--seal-chain", clinic.chain]))
        #expect(signed.status == 0, "\(signed.stderr)")
        let alone = try CLIRunner.run(["consent", "verify", dir.path("signed.pdf"), "--trust", clinic.root])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("sealed by CN=Grace Hopper at D:"))
        #expect(alone.stdout.contains("the seal is intact and trusted"))
        #expect(alone.stdout.contains("ok: the document, 2 signatures and the PDF match the record"))
        let beside = try CLIRunner.run(["consent", "verify", dir.path("signed.json"), dir.path("signed.pdf"), "--trust", clinic.root])
        #expect(beside.status == 0, "\(beside.stderr)")

        var pdf = try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf")))
        pdf[pdf.startIndex + 700] ^= 1
        try pdf.write(to: URL(fileURLWithPath: dir.path("changed.pdf")))
        let changed = try CLIRunner.run(["consent", "verify", dir.path("changed.pdf"), "--trust", clinic.root])
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("\(dir.path("changed.pdf")): the file's bytes do not match the seal's message digest"), "\(changed.stderr)")

        let stranger = try dir.write("stranger.pem", TestPKI.party("Stranger", key: TestPKI.p256.key, issuer: nil, authority: true).certificatePEM)
        let untrusted = try CLIRunner.run(["consent", "verify", dir.path("signed.pdf"), "--trust", stranger])
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("does not chain to a trusted root"), "\(untrusted.stderr)")

        let noTrust = try CLIRunner.run(["consent", "verify", dir.path("signed.pdf")])
        #expect(noTrust.status != 0)
        #expect(noTrust.stderr.contains("give --trust ROOT.pem, or the record too"))
        let halfSeal = try CLIRunner.run(ConsentCommandTests.signing(dir, extra: ["--seal-key", clinic.key]))
        #expect(halfSeal.stderr.contains("a seal needs both --seal-key and --seal-cert"))
    }
}
