// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

@Suite struct InkMLFormatTests {
    static let mm = 96 / 25.4

    @Test func decodesDifferencesUnitsBrushesAndTimestamps() throws {
        let result = try InkDecoder().decode(TestFiles.fixture("inkml-difference-coded.inkml"))
        #expect(result.format == .inkml)
        let s = result.signature
        // The hover trace is skipped.
        #expect(s.strokes.map(\.count) == [4, 3, 2])
        #expect(s.startTime == 1_700_000_000_000)
        #expect(s.samples.map(\.t) == [0, 10, 20, 30, 50, 60, 70, 90, 100])
        // First differences, then second differences, then explicit values again (millimetres).
        let xs = s.samples.map { ($0.x / Self.mm * 1e9).rounded() / 1e9 }
        let ys = s.samples.map { ($0.y / Self.mm * 1e9).rounded() / 1e9 }
        #expect(xs == [10, 11, 12, 13, 20, 22, 24, 30, 31])
        #expect(ys == [20, 20.5, 21.5, 22, 20, 19, 18, 30, 31])
        // Force 0...1023 declared by min and max.
        let levels = s.samples.map { ($0.pressure! * 1023).rounded() }
        #expect(levels == [100, 150, 200, 250, 300, 280, 260, 400, 410])
        // The intermittent elevation is present once, 45 degrees.
        let altitudes = s.samples.compactMap(\.altitude)
        #expect(altitudes.count == 1 && abs(altitudes[0] - Float.pi / 4) < 1e-6)
        // Each trace's brush is its pen: the red brush takes the blue one's width by brushRef; the trace outside the
        // group has InkML's default brush.
        #expect(s.pens == [.constant(color: Color(red: 0x1a, green: 0x23, blue: 0x7e), width: 0.5 * Self.mm),
                           .constant(color: Color(red: 255, green: 0, blue: 0), width: 0.5 * Self.mm),
                           .constant(color: .black, width: nil)])
        #expect(s.metadata == ["writer": "A. N. Example & Co."])
        #expect(result.assumptions.contains { $0.contains("pen-up") })
        #expect(s.canvas == nil)
    }

    @Test func decodesWhatPlainFilesHold() throws {
        let result = try InkDecoder().decode(TestFiles.fixture("inkml-no-format-bom.inkml"))
        let s = result.signature
        #expect(s.strokes.map(\.count) == [3, 2])
        #expect(s.samples.map(\.x) == [100, 110, 120, 130, 140])
        #expect(s.startTime == nil)
        #expect(timesAreMonotonic(s))
        #expect(s.samples.map(\.t) == [0, 10, 20, 40, 50])
        #expect(result.assumptions.contains { $0.contains("no traceFormat: channels X Y assumed") })
        #expect(result.assumptions.contains { $0.contains("no T channel") })
        #expect(result.assumptions.contains { $0.contains("no units") })
    }

    @Test func readsAnInkSourceContextWithTilts() throws {
        let result = try InkDecoder().decode(TestFiles.fixture("inkml-inksource-context.inkml"))
        let s = result.signature
        #expect(s.strokes.map(\.count) == [3])
        // 2540 himetric = 1 inch = 96 CSS pixels.
        #expect(s.samples.map { ($0.x * 1e9).rounded() / 1e9 } == [96, 192, 288])
        #expect(s.samples.map { ($0.y * 1e9).rounded() / 1e9 } == [96, 96, 192])
        #expect(s.samples.map(\.pressure) == [Float(16384.0 / 32767), 1, 0])
        // 2024-05-06T07:08:09.250Z; no T channel, so 10 ms apart from there.
        #expect(s.startTime == 1_714_979_289_250)
        #expect(s.samples.map(\.t) == [0, 10, 20])
        // Upright, then tilted 45 degrees towards +x, then towards +y.
        let altitudes = s.samples.map { Double($0.altitude!) }
        let azimuths = s.samples.map { Double($0.azimuth!) }
        #expect(abs(altitudes[0] - .pi / 2) < 1e-6 && abs(altitudes[1] - .pi / 4) < 1e-6 && abs(altitudes[2] - .pi / 4) < 1e-6)
        #expect(abs(azimuths[1]) < 1e-6 && abs(azimuths[2] - .pi / 2) < 1e-6)
        #expect(s.pens.count == 1 && s.pens.first?.color == .black)
        #expect(s.pens.first?.constantWidth.map { abs($0 - 53 * 96 / 2540) < 1e-9 } == true)
        #expect(s.metadata.isEmpty)
        #expect(result.assumptions.contains { $0.contains("no T channel") })
    }

    @Test func infersATimeChannelFromThreeValues() throws {
        let xml = "<ink><trace>1 2 1700000000000, 3 4 1700000000016</trace></ink>"
        let result = try InkDecoder().decode(Data(xml.utf8))
        #expect(result.signature.startTime == 1_700_000_000_000)
        #expect(result.signature.samples.map(\.t) == [0, 16])
        #expect(result.assumptions.contains { $0.contains("X Y T assumed") })
    }

    @Test func convertsTiltsAndSeconds() throws {
        let xml = """
        <inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML"><inkml:traceFormat>
        <inkml:channel name="X" units="in"/><inkml:channel name="Y" units="pt" orientation="-ve"/>
        <inkml:channel name="T" units="s"/><inkml:channel name="OTx" units="rad"/><inkml:channel name="OTy" units="rad"/>
        </inkml:traceFormat><inkml:trace>1 72 0.5 0 0, 2 144 0.516 0.5 0</inkml:trace></inkml:ink>
        """
        let s = try InkDecoder().decode(Data(xml.utf8)).signature
        #expect(s.samples.map(\.x) == [96, 192])
        #expect(s.samples.map(\.y) == [-96, -192])
        #expect(abs(s.samples[1].t - 16) < 1e-9)
        #expect(abs(s.samples[0].altitude! - Float.pi / 2) < 1e-6)
        #expect(abs(Double(s.samples[1].altitude!) - (Double.pi / 2 - 0.5)) < 1e-6)
        #expect(s.samples[1].azimuth == 0)
    }

    @Test func readsUnknownUnitsAsDefaultsAndSaysSo() throws {
        let xml = "<ink><traceFormat><channel name='X' units='furlong'/><channel name='Y' units='himetric'/>"
            + "<channel name='T' units='fortnight'/></traceFormat><trace>1 2540 0, 2 5080 8</trace></ink>"
        let result = try InkDecoder().decode(Data(xml.utf8))
        #expect(result.signature.samples.map(\.x) == [1, 2])
        #expect(result.signature.samples.map { ($0.y * 1e9).rounded() / 1e9 } == [96, 192])
        #expect(result.signature.samples.map(\.t) == [0, 8])
        #expect(result.assumptions.contains { $0.contains("\"furlong\"") })
        #expect(result.assumptions.contains { $0.contains("\"fortnight\"") })
    }

    @Test func scalesForceWithoutARange() throws {
        let xml = "<ink><traceFormat><channel name='X'/><channel name='Y'/><channel name='F'/></traceFormat>"
            + "<trace>0 0 0, 1 1 512, 2 2 1023</trace></ink>"
        let result = try InkDecoder().decode(Data(xml.utf8))
        #expect(result.signature.samples.map(\.pressure) == [0, Float(512.0 / 1023), 1])
        #expect(result.assumptions.contains { $0.contains("0...1023") })
    }

    @Test func encodesWithDifferencesWhenExact() throws {
        var s = Signature(strokes: [[InkSample(x: 10, y: 20, t: 0, pressure: 0.5), InkSample(x: 12, y: 21, t: 8, pressure: 0.52)]],
                          startTime: 1_763_781_117_123)
        s.pens = [Pen()]
        let text = String(decoding: try InkEncoder().encode(s, as: .inkml), as: UTF8.self)
        #expect(text.contains("<trace>10 20 0 0.5, '2 '1 '8 0.52</trace>"))
        #expect(text.contains("<timestamp xml:id=\"ts0\" time=\"1763781117123\"/>"))
        #expect(text.contains("<brush xml:id=\"br0\"><brushProperty name=\"color\" value=\"#000000\"/></brush>"))
        #expect(try InkDecoder().decode(Data(text.utf8)).signature == s)
    }

    @Test(arguments: 0..<40)
    func roundTripsRandomSignatures(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(2000 + seed))
        let shape = SignatureShape(pressure: [.none, .everySample, .someSamples][seed % 3], angles: seed % 2 == 0,
                                   canvas: seed % 3 == 1, startTime: seed % 4 != 0, timeStep: seed % 5 == 0 ? 0.1 : 0.25)
        var s = random.signature(shape)
        if seed % 2 == 1 {
            s.metadata = ["device": "pen <\"tablet\"> & 'stylus'", "note\tkey": "line 1\r\nline 2\ttab"]
            s.pens = Array(repeating: .constant(color: Color(red: 0x1a, green: 0x23, blue: 0x7e), width: 2.5), count: s.strokeCount)
            if s.strokeCount > 1 { s.pens[1].color = Color(red: 255, green: 0, blue: 0) }
        }
        let back = try InkDecoder().decode(InkEncoder().encode(s, as: .inkml), as: .inkml).signature
        #expect(back == s)
    }
}
