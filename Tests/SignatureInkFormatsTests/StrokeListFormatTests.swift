// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import InkTestSupport
import SignatureInk
import SignatureInkFormats

@Suite struct StrokeListFormatTests {
    @Test(arguments: [("292934.json", [25, 23, 36, 19, 14, 23, 23]), ("293035.json", [126, 31]),
                      ("293036.json", [185]), ("97705.json", [64])])
    func decodesTheRealSymbols(name: String, strokeLengths: [Int]) throws {
        let result = try InkDecoder().decode(TestFiles.realInk("hwrt", name))
        #expect(result.format == .strokeList)
        let s = result.signature
        #expect(s.strokes.map(\.count) == strokeLengths)
        #expect(timesAreMonotonic(s))
        #expect(!s.hasPressure)
        #expect((s.startTime ?? 0) > 1.3e12)
        #expect(s.samples.first?.t == 0)
        // Median intervals of 8-9 ms (32 for 97705), as SOURCES.md lists them.
        let rate = try #require(s.samplingRate)
        #expect(name == "97705.json" ? rate == 1000 / 32 : (1000 / 9...1000 / 8).contains(rate))
    }

    @Test func firstSymbolStartsWhereTheFileDoes() throws {
        let s = try InkDecoder().decode(TestFiles.realInk("hwrt", "97705.json")).signature
        #expect(s.startTime == 1_377_173_554_837)
        #expect(s.samples[0] == InkSample(x: 328.5, y: 223.125, t: 0))
        #expect(s.samples[1] == InkSample(x: 326.5, y: 225.125, t: 31))
    }

    @Test func keepsADuplicateTimestamp() throws {
        let s = try InkDecoder().decode(TestFiles.realInk("hwrt", "97705-dupe-time.json")).signature
        #expect(s.samples.count == 64)
        #expect(timesAreMonotonic(s))
        #expect(zip(s.samples, s.samples.dropFirst()).contains { $0.t == $1.t })
    }

    @Test(arguments: ["97705-low-time.json", "97705-wild-point.json"])
    func refusesATimeJumpOfYears(name: String) throws {
        let error = try #require(decodeError(TestFiles.realInk("hwrt", name)))
        guard case let .field(path, message) = error else {
            Issue.record("expected a field error, got \(error)")
            return
        }
        // The first sample is 3e11 ms early; the wild-point copy puts a point at (1000, 1000) before it.
        #expect(path == (name == "97705-low-time.json" ? "[0][1]" : "[0][2]"))
        #expect(message.contains("jumps"))
    }

    @Test func aListWithoutTimesGetsAssumedOnes() throws {
        let result = try InkDecoder().decode(Data(#"[[{"x":1,"y":2},{"x":3,"y":4}],[{"x":5,"y":6}]]"#.utf8))
        #expect(result.signature.samples.map(\.t) == [0, 10, 30])
        #expect(result.signature.startTime == nil)
        #expect(result.assumptions == ["no point has a time: samples assumed 10 ms apart"])
        let mixed = #"[[{"x":1,"y":2,"time":5},{"x":3,"y":4}]]"#
        #expect(decodeError(Data(mixed.utf8)) == .field(path: "[0][1].time", message: "missing, though earlier points have one"))
    }

    @Test func encodesPressureOnlyWhereItIs() throws {
        let s = Signature(strokes: [[InkSample(x: 1, y: 2, t: 0, pressure: 0.5), InkSample(x: 1.25, y: 2, t: 8)]],
                          startTime: 1_700_000_000_000)
        let text = String(decoding: try InkEncoder().encode(s, as: .strokeList), as: UTF8.self)
        #expect(text == "[\n[{\"x\":1,\"y\":2,\"time\":1700000000000,\"pressure\":0.5},{\"x\":1.25,\"y\":2,\"time\":1700000000008}]]\n")
    }

    @Test(arguments: 0..<40)
    func roundTripsRandomSignatures(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(1000 + seed))
        let shape = SignatureShape(pressure: [.none, .everySample, .someSamples][seed % 3], startTime: seed % 4 != 0)
        let s = random.signature(shape)
        let back = try InkDecoder().decode(InkEncoder().encode(s, as: .strokeList), as: .strokeList).signature
        #expect(back == s)
    }

    @Test(arguments: [
        (#"[[{"x":1,"y":2,"time":3},]]"#, 1, 26),   // a trailing comma, which JSONDecoder let through
        (#"[[{"x":1,"y":2,"time":3,}]]"#, 1, 25),
        (#"[[{"x":1,"y":2,"time":3,"note":"\ud800"}]]"#, 1, 33),   // a lone surrogate in an ignored field
        (#"[[{"x":1,"y":2,"time":3,"z":-01}]]"#, 1, 30),   // a leading zero in an ignored field
    ])
    func malformedJSONIsASyntaxErrorWhereItStands(json: String, line: Int, column: Int) {
        #expect(isSyntaxError(json, as: .strokeList, line: line, column: column),
                "\(json): \(String(describing: decodeError(Data(json.utf8), as: .strokeList)))")
    }

    @Test func fieldErrorsKeepTheirOrderAndPaths() {
        // A point's fields are checked x, y, time, pressure, wherever their keys stand.
        let json = #"[[{"pressure":"hard","time":"now","y":2,"x":1}]]"#
        #expect(decodeError(Data(json.utf8), as: .strokeList) == .field(path: "[0][0].time", message: "expected a number"))
        let noY = #"[[{"x":1,"y":null}]]"#
        #expect(decodeError(Data(noY.utf8), as: .strokeList) == .field(path: "[0][0].y", message: "expected a number, found null"))
        let notAStroke = #"[[{"x":1,"y":2}],{"x":1,"y":2}]"#
        #expect(decodeError(Data(notAStroke.utf8), as: .strokeList) == .field(path: "[1]", message: "expected an array"))
        // A key written with escapes is the same key; the first of a repeated key counts.
        let escaped = #"[[{"\u0078":1,"y":2,"y":"two","time":1700000000000}]]"#
        #expect(decodeError(Data(escaped.utf8), as: .strokeList) == nil)
    }
}
