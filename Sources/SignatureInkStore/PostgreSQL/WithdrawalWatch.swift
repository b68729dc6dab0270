// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Logging
import PostgresNIO
import Synchronization

/// The consents this process knows to stand without asking PostgreSQL, kept true by the database's notifications.
///
/// A consent never changes once kept but for its withdrawal, so a server that read one once could answer it from
/// memory if it knew of every withdrawal since, whichever server wrote it. A trigger on the event table notifies the
/// channel ``channel`` of every withdrawal inserted, with the consent's identifier (PostgreSQL sends a notification when
/// its transaction commits, to every connection listening); each ``PostgreSQLDatabase`` listens on one connection of
/// its own and forgets a consent it hears of.
///
/// The rules that keep a remembered answer true:
/// - Only what was read while the connection listened is remembered, and only if nothing was heard between the start
///   of the read and its answer (``mark(_:)`` and ``remember(_:readAfter:)``): a withdrawal committed after the read's
///   snapshot is then heard after the answer is remembered, and removes it.
/// - A withdrawal written by this process is forgotten as soon as it commits, before it is answered: whoever withdrew
///   through this server reads it withdrawn at once.
/// - When the connection is lost, or stops hearing: every ``heartbeat`` it notifies the channel itself with ``probe``
///   (which no consent's identifier can be), and when no probe has come back for ``patience`` more, everything is
///   forgotten and every read asks the database until the connection listens again. Hearing its own notifications,
///   not only answers to a query, is what shows that notifications arrive: a connection pool in transaction mode
///   between the server and PostgreSQL answers queries but delivers no notifications.
///
/// What it does not promise: a withdrawal written through another server reaches this one when its notification does,
/// a millisecond or so later on a local network (at most ``patience`` plus ``heartbeat`` if the connection silently
/// stops). A read in that moment answers the consent as standing, as a read just before the withdrawal would have.
final class WithdrawalWatch: Sendable {
    /// The channel the trigger notifies.
    static let channel = "signature_ink_withdrawal"
    /// Most consents remembered at once; past it, memory starts again empty (about 10 MB of identifiers).
    static let capacity = 100_000
    /// How often the listening connection notifies the channel with ``probe``.
    static let heartbeat = Duration.seconds(2)
    /// How long past a heartbeat a probe may take to come back before the connection is taken for deaf.
    static let patience = Duration.seconds(5)
    /// The payload of a heartbeat: `~` is no character of a consent's identifier (``ConsentStore/isIdentifier(_:)``).
    static let probe = "~heartbeat"

    private struct State {
        var listening = false
        /// Counts what could make a remembered answer wrong: each withdrawal heard or written, each change of
        /// `listening`.
        var changes: UInt64 = 0
        var standing: Set<String> = []
    }

    private let state = Mutex(State())

    /// What is known of one consent before a read.
    enum Knowledge: Equatable {
        /// It stands: no need to ask.
        case stands
        /// Ask the database; remember the answer with this mark (`nil`: do not remember it).
        case ask(mark: UInt64?)
    }

    /// What is known of the consent `id` now.
    func mark(_ id: String) -> Knowledge {
        state.withLock { state in
            guard state.listening else { return .ask(mark: nil) }
            return state.standing.contains(id) ? .stands : .ask(mark: state.changes)
        }
    }

    /// Remembers that the database answered the consent `id` as standing, in a read that began at `mark`, unless a
    /// withdrawal was heard or the connection changed since.
    func remember(_ id: String, readAfter mark: UInt64?) {
        guard let mark else { return }
        state.withLock { state in
            guard state.listening, state.changes == mark else { return }
            if state.standing.count >= Self.capacity { state.standing.removeAll(keepingCapacity: true) }
            state.standing.insert(id)
        }
    }

    /// The consent `id` was withdrawn (heard, or written by this process).
    func withdrawn(_ id: String) {
        state.withLock { state in
            state.changes &+= 1
            state.standing.remove(id)
        }
    }

    /// Whether notifications arrive; either way, nothing remembered before stays.
    private func listening(_ listening: Bool) {
        state.withLock { state in
            state.listening = listening
            state.changes &+= 1
            state.standing.removeAll()
        }
    }

    /// How many consents are remembered as standing, for the tests.
    var remembered: Int { state.withLock { $0.listening ? $0.standing.count : 0 } }

    /// Listens on a connection of its own until the task is cancelled, connecting again after a loss (after 0.1 s,
    /// then twice as long each time up to 5 s; back to 0.1 s once a connection has heard its probe).
    func run(_ configuration: PostgresConnection.Configuration, logger: Logger) async {
        var pause = Duration.milliseconds(100)
        var id = 1
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                id += 1
                if await listen(on: connection, logger: logger) { pause = .milliseconds(100) }
                try? await connection.close()
            } catch {
                logger.debug("the withdrawal watch cannot connect: \(error)")
            }
            listening(false)
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }

    /// Listens on `connection` until it is lost, stops hearing its probes, or the task is cancelled. The store counts
    /// on it only from the first probe heard: a LISTEN answered proves the connection answers, not that notifications
    /// arrive.
    /// - Returns: whether a probe was heard.
    private func listen(on connection: PostgresConnection, logger: Logger) async -> Bool {
        let heard = LastProbe()
        do {
            try await connection.listen(on: Self.channel) { notifications in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await notification in notifications {
                            if notification.payload != Self.probe {
                                self.withdrawn(notification.payload)
                            } else if heard.now() {
                                // The first probe: every withdrawal committed from now on is heard.
                                self.listening(true)
                            }
                        }
                        throw CancellationError()
                    }
                    group.addTask {
                        while true {
                            try await connection.query("SELECT pg_notify(\(Self.channel), \(Self.probe))", logger: logger)
                            try await Task.sleep(for: Self.heartbeat)
                        }
                    }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: .seconds(1))
                            if heard.age > Self.heartbeat + Self.patience {
                                // Closing fails what waits on the connection, so that the group can end.
                                try? await connection.close()
                                throw CancellationError()
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("the withdrawal watch lost its connection: \(error)")
        }
        listening(false)
        return heard.any
    }
}

/// When the listening connection last heard its probe (since it started listening, before the first).
private final class LastProbe: Sendable {
    private let state = Mutex((instant: ContinuousClock.now, any: false))

    /// Notes a probe heard now; returns whether it is the first.
    func now() -> Bool {
        state.withLock { state in
            defer { state = (.now, true) }
            return !state.any
        }
    }

    var age: Duration { state.withLock { $0.instant.duration(to: .now) } }
    var any: Bool { state.withLock { $0.any } }
}
