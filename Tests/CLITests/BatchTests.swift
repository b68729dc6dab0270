// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkRender
import Testing

@Suite struct BatchTests {
    let good = #"{"format":"signature-ink","version":1,"canvas":{"width":120,"height":60},"channels":["x","y","t"],"strokes":[[[10,30,0],[110,30,16]]]}"#

    /// A tree of good, bad and unsupported inputs.
    func makeTree() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        for url in TestData.sampleFiles() {
            _ = try dir.write("in/samples/" + url.lastPathComponent, String(contentsOf: url, encoding: .utf8))
        }
        _ = try dir.write("in/more/good.json", good)
        _ = try dir.write("in/more/truncated.json", String(good.prefix(60)))
        _ = try dir.write("in/more/notes.txt", "not ink")
        _ = try dir.write("in/.hidden.json", good)
        return dir
    }

    func readManifest(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func directoriesKeepGoingPastBadFilesAndWriteAManifest() throws {
        let dir = try makeTree()
        let r = try CLIRunner.run(["render", dir.path("in"), "--out-dir", dir.path("out"),
                                   "--manifest", dir.path("manifest.jsonl"), "--jobs", "2"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(dir.path("in"))/more/truncated.json: line 1, column"), "\(r.stderr)")
        // Found in a folder and not a stroke file: skipped, and said so.
        #expect(r.stderr.contains("\(dir.path("in"))/more/notes.txt: skipped: the content matches no known stroke format"),
                "\(r.stderr)")
        #expect(r.stderr.contains("done: 13, failed: 1, skipped: 1, time:"), "\(r.stderr)")
        let samples = TestData.sampleFiles().count
        let made = try FileManager.default.subpathsOfDirectory(atPath: dir.path("out")).filter { $0.hasSuffix(".png") }.sorted()
        #expect(made.count == samples + 1)
        #expect(made.contains("more/good.png"))
        // Nothing partial or hidden is left behind.
        let all = try FileManager.default.subpathsOfDirectory(atPath: dir.path("out"))
        #expect(!all.contains { $0.contains(".partial-") || $0.contains("truncated") || $0.contains("hidden") })

        let lines = try readManifest(dir.path("manifest.jsonl"))
        #expect(lines.count == samples + 3)
        let inputs = lines.compactMap { $0["input"] as? String }
        #expect(inputs == inputs.sorted())  // input order
        for line in lines {
            if line["status"] as? String == "ok" {
                let output = try #require(line["output"] as? String)
                let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: output)))
                #expect(line["bytes"] as? Int == bytes.count)
                #expect(line["sha256"] as? String == HexDigest.sha256(bytes))
                #expect(line["error"] is NSNull)
            } else if (line["input"] as? String)?.hasSuffix("notes.txt") == true {
                #expect(line["status"] as? String == "skipped")
                #expect(line["output"] is NSNull)
                #expect((line["error"] as? String)?.contains("no known stroke format") == true)
            } else {
                #expect(line["status"] as? String == "failed")
                #expect((line["error"] as? String)?.isEmpty == false)
                #expect(line["bytes"] is NSNull)
            }
            #expect(line["ms"] is Double || line["ms"] is Int)
        }
    }

    @Test func includeFiltersDirectoryFiles() throws {
        let dir = try makeTree()
        let r = try CLIRunner.run(["render", dir.path("in/more"), "--out-dir", dir.path("out"), "--include", "g*.json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")) == ["good.png"])
    }

    @Test func outputsAreIdenticalForAnyNumberOfJobs() throws {
        let dir = try makeTree()
        var digests: [[String]] = []
        for jobs in ["1", "2", "4"] {
            let out = dir.path("out-\(jobs)")
            _ = try CLIRunner.run(["render", dir.path("in/samples"), "--out-dir", out, "--jobs", jobs, "--quiet",
                                   "--manifest", out + ".jsonl"])
            digests.append(try readManifest(out + ".jsonl").map { ($0["sha256"] as? String) ?? "" })
        }
        #expect(digests[0].count == TestData.sampleFiles().count)
        #expect(digests[0] == digests[1] && digests[1] == digests[2])
    }

    @Test func outputsAreNamedAfterEachInputsStemAndFolder() throws {
        // Separators and the extension's dot are found as bytes: names with several dots, none, or letters beyond
        // ASCII keep every character, and folders below the input folder are kept below the output folder.
        let dir = try TemporaryDirectory()
        let names = ["v1.2.json": "v1.2.png", "noext": "noext.png", "sub/dir/x.json": "sub/dir/x.png",
                     "ü/ß.json": "ü/ß.png", "a.b/c": "a.b/c.png", "é.json": "é.png"]
        for name in names.keys { _ = try dir.write("in/" + name, good) }
        let r = try CLIRunner.run(["render", dir.path("in"), "--out-dir", dir.path("out"), "--jobs", "2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let made = try FileManager.default.subpathsOfDirectory(atPath: dir.path("out")).filter { $0.hasSuffix(".png") }
        #expect(Set(made) == Set(names.values))
        // One file to a path whose folder has a dot and whose name has none: PNG, as without the dot.
        let single = try CLIRunner.run(["render", dir.path("in/v1.2.json"), "-o", dir.path("x.v2/signature")])
        #expect(single.status == 0, "\(single.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path("x.v2/signature")))
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test(arguments: [(files: 1, jobs: "4"), (files: 2, jobs: "3"), (files: 5, jobs: "2")])
    func workerThreadsStartedBeforeTheirWorkAllEnd(files: Int, jobs: String) throws {
        // The batch starts its worker threads before it lists the inputs: with fewer inputs than threads, or none
        // to give them, every thread must still end, and each input be done once.
        let dir = try TemporaryDirectory()
        for n in 0..<files { _ = try dir.write("in/\(n).json", good) }
        let r = try CLIRunner.run(["render", dir.path("in"), "--out-dir", dir.path("out"), "--jobs", jobs,
                                   "--manifest", dir.path("manifest.jsonl")])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try readManifest(dir.path("manifest.jsonl"))
        #expect(lines.compactMap { $0["input"] as? String } == (0..<files).map { dir.path("in/\($0).json") })
        // A batch that stops before its work (here: the manifest cannot be written, as its folder would be below a
        // file) lets its threads go too.
        let stopped = try CLIRunner.run(["render", dir.path("in"), "--out-dir", dir.path("out2"), "--jobs", jobs,
                                         "--manifest", dir.path("in/0.json/manifest.jsonl")])
        #expect(stopped.status != 0)
        #expect(stopped.stderr.contains("manifest"), "\(stopped.stderr)")
    }

    @Test func framesShowTheSignatureBeingDrawn() throws {
        let dir = try TemporaryDirectory()
        let input = TestData.sampleStrokes.appendingPathComponent("long-gaps.json").path
        let r = try CLIRunner.run(["render", input, "--out-dir", dir.path("frames"), "--frames", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("frames")).sorted()
        #expect(names == (1...5).map { "long-gaps-00\($0).png" })
        var inked: [Int] = []
        for name in names {
            let png = try DecodedPNG(Array(Data(contentsOf: URL(fileURLWithPath: dir.path("frames/" + name)))))
            inked.append(stride(from: 3, to: png.rgba.count, by: 4).filter { png.rgba[$0] > 0 }.count)
        }
        #expect(zip(inked, inked.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(inked.first! < inked.last!)
    }

    @Test(arguments: [
        (["render", "a.json", "--out-dir", "o", "--jobs", "0"], "--jobs must be"),
        (["render", "a.json", "-o", "x.png", "--frames", "3"], "--frames needs --out-dir"),
        (["render", "--out-dir", "o"], "Give at least one input"),
    ])
    func batchUsageErrors(arguments: [String], message: String) throws {
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
