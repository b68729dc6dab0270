// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// The tool's commands are synchronous; the consent store's calls and the seal's chain check are `async`.
enum Blocking {
    /// Runs `work` to its end on Swift's cooperative threads and gives its outcome, while the calling
    /// (non-cooperative) thread waits on a semaphore.
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
