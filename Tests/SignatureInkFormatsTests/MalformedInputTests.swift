// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

/// Damaged copies of real and fixture files: every one gives a typed error that says where, or decodes.
@Suite struct MalformedInputTests {
    /// One file of each format, with its format.
    static func samples() throws -> [(String, Data, InkFormat)] {
        [
            ("face", try TestFiles.realInk("signature-pad", "face.derived.json"), .signaturePad),
            ("97705", try TestFiles.realInk("hwrt", "97705.json"), .strokeList),
            ("Digital-Ink-1", try TestFiles.realInk("wacom-uim", "Digital-Ink-1.json"), .uim),
            ("svc2004", try TestFiles.fixture("svc2004-task2.txt"), .svc2004),
            ("inkml", try TestFiles.fixture("inkml-difference-coded.inkml"), .inkml),
        ]
    }

    @Test func truncatedCopiesGiveErrorsWithPositions() throws {
        for (name, data, format) in try Self.samples() {
            for fraction in [0.05, 0.3, 0.5, 0.77, 0.99] {
                let cut = data.prefix(Int(Double(data.count) * fraction))
                guard let error = decodeError(Data(cut), as: format) else {
                    Issue.record("\(name) cut at \(fraction) decoded")
                    continue
                }
                #expect(hasPosition(error), "\(name) cut at \(fraction): \(error)")
            }
            // One byte short.
            if let error = decodeError(Data(data.dropLast(2)), as: format) {
                #expect(hasPosition(error), "\(name) minus 2 bytes: \(error)")
            }
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        var random = SeededRandom(seed: 7)
        for (name, data, format) in try Self.samples() {
            for _ in 0..<30 {
                var copy = data
                let at = Int.random(in: 0..<copy.count, using: &random)
                copy[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
                if let error = decodeError(copy, as: format) {
                    #expect(hasPosition(error) || error == .field(path: "", message: "the \(format.displayName) file holds no ink samples: nothing to draw"),
                            "\(name) with byte \(at) flipped: \(error)")
                }
            }
        }
    }

    @Test func aSyntaxErrorNamesItsLineAndColumn() throws {
        let data = try TestFiles.realInk("signature-pad", "face.derived.json").replacingFirst("\"x\": 125", with: "\"x\": 125,,")
        guard case let .syntax(line, column, _) = decodeError(data) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(line == 12)
        #expect(column > 1)
    }

    @Test(arguments: [("signature-pad", "face.derived.json", "\"x\": 125", "\"x\": NaN"),
                      ("hwrt", "97705.json", "\"x\":328.5", "\"x\":Infinity")])
    func nonFiniteNumbersAreSyntaxErrorsInJSON(folder: String, name: String, target: String, replacement: String) throws {
        let data = try TestFiles.realInk(folder, name).replacingFirst(target, with: replacement)
        let error = try #require(decodeError(data))
        #expect(hasPosition(error), "\(error)")
    }

    @Test func aHugeCoordinateNamesItsPath() throws {
        let data = try TestFiles.realInk("hwrt", "97705.json").replacingFirst("\"x\":326.5", with: "\"x\":1e300")
        guard case let .field(path, message) = decodeError(data) else {
            Issue.record("expected a field error")
            return
        }
        #expect(path == "[0][1]")
        #expect(message.contains("limit"))
        // Beyond Double: still a typed error with a position.
        let beyond = try TestFiles.realInk("hwrt", "97705.json").replacingFirst("\"x\":326.5", with: "\"x\":1e400")
        #expect(hasPosition(try #require(decodeError(beyond))))
    }

    @Test func negativeAndAbsurdTimesAreErrors() {
        let negative = #"[[{"x":1,"y":2,"time":-5}]]"#
        #expect(decodeError(Data(negative.utf8)) == .field(path: "[0][0]", message: "time -5.0 ms is negative"))
        let absurd = #"[[{"x":1,"y":2,"time":1e15}]]"#
        guard case let .field(path, _) = decodeError(Data(absurd.utf8)) else {
            Issue.record("expected a field error")
            return
        }
        #expect(path == "[0][0]")
    }

    @Test func pressureOutsideTheRangeIsClamped() throws {
        let json = #"[[{"x":1,"y":2,"time":0,"pressure":1.5},{"x":2,"y":2,"time":8,"pressure":-0.25}]]"#
        let result = try InkDecoder().decode(Data(json.utf8))
        #expect(result.signature.samples.map(\.pressure) == [1, 0])
        #expect(result.assumptions.contains { $0.contains("2 pressure value(s) outside 0...1 were clamped") })
    }

    @Test func backwardsTimesAreRaised() throws {
        let json = #"[[{"x":1,"y":2,"time":100},{"x":2,"y":2,"time":90},{"x":3,"y":2,"time":120}]]"#
        let result = try InkDecoder().decode(Data(json.utf8))
        #expect(result.signature.samples.map(\.t) == [0, 0, 20])
        #expect(result.assumptions.contains { $0.contains("1 backwards timestamp") })
    }

    @Test(arguments: ["[]", "[[]]", "[[],[]]"])
    func emptySignaturesAreErrors(json: String) {
        guard case let .field(path, message) = decodeError(Data(json.utf8)) else {
            Issue.record("expected a field error")
            return
        }
        #expect(path.isEmpty)
        #expect(message.contains("no ink"))
    }

    @Test func limitsAreEnforced() throws {
        let data = try TestFiles.realInk("hwrt", "292934.json")
        #expect(decodeError(data, limits: DecodingLimits(maxBytes: 100))
                == .limitExceeded(what: "input size in bytes", limit: 100, actual: data.count))
        #expect(decodeError(data, limits: DecodingLimits(maxStrokes: 3))
                == .limitExceeded(what: "stroke count", limit: 3, actual: 4))
        #expect(decodeError(data, limits: DecodingLimits(maxSamplesPerStroke: 20))
                == .limitExceeded(what: "samples in stroke 0", limit: 20, actual: 21))
        #expect(decodeError(data, limits: DecodingLimits(maxSamples: 100))
                == .limitExceeded(what: "sample count", limit: 100, actual: 101))
        let uim = try TestFiles.realInk("wacom-uim", "Digital-Ink-1.json")
        #expect(decodeError(uim, limits: DecodingLimits(maxSamples: 500))
                == .limitExceeded(what: "sample count", limit: 500, actual: 782))
    }

    // MARK: Hostile XML

    @Test func refusesADoctypeWithEntities() {
        let laughs = """
        <?xml version="1.0"?>
        <!DOCTYPE ink [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
        <ink><trace>&lol2;</trace></ink>
        """
        guard case let .syntax(line, column, message) = decodeError(Data(laughs.utf8)) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(line == 2 && column == 1)
        #expect(message.contains("DOCTYPE"))
    }

    @Test func refusesAnExternalEntity() {
        let xxe = "<!DOCTYPE ink [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><ink><annotation>&xxe;</annotation></ink>"
        guard case let .syntax(_, _, message) = decodeError(Data(xxe.utf8), as: .inkml) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(message.contains("DOCTYPE"))
        // Without a DOCTYPE, an undeclared entity is an error too, not an empty string.
        let bare = "<ink>\n  <annotation type=\"a\">&xxe;</annotation></ink>"
        #expect(decodeError(Data(bare.utf8)) == .syntax(line: 2, column: 24,
            message: "undefined entity &xxe; (only &lt; &gt; &amp; &quot; &apos; and numeric references)"))
    }

    @Test func boundsNestingDepth() {
        let deep = "<ink>" + String(repeating: "<traceGroup>", count: 100_000) + "</ink>"
        guard case let .syntax(line, column, message) = decodeError(Data(deep.utf8)) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(line == 1)
        #expect(column == 6 + 12 * 63)
        #expect(message.contains("deeper than 64"))
    }

    @Test func boundsNamesAndAttributeValues() {
        let longValue = "<ink><annotation type=\"" + String(repeating: "a", count: 70_000) + "\">x</annotation></ink>"
        guard case let .syntax(_, _, m1) = decodeError(Data(longValue.utf8)) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(m1.contains("longer than 65536 bytes"))
        let longName = "<ink><" + String(repeating: "n", count: 300) + "/></ink>"
        guard case let .syntax(_, column, m2) = decodeError(Data(longName.utf8), as: .inkml) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(column == 7)
        #expect(m2.contains("longer than 256"))
    }

    @Test func reportsTheLineAndColumnInsideATrace() {
        let xml = "<ink>\n<trace>1 2, 3 4,\n 5 x</trace></ink>"
        #expect(decodeError(Data(xml.utf8)) == .syntax(line: 3, column: 4, message: "in <trace>: expected a number, found x"))
    }

    @Test(arguments: [
        ("<ink><trace>1 2</traceGroup></ink>", "does not match"),
        ("<ink><trace>1 2, 3 4 5</trace></ink>", "more values"),
        ("<ink><trace>'1 2</trace></ink>", "no value before it"),
        ("<ink><trace>1 2,, 3 4</trace></ink>", "empty point"),
        ("<ink><trace contextRef=\"#nope\">1 2</trace></ink>", "#nope names no <context>"),
        ("<ink><trace>1 NaN</trace></ink>", "expected a number"),
        ("<ink><trace>1 1e999</trace></ink>", "not a finite number"),
        ("<svg></svg>", "expected <ink>"),
        ("<ink><trace>1 2</trace></ink><ink/>", "after the root"),
        ("<ink a='1' a='2'/>", "twice"),
        ("<ink><!-- a -- b --></ink>", "'--'"),
        ("<ink><traceFormat xml:id='f' href='#f'/><trace>1 2</trace></ink>", "nest too deep"),
        ("<ink><context xml:id='c' contextRef='#c'/><trace contextRef='#c'>1 2</trace></ink>", "nest too deep"),
        ("<ink><brush xml:id='b' brushRef='#b'/><trace brushRef='#b'>1 2</trace></ink>", "nest too deep"),
        ("<ink><timestamp xml:id='t' timestampRef='#t'/><trace>1 2</trace></ink>", "nest too deep"),
        ("<ink><trace>1 2", "ends inside <trace>"),
        ("<ink><trace a=\"1>1 2</trace></ink>", "'<' inside the value"),
        ("<ink>&#0;</ink>", "invalid character reference"),
    ])
    func malformedInkMLNamesTheProblem(xml: String, expected: String) {
        guard case let .syntax(line, column, message) = decodeError(Data(xml.utf8), as: .inkml) else {
            Issue.record("expected a syntax error for \(xml)")
            return
        }
        #expect(line >= 1 && column >= 1)
        #expect(message.contains(expected), "\(message)")
    }
}
