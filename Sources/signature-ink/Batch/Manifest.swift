// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
import SignatureInkFormats
import Synchronization

/// What happened to one input, as a line of the `--manifest` JSON Lines file.
struct Outcome: Sendable {
    var input: String
    var output: String?
    var error: String?
    /// Why a file found in a folder was skipped (not a stroke file); `nil` when it was read.
    var skipped: String?
    var bytes: Int?
    var sha256: String?
    var milliseconds: Double

    var failed: Bool { error != nil }

    /// The manifest line: input, output, status (`ok`, `failed` or `skipped`), error (for a skipped file, why it
    /// was skipped), bytes, sha256, ms (absent values are null).
    var jsonLine: String {
        func str(_ s: String?) -> String { s.map(JSONText.string) ?? "null" }
        let status = failed ? "failed" : skipped != nil ? "skipped" : "ok"
        return "{\"input\":\(str(input)),\"output\":\(str(output)),\"status\":\"\(status)\""
            + ",\"error\":\(str(error ?? skipped)),\"bytes\":\(bytes.map(String.init) ?? "null")"
            + ",\"sha256\":\(str(sha256)),\"ms\":\(formatted("%.3f", milliseconds))}"
    }
}

/// Writes the manifest to a temporary file as results arrive and renames it into place at the end.
///
/// Lines come from ``BatchRunner``'s in-order reports, one at a time.
final class ManifestWriter: Sendable {
    private let path: String
    private let temporary: String
    private let fd: Int32
    private let failed = Atomic<Bool>(false)

    init(path: String) throws(InputFailure) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)").path
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw InputFailure(path: path, reason: "cannot create the manifest: \(String(cString: strerror(errno)))")
        }
    }

    func append(_ outcome: Outcome) {
        if !FileDescriptorIO.write(fd, Array((outcome.jsonLine + "\n").utf8)) { failed.store(true, ordering: .relaxed) }
    }

    func finish() throws(InputFailure) {
        let closed = close(fd) == 0
        guard closed, !failed.load(ordering: .relaxed), rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw InputFailure(path: path, reason: "cannot write the manifest: \(reason)")
        }
    }
}
