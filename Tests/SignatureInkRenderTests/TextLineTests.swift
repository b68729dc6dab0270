// SPDX-License-Identifier: Apache-2.0
@testable import SignatureInkRender
import Testing

@Suite struct TextLineTests {
    @Test func aLineSetAgainIsMeasuredInItsOwnFont() throws {
        // A font map keeps line layouts by text and font: the same text in another size, weight or language, and
        // another text in the same font, are each measured as themselves, the first time and every time after.
        let lines = [
            TextLine(text: "Signed", font: TextFont(size: 10)),
            TextLine(text: "Signed", font: TextFont(size: 20)),
            TextLine(text: "Signed", font: TextFont(size: 10, bold: true)),
            TextLine(text: "Signed", font: TextFont(size: 10, language: "ja")),
            TextLine(text: "Signed by", font: TextFont(size: 10)),
        ]
        let first = try lines.map { try $0.metrics() }
        #expect(first[1].width > first[0].width * 1.9)
        #expect(first[2].width > first[0].width && first[4].width > first[0].width)
        for round in 1...3 {
            #expect(try lines.map { try $0.metrics() } == first, "round \(round)")
            #expect(try lines.reversed().map { try $0.metrics() } == first.reversed(), "round \(round), reversed")
        }
    }
}
