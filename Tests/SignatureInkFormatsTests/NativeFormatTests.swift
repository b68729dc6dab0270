// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import Testing

@Suite struct NativeFormatTests {
    func decode(_ text: String, limits: DecodingLimits = .default) throws(FormatError) -> Signature {
        try NativeDecoder(limits: limits).decode(Data(text.utf8))
    }

    @Test(arguments: 0..<200) func roundTripsRandomSignaturesExactly(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let s = Signature.random(using: &rng)
        let text = try NativeEncoder().encode(s)
        let back = try decode(text)
        #expect(back == s)
        #expect(try NativeEncoder().encode(back) == text)
    }

    @Test func everySampleStrokeFileDecodes() throws {
        let files = TestData.sampleFiles()
        #expect(files.count >= 12)
        for url in files {
            let s = try NativeDecoder().decode(Data(contentsOf: url))
            #expect(!s.isEmpty, "\(url.lastPathComponent)")
        }
    }

    @Test func optionalChannelsMayBeNull() throws {
        let s = try decode(#"{"format":"signature-ink","version":1,"channels":["x","y","t","pressure"],"strokes":[[[1,2,0,null],[3,4,5,0.25]]]}"#)
        #expect(s.samples.map(\.pressure) == [nil, 0.25])
        #expect(s.canvas == nil && s.startTime == nil && s.metadata.isEmpty)
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(throws: FormatError.self) { try decode("{\n  \"format\": x }") }
        do {
            _ = try decode("{\n  \"format\": x }")
        } catch {
            guard case let .syntax(line, column, _) = error else { Issue.record("got \(error)"); return }
            #expect(line == 2)
            #expect(column > 0)
        }
    }

    @Test(arguments: [
        (#"{"version":1,"channels":["x","y","t"],"strokes":[]}"#, "format: missing"),
        (#"{"format":"other","version":1,"channels":["x","y","t"],"strokes":[]}"#, "format: expected \"signature-ink\", found \"other\""),
        (#"{"format":"signature-ink","version":2,"channels":["x","y","t"],"strokes":[]}"#, "signature-ink version 2 is not supported"),
        (#"{"format":"signature-ink","version":1,"channels":["x","y","q"],"strokes":[]}"#, "channels[2]: unknown channel \"q\""),
        (#"{"format":"signature-ink","version":1,"channels":["y","x","t"],"strokes":[]}"#, "channels: must begin with \"x\", \"y\", \"t\""),
        (#"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,3],[1,2]]]}"#, "strokes[0][1]: has 2 values, expected 3 (one per channel)"),
        (#"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,3]],[[1,"a",3]]]}"#, "strokes[1][0][1]: expected a number"),
        (#"{"format":"signature-ink","version":1,"channels":["x","y","t","pressure"],"strokes":[[[1,2,3,1.5]]]}"#, "strokes[0][0][3] (pressure): pressure 1.5 is outside 0...1"),
        (#"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1e300,2,3]]]}"#, "strokes[0][0][0] (x): coordinate 1e+300 exceeds the limit of 10000000.0"),
        (#"{"format":"signature-ink","version":1,"canvas":{"width":-1,"height":3},"channels":["x","y","t"],"strokes":[]}"#, "canvas: width and height must be > 0 and at most the coordinate limit 10000000.0"),
    ])
    func fieldErrorsNameTheField(text: String, message: String) {
        do {
            _ = try decode(text)
            Issue.record("decoded \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func limitsAreChecked() {
        let doc = #"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,3],[4,5,6]],[[7,8,9]]]}"#
        #expect(throws: FormatError.limitExceeded(what: "sample count", limit: 2, actual: 3)) {
            try decode(doc, limits: DecodingLimits(maxSamples: 2))
        }
        #expect(throws: FormatError.limitExceeded(what: "stroke count", limit: 1, actual: 2)) {
            try decode(doc, limits: DecodingLimits(maxStrokes: 1))
        }
        #expect(throws: FormatError.limitExceeded(what: "samples in stroke 0", limit: 1, actual: 2)) {
            try decode(doc, limits: DecodingLimits(maxSamplesPerStroke: 1))
        }
        #expect(throws: FormatError.limitExceeded(what: "input size in bytes", limit: 10, actual: doc.utf8.count)) {
            try decode(doc, limits: DecodingLimits(maxBytes: 10))
        }
    }

    @Test func nonFiniteValuesCannotBeEncoded() {
        let s = Signature(strokes: [[InkSample(x: .nan, y: 0, t: 0)]])
        #expect(throws: FormatError.self) { try NativeEncoder().encode(s) }
    }
}
