// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Reports how a batch is going on standard error: a bar with count, rate and ETA on a terminal, a plain line
/// every few seconds otherwise, nothing when quiet.
final class Progress: Sendable {
    private struct Counts {
        var done = 0
        var failed = 0
        var lastReport = 0.0
    }

    private let total: Int
    private let quiet: Bool
    private let terminal: Bool
    private let start: Double
    private let counts: Mutex<Counts>

    /// Seconds between plain progress lines when standard error is not a terminal.
    private static let plainInterval = 5.0
    /// Seconds between redraws of the terminal bar (10 a second looks live without flicker).
    private static let barInterval = 0.1

    init(total: Int, quiet: Bool) {
        self.total = total
        self.quiet = quiet
        self.terminal = isatty(STDERR_FILENO) == 1
        self.start = Progress.now()
        self.counts = Mutex(Counts(lastReport: start))
    }

    static func now() -> Double { Date().timeIntervalSinceReferenceDate }

    /// Seconds since the batch started.
    var elapsed: Double { Progress.now() - start }

    /// Counts one finished input and redraws when it is time.
    func finished(failed: Bool) {
        let line: String? = counts.withLock { c in
            c.done += 1
            if failed { c.failed += 1 }
            guard !quiet, total > 1 else { return nil }
            let now = Progress.now()
            let interval = terminal ? Progress.barInterval : Progress.plainInterval
            guard now - c.lastReport >= interval || (terminal && c.done == total) else { return nil }
            c.lastReport = now
            return render(done: c.done, failed: c.failed, now: now)
        }
        if let line { FileDescriptorIO.standardError(line) }
    }

    /// Prints a failure on its own line, keeping the bar intact below it.
    func report(_ failure: InputFailure) {
        let clear = terminal && !quiet && total > 1 ? "\r\u{1B}[K" : ""
        FileDescriptorIO.standardError((clear + failure.description + "\n"))
    }

    /// Prints the closing summary (unless quiet): done, failed, time.
    func summary() {
        let (done, failed) = counts.withLock { ($0.done, $0.failed) }
        guard !quiet, total > 1 else { return }
        let end = terminal ? "\r\u{1B}[K" : ""
        let text = end + formatted("done: %d, failed: %d, time: %.2f s\n", done - failed, failed, elapsed)
        FileDescriptorIO.standardError(text)
    }

    private func render(done: Int, failed: Int, now: Double) -> String {
        let seconds = max(now - start, 1e-6)
        let rate = Double(done) / seconds
        let left = rate > 0 ? Double(total - done) / rate : 0
        let eta = formatted("%d:%02d", Int(left) / 60, Int(left) % 60)
        let stats = formatted("%d/%d %.1f/s ETA ", done, total, rate) + eta
            + (failed > 0 ? " (\(failed) failed)" : "")
        guard terminal else { return "progress: " + stats + "\n" }
        let width = 30
        let filled = total > 0 ? width * done / total : width
        return "\r\u{1B}[K[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            + "] " + stats
    }
}
