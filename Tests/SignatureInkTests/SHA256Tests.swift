// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk
import Testing

@Suite struct SHA256Tests {
    // FIPS 180-4 example vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownVectors(message: String, digest: String) {
        #expect(SHA256.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func aMillionAs() {
        var h = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { h.update(chunk) }
        #expect(SHA256.hex(h.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: 0..<20) func incrementalEqualsOneShot(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let bytes = (0..<Int.random(in: 0...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var h = SHA256()
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = Int.random(in: 1...70, using: &rng)
            h.update(rest.prefix(n))
            rest = rest.dropFirst(n)
        }
        #expect(h.finalize() == SHA256.hash(bytes))
    }
}

@Suite struct CanonicalSamplesTests {
    @Test(arguments: 0..<30) func equalSignaturesEncodeEquallyAndAnyChangeShows(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let s = Signature.random(using: &rng)
        let rebuilt = Signature(strokes: s.strokes.map(Array.init))
        #expect(CanonicalSamples.encode(s) == CanonicalSamples.encode(rebuilt))
        var samples = s.samples
        let i = Int.random(in: 0..<samples.count, using: &rng)
        samples[i].x = samples[i].x.nextUp
        var changed = Signature()
        var start = 0
        for end in s.strokeEnds { changed.appendStroke(samples[start..<end]); start = end }
        #expect(CanonicalSamples.encode(changed) != CanonicalSamples.encode(s))
        // Moving a stroke boundary changes it too.
        if s.samples.count > 1 {
            #expect(CanonicalSamples.encode(Signature(strokes: [s.samples])) != CanonicalSamples.encode(Signature(strokes: s.samples.map { [$0] })))
        }
    }

    @Test func negativeZeroEqualsZero() {
        let a = Signature(strokes: [[InkSample(x: 0, y: -0.0, t: 0, pressure: -0.0)]])
        let b = Signature(strokes: [[InkSample(x: -0.0, y: 0, t: -0.0, pressure: 0)]])
        #expect(a == b)
        #expect(CanonicalSamples.encode(a) == CanonicalSamples.encode(b))
    }
}

@Suite struct TimelineTests {
    let s = Signature(strokes: [
        [InkSample(x: 0, y: 0, t: 0), InkSample(x: 1, y: 0, t: 10), InkSample(x: 2, y: 0, t: 20)],
        [InkSample(x: 5, y: 5, t: 100), InkSample(x: 6, y: 5, t: 110)],
    ], canvas: Canvas(width: 10, height: 10))

    @Test func drawnThroughATimeKeepsEarlierSamples() {
        #expect(s.drawn(through: -1).isEmpty)
        #expect(s.drawn(through: 0).samples.count == 1)
        #expect(s.drawn(through: 15).samples.count == 2)
        #expect(s.drawn(through: 50).strokeCount == 1)
        #expect(s.drawn(through: 105).strokeEnds == [3, 4])
        #expect(s.drawn(through: 1000) == s)
        #expect(s.drawn(through: 15).canvas == s.canvas)
    }
}
