// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// The part of each consent's answer to `GET /consents/{id}` that never changes, kept in memory up to a budget of
/// bytes: everything but the withdrawal, which is read from the store for every answer.
///
/// A kept consent is never changed (a withdrawal is a new event), so what was read once stays true, in this process
/// and in any other that shares the store; the withdrawal, which another server may record at any moment, is the one
/// part asked again. Reading a kept answer and the withdrawal took the answers for a consent of 27 KB from 2,637 to
/// 6,602 a second on two cores (BENCHMARKS.md): what is saved is decoding the consent and writing its JSON. When the
/// budget is spent, the answers kept longest are dropped first.
final class ConsentAnswers: Sendable {
    private struct State {
        var answers: [String: [UInt8]] = [:]
        /// Identifiers in the order their answers were kept; those before `first` were dropped.
        var order: [String] = []
        var first = 0
        var bytes = 0
    }

    private let state = Mutex(State())
    /// Most bytes kept; 0 keeps nothing.
    let budget: Int

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The answer kept for the consent `id`, if any.
    func answer(for id: String) -> [UInt8]? {
        state.withLock { $0.answers[id] }
    }

    /// Keeps `answer` for the consent `id`, dropping the oldest answers until the budget holds it; an answer larger
    /// than the whole budget is not kept.
    func keep(_ answer: [UInt8], for id: String) {
        guard answer.count <= budget else { return }
        state.withLock { state in
            guard state.answers[id] == nil else { return }
            while state.bytes + answer.count > budget, state.first < state.order.count {
                let oldest = state.order[state.first]
                state.first += 1
                state.bytes -= state.answers.removeValue(forKey: oldest)?.count ?? 0
            }
            if state.first > 1024 && state.first * 2 > state.order.count {
                state.order.removeFirst(state.first)
                state.first = 0
            }
            state.answers[id] = answer
            state.order.append(id)
            state.bytes += answer.count
        }
    }
}
