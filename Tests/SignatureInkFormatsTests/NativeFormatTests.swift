// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import Testing

@Suite struct NativeFormatTests {
    /// Expects `text` to be refused with exactly `message`.
    func expectError(decoding text: String, _ message: String) {
        do {
            _ = try decode(text)
            Issue.record("decoded \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

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
        expectError(decoding: text, message)
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

    @Test(arguments: [
        ("0.1", 0.1), ("-0", -0.0), ("1E+2", 100), ("2e-2", 0.02), ("9007199254740993", 9007199254740992),
        ("123456789012345678901234567890", 1.2345678901234568e29), ("0.1000000000000000055511151231257827", 0.1),
        ("2.2250738585072014e-308", Double.leastNormalMagnitude), ("4.9e-324", Double.leastNonzeroMagnitude), ("1e-400", 0), ("35.59", 35.59), ("1615295130731", 1615295130731),
    ])
    func numbersAreCorrectlyRounded(text: String, value: Double) throws {
        let s = try decode(#"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[\#(text),0,0]]]}"#,
                           limits: DecodingLimits(maxCoordinate: .greatestFiniteMagnitude))
        #expect(s.samples[0].x == value && s.samples[0].x.sign == value.sign)
    }

    @Test func floatChannelsAreRoundedOnceToFloat() throws {
        // 0.1 and 16777217 (2^24 + 1) round differently through Double than straight to Float for some inputs;
        // these are the values a Float's shortest text gives back.
        let values: [Float] = [0.1, 0.33333334, 1.0000001, 3.4028235e38, .leastNormalMagnitude, .leastNonzeroMagnitude]
        let channels = #"["x","y","t","azimuth","altitude","pressure"]"#
        for v in values {
            let doc = #"{"format":"signature-ink","version":1,"channels":\#(channels),"strokes":[[[0,0,0,\#(JSONText.number(v)),\#(JSONText.number(v)),0]]]}"#
            #expect(try decode(doc).samples[0].azimuth == v, "\(v)")
        }
    }

    @Test func textWrittenAsAJSONStringReadsBackAsItWas() throws {
        // Every control character, the two that must be escaped, `/`, and text beyond ASCII, at the start, the end,
        // in runs and alone; and seeded random mixtures of them.
        var texts = ["", "plain", "\"", "\\", "a/b", "é😀中", "\u{0}\u{1}\u{1f}\u{7f}", "\n\r\t\u{8}\u{c}", "end\"", "\\start"]
        texts.append(String((0..<32).map { Character(Unicode.Scalar($0)!) }))
        var random = SeededRandom(seed: 20261126)
        let pieces = ["\"", "\\", "\n", "\u{1}", "ink", "é", "😀", "{\"x\":[1,2]}", " "]
        for _ in 0..<200 { texts.append((0..<Int.random(in: 0..<12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()) }
        for text in texts {
            var written: [UInt8] = []
            JSONText.appendString(Array(text.utf8), to: &written)
            #expect(written == Array(JSONText.string(text).utf8))
            let read = try JSONSerialization.jsonObject(with: Data(written), options: .fragmentsAllowed) as? String
            #expect(read == text, "\(text.debugDescription) was written \(String(decoding: written, as: UTF8.self))")
            #expect(!written.dropFirst().dropLast().contains { $0 < 0x20 }, "a control character left as it was")
        }
    }

    @Test func keysMayComeInAnyOrderAndRepeat() throws {
        let s = try decode(#"{"strokes":[[[1,2,3]]],"extra":[{"a":[1,{"b":null}]}],"channels":["x","y","t"],"version":1,"form\u0061t":"signature-ink","metadata":{"a":"first","a":"second"},"channels":["q"]}"#)
        #expect(s.samples == [InkSample(x: 1, y: 2, t: 3)])
        #expect(s.metadata == ["a": "first"])
    }

    @Test func escapedStringsAreDecoded() throws {
        let s = try decode(#"{"format":"signature-ink","version":1,"metadata":{"k\u00e9\n":"\ud83d\ude00\/\"\\\t"},"channels":["x","y","t"],"strokes":[[[1,2,3]]]}"#)
        #expect(s.metadata == ["k\u{e9}\n": "\u{1F600}/\"\\\t"])
    }

    @Test(arguments: [
        #"[[1,2,3],]"#, #"[[1,2,3,]]"#, #"[[01,2,3]]"#, #"[[1.,2,3]]"#, #"[[.5,2,3]]"#, #"[[1.2.3,2,3]]"#,
        #"[[-,2,3]]"#, #"[[1e,2,3]]"#, #"[[1e400,2,3]]"#, #"[[NaN,2,3]]"#, #"[[1,2,3]] x"#,
    ])
    func malformedStrokesAreSyntaxErrorsWithPositions(strokes: String) {
        do {
            _ = try decode("{\"format\":\"signature-ink\",\"version\":1,\"channels\":[\"x\",\"y\",\"t\"],\n\"strokes\":[\(strokes)]}")
            Issue.record("decoded \(strokes)")
        } catch {
            guard case let .syntax(line, column, message) = error else { Issue.record("\(strokes): \(error)"); return }
            #expect(line == 2 && column > 11, "\(strokes): \(error)")
            #expect(message.hasPrefix("invalid JSON"))
        }
    }

    @Test(arguments: [
        ("{\"format\":", "line 1, column 11: invalid JSON: unexpected end of file"),
        ("{\"format\": @}", "line 1, column 12: invalid JSON: unexpected character '@'"),
        ("{\"format\":\n \"a\u{01}\"}", "line 2, column 4: invalid JSON: unescaped control character U+0001"),
        ("{\"version\": 01}", "line 1, column 14: invalid JSON: malformed number"),
        (String(repeating: "[", count: 600), "line 1, column 513: invalid JSON: nested more than 512 levels deep"),
    ])
    func syntaxErrorsSayWhatStandsThere(text: String, expected: String) {
        expectError(decoding: text, expected)
    }

    @Test func aFieldErrorWaitsForTheSyntaxCheck() {
        // The bad format comes first, but a document that is not JSON is reported as such.
        #expect(throws: FormatError.self) { try decode(#"{"format":"other","version":1,"channels":["x","y","t"],"strokes":[[[1,2,3]]]"#) }
        do {
            _ = try decode(#"{"format":"other","version":1,"channels":["x","y","t"],"strokes":[[[1,2,3]]]"#)
        } catch {
            guard case .syntax = error else { Issue.record("got \(error)"); return }
        }
    }

    @Test func otherUnicodeEncodingsAreRead() throws {
        let text = #"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,3]]]}"#
        for encoding in [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian, .utf32, .utf32LittleEndian, .utf32BigEndian] {
            let data = try #require(text.data(using: encoding))
            #expect(try NativeDecoder().decode(data).samples == [InkSample(x: 1, y: 2, t: 3)], "\(encoding)")
        }
        #expect(try decode("\u{FEFF}" + text).samples.count == 1)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        do {
            _ = try decode(#"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,3]]],"d":\#(deep)}"#)
            Issue.record("decoded")
        } catch {
            guard case let .syntax(line, column, _) = error else { Issue.record("got \(error)"); return }
            #expect(line == 1 && column > 1)
        }
    }

    @Test func nonFiniteValuesCannotBeEncoded() {
        let s = Signature(strokes: [[InkSample(x: .nan, y: 0, t: 0)]])
        #expect(throws: FormatError.self) { try NativeEncoder().encode(s) }
    }
}
