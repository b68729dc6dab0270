// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Coverage encoders lent out one render at a time and taken back, so their buffers and tables serve image
/// after image: a fresh encoder allocates about 80 blocks before its first image, a reused one none.
///
/// Each encoder is used by one render at a time, so renders on different threads never share buffers, and
/// the bytes written do not depend on which encoder a render gets (every buffer is rewritten before it is
/// read). The lock is a pthread mutex, which the thread sanitizer understands, held only to pop or push.
final class EncoderPool: @unchecked Sendable {
    /// The pool the renderer uses.
    static let shared = EncoderPool()

    /// Most encoders kept: one per thread rendering at once on a large machine; more threads allocate their own.
    static let capacity = 16
    /// Largest image, in pixels, whose encoder is kept: its buffers hold about 2 bytes a pixel (a 2048 x 2048
    /// image leaves 8 MiB reserved, mostly never touched), so encoders of huge images are released.
    static let largestKeptImage = 1 << 22

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var free: [CoveragePNGEncoder] = []

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        free.reserveCapacity(Self.capacity)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Calls `body` with an encoder from the pool (or a new one), and keeps it afterwards.
    /// - Parameters:
    ///   - pixels: the size of the image `body` encodes; encoders of larger images than
    ///     ``largestKeptImage`` are not kept.
    ///   - body: encodes with the encoder it is given.
    func withEncoder<R>(pixels: Int, _ body: (inout CoveragePNGEncoder) throws(RenderError) -> R) throws(RenderError) -> R {
        var encoder = take() ?? CoveragePNGEncoder()
        defer { if pixels <= Self.largestKeptImage { put(encoder) } }
        return try body(&encoder)
    }

    private func take() -> CoveragePNGEncoder? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return free.popLast()
    }

    private func put(_ encoder: CoveragePNGEncoder) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if free.count < Self.capacity { free.append(encoder) }
    }
}
