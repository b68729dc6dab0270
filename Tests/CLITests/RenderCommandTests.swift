// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkRender
import Testing

@Suite struct RenderCommandTests {
    let good = #"{"format":"signature-ink","version":1,"canvas":{"width":120,"height":60},"channels":["x","y","t"],"strokes":[[[10,30,0],[110,30,16]]]}"#
    let bad = "{\"format\":\"signature-ink\",\n\"version\": 1,\n\"channels\": [\"x\",\"y\",\"t\"], \"strokes\": [[[1, 2, @]]]}"

    @Test func rendersOneFileToAPNG() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("sig.json", good)
        let r = try CLIRunner.run(["render", input, "-o", dir.path("sig.png"), "--scale", "2", "--pen-color", "#112233"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        let png = try DecodedPNG(Array(Data(contentsOf: URL(fileURLWithPath: dir.path("sig.png")))))
        #expect(png.width == 240 && png.height == 120)
        #expect(png.pixel(x: 120, y: 60) == Color(hex: "#112233"))
        #expect(png.pixel(x: 120, y: 10).alpha == 0)
    }

    /// Text is set with the project's fonts alone: the host's fontconfig files are never read, so a broken one
    /// neither shows an error nor changes a byte (Pango would otherwise load them in a thread of its own).
    @Test func textNeverReadsTheHostsFontconfigFiles() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("sig.json", good)
        let broken = try dir.write("fonts.conf", "<fontconfig><dir>")
        let plain = try CLIRunner.run(["render", input, "-o", dir.path("plain.png"), "--watermark", "Copy"])
        let hosted = try CLIRunner.run(["render", input, "-o", dir.path("hosted.png"), "--watermark", "Copy"],
                                       environment: ["FONTCONFIG_FILE": broken])
        #expect(plain.status == 0 && hosted.status == 0, "\(plain.stderr) \(hosted.stderr)")
        #expect(hosted.stderr.isEmpty, "\(hosted.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("plain.png")))
                == Data(contentsOf: URL(fileURLWithPath: dir.path("hosted.png"))))
    }

    @Test func rendersEverySampleIntoADirectory() throws {
        let dir = try TemporaryDirectory()
        let inputs = TestData.sampleFiles().map(\.path)
        let r = try CLIRunner.run(["render"] + inputs + ["--out-dir", dir.path("out")])
        #expect(r.status == 0, "\(r.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).sorted()
        #expect(made == inputs.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent + ".png" }.sorted())
    }

    @Test func badInputsFailAloneWithFileAndPosition() throws {
        let dir = try TemporaryDirectory()
        let a = try dir.write("in/a.json", good)
        let b = try dir.write("in/b.json", bad)
        let c = dir.path("in/missing.json")
        let r = try CLIRunner.run(["render", a, b, c, "--out-dir", dir.path("out")])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(b): line 3, column 48: invalid JSON: unexpected character '@'"), "\(r.stderr)")
        #expect(lines.contains("\(c): no such file"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")) == ["a.png"])
    }

    @Test func aFailedRenderKeepsTheExistingOutput() throws {
        let dir = try TemporaryDirectory()
        let b = try dir.write("b.json", bad)
        _ = try dir.write("b.png", "previous")
        let r = try CLIRunner.run(["render", b, "-o", dir.path("b.png")])
        #expect(r.status == 1)
        #expect(try String(contentsOfFile: dir.path("b.png"), encoding: .utf8) == "previous")
        #expect(try dir.files() == ["b.json", "b.png"])
    }

    @Test func outputNameClashesAreErrors() throws {
        let dir = try TemporaryDirectory()
        let a = try dir.write("one/sig.json", good)
        let b = try dir.write("two/sig.json", good)
        let r = try CLIRunner.run(["render", a, b, "--out-dir", dir.path("out")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(b): output \(dir.path("out/sig.png")) would also be written from \(a)"))
        #expect(FileManager.default.fileExists(atPath: dir.path("out/sig.png")))
    }

    @Test func anInputIsNeverOverwritten() throws {
        let dir = try TemporaryDirectory()
        let a = try dir.write("sig.json", good)
        let r = try CLIRunner.run(["render", a, "-o", a])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is an input; refusing to overwrite it"))
        #expect(try String(contentsOfFile: a, encoding: .utf8) == good)
    }

    /// The output is compared with the input in standard form, whether or not it is written that way.
    @Test(arguments: ["/sub/../sig.json", "/./sig.json", "//sig.json", "/sub/./../sig.json"])
    func anInputIsNeverOverwrittenWhateverItsSpelling(spelling: String) throws {
        let dir = try TemporaryDirectory()
        let a = try dir.write("sig.json", good)
        _ = try dir.write("sub/keep", "")
        let r = try CLIRunner.run(["render", a, "-o", dir.url.path + spelling])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("is an input; refusing to overwrite it"), "\(r.stderr)")
        #expect(try String(contentsOfFile: a, encoding: .utf8) == good)
    }

    @Test(arguments: [
        (["render", "x.json"], "Give an output"),
        (["render", "x.json", "y.json", "-o", "z.png"], "Several inputs need --out-dir"),
        (["render", "x.json", "-o", "z.png", "--pen-color", "reddish"], "--pen-color is not a CSS colour"),
        (["render", "x.json", "-o", "z.png", "--background", "#12"], "--background is not transparent or a CSS colour"),
        (["render", "x.json", "-o", "z.png", "--scale", "0"], "scale"),
        (["render", "x.json", "-o", "z.png", "--format", "gif"], "--format must be png, svg or pdf"),
        (["frobnicate"], "Unexpected argument"),
    ])
    func usageErrorsExitWithTwo(arguments: [String], message: String) throws {
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test func helpExitsWithZero() throws {
        let r = try CLIRunner.run(["render", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--out-dir"))
    }
}

@Suite struct InfoCommandTests {
    @Test func printsTheSummary() throws {
        let file = TestData.sampleStrokes.appendingPathComponent("pressure.json").path
        let r = try CLIRunner.run(["info", file])
        #expect(r.status == 0)
        #expect(r.stdout.contains("strokes: 2"))
        #expect(r.stdout.contains("pressure: yes"))
        #expect(r.stdout.contains("sampling rate: 239."))
        #expect(r.stdout.contains("canvas: 600.0 x 300.0"))
    }

    @Test func reportsABadFile() throws {
        let dir = try TemporaryDirectory()
        let f = try dir.write("x.json", "[]")
        let r = try CLIRunner.run(["info", f])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(f): "))
    }
}
