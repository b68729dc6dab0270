// SPDX-License-Identifier: Apache-2.0
// What a digital signature adds, in one process, with RSA-2048 and P-256 keys made here (a self-signed certificate
// each): the sample study consent (two signers, as `signature-ink consent` signs it) without and with a seal, the seal
// alone on the unsealed PDF, and the ten-page form's field (Tests/Fixtures/forms/ten-pages.pdf) signed with ink alone
// and with ink and a key. The variants take turns round by round, so a busy machine slows them alike. Each consent is
// a new submission, as in a batch: the signers' names and the time change from one to the next, so that what is set
// for one consent alone (its audit trail's times, names and digests) is laid out for each; the document's own text is
// the same in every one, as in a batch of consents to one document.
//
// Usage: seal-timing --rounds N [--write DIR]   prints each variant's median in ms as JSON; --write also writes the
//                                               keys and certificates (DIR/rsa-key.pem, rsa-cert.pem, p256-...) and the
//                                               unsealed consent PDF (DIR/consent.pdf) for a peer to sign the same.
// With SYSTEM_HEAP=1, glibc's allocator keeps its defaults instead of HeapReuse's (see below).
// Benchmarks/signing/compare.py prints these beside pyHanko signing the same files.
import Crypto
import _CryptoExtras
import Foundation
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender
import SignatureInkForms
import SignatureSet
import X509

// As the server and the command line's batches run (HeapReuse); SYSTEM_HEAP=1 keeps glibc's defaults, to compare.
if ProcessInfo.processInfo.environment["SYSTEM_HEAP"] != "1" { HeapReuse.keepFreedMemory() }

let repository = SignatureSet.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let samples = repository.appendingPathComponent("SampleStrokes")
let formBytes = Array(try Data(contentsOf: repository.appendingPathComponent("Tests/Fixtures/forms/ten-pages.pdf")))
let formInk = try Data(contentsOf: SignatureSet.folder.appendingPathComponent("uim-hello-world-000.json"))
let document = try ConsentDocument(json: Array(try Data(contentsOf: samples.appendingPathComponent("consent/study-consent.json"))))
let now = 1_795_613_400_000.0

/// A key and a self-signed certificate for it, as PEM.
func party(_ name: String, _ key: Certificate.PrivateKey, _ algorithm: Certificate.SignatureAlgorithm) throws -> (key: String, cert: String) {
    let subject = try DistinguishedName { CommonName(name) }
    let certificate = try Certificate(version: .v3, serialNumber: .init(), publicKey: key.publicKey,
                                      notValidBefore: Date().addingTimeInterval(-3600), notValidAfter: Date().addingTimeInterval(86_400),
                                      issuer: subject, subject: subject, signatureAlgorithm: algorithm,
                                      extensions: try Certificate.Extensions { KeyUsage(digitalSignature: true, nonRepudiation: true) },
                                      issuerPrivateKey: key)
    return (try key.serializeAsPEM().pemString, try certificate.serializeAsPEM().pemString)
}

let rsa = try party("Timing RSA-2048", .init(try _RSA.Signing.PrivateKey(keySize: .bits2048)), .sha256WithRSAEncryption)
let p256 = try party("Timing P-256", .init(P256.Signing.PrivateKey()), .ecdsaWithSHA256)
let identities = (rsa: try PDFSigningIdentity(keyPEM: rsa.key, certificatePEM: rsa.cert),
                  p256: try PDFSigningIdentity(keyPEM: p256.key, certificatePEM: p256.cert))

/// The submission of consent `n`: the same document and inks, the signers' names numbered `n`.
func submission(_ n: Int) throws -> ConsentSubmission {
    func ink(_ name: String) throws -> Signature { try InkDecoder().decode(try Data(contentsOf: samples.appendingPathComponent(name))).signature }
    return try ConsentSubmission(document: document, decisions: [], undecided: .allowed, sharing: .investigatorOnly,
                                 signers: [.init(slot: "participant", name: "Ada Lovelace \(n)", ink: try ink("long-name.json")),
                                           .init(slot: "investigator", name: "Charles Babbage \(n)", ink: try ink("short-name.json"))])
}

/// Consent `n`, signed `n` seconds after the first.
func consent(_ n: Int, sealedBy identity: PDFSigningIdentity?) throws -> [UInt8] {
    let time = now + Double(n) * 1000
    let seal = identity.map { ConsentSeal(signature: PDFDigitalSignature(identity: $0, millisecondsSince1970: time)) }
    return try submission(n).sign(now: time, seal: seal).pdf
}

func form(signedBy identity: PDFSigningIdentity?) throws -> [UInt8] {
    let ink = try InkDecoder().decode(formInk).signature
    let digital = identity.map { PDFDigitalSignature(identity: $0, millisecondsSince1970: now) }
    return try PDFForm(bytes: formBytes, name: "ten-pages.pdf").sign(
        .field("CustomerSignature"), ink: ink, name: "Ada Lovelace", date: "2026-11-25",
        options: FormSigningOptions(digitalSignature: digital))
}

let record = Array(try submission(0).sign(now: now).record.json)

/// The seal alone, on the consent PDF as laid out without one (so without its audit trail page).
func seal(_ pdf: [UInt8], by identity: PDFSigningIdentity) throws -> [UInt8] {
    try PDFSeal.certify(pdf, attachments: [PDFAttachment(fileName: "consent-record.json", mimeType: "application/json",
                                                         description: "The consent record", data: record)],
                        signature: PDFDigitalSignature(identity: identity, millisecondsSince1970: now))
}

let unsealed = try consent(0, sealedBy: nil)

/// Each variant, given the round.
let variants: [(String, (Int) throws -> [UInt8])] = [
    ("consent", { try consent($0, sealedBy: nil) }),
    ("consent_sealed_rsa2048", { try consent($0, sealedBy: identities.rsa) }),
    ("consent_sealed_p256", { try consent($0, sealedBy: identities.p256) }),
    ("seal_alone_rsa2048", { _ in try seal(unsealed, by: identities.rsa) }),
    ("seal_alone_p256", { _ in try seal(unsealed, by: identities.p256) }),
    ("form_ink", { _ in try form(signedBy: nil) }),
    ("form_ink_rsa2048", { _ in try form(signedBy: identities.rsa) }),
    ("form_ink_p256", { _ in try form(signedBy: identities.p256) }),
]

var arguments = CommandLine.arguments.dropFirst()
guard arguments.popFirst() == "--rounds", let rounds = arguments.popFirst().flatMap(Int.init), rounds > 0 else {
    FileHandle.standardError.write(Data("usage: seal-timing --rounds N [--write DIR]\n".utf8))
    exit(64)
}
if arguments.popFirst() == "--write", let folder = arguments.popFirst() {
    let dir = URL(fileURLWithPath: folder)
    for (name, text) in [("rsa-key.pem", rsa.key), ("rsa-cert.pem", rsa.cert), ("p256-key.pem", p256.key), ("p256-cert.pem", p256.cert)] {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    try Data(unsealed).write(to: dir.appendingPathComponent("consent.pdf"))
}
// SEAL_TIMING_ONLY=NAME runs that variant alone, for a profiler.
if let only = ProcessInfo.processInfo.environment["SEAL_TIMING_ONLY"], let work = variants.first(where: { $0.0 == only })?.1 {
    for round in 0..<rounds { _ = try work(round) }
    exit(0)
}
var times = [[Double]](repeating: [], count: variants.count)
for round in 0...rounds {
    for (k, variant) in variants.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try variant.1(round)
        times[k].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
}
let medians = variants.indices.map { k in
    let sorted = times[k].dropFirst().sorted()
    return "\"\(variants[k].0)\": \(String(format: "%.3f", sorted[sorted.count / 2]))"
}
print("{\"rounds\": \(rounds), " + medians.joined(separator: ", ") + "}")
