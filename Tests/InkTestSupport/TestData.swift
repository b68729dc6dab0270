// SPDX-License-Identifier: Apache-2.0
public import Foundation

/// Paths to the data the tests read.
public enum TestData {
    /// The repository root, found from this file's path.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `SampleStrokes/` in the repository.
    public static var sampleStrokes: URL { repositoryRoot.appendingPathComponent("SampleStrokes") }

    /// Real ink recorded by people, `Tests/Fixtures/realink/` (its SOURCES.md says where each file comes from).
    public static var realInk: URL { repositoryRoot.appendingPathComponent("Tests/Fixtures/realink") }

    /// The JSON files in `SampleStrokes/`, sorted by name.
    public static func sampleFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sampleStrokes.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { sampleStrokes.appendingPathComponent($0) }
    }
}
