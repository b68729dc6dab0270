// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

@Suite struct UIMFormatTests {
    /// Strokes, points and median positive interval in ms, as `Tests/Fixtures/realink/SOURCES.md` gives them
    /// (counted there by the fixture script, independently of the decoder).
    static let files: [(String, Int, Int, Double)] = [
        ("Value-of-Ink-1.json", 60, 1168, 16),
        ("Digital-Ink-is-processable-1.json", 60, 1011, 9),
        ("Digital-Ink-1.json", 60, 782, 39),
        ("Hello-World-1.json", 60, 4140, 16),
        ("Cell-Structure-1.json", 60, 842, 16),
    ]

    @Test(arguments: files)
    func decodesTheRealDocuments(file: (String, Int, Int, Double)) throws {
        let (name, strokes, points, medianInterval) = file
        let result = try InkDecoder().decode(TestFiles.realInk("wacom-uim", name))
        #expect(result.format == .uim)
        let s = result.signature
        #expect(s.strokeCount == strokes)
        #expect(s.samples.count == points)
        #expect(s.samplingRate == 1000 / medianInterval)
        #expect(timesAreMonotonic(s))
        #expect(pressuresAreNormalised(s))
        #expect(s.samples.allSatisfy { $0.pressure != nil && $0.altitude != nil && $0.azimuth != nil })
        #expect(s.samples.allSatisfy { (0...1.6).contains($0.altitude!) })
        // Recorded in March 2021.
        let start = try #require(s.startTime)
        #expect((1_614_556_800_000...1_617_235_200_000).contains(start))
        #expect(s.metadata["uim.app.id"] == "will3-sdk-for-ink-web-demo")
        #expect(s.canvas == nil)
        // CSS pixels on a 1920x1080 screen.
        let b = try #require(s.bounds)
        #expect(b.minX >= 0 && b.maxX <= 1920 && b.minY >= 0 && b.maxY <= 1080)
    }

    @Test func firstSampleMatchesTheHandSummedDeltas() throws {
        let s = try InkDecoder().decode(TestFiles.realInk("wacom-uim", "Digital-Ink-1.json")).signature
        #expect(s.startTime == 1_615_130_912_663)
        let first = s.samples[0]
        #expect(first.x == 299 && first.y == 130.75 && first.t == 0)
        #expect(first.pressure == 0.12 && first.altitude == 0.71 && first.azimuth == -0.11)
        // Second sample: deltas 100, 0, 11, 22 on X, Y, Timestamp, Pressure.
        let second = s.samples[1]
        #expect(second.x == 300 && second.y == 130.75 && second.t == 11 && second.pressure == 0.34)
    }

    @Test func convertsUnitsFromTheChannelResolution() throws {
        // X in millimetres (1000 per metre) with one decimal; time in seconds with 3 decimals.
        let json = """
        {"inputData":{"inputContextData":{"sensorContexts":[{"sensorChannelsContext":[{"channels":[
          {"id":"x","type":"will://input/3.0/channel/X","resolution":1000,"precision":1},
          {"id":"y","type":"will://input/3.0/channel/Y","resolution":1000,"precision":1},
          {"id":"t","type":"will://input/3.0/channel/Timestamp","resolution":1,"precision":3}]}]}]},
         "sensorData":[{"timestamp":"1700000000000","dataChannels":[
          {"sensorChannelID":"x","values":[254,254]},{"sensorChannelID":"y","values":[0,127]},
          {"sensorChannelID":"t","values":[0,16]}]}]}}
        """
        let s = try InkDecoder().decode(Data(json.utf8)).signature
        // 25.4 mm is 96 CSS pixels; 16 thousandths of a second are 16 ms.
        #expect(abs(s.samples[0].x - 96) < 1e-9)
        #expect(abs(s.samples[1].x - 192) < 1e-9)
        #expect(abs(s.samples[1].y - 48) < 1e-9)
        #expect(abs(s.samples[1].t - 16) < 1e-3)
        #expect(!s.hasPressure)
    }

    @Test func namesAnUndeclaredChannel() {
        let json = """
        {"inputData":{"inputContextData":{"sensorContexts":[]},
         "sensorData":[{"timestamp":"1700000000000","dataChannels":[{"sensorChannelID":"nope","values":[1]}]}]}}
        """
        let error = decodeError(Data(json.utf8))
        #expect(error == .field(path: "inputData.sensorData[0].dataChannels[0].sensorChannelID",
                                message: "\"nope\" is not a declared sensor channel"))
    }

    @Test(arguments: [
        // A trailing comma, which JSONDecoder let through.
        (#"{"inputData":{"sensorData":[],"inputContextData":{"sensorContexts":[],}}}"#, 1, 71),
        // A leading zero and a lone surrogate in ignored fields.
        (#"{"inputData":{"sensorData":[],"inputContextData":{"sensorContexts":[],"note":-01}}}"#, 1, 80),
        (#"{"inputData":{"sensorData":[],"note":"\ud800","inputContextData":{"sensorContexts":[]}}}"#, 1, 39),
    ])
    func malformedJSONIsASyntaxErrorWhereItStands(json: String, line: Int, column: Int) {
        #expect(isSyntaxError(json, as: .uim, line: line, column: column),
                "\(json): \(String(describing: decodeError(Data(json.utf8), as: .uim)))")
    }

    @Test func fieldErrorsKeepTheirOrderAndPaths() {
        // The channel declarations are checked before the strokes, and a stroke's timestamp before its
        // channels, wherever their keys stand.
        func json(id: String, timestamp: String) -> Data {
            Data(("""
            {"inputData":{"sensorData":[{"dataChannels":[{"values":[1,"2"],"sensorChannelID":"x"}],"timestamp":\(timestamp)}],
             "inputContextData":{"sensorContexts":[{"sensorChannelsContext":[{"channels":[{"type":"X","id":\(id)}]}]}]}}}
            """).utf8)
        }
        let channels = "inputData.inputContextData.sensorContexts[0].sensorChannelsContext[0].channels[0]"
        #expect(decodeError(json(id: "7", timestamp: #""soon""#), as: .uim)
                == .field(path: "\(channels).id", message: "expected a string"))
        #expect(decodeError(json(id: #""x""#, timestamp: #""soon""#), as: .uim)
                == .field(path: "inputData.sensorData[0].timestamp", message: #""soon" is not a number of milliseconds"#))
        #expect(decodeError(json(id: #""x""#, timestamp: "null"), as: .uim)
                == .field(path: "inputData.sensorData[0].timestamp", message: "expected a number, found null"))
        #expect(decodeError(json(id: #""x""#, timestamp: "1"), as: .uim)
                == .field(path: "inputData.sensorData[0].dataChannels[0].values[1]", message: "expected a number"))
        let noData = #"{"inputData":{"inputContextData":{"sensorContexts":[]}}}"#
        #expect(decodeError(Data(noData.utf8), as: .uim) == .field(path: "inputData.sensorData", message: "missing"))
    }

    @Test func refusesAnEncodeRequest() {
        let s = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0)]])
        #expect(throws: FormatError.self) { try InkEncoder().encode(s, as: .uim) }
    }
}
