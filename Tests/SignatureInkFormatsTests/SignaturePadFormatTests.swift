// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import InkTestSupport
import SignatureInk
import SignatureInkFormats

@Suite struct SignaturePadFormatTests {
    @Test(arguments: [("face.derived.json", 3, 18, 1_523_730_547_109.0), ("square.derived.json", 1, 25, 1_637_131_731_972.0)])
    func decodesTheRealFixtures(name: String, strokes: Int, points: Int, start: Double) throws {
        let data = try TestFiles.realInk("signature-pad", name)
        let result = try InkDecoder().decode(data)
        #expect(result.format == .signaturePad)
        let s = result.signature
        #expect(s.strokeCount == strokes)
        #expect(s.samples.count == points)
        #expect(s.startTime == start)
        #expect(s.samples.first?.t == 0)
        #expect(timesAreMonotonic(s))
        // A mouse: every pressure 0, read as none.
        #expect(!s.hasPressure)
        #expect(result.assumptions.contains { $0.contains("pressure") })
        // Every setting is signature_pad's default, so nothing needs keeping.
        #expect(s.metadata.isEmpty)
    }

    @Test func faceHasItsFirstPointsInCSSPixels() throws {
        let s = try InkDecoder().decode(TestFiles.realInk("signature-pad", "face.derived.json")).signature
        #expect(s.strokes[0].first == InkSample(x: 125, y: 54, t: 0))
        #expect(s.strokes[1].first == InkSample(x: 175, y: 54, t: 666))
        #expect(s.strokes[2].last == InkSample(x: 234, y: 59, t: 1_523_730_548_924 - 1_523_730_547_109))
    }

    @Test(arguments: ["face.derived.json", "square.derived.json"])
    func reencodingKeepsEveryValue(name: String) throws {
        let original = try TestFiles.realInk("signature-pad", name)
        let decoded = try InkDecoder().decode(original).signature
        let encoded = try InkEncoder().encode(decoded, as: .signaturePad)
        let a = try JSONSerialization.jsonObject(with: original) as? NSArray
        let b = try JSONSerialization.jsonObject(with: encoded) as? NSArray
        #expect(a != nil)
        #expect(a == b)
    }

    @Test func keepsPenSettingsPerGroup() throws {
        let json = """
        [{"penColor":"#1a237e","dotSize":1.5,"minWidth":1,"maxWidth":4,"velocityFilterWeight":0.5,
          "compositeOperation":"source-over","points":[{"x":1,"y":2,"time":1700000000000,"pressure":0.5}]},
         {"penColor":"red","dotSize":1.5,"minWidth":1,"maxWidth":4,"velocityFilterWeight":0.5,
          "compositeOperation":"multiply","points":[]},
         {"penColor":"red","dotSize":1.5,"minWidth":1,"maxWidth":4,"velocityFilterWeight":0.5,
          "compositeOperation":"multiply","points":[{"x":3,"y":4,"time":1700000000016,"pressure":0.25}]}]
        """
        let result = try InkDecoder().decode(Data(json.utf8))
        let s = result.signature
        #expect(s.strokeCount == 2)
        // The settings are the pens, and only the pens.
        #expect(s.metadata.isEmpty)
        var red = Pen.signaturePad(color: Color(red: 255, green: 0, blue: 0), minWidth: 1, maxWidth: 4, dotSize: 1.5,
                                   velocityFilterWeight: 0.5, erases: false)
        red.compositeOperation = "multiply"
        #expect(s.pens == [.signaturePad(color: Color(red: 0x1a, green: 0x23, blue: 0x7e), minWidth: 1, maxWidth: 4,
                                         dotSize: 1.5, velocityFilterWeight: 0.5, erases: false), red])
        #expect(s.samples.map(\.pressure) == [0.5, 0.25])
        #expect(result.assumptions.contains { $0.contains("1 empty stroke") })
        let again = try InkDecoder().decode(InkEncoder().encode(s, as: .signaturePad)).signature
        #expect(again == s)
    }

    @Test func missingSettingsAndPressureMeanDefaultsAndNone() throws {
        let json = #"[{"points":[{"x":1,"y":2,"time":5},{"x":2,"y":2,"time":9}]}]"#
        let result = try InkDecoder().decode(Data(json.utf8))
        #expect(result.signature.metadata.isEmpty)
        #expect(result.signature.pens == [.signaturePad(color: .black, minWidth: 0.5, maxWidth: 2.5, dotSize: 0,
                                                        velocityFilterWeight: 0.7, erases: false)])
        #expect(!result.signature.hasPressure)
        #expect(result.signature.startTime == nil)
        #expect(result.signature.samples.map(\.t) == [0, 4])
        #expect(result.assumptions.contains { $0.contains("capture date is unknown") })
    }

    @Test func rejectsANonNumericSettingWhenEncoding() {
        var s = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0)]])
        s.pens = [Pen(minWidth: .nan, maxWidth: 4)]
        #expect(throws: FormatError.self) { try InkEncoder().encode(s, as: .signaturePad) }
    }

    @Test(arguments: 0..<40)
    func roundTripsRandomSignatures(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let shape = SignatureShape(pressure: seed % 4 == 0 ? .none : .everySample, startTime: seed % 5 != 0)
        let s = random.signature(shape)
        let back = try InkDecoder().decode(InkEncoder().encode(s, as: .signaturePad), as: .signaturePad).signature
        // Every group records a pen; the random signature has none.
        #expect(back.withoutPens == s)
        #expect(back.pens.count == s.strokeCount)
    }

    @Test func aSettingErrorComesBeforeAPointErrorWhereverTheKeysStand() {
        let json = #"[{"points":[{"x":1,"y":2,"time":"soon"}],"penColor":5}]"#
        #expect(decodeError(Data(json.utf8), as: .signaturePad) == .field(path: "[0].penColor", message: "expected a string"))
        let points = #"[{"penColor":"red","points":[{"x":1,"y":2,"time":"soon"}]}]"#
        #expect(decodeError(Data(points.utf8), as: .signaturePad) == .field(path: "[0].points[0].time", message: "expected a number"))
        let missing = #"[{"penColor":"red"}]"#
        #expect(decodeError(Data(missing.utf8), as: .signaturePad) == .field(path: "[0].points", message: "missing"))
    }

    @Test(arguments: [
        (#"[{"points":[{"x":1,"y":2,"time":3},]}]"#, 35),   // a trailing comma
        (#"[{"points":[{"x":1,"y":2,"time":3,}]}]"#, 34),
        (#"[{"points":[],}]"#, 15),
        (#"[{"penColor":"\ud800","points":[{"x":1,"y":2,"time":3}]}]"#, 14),  // a lone surrogate
        (#"[{"points":[{"x":01,"y":2,"time":3}]}]"#, 18),   // a leading zero
        (#"[{"points":[{"x":1,"y":2,"time":3,"z":1.}]}]"#, 40),
    ])
    func malformedJSONFoundationsDecoderLetThroughIsASyntaxError(json: String, column: Int) {
        guard case let .syntax(line, col, _) = decodeError(Data(json.utf8), as: .signaturePad) else {
            Issue.record("expected a syntax error for \(json)")
            return
        }
        #expect(line == 1)
        #expect(col > 1 && col <= column + 1, "\(json): column \(col)")
    }

    @Test func anUnderflowingNumberReadsAsZero() throws {
        let json = #"[{"dotSize":1e-400,"points":[{"x":1e-400,"y":2,"time":3,"pressure":1e-400}]}]"#
        let s = try InkDecoder().decode(Data(json.utf8), as: .signaturePad).signature
        #expect(s.samples == [InkSample(x: 0, y: 2, t: 0)])
        #expect(s.metadata.isEmpty)
    }

    @Test func aNumberBeyondDoubleIsASyntaxErrorWithAPosition() {
        let json = #"[{"points":[{"x":1,"y":1e400,"time":3}]}]"#
        #expect(hasPosition(decodeError(Data(json.utf8), as: .signaturePad) ?? .unknownFormat("decoded")))
    }
}
