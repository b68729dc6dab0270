// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender
import Testing

@Suite struct NDJSONTests {
    let native = #"{"format":"signature-ink","version":1,"canvas":{"width":120,"height":60},"channels":["x","y","t"],"strokes":[[[10,30,0],[110,30,16]]]}"#
    let signaturePad = #"[{"penColor":"black","dotSize":0,"minWidth":0.5,"maxWidth":2.5,"velocityFilterWeight":0.7,"compositeOperation":"source-over","points":[{"x":10,"y":10,"time":1523730548448,"pressure":0},{"x":60,"y":40,"time":1523730548470,"pressure":0}]}]"#

    func parse(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func base64ResultsInInputOrderThroughAPipe() throws {
        let lines = [native, "{broken", "", signaturePad, native]
        let r = try CLIRunner.run(["render", "--ndjson", "--jobs", "2"], stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(r.status == 1)
        let results = try parse(r.stdout)
        #expect(results.map { $0["line"] as? Int } == [1, 2, 4, 5])
        #expect(results.map { $0["status"] as? String } == ["ok", "failed", "ok", "ok"])
        #expect((results[1]["error"] as? String)?.contains("matches no known stroke format") == true)
        let base64 = try #require(results[0]["data"] as? String)
        let data = try #require(Data(base64Encoded: base64))
        let png = try DecodedPNG(Array(data))
        #expect(png.width == 120 && png.height == 60)
        #expect(results[0]["sha256"] as? String == HexDigest.sha256(Array(data)))
        #expect(results[0]["sha256"] as? String == results[3]["sha256"] as? String)
    }

    @Test func outputFilesWithAnOutputDirectory() throws {
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(["render", "--ndjson", "--out-dir", dir.path("out")],
                                  stdin: Data((native + "\n" + signaturePad + "\n").utf8))
        #expect(r.status == 0, "\(r.stderr)")
        let results = try parse(r.stdout)
        #expect(results.count == 2)
        for result in results {
            let path = try #require(result["output"] as? String)
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(result["bytes"] as? Int == bytes.count)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).sorted() == ["000001.png", "000002.png"])
    }

    @Test func ndjsonTakesNoInputFiles() throws {
        let r = try CLIRunner.run(["render", "--ndjson", "x.json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--ndjson reads standard input"))
    }
}

@Suite struct ConvertCommandTests {
    @Test func convertsToSignaturePadAndBackWithoutLoss() throws {
        let dir = try TemporaryDirectory()
        let input = TestData.sampleStrokes.appendingPathComponent("short-name.json").path
        let r = try CLIRunner.run(["convert", input, "-o", dir.path("pad.json"), "--to", "signature-pad"])
        #expect(r.status == 0, "\(r.stderr)")
        let original = try NativeDecoder().decode(Data(contentsOf: URL(fileURLWithPath: input)))
        let pad = try InkDecoder().decode(Data(contentsOf: URL(fileURLWithPath: dir.path("pad.json"))))
        #expect(pad.format == .signaturePad)
        #expect(pad.signature.samples.map(\.location) == original.samples.map(\.location))
        #expect(pad.signature.strokeEnds == original.strokeEnds)
        let back = try CLIRunner.run(["convert", dir.path("pad.json"), "-o", dir.path("native.json"), "--to", "native"])
        #expect(back.status == 0, "\(back.stderr)")
        let native = try NativeDecoder().decode(Data(contentsOf: URL(fileURLWithPath: dir.path("native.json"))))
        #expect(native.samples.map(\.t) == pad.signature.samples.map(\.t))
    }

    @Test func readOnlyFormatsCannotBeTargets() throws {
        let r = try CLIRunner.run(["convert", "x.json", "-o", "y", "--to", "svc2004"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("can be read but not written"))
    }

    @Test func infoNamesTheDetectedFormat() throws {
        let file = TestData.realInk.appendingPathComponent("hwrt/97705.json").path
        let r = try CLIRunner.run(["info", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("format: JSON stroke list"))
    }
}
