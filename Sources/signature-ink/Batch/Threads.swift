// SPDX-License-Identifier: Apache-2.0
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread with a chosen stack size, for the batch's workers.
///
/// Foundation's `Thread` does the same, but importing Foundation (rather than FoundationEssentials) links its
/// internationalisation layer and ICU into the tool, which made every new process slower to start.
enum WorkerThread {
    /// Starts `body` on a new detached thread whose stack is `stackSize` bytes.
    static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
    }

    /// The closure, boxed so that it crosses into the new thread as one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// A pthread mutex: the thread sanitizer sees its waits, which it cannot for `Synchronization.Mutex` on Linux.
///
/// The tool's one lock type: `Mutex` waits on futexes the sanitizer does not see, so a lock of that kind beside
/// these made `make sanitize` report its own accesses as races.
final class PThreadMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held and returns what it returns.
    @inline(__always)
    func withLock<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits on `condition`, which releases the lock (held by the caller) until the condition is signalled.
    func wait(_ condition: UnsafeMutablePointer<pthread_cond_t>) { pthread_cond_wait(condition, mutex) }
}

/// Worker threads started before their work is known, so that their start-up overlaps the batch's listing and
/// planning of its inputs.
///
/// A new thread took 0.65-0.8 ms to take its first file after the main thread had taken its own (an idle core
/// waking, the thread's first memory): 2 % of a two-core batch of 158 files, all of it on the path that runs on
/// one core. Started first, the threads wait while the inputs are listed and planned (about 1 ms for those 158).
final class WorkerCrew: Sendable {
    /// Threads in the crew, besides the caller's.
    let threads: Int
    private let handover = Handover()
    private let finished = DispatchGroup()

    /// Starts `threads` threads (0 for none), each waiting for work.
    init(threads: Int) {
        self.threads = Swift.max(0, threads)
        for _ in 0..<self.threads {
            finished.enter()
            WorkerThread.start(stackSize: BatchRunner.stackSize) { [handover, finished] in
                if let work = handover.wait() { work() }
                finished.leave()
            }
        }
    }

    /// Lets any thread that got no work go (a crew whose batch needed none, or stopped before it started).
    deinit { handover.give(nil) }

    /// Runs `work` on every thread of the crew and on the calling thread, and returns when all have finished. Call
    /// it at most once.
    func run(_ work: @escaping @Sendable () -> Void) {
        handover.give(work)
        work()
        finished.wait()
    }
}

/// Work handed once from one thread to any number of waiting ones, behind a pthread mutex and condition (which the
/// thread sanitizer sees). Not generic: a generic class's metadata would be built at run time, in every process.
final class Handover: @unchecked Sendable {
    typealias Work = (@Sendable () -> Void)?
    private let lock = PThreadMutex()
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Work = nil
    private var given = false

    init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Hands `value` (`nil`: no work) to every waiter, present and future; a second call changes nothing.
    func give(_ value: Work) {
        lock.lock()
        defer { lock.unlock() }
        guard !given else { return }
        self.value = value
        given = true
        pthread_cond_broadcast(condition)
    }

    /// The value given, once it is.
    func wait() -> Work {
        lock.lock()
        defer { lock.unlock() }
        while !given { lock.wait(condition) }
        return value
    }
}
