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
/// - When the connection is lost, or a check that it answers (every ``heartbeat``) takes longer than ``patience``,
///   everything is forgotten and every read asks the database until the connection listens again.
///
/// What it does not promise: a withdrawal written through another server reaches this one when its notification does,
/// a millisecond or so later on a local network (at most ``patience`` plus ``heartbeat`` if the connection silently
/// stops). A read in that moment answers the consent as standing, as a read just before the withdrawal would have.
final class WithdrawalWatch: Sendable {
    /// The channel the trigger notifies.
    static let channel = "signature_ink_withdrawal"
    /// Most consents remembered at once; past it, memory starts again empty (about 10 MB of identifiers).
    static let capacity = 100_000
    /// How often the listening connection is asked whether it still answers.
    static let heartbeat = Duration.seconds(2)
    /// How long an answer to that may take before the connection is taken for lost.
    static let patience = Duration.seconds(5)

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
    /// then twice as long each time up to 5 s).
    func run(_ configuration: PostgresConnection.Configuration, logger: Logger) async {
        var pause = Duration.milliseconds(100)
        var id = 1
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                id += 1
                await listen(on: connection, logger: logger) { pause = .milliseconds(100) }
                try? await connection.close()
            } catch {
                logger.debug("the withdrawal watch cannot connect: \(error)")
            }
            listening(false)
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }

    /// Listens on `connection` until it is lost, stops answering, or the task is cancelled.
    private func listen(on connection: PostgresConnection, logger: Logger, started: () -> Void) async {
        let answered = LastAnswer()
        do {
            try await connection.listen(on: Self.channel) { notifications in
                // LISTEN has been answered: every withdrawal committed from now on is heard.
                self.listening(true)
                started()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await notification in notifications { self.withdrawn(notification.payload) }
                        throw CancellationError()
                    }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: Self.heartbeat)
                            try await connection.query("SELECT 1", logger: logger)
                            answered.now()
                        }
                    }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: .seconds(1))
                            if answered.age > Self.heartbeat + Self.patience {
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
    }
}

/// When the listening connection last answered.
private final class LastAnswer: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    func now() { instant.withLock { $0 = .now } }
    var age: Duration { instant.withLock { $0.duration(to: .now) } }
}
