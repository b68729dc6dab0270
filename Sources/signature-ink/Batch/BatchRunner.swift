// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
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
    /// - Parameter crew: threads already started for this run (``jobs`` - 1 of them), used instead of new ones;
    ///   default none.
    func run<Result: Sendable>(count: Int, crew: WorkerCrew? = nil, work: @escaping @Sendable (Int) -> Result,
                               report: @escaping @Sendable (Int, Result) -> Void) {
        let workers = max(1, min(jobs, count))
        if workers == 1 {
            // In order on this thread: no lock, no results waiting.
            for i in 0..<count { report(i, work(i)) }
            return
        }
        let next = Atomic<Int>(0)
        let ordered = Reorder<Result>()
        let loop: @Sendable () -> Void = {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                ordered.add(i, work(i), report: report)
            }
        }
        if let crew, crew.threads > 0 {
            // Threads beyond the inputs find none left and end.
            crew.run(loop)
            return
        }
        // Threads of our own: Dispatch's `concurrentPerform` sizes its pool by how busy the machine looks, and
        // on a loaded machine ran every share on one thread.
        let done = DispatchGroup()
        for _ in 1..<workers {
            done.enter()
            WorkerThread.start(stackSize: BatchRunner.stackSize) {
                loop()
                done.leave()
            }
        }
        loop()
        done.wait()
    }

    /// Stack of each worker thread: the main thread's usual 8 MiB, as deep rendering may need it.
    static let stackSize = 8 << 20

    /// The results waiting for every earlier one to be reported, behind a lock.
    ///
    /// The lock is a pthread mutex rather than `Synchronization.Mutex`: on Linux `Mutex` waits on futexes that
    /// the thread sanitizer cannot see, so `make sanitize` reported the lock's own accesses as a race; with a
    /// pthread mutex the sanitizer checks this code for real.
    private final class Reorder<Result: Sendable>: @unchecked Sendable {
        private let lock = PThreadMutex()
        private var waiting: [Int: Result] = [:]
        private var nextToReport = 0

        /// Stores result `i`, then reports every result that is next in order, one at a time.
        func add(_ i: Int, _ result: Result, report: (Int, Result) -> Void) {
            lock.lock()
            defer { lock.unlock() }
            waiting[i] = result
            while let ready = waiting.removeValue(forKey: nextToReport) {
                report(nextToReport, ready)
                nextToReport += 1
            }
        }
    }

    /// The number of cores this process may use.
    static var availableCores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
