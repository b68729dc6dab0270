// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender
import Synchronization

/// `render --ndjson`: one signature per line of standard input, one JSON result per line of standard output, in
/// input order and bounded memory.
///
/// Each result line is `{"line": N, "status": "ok", "output": PATH, "bytes": B, "sha256": HEX}` when an output
/// directory is given, `{"line": N, "status": "ok", "format": "png", "data": BASE64, "bytes": B, "sha256": HEX}`
/// otherwise, or `{"line": N, "status": "failed", "error": TEXT}`. Lines are numbered from 1; blank lines give
/// no result. A line may wrap its signature with the id of its record, `{"id": ID, "signature": SIGNATURE}` (see
/// `InputEnvelope`): its result then starts with `"id": ID`, as the line wrote it, whether it succeeded or failed
/// (unless the id itself is what is wrong, or the line is too long to be read). Outputs in the directory are still
/// named by line number, since an id may be any text.
struct NDJSONStream {
    var loader: InputLoader
    var jobs: Int
    var outDir: String?
    var fileExtension: String
    var make: @Sendable (Signature) throws -> [UInt8]

    /// Lines handled at once per worker: enough to keep every core busy, few enough to keep memory small.
    private static let linesPerWorker = 16

    /// Runs until standard input ends. Returns the number of failed lines.
    func run() -> Int {
        HeapReuse.keepFreedMemory()
        var reader = LineReader(fd: STDIN_FILENO, maxBytes: loader.limits.maxBytes)
        var lineNumber = 0
        var failed = 0
        while true {
            var chunk: [(number: Int, line: LineReader.Line)] = []
            while chunk.count < jobs * NDJSONStream.linesPerWorker, let line = reader.next() {
                lineNumber += 1
                if case let .text(data) = line, data.allSatisfy(NDJSONStream.isBlank) { continue }
                chunk.append((lineNumber, line))
            }
            if chunk.isEmpty { break }
            let results = Results()
            let batch = chunk
            BatchRunner(jobs: jobs).run(count: batch.count, work: { i in
                self.handle(number: batch[i].number, line: batch[i].line)
            }, report: { _, result in
                FileDescriptorIO.write(STDOUT_FILENO, Array((result.text + "\n").utf8))
                if result.failed { results.addFailure() }
            })
            failed += results.failures
        }
        return failed
    }

    /// Blank lines (spaces, tabs, a carriage return) are skipped, but counted.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private struct LineResult: Sendable {
        var text: String
        var failed: Bool
    }

    private func handle(number: Int, line: LineReader.Line) -> LineResult {
        // An envelope's id opens its result, as the line wrote it; a line without one gets the result it always had.
        var head = "{\"line\":\(number),"
        func failure(_ reason: String) -> LineResult {
            LineResult(text: "\(head)\"status\":\"failed\",\"error\":\(JSONText.string(reason))}", failed: true)
        }
        guard case let .text(data) = line else {
            if case let .tooLong(bytes) = line {
                return failure("\(FormatError.limitExceeded(what: "line size in bytes", limit: loader.limits.maxBytes, actual: bytes))")
            }
            return failure("unreadable line")
        }
        do {
            let signature: Signature
            do {
                if let envelope = try InputEnvelope.read(data) {
                    head = "{\"id\":\(envelope.id.json),\"line\":\(number),"
                    signature = try loader.decode(envelope, name: "line \(number)")
                } else {
                    signature = try loader.decode(data, name: "line \(number)").signature
                }
            } catch let failed as InputEnvelope.Failure {
                if let id = failed.id { head = "{\"id\":\(id.json),\"line\":\(number)," }
                return failure(failed.description)
            }
            let bytes = try make(signature)
            let digest = HexDigest.sha256(bytes)
            if let outDir {
                let path = URL(fileURLWithPath: outDir).appendingPathComponent(formatted("%06d.", number) + fileExtension).path
                try OutputWriter.write(bytes, to: path)
                return LineResult(text: "\(head)\"status\":\"ok\",\"output\":\(JSONText.string(path)),\"bytes\":\(bytes.count),\"sha256\":\"\(digest)\"}", failed: false)
            }
            return LineResult(text: "\(head)\"status\":\"ok\",\"format\":\"\(fileExtension)\",\"data\":\"\(Data(bytes).base64EncodedString())\",\"bytes\":\(bytes.count),\"sha256\":\"\(digest)\"}", failed: false)
        } catch let error as InputFailure {
            return failure(error.reason)
        } catch {
            return failure("\(error)")
        }
    }

    /// Counts failures reported from worker threads.
    private final class Results: Sendable {
        private let count = Atomic<Int>(0)
        func addFailure() { count.add(1, ordering: .relaxed) }
        var failures: Int { count.load(ordering: .relaxed) }
    }
}
