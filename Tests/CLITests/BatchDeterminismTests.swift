// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

/// A batch gives byte-identical outputs whatever the number of jobs, on every real file and every sample.
@Suite struct BatchDeterminismTests {
    /// Every output file below `root`, by relative path, with its bytes.
    private func outputs(below root: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        for case let relative as String in walker {
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            out[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return out
    }

    @Test(arguments: ["png", "svg", "pdf"])
    func oneJobAndTwoJobsWriteTheSameBytes(format: String) throws {
        let dir = try TemporaryDirectory()
        let inputs = [TestData.sampleStrokes.path, TestData.realInk.path]
        var runs: [(status: Int32, stderr: String, files: [String: Data])] = []
        for (name, jobs) in [("a", "1"), ("b", "2"), ("c", "2")] {
            let r = try CLIRunner.run(["render"] + inputs + ["--include", "*.json", "--out-dir", dir.path(name),
                                                              "--format", format, "--jobs", jobs, "--quiet"])
            runs.append((r.status, r.stderr, try outputs(below: dir.path(name))))
        }
        // The deliberately corrupt real files fail the same way in every run; everything else is written.
        #expect(runs[0].files.count >= 24)
        #expect(runs[0].files.keys.allSatisfy { $0.hasSuffix("." + format) })
        for run in runs.dropFirst() {
            #expect(run.status == runs[0].status)
            #expect(run.stderr == runs[0].stderr)
            #expect(run.files.keys.sorted() == runs[0].files.keys.sorted())
            for (name, bytes) in runs[0].files {
                #expect(run.files[name] == bytes, "\(name) differs between runs")
            }
        }
    }
}
