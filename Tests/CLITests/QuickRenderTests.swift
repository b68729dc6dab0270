// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

/// `render INPUT -o OUTPUT` with render flags is read without ArgumentParser (for start-up time); the same command
/// with a flag of another kind at its default value (``parsed``) goes through ArgumentParser. Both must write the
/// same bytes and say the same.
@Suite struct QuickRenderTests {
    /// A limit at its default, which only ArgumentParser reads: a command line with it takes the parsed path.
    static let parsed = ["--max-side", "32767"]

    /// A signature_pad recording with its own pen colour and widths, so that the file's pen is honoured on both paths.
    static let recording = TestData.repositoryRoot
        .appendingPathComponent("Tests/Fixtures/realink/signature-pad-chromium/dpr1/Cell-Structure-1-10.json").path

    /// The same render both ways: (quick, parsed).
    static func both(_ input: String, output name: String, in dir: TemporaryDirectory,
                     outputFirst: Bool = false) throws -> (CLIRunner.Result, CLIRunner.Result) {
        let quickOut = dir.path("quick-" + name), parsedOut = dir.path("parsed-" + name)
        let quick = try CLIRunner.run(outputFirst ? ["render", "-o", quickOut, input] : ["render", input, "--output", quickOut])
        let parsed = try CLIRunner.run(["render", input, "-o", parsedOut] + Self.parsed)
        return (quick, parsed)
    }

    @Test(arguments: ["png", "svg", "pdf"])
    func plainCommandLineWritesWhatTheParsedOneWrites(format: String) throws {
        let dir = try TemporaryDirectory()
        let (quick, parsed) = try Self.both(Self.recording, output: "out.\(format)", in: dir)
        #expect(quick.status == 0, "\(quick.stderr)")
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: dir.path("quick-out.\(format)")))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir.path("parsed-out.\(format)")))
        #expect(!a.isEmpty && a == b)
        #expect(quick.stderr == parsed.stderr)
    }

    @Test func theOutputMayComeFirst() throws {
        let dir = try TemporaryDirectory()
        let (quick, _) = try Self.both(Self.recording, output: "out.png", in: dir, outputFirst: true)
        #expect(quick.status == 0, "\(quick.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: dir.path("quick-out.png")))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir.path("parsed-out.png")))
        #expect(a == b)
    }

    @Test func failuresAreReportedAlike() throws {
        let dir = try TemporaryDirectory()
        let bad = try dir.write("bad.json", "{\"format\":\"signature-ink\",\"version\":1,\n\"strokes\":[[[1,2,@]]]}")
        for input in [bad, dir.path("missing.json")] {
            let (quick, parsed) = try Self.both(input, output: "out.png", in: dir)
            #expect(quick.status == 1 && parsed.status == 1)
            #expect(quick.stderr == parsed.stderr && quick.stderr.hasPrefix(input + ": "), "\(quick.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("quick-out.png")))
        }
    }

    /// The flags people use, every render option among them, some with `=`.
    static let flagSets: [[String]] = [
        ["--scale", "2"], ["--scale=2", "--quiet"], ["--format", "svg"], ["--format=pdf", "--dpi", "300"],
        ["--pen-color", "#1f3a93", "--pen-width", "2.5"], ["--min-width", "0.5", "--max-width", "4", "--background", "white"],
        ["--width", "400", "--height", "200", "--fit"], ["--crop", "--padding", "4"],
        ["--view-mode", "--opacity", "0.7"], ["--signature-line", "--x-mark", "--watermark", "COPY"],
        ["--timestamp"], ["--timestamp-pattern", "dd.MM.yyyy HH:mm", "--timestamp"],
        ["--format", "svg", "--path-per-stroke", "--pen-color", "rebeccapurple"],
    ]

    @Test(arguments: flagSets)
    func renderFlagsWriteWhatTheParsedOnesWrite(flags: [String]) throws {
        let dir = try TemporaryDirectory()
        let quick = try CLIRunner.run(["render", Self.recording, "-o", dir.path("quick.out")] + flags)
        let parsed = try CLIRunner.run(["render", Self.recording, "-o", dir.path("parsed.out")] + Self.parsed + flags)
        #expect(quick.status == 0 && parsed.status == 0, "\(quick.stderr) \(parsed.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: dir.path("quick.out")))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir.path("parsed.out")))
        #expect(!a.isEmpty && a == b)
        // The pen colour's note ("--pen-color #1f3a93 replaces ...") names the flag the same way on both paths.
        #expect(quick.stderr == parsed.stderr)
        #expect(flags.contains("--pen-color") == quick.stderr.contains("note: --pen-color"), "\(quick.stderr)")
    }

    /// Values and combinations the request refuses, and flags the quick path leaves alone.
    static let refusals: [[String]] = [
        ["--scale", "0"], ["--scale", "x"], ["--scale=-2"], ["--pen-width", "-1"], ["--fit", "--crop"],
        ["--pen-color", "nope"], ["--format", "gif"], ["--scale", "2", "--scale", "3"], ["--fit=true"], ["--bogus"],
        ["--timestamp-pattern", "YYYY"], ["--width"],
    ]

    @Test(arguments: refusals)
    func refusalsAreTheParsersOwn(flags: [String]) throws {
        let dir = try TemporaryDirectory()
        let quick = try CLIRunner.run(["render", Self.recording, "-o", dir.path("quick.png")] + flags)
        let parsed = try CLIRunner.run(["render", Self.recording, "-o", dir.path("parsed.png")] + Self.parsed + flags)
        #expect(quick.status == parsed.status && quick.stderr == parsed.stderr, "\(quick.stderr) | \(parsed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("quick.png")) || quick.status == 0)
    }

    @Test func aFolderIsLeftToTheParser() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("in/a.json", try String(contentsOfFile: Self.recording, encoding: .utf8))
        let r = try CLIRunner.run(["render", dir.path("in"), "-o", dir.path("out.png")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("Several inputs need --out-dir"), "\(r.stderr)")
    }
}

/// `render INPUT --out-dir DIR` with `--jobs N`, `--quiet` and render flags is read without ArgumentParser too; with
/// a limit at its default it goes through ArgumentParser. Both must write the same files and report the same failures.
@Suite struct QuickBatchTests {
    /// A folder of two real recordings and one broken file.
    static func inputs(in dir: TemporaryDirectory) throws -> String {
        let text = try String(contentsOfFile: QuickRenderTests.recording, encoding: .utf8)
        _ = try dir.write("in/a.json", text)
        _ = try dir.write("in/b.json", text)
        _ = try dir.write("in/c.json", "{\"format\":\"signature-ink\",\"version\":1,\n\"strokes\":[[[1,2,@]]]}")
        return dir.path("in")
    }

    static func files(in folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    @Test(arguments: [[], ["--jobs", "2"], ["--quiet", "--jobs", "1"], ["--jobs", "2", "--scale", "2", "--pen-color", "navy"]])
    func aBatchWritesWhatTheParsedOneWrites(flags: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.inputs(in: dir)
        let quick = try CLIRunner.run(["render", input, "--out-dir", dir.path("quick")] + flags)
        let parsed = try CLIRunner.run(["render", "--out-dir", dir.path("parsed"), input] + QuickRenderTests.parsed + flags)
        #expect(quick.status == 1 && parsed.status == 1, "\(quick.stderr)")
        let a = try Self.files(in: dir.path("quick")), b = try Self.files(in: dir.path("parsed"))
        #expect(a.keys.sorted() == ["a.png", "b.png"])
        #expect(a == b)
        let failure = { (r: CLIRunner.Result) in r.stderr.split(separator: "\n").filter { $0.hasPrefix(input) } }
        #expect(failure(quick).count == 1 && failure(quick) == failure(parsed), "\(quick.stderr)")
        #expect(flags.contains("--quiet") == !quick.stderr.contains("done: 2, failed: 1"), "\(quick.stderr)")
    }

    /// Files named one by one, as a shell's pattern lists them, a broken one and a missing one among them.
    @Test(arguments: [[], ["--jobs", "2", "--quiet"], ["--scale", "2", "--pen-color", "navy", "--jobs", "1"]])
    func namedFilesWriteWhatTheParsedOnesWrite(flags: [String]) throws {
        let dir = try TemporaryDirectory()
        let folder = try Self.inputs(in: dir)
        let files = ["a.json", "c.json", "b.json", "missing.json"].map { folder + "/" + $0 }
        let quick = try CLIRunner.run(["render"] + files + ["--out-dir", dir.path("quick")] + flags)
        let parsed = try CLIRunner.run(["render"] + files + ["--out-dir", dir.path("parsed")] + QuickRenderTests.parsed + flags)
        #expect(quick.status == 1 && parsed.status == 1, "\(quick.stderr)")
        let a = try Self.files(in: dir.path("quick")), b = try Self.files(in: dir.path("parsed"))
        #expect(a.keys.sorted() == ["a.png", "b.png"])
        #expect(a == b)
        let failures = { (r: CLIRunner.Result) in r.stderr.split(separator: "\n").filter { $0.hasPrefix(folder) }.sorted() }
        #expect(failures(quick).count == 2 && failures(quick) == failures(parsed), "\(quick.stderr)")
    }

    /// Several inputs with `-o` are the parser's to refuse, as before.
    @Test func severalInputsWithOneOutputAreRefusedAsBefore() throws {
        let dir = try TemporaryDirectory()
        let folder = try Self.inputs(in: dir)
        let r = try CLIRunner.run(["render", folder + "/a.json", folder + "/b.json", "-o", dir.path("out.png")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("Several inputs need --out-dir"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.png")))
    }

    @Test(arguments: ["0", "2000", "x", "-1"])
    func aJobCountOutsideItsRangeIsRefusedAsBefore(jobs: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.inputs(in: dir)
        let r = try CLIRunner.run(["render", input, "--out-dir", dir.path("out"), "--jobs", jobs])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
    }
}
