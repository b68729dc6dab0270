// SPDX-License-Identifier: Apache-2.0
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SignatureInkRender

/// The threads that do the heavy part of requests (decoding a stroke file, rendering, laying out and signing a
/// consent), apart from the event loops, so that pages, `openapi.yaml` and small requests are answered whatever
/// the renders do.
///
/// At most ``workers`` requests work at once and ``queueLength`` more wait; a request beyond that is refused at
/// once, before its body is read (``admit()`` returns `nil`, answered 503 with `Retry-After`). Each admitted
/// request holds a ``Ticket`` until it has answered. Work that has waited or run past its deadline, or whose
/// client has gone, is stopped through its ``RenderStop``.
final class WorkPool: Sendable {
    /// Requests that work at once: the threads.
    let workers: Int
    /// Requests that may wait for a thread.
    let queueLength: Int
    private let threads: NIOThreadPool
    /// Requests admitted and not yet answered.
    private let admitted = NIOLockedValueBox(0)

    /// Starts `workers` threads, which live as long as the pool.
    /// - Parameters:
    ///   - workers: threads, >= 1.
    ///   - queueLength: requests that may wait, >= 0.
    init(workers: Int, queueLength: Int) {
        self.workers = Swift.max(1, workers)
        self.queueLength = Swift.max(0, queueLength)
        threads = NIOThreadPool(numberOfThreads: self.workers)
        threads.start()
    }

    deinit {
        threads.shutdownGracefully { _ in }
    }

    /// A place in the pool, given back when the request has answered (when the ticket is released).
    final class Ticket: Sendable {
        fileprivate let pool: WorkPool

        fileprivate init(pool: WorkPool) { self.pool = pool }

        deinit { pool.admitted.withLockedValue { $0 -= 1 } }
    }

    /// A place for one more request, or `nil` when every thread is busy and the queue is full.
    func admit() -> Ticket? {
        let limit = workers + queueLength
        let ok = admitted.withLockedValue { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        return ok ? Ticket(pool: self) : nil
    }

    /// Requests admitted and not yet answered (for tests and logs).
    var inFlight: Int { admitted.withLockedValue { $0 } }

    /// Runs `body` on one of the threads, unless `stop` has been stopped while it waited.
    /// - Throws: ``RenderError/stopped(_:)`` when stopped before it started; what `body` throws.
    func run<T: Sendable>(stop: RenderStop, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await threads.runIfActive {
            if let reason = stop.reason { throw RenderError.stopped(reason) }
            return try body()
        }
    }
}
