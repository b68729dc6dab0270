// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import Testing

@Suite struct RecordDigestTests {
    /// `Tests/Fixtures/records/`: saved records and the digests they were saved with.
    static let records = TestData.repositoryRoot.appendingPathComponent("Tests/Fixtures/records")

    /// The lines of `digests.txt`: digest and record file name.
    static func storedDigests() throws -> [(digest: String, file: String)] {
        let text = try String(contentsOf: records.appendingPathComponent("digests.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            return (String(parts[0]), String(parts[1]))
        }
    }

    @Test func recordsSavedEarlierKeepTheirDigests() throws {
        let stored = try Self.storedDigests()
        #expect(stored.count == 7)
        for (expected, file) in stored {
            let data = try Data(contentsOf: Self.records.appendingPathComponent(file))
            let record = SignatureRecord(signature: try InkDecoder().decode(data).signature, savedAt: 0)
            #expect(record.digest == expected, "\(file)")
            #expect(record.verifies(digest: expected.uppercased()), "\(file)")
        }
    }

    @Test func aChangedSampleNoLongerVerifies() throws {
        let (expected, file) = try #require(Self.storedDigests().first)
        let signature = try InkDecoder().decode(Data(contentsOf: Self.records.appendingPathComponent(file))).signature
        var samples = signature.samples
        samples[samples.count / 2].x += 0.001
        var changed = Signature(canvas: signature.canvas)
        var start = 0
        for end in signature.strokeEnds { changed.appendStroke(samples[start..<end]); start = end }
        #expect(!SignatureRecord(signature: changed, savedAt: 0).verifies(digest: expected))
    }

    @Test(arguments: 0..<30) func theDigestIdentifiesTheSamples(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let s = Signature.random(using: &rng)
        let a = SignatureRecord(signature: s, savedAt: 1)
        let b = SignatureRecord(signature: Signature(strokes: s.strokes.map(Array.init)), penColor: .white, savedAt: 2)
        #expect(a.digest == b.digest)
        #expect(a.digest == SignatureRecord.digest(of: s))
        #expect(a.verifies(digest: a.digest))
        var samples = s.samples
        let i = Int.random(in: 0..<samples.count, using: &rng)
        samples[i].t += 1
        var changed = Signature()
        var start = 0
        for end in s.strokeEnds { changed.appendStroke(samples[start..<end]); start = end }
        #expect(SignatureRecord(signature: changed, savedAt: 1).digest != a.digest)
    }

    // FIPS 180-4 example vectors, and the form of the text.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func hexDigestOfKnownVectors(message: String, digest: String) {
        #expect(HexDigest.sha256(Array(message.utf8)) == digest)
    }
}
