// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs the command-line tools the tests check output with (poppler-utils and qpdf, installed by `make deps`).
public enum ExternalTool {
    /// A tool that failed or is missing.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Runs `tool` with `arguments` and returns what it printed on standard output.
    /// - Parameter allowFailure: return the output even when the tool exits non-zero.
    /// - Throws: ``Failure`` when the tool is missing, or exits non-zero without `allowFailure`.
    public static func run(_ tool: String, _ arguments: [String], allowFailure: Bool = false) throws -> String {
        guard let path = ["/usr/bin/", "/usr/local/bin/", "/bin/"].map({ $0 + tool })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(message: "\(tool) is missing: make deps installs it")
        }
        // Output goes to a file, not a pipe: reading a pipe can fail with EINTR while other tests run.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let out = try FileHandle(forWritingTo: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        try out.close()
        let data = try Data(contentsOf: file)
        guard p.terminationStatus == 0 || allowFailure else {
            throw Failure(message: "\(tool) \(arguments.joined(separator: " ")) failed with \(p.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes `bytes` to a new temporary file with the given extension, runs `body` with its path, and removes it.
    public static func withTemporaryFile<R>(_ bytes: [UInt8], extension ext: String, _ body: (String) throws -> R) throws -> R {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString).\(ext)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try body(file.path)
    }
}
