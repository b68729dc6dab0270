// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization

/// Runs one job per input on several threads and hands the results back in input order.
///
/// Workers take the next input from a shared counter, so a slow file never holds up the others. A result is
/// reported as soon as every earlier one has been, which keeps at most about `jobs` results waiting at once:
/// memory stays flat however many inputs there are.
struct BatchRunner: Sendable {
    /// Worker threads, >= 1.
    var jobs: Int

    /// Calls `work(i)` for every `i` in `0..<count` on up to ``jobs`` threads, and `report(i, result)` for each
    /// in increasing `i`, one at a time.
    func run<Result: Sendable>(count: Int, work: @Sendable (Int) -> Result,
                               report: @Sendable (Int, Result) -> Void) {
        let next = Atomic<Int>(0)
        let ordered = Mutex(Reorder<Result>())
        let workers = max(1, min(jobs, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                let result = work(i)
                ordered.withLock { buffer in
                    buffer.waiting[i] = result
                    while let ready = buffer.waiting.removeValue(forKey: buffer.nextToReport) {
                        report(buffer.nextToReport, ready)
                        buffer.nextToReport += 1
                    }
                }
            }
        }
    }

    private struct Reorder<Result> {
        var waiting: [Int: Result] = [:]
        var nextToReport = 0
    }

    /// The number of cores this process may use.
    static var availableCores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
