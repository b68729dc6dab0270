// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Whatever arrives, the command answers with a clear error (exit 1, `FILE: reason`) or a correct output, within
/// its limits, and never leaves a partial output file.
@Suite struct HostileInputTests {
    /// A small valid native document, under 100 bytes.
    static let tiny = #"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,0],[9,9,8]]]}"#

    /// A native document with the given canvas and strokes text.
    static func native(canvas: String = #"{"width":60,"height":30}"#, strokes: String = "[[[1,2,0],[9,9,8]]]") -> String {
        #"{"format":"signature-ink","version":1,"canvas":\#(canvas),"channels":["x","y","t"],"strokes":\#(strokes)}"#
    }

    /// The files in `dir`, including hidden ones (a temporary output would be hidden).
    private func everything(in dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    }

    // MARK: Input size

    @Test func aFileOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
        let dir = try TemporaryDirectory()
        // A sparse 8 GiB file: reading it would take minutes and gigabytes; its size alone refuses it.
        let path = dir.path("huge.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("[[".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 8 << 30)
        try handle.close()
        let r = try CLIRunner.run(["render", path, "-o", dir.path("out.png")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(path): file size in bytes 8589934592 exceeds the limit of 67108864"), "\(r.stderr)")
        #expect(try everything(in: dir) == ["huge.json"])
    }

    @Test func maxInputBytesIsConfigurable() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("sig.json", Self.native())
        let size = Self.native().utf8.count
        let r = try CLIRunner.run(["info", path, "--max-input-bytes", "\(size - 1)"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("file size in bytes \(size) exceeds the limit of \(size - 1)"), "\(r.stderr)")
        #expect(try CLIRunner.run(["info", path, "--max-input-bytes", "\(size)"]).status == 0)
        #expect(try CLIRunner.run(["info", path, "--max-input-bytes", "0"]).status == 2)
    }

    @Test func anEndlessInputIsReadNoFurtherThanTheLimit() throws {
        // /dev/zero has no size to check: the read itself stops at the limit.
        let r = try CLIRunner.run(["info", "/dev/zero", "--max-input-bytes", "100000"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/dev/zero: file size in bytes 100001 exceeds the limit of 100000 (read so far)"), "\(r.stderr)")
    }

    // MARK: Decoding limits

    @Test(arguments: [
        ("--max-strokes", "1", "stroke count 2 exceeds the limit of 1"),
        ("--max-stroke-samples", "2", "samples in stroke 1 3 exceeds the limit of 2"),
        ("--max-samples", "4", "sample count 5 exceeds the limit of 4"),
        ("--max-coordinate", "65", "coordinate 70.0 exceeds the limit of 65.0"),
    ])
    func everyDecodingLimitHasAFlag(flag: String, value: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("sig.json", Self.native(strokes: "[[[1,2,0],[9,9,8]],[[20,2,30],[40,9,38],[70,9,46]]]"))
        let r = try CLIRunner.run(["render", path, "-o", dir.path("sig.png"), flag, value])
        #expect(r.status == 1)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(try everything(in: dir) == ["sig.json"])
        #expect(try CLIRunner.run(["render", path, "-o", dir.path("sig.png")]).status == 0)
    }

    @Test(arguments: ["--max-strokes", "--max-stroke-samples", "--max-samples", "--max-pixels", "--max-side", "--max-work"])
    func aLimitFlagMustBePositive(flag: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("sig.json", Self.tiny)
        let r = try CLIRunner.run(["render", path, "-o", dir.path("sig.png"), flag, "0"])
        #expect(r.status == 2)
        #expect(r.stderr.contains(flag), "\(r.stderr)")
    }

    // MARK: Render limits

    @Test func aHundredThousandSquareCanvasIsRefusedBeforeAllocation() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("huge.json", Self.native(canvas: #"{"width":100000,"height":100000}"#))
        let r = try CLIRunner.run(["render", path, "-o", dir.path("huge.png")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("huge.json: output side in pixels 100000 exceeds the limit of 32767"), "\(r.stderr)")
        #expect(try everything(in: dir) == ["huge.json"])
    }

    @Test(arguments: ["png", "svg", "pdf"])
    func anAbsurdCanvasIsRefusedInEveryOutputFormat(format: String) throws {
        let dir = try TemporaryDirectory()
        for canvas in [#"{"width":1e300,"height":10}"#, #"{"width":100,"height":10,"unitsPerInch":1e-300}"#] {
            let path = try dir.write("odd.json", Self.native(canvas: canvas))
            let r = try CLIRunner.run(["render", path, "-o", dir.path("odd.\(format)")])
            #expect(r.status == 1, "\(canvas) as \(format): \(r.stderr)")
            #expect(r.stderr.contains("odd.json: canvas"), "\(r.stderr)")
            #expect(try everything(in: dir) == ["odd.json"])
        }
        // The largest canvas the decoder accepts is too large for every output (pixels, page size), which
        // refuses it before any work.
        let path = try dir.write("odd.json", Self.native(canvas: #"{"width":10000000,"height":10000000}"#))
        let r = try CLIRunner.run(["render", path, "-o", dir.path("odd.\(format)")])
        #expect(r.status == 1, "\(format): \(r.stderr)")
        #expect(try everything(in: dir) == ["odd.json"])
    }

    @Test func maxPixelsAndMaxSideAreConfigurable() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("sig.json", Self.native())
        let pixels = try CLIRunner.run(["render", path, "-o", dir.path("sig.png"), "--max-pixels", "1799"])
        #expect(pixels.status == 1)
        #expect(pixels.stderr.contains("output pixels 1800 exceeds the limit of 1799"), "\(pixels.stderr)")
        let side = try CLIRunner.run(["render", path, "-o", dir.path("sig.png"), "--max-side", "59"])
        #expect(side.status == 1)
        #expect(side.stderr.contains("output side in pixels 60 exceeds the limit of 59"), "\(side.stderr)")
        #expect(try everything(in: dir) == ["sig.json"])
        #expect(try CLIRunner.run(["render", path, "-o", dir.path("sig.png"), "--max-pixels", "1800", "--max-side", "60"]).status == 0)
    }

    @Test func theWorkBudgetRefusesACostlyRenderNamingTheFileAndTheKnob() throws {
        let dir = try TemporaryDirectory()
        // One stroke zigzagging across the canvas, drawn with a pen far wider than the ink.
        let points = (0..<400).map { i in "[\(i % 2 == 0 ? 10 : 590),\(10 + 280 * Double(i) / 399),\(4 * i)]" }
        let path = try dir.write("zigzag.json", #"{"format":"signature-ink","version":1,"canvas":{"width":600,"height":300},"#
                                 + #""channels":["x","y","t"],"strokes":[["# + points.joined(separator: ",") + "]]}")
        let thick = try CLIRunner.run(["render", path, "-o", dir.path("z.png"), "--scale", "4", "--pen-width", "200",
                                       "--max-work", "16777216"])
        #expect(thick.status == 1)
        #expect(thick.stderr.contains("zigzag.json: the render would cost") && thick.stderr.contains("pen-width"), "\(thick.stderr)")
        #expect(try everything(in: dir) == ["zigzag.json"])
        // The default budget draws it.
        #expect(try CLIRunner.run(["render", path, "-o", dir.path("z.png"), "--scale", "4", "--pen-width", "200"]).status == 0)
    }

    @Test(arguments: ["1e9", "17", "0", "-2", "nan", "inf"])
    func anAbsurdScaleIsAUsageError(scale: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("sig.json", Self.tiny)
        let r = try CLIRunner.run(["render", path, "-o", dir.path("sig.png"), "--scale=\(scale)"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("scale"), "\(r.stderr)")
        #expect(try everything(in: dir) == ["sig.json"])
    }

    // MARK: Odd values

    @Test(arguments: [
        ("nan.json", #"[[{"x":NaN,"y":2,"time":0}]]"#, "nan.json: line 1, column"),
        ("inf.json", #"[[{"x":1e400,"y":2,"time":0}]]"#, "inf.json: line 1, column"),
        ("huge.json", #"[[{"x":1e300,"y":2,"time":0}]]"#, "huge.json: [0][0]: x 1e+300 exceeds the coordinate limit"),
        ("negative.json", #"[[{"x":1,"y":2,"time":-5}]]"#, "negative.json: [0][0]: time -5.0 ms is negative"),
        ("absurd.json", #"[[{"x":1,"y":2,"time":1e300}]]"#, "absurd.json: [0][0]: time 1e+300 ms is beyond the year 5000"),
        ("empty.json", "", "empty.json: the input is empty"),
        ("no-ink.json", "[[],[]]", "no-ink.json: the JSON stroke list file holds no ink samples: nothing to draw"),
        ("deep.json", String(repeating: "[", count: 100_000), "deep.json: "),
        ("laughs.inkml", "<?xml version=\"1.0\"?>\n<!DOCTYPE ink [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>\n<ink>&b;</ink>",
         "laughs.inkml: line 2, column 1: a DOCTYPE declaration is refused"),
        ("xxe.inkml", "<!DOCTYPE ink [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><ink><trace>&x;</trace></ink>",
         "xxe.inkml: line 1, column 1: a DOCTYPE declaration is refused"),
        ("native-pressure.json", #"{"format":"signature-ink","version":1,"channels":["x","y","t","pressure"],"strokes":[[[1,2,0,7]]]}"#,
         "native-pressure.json: strokes[0][0][3] (pressure): pressure 7.0 is outside 0...1"),
    ])
    func aBadValueIsAnErrorThatSaysWhere(name: String, content: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(name, content)
        let r = try CLIRunner.run(["render", path, "--out-dir", dir.path("out")])
        #expect(r.status == 1)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        let outputs = (try? FileManager.default.contentsOfDirectory(atPath: dir.path("out"))) ?? []
        #expect(outputs.isEmpty, "\(outputs)")
    }

    @Test func repairsAreReportedByInfo() throws {
        let dir = try TemporaryDirectory()
        let json = #"[[{"x":1,"y":2,"time":100,"pressure":1.5},{"x":2,"y":2,"time":90,"pressure":-1}],[],[{"x":5,"y":5,"time":200}]]"#
        let path = try dir.write("odd.json", json)
        let r = try CLIRunner.run(["info", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("assumed: 1 backwards timestamp(s) were raised to the previous sample's time"))
        #expect(r.stdout.contains("assumed: 2 pressure value(s) outside 0...1 were clamped into it"))
        #expect(r.stdout.contains("assumed: 1 empty stroke(s) were skipped"))
    }

    // MARK: Streams

    @Test func aLineTooLongForNDJSONFailsAloneAndTheStreamGoesOn() throws {
        let long = Self.native(strokes: "[[" + Array(repeating: "[1,2,0]", count: 100).joined(separator: ",") + "]]")
        let lines = [long, Self.tiny, "", long + long].joined(separator: "\n")
        let r = try CLIRunner.run(["render", "--ndjson", "--max-input-bytes", "100"], stdin: Data(lines.utf8))
        #expect(r.status == 1)
        let results = r.stdout.split(separator: "\n").map(String.init)
        #expect(results.count == 3)
        #expect(results[0] == #"{"line":1,"status":"failed","error":"line size in bytes \#(long.utf8.count) exceeds the limit of 100"}"#)
        #expect(results[1].hasPrefix(#"{"line":2,"status":"ok""#))
        #expect(results[2] == #"{"line":4,"status":"failed","error":"line size in bytes \#(2 * long.utf8.count) exceeds the limit of 100"}"#)
    }

    // MARK: No partial outputs

    @Test func aFailureLeavesNoPartialFileAndKeepsTheOldOutput() throws {
        let dir = try TemporaryDirectory()
        let bad = try dir.write("bad.json", Self.native(canvas: #"{"width":100000,"height":10}"#))
        let good = try dir.write("good.json", Self.native())
        try Data("old".utf8).write(to: URL(fileURLWithPath: dir.path("bad.png")))
        let single = try CLIRunner.run(["render", bad, "-o", dir.path("bad.png")])
        #expect(single.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("bad.png"))) == Data("old".utf8))
        let batch = try CLIRunner.run(["render", bad, good, "--out-dir", dir.path("out"), "--jobs", "2"])
        #expect(batch.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")) == ["good.png"])
        #expect(try everything(in: dir) == ["bad.json", "bad.png", "good.json", "out"])
    }

    @Test func anOutputThatCannotBeWrittenLeavesNothingBehind() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("sig.json", Self.native())
        // The output's folder is a file: the write fails after rendering.
        let blocker = try dir.write("blocker", "a file, not a folder")
        let r = try CLIRunner.run(["render", path, "-o", blocker + "/sig.png"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot write"), "\(r.stderr)")
        #expect(try everything(in: dir) == ["blocker", "sig.json"])
    }
}
