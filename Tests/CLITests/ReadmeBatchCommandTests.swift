// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

/// The README's batch commands, typed as a new user types them: from a fresh folder holding a copy of
/// `SampleStrokes/` (with its generator script and its consent document), with relative paths and no output
/// folder made beforehand.
@Suite struct ReadmeBatchCommandTests {
    /// A fresh folder with `SampleStrokes/` copied into it.
    func makeCheckout() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try FileManager.default.copyItem(at: TestData.sampleStrokes, to: dir.url.appendingPathComponent("SampleStrokes"))
        return dir
    }

    /// The files in `SampleStrokes/`, below it, that are not signatures: found in the folder, they are skipped.
    let notStrokes = ["SampleStrokes/consent/study-consent.json", "SampleStrokes/generate.py"]

    func readManifest(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func renderWritesItsManifestIntoTheOutputFolderItMakes() throws {
        let dir = try makeCheckout()
        let r = try CLIRunner.run(["render", "SampleStrokes", "--out-dir", "out", "--background", "#ffffff",
                                   "--manifest", "out/manifest.jsonl"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        let samples = TestData.sampleFiles().count
        #expect(r.stderr.contains("done: \(samples), failed: 0, skipped: \(notStrokes.count), time:"), "\(r.stderr)")
        for path in notStrokes {
            #expect(r.stderr.contains("\(path): skipped: the content matches no known stroke format"), "\(r.stderr)")
        }
        let lines = try readManifest(dir.path("out/manifest.jsonl"))
        #expect(lines.count == samples + notStrokes.count)
        let skipped = lines.filter { $0["status"] as? String == "skipped" }.compactMap { $0["input"] as? String }
        #expect(skipped.sorted() == notStrokes)
        #expect(lines.filter { $0["status"] as? String == "ok" }.count == samples)
        // One PNG per signature, nothing for the skipped files, nothing partial.
        let made = try FileManager.default.subpathsOfDirectory(atPath: dir.path("out")).sorted()
        #expect(made == (TestData.sampleFiles().map { $0.deletingPathExtension().lastPathComponent + ".png" }
                         + ["manifest.jsonl"]).sorted())
    }

    @Test func convertTakesTheSignaturesOfAFolderAndSaysWhatItSkipped() throws {
        let dir = try makeCheckout()
        let r = try CLIRunner.run(["convert", "SampleStrokes", "--out-dir", "inkml", "--to", "inkml"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        for path in notStrokes { #expect(r.stderr.contains("\(path): skipped: "), "\(r.stderr)") }
        #expect(r.stderr.contains("skipped: \(notStrokes.count), time:"), "\(r.stderr)")
        let made = try FileManager.default.subpathsOfDirectory(atPath: dir.path("inkml")).sorted()
        #expect(made == TestData.sampleFiles().map { $0.deletingPathExtension().lastPathComponent + ".inkml" }.sorted())
    }

    @Test func aFileNamedOnTheCommandLineIsNeverSkipped() throws {
        let dir = try makeCheckout()
        let r = try CLIRunner.run(["convert", "SampleStrokes/generate.py", "SampleStrokes/short-name.json",
                                   "--out-dir", "inkml", "--to", "inkml"], in: dir.url)
        #expect(r.status == 1)
        #expect(r.stderr.contains("SampleStrokes/generate.py: the content matches no known stroke format"), "\(r.stderr)")
        #expect(!r.stderr.contains("skipped"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("inkml")) == ["short-name.inkml"])
    }
}
