// SPDX-License-Identifier: Apache-2.0
@testable import SignatureInkServer
import Testing

/// The consents' answers kept in memory: within their budget, the oldest dropped first.
@Suite struct ConsentAnswersTests {
    @Test func answersAreKeptWithinTheBudgetAndTheOldestGoFirst() {
        let answers = ConsentAnswers(budget: 100)
        answers.keep(Array(repeating: 1, count: 40), for: "a")
        answers.keep(Array(repeating: 2, count: 40), for: "b")
        #expect(answers.answer(for: "a") == Array(repeating: 1, count: 40))
        // A third does not fit beside both: the oldest goes.
        answers.keep(Array(repeating: 3, count: 40), for: "c")
        #expect(answers.answer(for: "a") == nil)
        #expect(answers.answer(for: "b") != nil)
        #expect(answers.answer(for: "c") != nil)
        // Kept once: a second answer for the same consent does not replace the first.
        answers.keep(Array(repeating: 9, count: 10), for: "b")
        #expect(answers.answer(for: "b") == Array(repeating: 2, count: 40))
        // Larger than the whole budget: not kept, and nothing dropped for it.
        answers.keep(Array(repeating: 4, count: 101), for: "d")
        #expect(answers.answer(for: "d") == nil)
        #expect(answers.answer(for: "c") != nil)
    }

    @Test func aBudgetOfNothingKeepsNothing() {
        let answers = ConsentAnswers(budget: 0)
        answers.keep([1], for: "a")
        #expect(answers.answer(for: "a") == nil)
    }

    @Test func manyAnswersStayWithinTheBudget() {
        let answers = ConsentAnswers(budget: 1000)
        for k in 0..<5000 { answers.keep(Array(repeating: UInt8(k % 256), count: 10 + k % 7), for: "c\(k)") }
        let kept = (0..<5000).compactMap { answers.answer(for: "c\($0)")?.count }
        #expect(kept.reduce(0, +) <= 1000)
        #expect(answers.answer(for: "c4999") != nil)
        #expect(answers.answer(for: "c0") == nil)
    }
}
