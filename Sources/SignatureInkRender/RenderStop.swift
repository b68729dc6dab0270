// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A switch that stops a PNG render between its steps, from any thread: a server's request whose client has
/// gone, or whose deadline has passed.
///
/// The render looks at it before it lays the signature out, before it allocates the image, between the bands
/// of a large fill (2^20 work units each, a few milliseconds) and before it encodes;
/// once stopped, it throws ``RenderError/stopped(_:)`` and frees what it holds as it unwinds.
///
/// ```swift
/// let stop = RenderStop()
/// // elsewhere, when the client hangs up: stop.stop(.clientGone)
/// let png = try renderer.png(signature, stop: stop)
/// ```
public final class RenderStop: Sendable {
    /// Why a render was stopped.
    public enum Reason: UInt8, Sendable, CustomStringConvertible {
        /// Whoever asked for it has gone (a client closed its connection).
        case clientGone = 1
        /// Its deadline passed.
        case deadline = 2
        /// The process is shutting down.
        case shutdown = 3

        /// The reason in words.
        public var description: String {
            switch self {
            case .clientGone: "the client has gone"
            case .deadline: "the deadline passed"
            case .shutdown: "the server is shutting down"
            }
        }
    }

    private let state = Atomic<UInt8>(0)
    /// When the render stops by itself, or `nil` for never.
    public let deadline: ContinuousClock.Instant?

    /// A switch not yet stopped.
    /// - Parameter deadline: when the render stops by itself (``Reason/deadline``), read from the clock at each
    ///   step, so that no timer is needed; default never.
    public init(deadline: ContinuousClock.Instant? = nil) {
        self.deadline = deadline
    }

    /// Stops the render at its next step; the first reason given is kept.
    public func stop(_ reason: Reason) {
        _ = state.compareExchange(expected: 0, desired: reason.rawValue, ordering: .relaxed)
    }

    /// Why it was stopped, or `nil` while it runs. Past the deadline, it stops with ``Reason/deadline``.
    public var reason: Reason? {
        if let reason = Reason(rawValue: state.load(ordering: .relaxed)) { return reason }
        guard let deadline, ContinuousClock.now >= deadline else { return nil }
        stop(.deadline)
        return Reason(rawValue: state.load(ordering: .relaxed))
    }

    /// Whether it was stopped.
    public var isStopped: Bool { reason != nil }

    /// Throws when stopped.
    /// - Throws: ``RenderError/stopped(_:)``.
    func check() throws(RenderError) {
        if let reason { throw .stopped(reason) }
    }
}
