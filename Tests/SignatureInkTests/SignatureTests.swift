// SPDX-License-Identifier: Apache-2.0
import Testing
import SignatureInk

@Suite struct SignatureTests {
    @Test func emptyStrokesAreNotStored() {
        let s = Signature(strokes: [[], [InkSample(x: 1, y: 2, t: 0)], []])
        #expect(s.strokeCount == 1)
        #expect(s.samples.count == 1)
    }
}
