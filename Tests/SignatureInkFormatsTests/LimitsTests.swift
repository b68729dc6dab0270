// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing
import SignatureInk
import SignatureInkFormats

/// Every limit in ``DecodingLimits`` and every odd value in every format gets the behaviour the table on
/// ``InkDecoder`` documents: a typed error that says where, or a repair that is reported.
@Suite struct LimitsTests {
    /// Every format the decoder reads.
    static let formats = InkFormat.allCases
    /// The formats that repair (all but the strict native one).
    static let repairing = InkFormat.allCases.filter { $0 != .native }

    // MARK: Limits

    @Test(arguments: formats)
    func anInputOverMaxBytesIsRefusedBeforeDecoding(format: InkFormat) {
        let data = HostileDocument.make(format, [[.init(1, 2, 0), .init(3, 4, 8)]])
        let limit = data.count - 1
        #expect(decodeError(data, as: format, limits: DecodingLimits(maxBytes: limit))
                == .limitExceeded(what: "input size in bytes", limit: limit, actual: data.count))
        // The size is checked before anything is parsed: garbage over the limit gets the same error.
        let garbage = Data(repeating: 0xFF, count: 64)
        #expect(decodeError(garbage, as: format, limits: DecodingLimits(maxBytes: 63))
                == .limitExceeded(what: "input size in bytes", limit: 63, actual: 64))
        #expect(decodeError(data, as: format, limits: DecodingLimits(maxBytes: data.count)) == nil)
    }

    @Test(arguments: formats)
    func moreStrokesThanMaxStrokesAreRefused(format: InkFormat) {
        let data = HostileDocument.make(format, HostileDocument.threeByThree)
        expectLimit(decodeError(data, as: format, limits: DecodingLimits(maxStrokes: 2)), limit: 2, format)
        #expect(decodeError(data, as: format, limits: DecodingLimits(maxStrokes: 3)) == nil)
    }

    @Test(arguments: formats)
    func moreSamplesInAStrokeThanMaxSamplesPerStrokeAreRefused(format: InkFormat) {
        let data = HostileDocument.make(format, HostileDocument.threeByThree)
        expectLimit(decodeError(data, as: format, limits: DecodingLimits(maxSamplesPerStroke: 2)), limit: 2, format)
        #expect(decodeError(data, as: format, limits: DecodingLimits(maxSamplesPerStroke: 3)) == nil)
    }

    @Test(arguments: formats)
    func moreSamplesThanMaxSamplesAreRefused(format: InkFormat) {
        let data = HostileDocument.make(format, HostileDocument.threeByThree)
        expectLimit(decodeError(data, as: format, limits: DecodingLimits(maxSamples: 8)), limit: 8, format)
        // SVC2004 counts its pen-up rows, which separate the strokes, in its declared sample count.
        let enough = format == .svc2004 ? 11 : 9
        #expect(decodeError(data, as: format, limits: DecodingLimits(maxSamples: enough)) == nil)
    }

    @Test(arguments: formats)
    func aCoordinateBeyondMaxCoordinateIsAFieldError(format: InkFormat) {
        let data = HostileDocument.make(format, [[.init(1, 2, 0), .init(150, 4, 8)]])
        guard case let .field(path, message) = decodeError(data, as: format, limits: DecodingLimits(maxCoordinate: 100)) else {
            Issue.record("\(format): expected a field error")
            return
        }
        #expect(!path.isEmpty, "\(format)")
        #expect(message.contains("limit"), "\(format): \(message)")
        let negative = HostileDocument.make(format, [[.init(1, -150, 0)]])
        #expect(decodeError(negative, as: format, limits: DecodingLimits(maxCoordinate: 100)) != nil, "\(format)")
        #expect(decodeError(data, as: format, limits: DecodingLimits(maxCoordinate: 150)) == nil, "\(format)")
    }

    @Test(arguments: [#"{"width":1e300,"height":10}"#, #"{"width":10,"height":10000001}"#, #"{"width":0,"height":10}"#,
                      #"{"width":10,"height":10,"unitsPerInch":1e-300}"#, #"{"width":10,"height":10,"unitsPerInch":1e300}"#])
    func aNativeCanvasBeyondTheLimitsIsAFieldError(canvas: String) {
        let json = #"{"format":"signature-ink","version":1,"canvas":\#(canvas),"channels":["x","y","t"],"strokes":[[[1,2,0]]]}"#
        guard case let .field(path, _) = decodeError(Data(json.utf8)) else {
            Issue.record("canvas \(canvas): expected a field error")
            return
        }
        #expect(path.hasPrefix("canvas"))
    }

    @Test(arguments: ["1e300 10 96", "10 1e8 96", "10 10 1e-300", "10 10 0", "-5 10 96"])
    func anInkMLCanvasBeyondTheLimitsIsAnError(canvas: String) {
        let xml = "<ink><annotation type=\"signature-ink:canvas\">\(canvas)</annotation><trace>1 2</trace></ink>"
        guard case let .syntax(line, column, message) = decodeError(Data(xml.utf8), as: .inkml) else {
            Issue.record("canvas \(canvas): expected a syntax error")
            return
        }
        #expect(line == 1 && column == 6)
        #expect(message.contains("coordinate limit"))
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        let d = DecodingLimits.default
        #expect(d.maxBytes == 64 << 20)
        #expect(d.maxStrokes == 100_000)
        #expect(d.maxSamplesPerStroke == 1_000_000)
        #expect(d.maxSamples == 4_000_000)
        #expect(d.maxCoordinate == 1e7)
    }

    /// A count limit is a ``FormatError/limitExceeded(what:limit:actual:)`` with the limit in it.
    private func expectLimit(_ error: FormatError?, limit: Int, _ format: InkFormat) {
        guard case let .limitExceeded(_, l, actual) = error else {
            Issue.record("\(format): expected a limit error, got \(String(describing: error))")
            return
        }
        #expect(l == limit, "\(format)")
        #expect(actual > limit, "\(format)")
    }

    // MARK: NaN, infinite and huge numbers

    @Test(arguments: formats)
    func aNaNCoordinateIsAnErrorThatSaysWhere(format: InkFormat) {
        for field in ["x", "y", "t", "p"] {
            let data = HostileDocument.make(format, [[.init(1, 2, 0), HostileSample(1, 2, 8).with(field, "NaN")]])
            let error = decodeError(data, as: format)
            #expect(error.map(hasPosition) == true, "\(format) \(field): \(String(describing: error))")
        }
    }

    @Test(arguments: formats)
    func anInfiniteValueIsAnErrorThatSaysWhere(format: InkFormat) {
        // 1e400 is beyond Double: every reader sees infinity or refuses the text.
        for field in ["x", "y", "t", "p"] {
            for text in ["1e400", "-1e400", "Infinity"] {
                let data = HostileDocument.make(format, [[.init(1, 2, 0), HostileSample(1, 2, 8).with(field, text)]])
                let error = decodeError(data, as: format)
                #expect(error.map(hasPosition) == true, "\(format) \(field)=\(text): \(String(describing: error))")
            }
        }
    }

    @Test(arguments: formats)
    func aHugeFiniteCoordinateIsAFieldError(format: InkFormat) {
        for text in ["1e300", "-1.7976931348623157e308"] {
            let data = HostileDocument.make(format, [[.init(1, 2, 0), HostileSample(1, 2, 8).with("x", text)]])
            guard case let .field(path, _) = decodeError(data, as: format) else {
                Issue.record("\(format) x=\(text): expected a field error")
                continue
            }
            #expect(!path.isEmpty, "\(format)")
        }
    }

    // MARK: Timestamps

    @Test(arguments: formats)
    func aNegativeTimeIsAFieldError(format: InkFormat) {
        let data = HostileDocument.make(format, [[.init(1, 2, -5)]])
        guard case let .field(path, message) = decodeError(data, as: format) else {
            Issue.record("\(format): expected a field error")
            return
        }
        #expect(!path.isEmpty, "\(format)")
        #expect(message.contains("-5"), "\(format): \(message)")
    }

    @Test(arguments: formats)
    func aTimeBeyondTheYear5000IsAFieldError(format: InkFormat) {
        let data = HostileDocument.make(format, [[.init(1, 2, 0), .init(2, 2, 1e15)]])
        guard case let .field(path, _) = decodeError(data, as: format) else {
            Issue.record("\(format): expected a field error")
            return
        }
        #expect(!path.isEmpty, "\(format)")
        // The largest accepted clock time decodes.
        let edge = HostileDocument.make(format, [[.init(1, 2, 1e14)]])
        #expect(decodeError(edge, as: format) == nil, "\(format)")
    }

    @Test(arguments: repairing)
    func aBackwardsTimeIsRaisedAndReported(format: InkFormat) throws {
        let data = HostileDocument.make(format, [[.init(1, 2, 100), .init(2, 2, 90), .init(3, 2, 120)]])
        let result = try InkDecoder().decode(data, as: format)
        #expect(result.signature.samples.map(\.t) == [0, 0, 20], "\(format)")
        #expect(result.assumptions.contains("1 backwards timestamp(s) were raised to the previous sample's time"), "\(format)")
    }

    @Test func aBackwardsTimeIsAnErrorInTheNativeFormat() {
        let data = HostileDocument.make(.native, [[.init(1, 2, 100), .init(2, 2, 90)]])
        #expect(decodeError(data) == .field(path: "strokes[0][1][2] (t)",
                                            message: "time 90.0 ms is earlier than the previous sample's 100.0 ms"))
    }

    @Test(arguments: repairing)
    func equalTimesAreKept(format: InkFormat) throws {
        let data = HostileDocument.make(format, [[.init(1, 2, 50), .init(2, 2, 50)]])
        let result = try InkDecoder().decode(data, as: format)
        #expect(result.signature.samples.map(\.t) == [0, 0], "\(format)")
        #expect(!result.assumptions.contains { $0.contains("backwards") }, "\(format)")
    }

    @Test(arguments: repairing)
    func aJumpOfOverAnHourInsideAStrokeIsAFieldError(format: InkFormat) {
        let data = HostileDocument.make(format, [[.init(1, 2, 0), .init(2, 2, 3_600_001)]])
        guard case let .field(_, message) = decodeError(data, as: format) else {
            Issue.record("\(format): expected a field error")
            return
        }
        #expect(message.contains("corrupt"), "\(format): \(message)")
    }

    @Test func aNativeStartTimeOutsideItsRangeIsAFieldError() {
        for start in ["-1", "1e15"] {
            let json = #"{"format":"signature-ink","version":1,"startTime":\#(start),"channels":["x","y","t"],"strokes":[[[1,2,0]]]}"#
            guard case let .field(path, _) = decodeError(Data(json.utf8)) else {
                Issue.record("startTime \(start): expected a field error")
                continue
            }
            #expect(path == "startTime")
        }
    }

    @Test func anInkMLTimestampBefore1970IsAFieldError() {
        let xml = """
            <ink><timestamp xml:id="t0" time="-100000"/><traceFormat><channel name="X"/><channel name="Y"/>\
            <channel name="T" respectTo="#t0"/></traceFormat><trace>1 2 0, 3 4 10</trace></ink>
            """
        guard case let .field(_, message) = decodeError(Data(xml.utf8), as: .inkml) else {
            Issue.record("expected a field error")
            return
        }
        #expect(message.contains("start time"))
    }

    /// An InkML document whose trace times count from a `timeString`.
    private func inkML(timeString: String) -> Data {
        Data(("<ink><timestamp xml:id=\"t0\" timeString=\"\(timeString)\"/><traceFormat><channel name=\"X\"/>"
              + "<channel name=\"Y\"/><channel name=\"T\" respectTo=\"#t0\"/></traceFormat><trace>1 2 0, 3 4 10</trace></ink>").utf8)
    }

    @Test func aTimeStringWithAHugeFractionIsAnErrorNotACrash() throws {
        // A fraction of hundreds of digits once crashed ICU (a division by zero) inside Foundation's formatter.
        let long = "2024-05-06T07:08:09." + String(repeating: "2", count: 300) + "50Z"
        #expect(decodeError(inkML(timeString: long), as: .inkml)
                == .syntax(line: 1, column: 6, message: "timeString=\"2024-05-06T07:08:09.22222222222222222222\" is not an ISO 8601 date and time"))
        let fuzzed = try Data(contentsOf: TestData.repositoryRoot.appendingPathComponent(
            "Fuzz/Corpus/inkml/crash-icu-long-fraction-in-timestring.inkml"))
        #expect(decodeError(fuzzed) != nil)
    }

    @Test(arguments: [
        ("2024-05-06T07:08:09Z", 1_714_979_289_000.0),
        ("2024-05-06T07:08:09.25Z", 1_714_979_289_250),
        ("2024-05-06T07:08:09.123999Z", 1_714_979_289_123),
        ("2024-05-06T09:08:09.5+02:00", 1_714_979_289_500),
        ("2024-05-06T02:38:09-04:30", 1_714_979_289_000),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("1970-01-01T00:00:00Z", 0),
    ])
    func aTimeStringGivesTheStartTime(text: String, milliseconds: Double) throws {
        #expect(try InkDecoder().decode(inkML(timeString: text)).signature.startTime == milliseconds)
    }

    @Test(arguments: ["2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-05-06T24:00:00Z", "2024-05-06 07:08:09Z",
                      "2024-05-06T07:08:09", "2024-05-06T07:08:09.Z", "2024-05-06T07:08:09+2:00", "24-05-06T07:08:09Z"])
    func aMalformedTimeStringIsAnError(text: String) {
        guard case let .syntax(_, _, message) = decodeError(inkML(timeString: text), as: .inkml) else {
            Issue.record("\(text): expected a syntax error")
            return
        }
        #expect(message.contains("is not an ISO 8601 date and time"))
    }

    // MARK: Pressure

    @Test(arguments: repairing)
    func pressureOutsideZeroToOneIsClampedAndReported(format: InkFormat) throws {
        let (high, low) = format == .svc2004 ? ("2000", "-100") : ("1.5", "-0.5")
        let data = HostileDocument.make(format, [[HostileSample(1, 2, 0).with("p", high), HostileSample(2, 2, 8).with("p", low),
                                                  HostileSample(3, 2, 16).with("p", format == .svc2004 ? "512" : "0.5")]])
        let result = try InkDecoder().decode(data, as: format)
        let pressures = result.signature.samples.map(\.pressure)
        #expect(pressures[0] == 1 && pressures[1] == 0, "\(format): \(pressures)")
        #expect(result.assumptions.contains("2 pressure value(s) outside 0...1 were clamped into it"), "\(format)")
    }

    @Test func pressureOutsideZeroToOneIsAnErrorInTheNativeFormat() {
        let data = HostileDocument.make(.native, [[HostileSample(1, 2, 0).with("p", "1.5")]])
        #expect(decodeError(data) == .field(path: "strokes[0][0][3] (pressure)", message: "pressure 1.5 is outside 0...1"))
    }

    // MARK: Empty strokes and signatures

    @Test(arguments: repairing.filter { $0 != .svc2004 })
    func anEmptyStrokeIsSkippedAndReported(format: InkFormat) throws {
        let data = HostileDocument.make(format, [[.init(1, 2, 0)], [], [.init(3, 4, 20)]])
        let result = try InkDecoder().decode(data, as: format)
        #expect(result.signature.strokeCount == 2, "\(format)")
        #expect(result.assumptions.contains("1 empty stroke(s) were skipped"), "\(format)")
    }

    @Test func anEmptyStrokeIsAnErrorInTheNativeFormat() {
        let data = HostileDocument.make(.native, [[.init(1, 2, 0)], []])
        #expect(decodeError(data) == .field(path: "strokes[1]", message: "an empty stroke (a stroke holds at least one sample)"))
    }

    @Test func pensUpInARowMakeNoEmptyStrokesInSVC2004() throws {
        let text = "5\n1 2 0 1\n5 5 10 0\n6 6 20 0\n7 7 30 0\n3 4 40 1\n"
        let result = try InkDecoder().decode(Data(text.utf8), as: .svc2004)
        #expect(result.signature.strokeCount == 2)
        #expect(!result.assumptions.contains { $0.contains("empty stroke") })
        #expect(result.assumptions.contains("3 pen-up sample(s) (button 0) were dropped"))
    }

    @Test(arguments: formats)
    func aSignatureWithNoSamplesIsAnError(format: InkFormat) {
        for strokes in [[], [[]], [[], []]] as [[[HostileSample]]] {
            if format == .native && !strokes.isEmpty { continue }  // an empty native stroke is its own error
            let data = HostileDocument.make(format, strokes)
            #expect(decodeError(data, as: format) == .field(
                path: "", message: "the \(format.displayName) file holds no ink samples: nothing to draw"), "\(format) \(strokes.count)")
        }
    }

    @Test func aNativeDocumentWithNoStrokesIsAnEmptySignatureToTheNativeDecoder() throws {
        let data = HostileDocument.make(.native, [])
        #expect(try NativeDecoder().decode(data).isEmpty)
    }

    @Test(arguments: formats)
    func emptyInputIsAnError(format: InkFormat) {
        let error = decodeError(Data(), as: format)
        #expect(error != nil, "\(format)")
    }

    // MARK: Hostile JSON

    @Test(arguments: formats.filter { $0 != .inkml && $0 != .svc2004 })
    func deeplyNestedJSONIsAnErrorNotAStackOverflow(format: InkFormat) {
        for depth in [1_000, 100_000] {
            let data = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            #expect(decodeError(data, as: format) != nil, "\(format) at depth \(depth)")
            let objects = Data((String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
            #expect(decodeError(objects, as: format) != nil, "\(format) objects at depth \(depth)")
        }
    }

    @Test func aNumberWithThousandsOfDigitsIsRead() throws {
        let digits = String(repeating: "1", count: 5000)
        let json = #"[[{"x":0.\#(digits),"y":2,"time":0}]]"#
        let result = try InkDecoder().decode(Data(json.utf8))
        #expect(abs(result.signature.samples[0].x - 0.1111111111) < 1e-9)
    }

    // MARK: Hostile XML

    @Test func billionLaughsIsRefusedAtTheDoctype() {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE ink [\n<!ENTITY lol0 \"lol\">\n"
        for k in 1...9 {
            xml += "<!ENTITY lol\(k) \"" + String(repeating: "&lol\(k - 1);", count: 10) + "\">\n"
        }
        xml += "]>\n<ink><annotation type=\"x\">&lol9;</annotation><trace>1 2</trace></ink>"
        #expect(decodeError(Data(xml.utf8), as: .inkml) == .syntax(line: 2, column: 1, message:
            "a DOCTYPE declaration is refused: InkML needs no DTD, and one could declare external or expanding entities"))
    }

    @Test func externalEntitiesAreRefusedInEveryForm() {
        let forms = [
            "<!DOCTYPE ink SYSTEM \"http://example.com/ink.dtd\"><ink><trace>1 2</trace></ink>",
            "<!DOCTYPE ink [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><ink><trace>1 2</trace></ink>",
            "<!doctype ink><ink><trace>1 2</trace></ink>",
        ]
        for xml in forms {
            guard case let .syntax(line, column, message) = decodeError(Data(xml.utf8), as: .inkml) else {
                Issue.record("expected a syntax error for \(xml)")
                continue
            }
            #expect(line == 1 && column == 1)
            #expect(message.contains("DOCTYPE"))
        }
        // An entity declaration outside a DOCTYPE is no markup InkML has.
        let bare = "<ink>\n<!ENTITY x SYSTEM \"file:///etc/passwd\"><trace>1 2</trace></ink>"
        #expect(decodeError(Data(bare.utf8), as: .inkml) == .syntax(line: 2, column: 1, message: "unexpected markup declaration"))
    }

    @Test func tooManyElementsAreRefused() {
        let xml = "<ink>" + String(repeating: "<a/>", count: 1_000_000) + "</ink>"
        guard case let .syntax(line, column, message) = decodeError(Data(xml.utf8), as: .inkml) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(line == 1)
        #expect(column == 6 + 4 * 999_999)
        #expect(message == "more than 1000000 elements")
    }

    @Test func tooManyAttributesAreRefused() {
        let attributes = (0..<65).map { " a\($0)=\"1\"" }.joined()
        let xml = "<ink>\n<trace\(attributes)>1 2</trace></ink>"
        guard case let .syntax(line, _, message) = decodeError(Data(xml.utf8), as: .inkml) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(line == 2)
        #expect(message.contains("more than 64 attributes"))
    }

    @Test func deepXMLIsRefusedWithItsPosition() {
        let deep = "<ink>\n" + String(repeating: "<traceGroup>", count: 65) + String(repeating: "</traceGroup>", count: 65) + "</ink>"
        #expect(decodeError(Data(deep.utf8), as: .inkml) == .syntax(line: 2, column: 1 + 12 * 63, message: "elements nested deeper than 64"))
        let allowed = "<ink>" + String(repeating: "<traceGroup>", count: 62) + "<trace>1 2</trace>"
            + String(repeating: "</traceGroup>", count: 62) + "</ink>"
        #expect(decodeError(Data(allowed.utf8), as: .inkml) == nil)
    }
}

/// One sample of a hostile document, each value as the text written into the file.
struct HostileSample {
    var x: String, y: String, t: String
    /// Pressure as the file writes it: `0...1`, or levels `0...1023` in SVC2004.
    var p: String

    init(_ x: Double, _ y: Double, _ t: Double, p: Double = 0.5) {
        self.x = Self.text(x); self.y = Self.text(y); self.t = Self.text(t); self.p = Self.text(p)
    }

    /// A copy with the named value (`x`, `y`, `t` or `p`) replaced by `text`.
    func with(_ field: String, _ text: String) -> HostileSample {
        var s = self
        switch field {
        case "x": s.x = text
        case "y": s.y = text
        case "t": s.t = text
        default: s.p = text
        }
        return s
    }

    private static func text(_ v: Double) -> String { v == v.rounded() && abs(v) <= 1e15 ? String(Int64(v)) : "\(v)" }
}

/// Writes the same strokes in every format, with the values' texts exactly as given, so that a test can put
/// `NaN` or `1e400` where a number belongs.
enum HostileDocument {
    /// Three strokes of three samples.
    static let threeByThree: [[HostileSample]] = (0..<3).map { (s: Int) -> [HostileSample] in
        (0..<3).map { (i: Int) -> HostileSample in
            let x = Double(10 * s + i), t = Double(100 * s + 10 * i)
            return HostileSample(x, Double(i), t)
        }
    }

    static func make(_ format: InkFormat, _ strokes: [[HostileSample]]) -> Data {
        Data(text(format, strokes).utf8)
    }

    private static func text(_ format: InkFormat, _ strokes: [[HostileSample]]) -> String {
        switch format {
        case .native:
            let body = strokes.map { "[" + $0.map { "[\($0.x),\($0.y),\($0.t),\($0.p)]" }.joined(separator: ",") + "]" }
            return #"{"format":"signature-ink","version":1,"channels":["x","y","t","pressure"],"strokes":["#
                + body.joined(separator: ",\n") + "]}"
        case .signaturePad:
            return "[" + strokes.map { stroke in
                #"{"penColor":"black","points":["# + stroke.map {
                    #"{"x":\#($0.x),"y":\#($0.y),"time":\#($0.t),"pressure":\#($0.p)}"#
                }.joined(separator: ",") + "]}"
            }.joined(separator: ",\n") + "]"
        case .strokeList:
            return "[" + strokes.map { stroke in
                "[" + stroke.map { #"{"x":\#($0.x),"y":\#($0.y),"time":\#($0.t),"pressure":\#($0.p)}"# }
                    .joined(separator: ",") + "]"
            }.joined(separator: ",\n") + "]"
        case .inkml:
            var xml = "<ink xmlns=\"http://www.w3.org/2003/InkML\">\n<traceFormat><channel name=\"X\"/><channel name=\"Y\"/>"
                + "<channel name=\"T\" units=\"ms\"/><channel name=\"F\" min=\"0\" max=\"1\"/></traceFormat>\n"
            for stroke in strokes {
                xml += "<trace>" + stroke.map { "\($0.x) \($0.y) \($0.t) \($0.p)" }.joined(separator: ", ") + "</trace>\n"
            }
            return xml + "</ink>\n"
        case .svc2004:
            // Pen-up rows (button 0) separate the strokes; pressure is written as levels.
            var rows: [String] = []
            for (k, stroke) in strokes.enumerated() {
                if k > 0 { rows.append("0 0 0 0 0 0 0") }
                for s in stroke { rows.append("\(s.x) \(s.y) \(s.t) 1 0 0 \(s.p == "0.5" ? "512" : s.p)") }
            }
            return "\(rows.count)\n" + rows.map { $0 + "\n" }.joined()
        case .uim:
            let kinds = ["X", "Y", "Timestamp", "Pressure"]
            let channels = kinds.map { #"{"id":"\#($0)","type":"will://input/3.0/channel/\#($0)"}"# }.joined(separator: ",")
            let data = strokes.map { stroke in
                let columns = [stroke.map(\.x), stroke.map(\.y), stroke.map(\.t), stroke.map(\.p)]
                let dataChannels = zip(kinds, columns).map { kind, texts in
                    #"{"sensorChannelID":"\#(kind)","values":[\#(deltas(texts).joined(separator: ","))]}"#
                }
                return #"{"timestamp":"0","dataChannels":[\#(dataChannels.joined(separator: ","))]}"#
            }
            return #"{"inputData":{"inputContextData":{"sensorContexts":[{"sensorChannelsContext":[{"channels":[\#(channels)]}]}]},"#
                + #""sensorData":[\#(data.joined(separator: ",\n"))]}}"#
        }
    }

    /// UIM stores each value as the difference from the previous one: the differences of numeric texts, and
    /// any other text as it is.
    private static func deltas(_ texts: [String]) -> [String] {
        var previous = 0.0
        return texts.map { text in
            guard let v = Double(text), v.isFinite, abs(v) < 1e15 else { return text }
            defer { previous = v }
            let d = v - previous
            return d == d.rounded() ? String(Int64(d)) : "\(d)"
        }
    }
}

/// The native writer refuses what the strict native reader would refuse, so every file it writes reads back.
@Suite struct NativeWriterLimitsTests {
    @Test(arguments: [
        [InkSample(x: 1, y: 2, t: -5)],
        [InkSample(x: 1, y: 2, t: 1e15)],
        [InkSample(x: 1, y: 2, t: 10), InkSample(x: 1, y: 2, t: 9)],
        [InkSample(x: 1, y: 2, t: 0, pressure: 1.5)],
        [InkSample(x: 1, y: 2, t: 0, pressure: -0.1)],
        [InkSample(x: .nan, y: 2, t: 0)],
    ])
    func aValueTheReaderRefusesIsUnencodable(stroke: [InkSample]) {
        #expect(throws: FormatError.self) { try NativeEncoder().encode(Signature(strokes: [stroke])) }
    }

    @Test(arguments: [-1.0, 1e15, .nan])
    func aStartTimeTheReaderRefusesIsUnencodable(start: Double) {
        let signature = Signature(strokes: [[InkSample(x: 1, y: 2, t: 0)]], startTime: start)
        #expect(throws: FormatError.self) { try NativeEncoder().encode(signature) }
    }
}
