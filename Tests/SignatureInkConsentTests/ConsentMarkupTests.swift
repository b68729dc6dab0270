// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
@testable import SignatureInkConsent
import Testing

@Suite struct ConsentMarkupTests {
    typealias Span = ConsentMarkup.Span

    @Test func paragraphsListsAndEmphasis() {
        let blocks = ConsentMarkup.parse("""
            A **bold** and *italic*
            line.

            - one
            - [two](https://example.org/two)

            1. first
            2. second
            """)
        #expect(blocks == [
            .paragraph([Span(text: "A "), Span(text: "bold", bold: true), Span(text: " and "), Span(text: "italic", italic: true),
                        Span(text: " line.")]),
            .bullet([Span(text: "one")]),
            .bullet([Span(text: "two", link: "https://example.org/two")]),
            .numbered(1, [Span(text: "first")]),
            .numbered(2, [Span(text: "second")]),
        ])
    }

    @Test func anythingElseIsTextAsWritten() {
        let cases: [(String, String)] = [
            ("<script>alert(1)</script> &amp;", "<script>alert(1)</script> &amp;"),
            ("[click](javascript:alert(1))", "[click](javascript:alert(1))"),
            ("[file](file:///etc/passwd)", "[file](file:///etc/passwd)"),
            ("a **lone marker", "a **lone marker"),
            ("2 * 3 = 6", "2 * 3 = 6"),
            ("\\*not italic\\*", "*not italic*"),
            ("- a\nnot a list", "- a not a list"),
        ]
        for (markup, text) in cases {
            let blocks = ConsentMarkup.parse(markup)
            #expect(ConsentMarkup.plainText(blocks) == text, "\(markup)")
            for case let .paragraph(spans) in blocks { #expect(spans.allSatisfy { $0.link == nil && !$0.bold && !$0.italic }, "\(markup)") }
        }
    }

    @Test func textWithoutMarkersIsOneSpanAsWritten() {
        // No `*`, `[` or `\`: the text comes back whole, whatever else it holds (parentheses, a closing bracket,
        // combining marks, a family emoji, right-to-left words).
        let text = "Zoë Ze\u{301}ta (see below) ] 👩‍👩‍👧 مرحبا"
        #expect(ConsentMarkup.parse(text) == [.paragraph([Span(text: text)])])
        #expect(ConsentMarkup.parse("- \(text)") == [.bullet([Span(text: text)])])
        #expect(ConsentMarkup.parse("a *b* \(text)") == [.paragraph([Span(text: "a "), Span(text: "b", italic: true), Span(text: " \(text)")])])
    }

    @Test func linesSplitAsTheCharactersDo() {
        // The line feeds found in UTF-8 are exactly the "\n" characters: "\r\n" is one character, and no separator.
        var random = SeededRandom(seed: 12)
        let pieces = ["\n", "\r", "\r\n", "a", " ", "é", "e\u{301}", "\u{301}", "👩‍👩‍👧", "مر", "**", "\n\n"]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            #expect(ConsentMarkup.lines(text) == text.split(separator: "\n", omittingEmptySubsequences: false), "\(text.debugDescription)")
        }
    }

    @Test func blankTextHasNoBlocks() {
        #expect(ConsentMarkup.parse("").isEmpty)
        #expect(ConsentMarkup.parse("\n  \n\t\n").isEmpty)
    }

    @Test func mailtoLinksAndNestedEmphasis() {
        let blocks = ConsentMarkup.parse("Write to **[the team](mailto:team@example.org)** today")
        #expect(blocks == [.paragraph([Span(text: "Write to "), Span(text: "the team", bold: true, link: "mailto:team@example.org"),
                                       Span(text: " today")])])
    }
}
