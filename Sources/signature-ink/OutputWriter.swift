// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Writes output files so that a failure never leaves a truncated file behind.
enum OutputWriter {
    /// Writes `bytes` to a temporary file beside `path` (creating its folder), then renames it over `path`. An existing file at `path`
    /// is replaced only when the whole write succeeded.
    static func write(_ bytes: [UInt8], to path: String) throws(InputFailure) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: temporary, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw InputFailure(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw InputFailure(path: path, reason: "cannot write: \(reason)")
        }
    }

    /// The canonical absolute form of a path, used to spot an output that would overwrite an input.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
