// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk
import Testing

/// `firstTextRange(of:)` finds what the standard library's `firstRange(of:)` finds, in ASCII texts where it compares
/// bytes and in every other text: combining marks after a match, CR LF, letters of more than one byte.
@Suite struct TextSearchTests {
    @Test func findsWhatTheStandardLibraryFinds() {
        let pieces = ["a", "b", "/", "<<", " ", "{n}", "\n", "\r", "\r\n", "e\u{301}", "\u{301}", "é", "ß", "日", "👍🏽", "0"]
        let needles = ["a", "ab", "<<", "/a", "{n}", "n}", " ", "\n", "\r", "\r\n", "e", "é", "ß", "👍", "b{n}", "aaaa"]
        var random = SeededRandom(seed: 23)
        var wrong: [String] = []
        var found = 0
        for _ in 0..<4_000 {
            let count = Int.random(in: 0...9, using: &random)
            let text = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            for needle in needles {
                let fast = text.firstTextRange(of: needle), library = text.firstRange(of: needle)
                if fast != library { wrong.append("\(text.debugDescription) / \(needle.debugDescription)") }
                let substring = text.dropFirst(count > 2 ? 1 : 0)
                if substring.firstTextRange(of: needle) != substring.firstRange(of: needle) {
                    wrong.append("substring of \(text.debugDescription) / \(needle.debugDescription)")
                }
                if fast != nil { found += 1 }
                if text.containsText(needle) != (library != nil) { wrong.append("contains \(text.debugDescription)") }
            }
        }
        #expect(found > 5_000)
        #expect(wrong.isEmpty, "\(wrong.count) differ, as \(wrong.prefix(3))")
    }

    @Test func rangeCoversTheMatch() {
        let dictionary = "<< /Length 12 /Filter /FlateDecode >>"
        let range = dictionary.firstTextRange(of: "/Filter /FlateDecode")
        #expect(range.map { String(dictionary[$0]) } == "/Filter /FlateDecode")
        #expect(dictionary.firstTextRange(of: "/DecodeParms") == nil)
        #expect("e\u{301}{n}".firstTextRange(of: "{n}").map { "e\u{301}{n}"[$0] } == "{n}")
        #expect(!"{n}\u{301}".containsText("{n}"))
    }
}
