// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reports how a batch is going on standard error: a bar with count, rate and ETA on a terminal, a plain line
/// every few seconds otherwise, nothing when quiet.
final class Progress: @unchecked Sendable {
    private struct Counts {
        var done = 0
        var failed = 0
        var skipped = 0
        var lastReport = 0.0
    }

    private let total: Int
    private let quiet: Bool
    private let terminal: Bool
    private let start: Double
    /// Guards ``counts``, changed by whichever thread reports.
    private let lock = PThreadMutex()
    private var counts: Counts

    /// Seconds between plain progress lines when standard error is not a terminal.
    private static let plainInterval = 5.0
    /// Seconds between redraws of the terminal bar (10 a second looks live without flicker).
    private static let barInterval = 0.1

    init(total: Int, quiet: Bool) {
        self.total = total
        self.quiet = quiet
        self.terminal = isatty(STDERR_FILENO) == 1
        self.start = Progress.now()
        self.counts = Counts(lastReport: start)
    }

    static func now() -> Double { Date().timeIntervalSinceReferenceDate }

    /// Seconds since the batch started.
    var elapsed: Double { Progress.now() - start }

    /// Counts one finished input (failed, or skipped as not a stroke file, or neither) and redraws when it is time.
    func finished(failed: Bool, skipped: Bool = false) {
        let line: String? = lock.withLock {
            counts.done += 1
            if failed { counts.failed += 1 }
            if skipped { counts.skipped += 1 }
            guard !quiet, total > 1 else { return nil }
            let now = Progress.now()
            let interval = terminal ? Progress.barInterval : Progress.plainInterval
            guard now - counts.lastReport >= interval || (terminal && counts.done == total) else { return nil }
            counts.lastReport = now
            return render(done: counts.done, failed: counts.failed, now: now)
        }
        if let line { FileDescriptorIO.standardError(line) }
    }

    /// Prints a failure (or a skipped file) on its own line, keeping the bar intact below it.
    func report(_ failure: InputFailure) {
        let clear = terminal && !quiet && total > 1 ? "\r\u{1B}[K" : ""
        FileDescriptorIO.standardError((clear + failure.description + "\n"))
    }

    /// Prints the closing summary (unless quiet): done, failed, skipped (when any), time.
    func summary() {
        let (done, failed, skipped) = lock.withLock { (counts.done, counts.failed, counts.skipped) }
        guard !quiet, total > 1 else { return }
        let end = terminal ? "\r\u{1B}[K" : ""
        let skips = skipped > 0 ? formatted(", skipped: %d", skipped) : ""
        let text = end + formatted("done: %d, failed: %d", done - failed - skipped, failed) + skips
            + formatted(", time: %.2f s\n", elapsed)
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
