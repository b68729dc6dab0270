// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats

/// What happened to one input, as a line of the `--manifest` JSON Lines file.
struct Outcome: Sendable {
    var input: String
    var output: String?
    var error: String?
    var bytes: Int?
    var sha256: String?
    var milliseconds: Double

    var failed: Bool { error != nil }

    /// The manifest line: input, output, status, error, bytes, sha256, ms (absent values are null).
    var jsonLine: String {
        func str(_ s: String?) -> String { s.map(JSONText.string) ?? "null" }
        return "{\"input\":\(str(input)),\"output\":\(str(output)),\"status\":\"\(failed ? "failed" : "ok")\""
            + ",\"error\":\(str(error)),\"bytes\":\(bytes.map(String.init) ?? "null")"
            + ",\"sha256\":\(str(sha256)),\"ms\":\(String(format: "%.3f", milliseconds))}"
    }
}

/// Writes the manifest to a temporary file as results arrive and renames it into place at the end.
final class ManifestWriter: Sendable {
    private let path: String
    private let temporary: String
    private let handle: FileHandle

    init(path: String) throws(InputFailure) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)").path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary)
        else { throw InputFailure(path: path, reason: "cannot create the manifest") }
        self.handle = handle
    }

    func append(_ outcome: Outcome) {
        handle.write(Data((outcome.jsonLine + "\n").utf8))
    }

    func finish() throws(InputFailure) {
        try? handle.close()
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw InputFailure(path: path, reason: "cannot write the manifest: \(reason)")
        }
    }
}
