// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

/// `render INPUT -o OUTPUT` with no other flag is read without ArgumentParser (for start-up time); the same command
/// with a flag at its default value goes through ArgumentParser. Both must write the same bytes and say the same.
@Suite struct QuickRenderTests {
    /// A signature_pad recording with its own pen colour and widths, so that the file's pen is honoured on both paths.
    static let recording = TestData.repositoryRoot
        .appendingPathComponent("Tests/Fixtures/realink/signature-pad-chromium/dpr1/Cell-Structure-1-10.json").path

    /// The same render both ways: (quick, parsed).
    static func both(_ input: String, output name: String, in dir: TemporaryDirectory,
                     outputFirst: Bool = false) throws -> (CLIRunner.Result, CLIRunner.Result) {
        let quickOut = dir.path("quick-" + name), parsedOut = dir.path("parsed-" + name)
        let quick = try CLIRunner.run(outputFirst ? ["render", "-o", quickOut, input] : ["render", input, "--output", quickOut])
        let parsed = try CLIRunner.run(["render", input, "-o", parsedOut, "--padding", "16"])
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

    @Test func aFolderIsLeftToTheParser() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("in/a.json", try String(contentsOfFile: Self.recording, encoding: .utf8))
        let r = try CLIRunner.run(["render", dir.path("in"), "-o", dir.path("out.png")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("Several inputs need --out-dir"), "\(r.stderr)")
    }
}
