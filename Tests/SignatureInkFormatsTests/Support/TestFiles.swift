// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where the test inputs live, found from this file's path so tests run from any directory.
enum TestFiles {
    /// The package root: the test target folder sits at `Tests/SignatureInkFormatsTests`, and this file one
    /// folder deeper in `Support/`.
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Support
        .deletingLastPathComponent() // SignatureInkFormatsTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // repository root

    /// Real ink recorded by people: `Tests/Fixtures/realink/` (its SOURCES.md says where each file comes from).
    static let realInk: URL = repoRoot.appendingPathComponent("Tests/Fixtures/realink")

    /// Fixtures written for these tests.
    static let fixtures: URL = repoRoot.appendingPathComponent("Tests/SignatureInkFormatsTests/Fixtures")

    /// Every file with extension `ext` in `folder` of the real ink, sorted by name.
    static func realInk(_ folder: String, ext: String = "json") throws -> [URL] {
        let dir = realInk.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == ext }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The bytes of a real ink file, `folder/name`.
    static func realInk(_ folder: String, _ name: String) throws -> Data {
        try Data(contentsOf: realInk.appendingPathComponent(folder).appendingPathComponent(name))
    }

    /// The bytes of a fixture.
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }
}
