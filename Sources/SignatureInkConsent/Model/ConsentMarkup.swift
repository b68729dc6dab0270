// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// The small, safe markup of consent text: paragraphs, lists, bold, italic and links, and nothing else.
///
/// - A blank line separates blocks; the lines of a paragraph are joined with a space.
/// - A block whose every line starts with `- ` or `* ` is a bulleted list, one item a line; one whose every line
///   starts with a number and `. ` (`1. `) is a numbered list.
/// - `**bold**`, `*italic*`, and `[text](address)` for a link whose address starts with `https:`, `http:` or
///   `mailto:`.
/// - A backslash before `*`, `[`, `]`, `(`, `)` or `\` writes that character.
///
/// Anything else is text, drawn as it is: a marker without its partner, a link to any other scheme, HTML tags and
/// entities. Nothing in the text is ever interpreted beyond this list.
public enum ConsentMarkup {
    /// A piece of a line of text, with its emphasis and link.
    public struct Span: Sendable, Hashable {
        /// The text.
        public var text: String
        /// Bold.
        public var bold = false
        /// Italic.
        public var italic = false
        /// The link's address, or `nil`.
        public var link: String?

        /// Creates a span.
        public init(text: String, bold: Bool = false, italic: Bool = false, link: String? = nil) {
            self.text = text
            self.bold = bold
            self.italic = italic
            self.link = link
        }
    }

    /// A block of text.
    public enum Block: Sendable, Hashable {
        /// A paragraph.
        case paragraph([Span])
        /// An item of a bulleted list.
        case bullet([Span])
        /// An item of a numbered list, with its number as written.
        case numbered(Int, [Span])
    }

    /// The link schemes that become links; any other address stays text.
    public static let linkSchemes = ["https:", "http:", "mailto:"]

    /// Reads markup into blocks.
    /// - Parameter text: the markup.
    /// - Returns: the blocks in order; empty for blank text.
    public static func parse(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var current: [Substring] = []
        func flush() {
            defer { current.removeAll() }
            guard !current.isEmpty else { return }
            if current.allSatisfy({ $0.hasPrefix("- ") || $0.hasPrefix("* ") }) {
                blocks += current.map { .bullet(inline($0.dropFirst(2).trimmingSpaces())) }
            } else if let numbers = numbersOfList(current) {
                blocks += zip(numbers, current).map { number, line in
                    let rest = line.drop { $0 != "." }.dropFirst(2)
                    return .numbered(number, inline(rest.trimmingSpaces()))
                }
            } else {
                blocks.append(.paragraph(inline(current.map { $0.trimmingSpaces() }.joined(separator: " "))))
            }
        }
        for line in lines(text) {
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty { flush() } else { current.append(Substring(trimmed)) }
        }
        flush()
        return blocks
    }

    /// The lines of `text`, empty ones kept: `text.split(separator: "\n", omittingEmptySubsequences: false)`,
    /// found in its UTF-8 rather than character by character (which was 3 % of laying a consent out). A line
    /// feed is a character of its own except right after a carriage return, where the two are one character
    /// and no separator.
    static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex, i = utf8.startIndex
        var previous: UInt8 = 0
        while i != utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") {
                lines.append(text[start..<i])
                start = utf8.index(after: i)
            }
            previous = byte
            i = utf8.index(after: i)
        }
        lines.append(text[start...])
        return lines
    }

    /// The numbers of a numbered list's lines, or `nil` when a line does not start with `1. ` and so on.
    private static func numbersOfList(_ lines: [Substring]) -> [Int]? {
        var numbers: [Int] = []
        for line in lines {
            let digits = line.prefix { $0.isASCII && $0.isNumber }
            guard (1...6).contains(digits.count), line.dropFirst(digits.count).hasPrefix(". "),
                  let n = Int(digits) else { return nil }
            numbers.append(n)
        }
        return numbers
    }

    /// Reads the inline markup of one block.
    static func inline(_ text: String) -> [Span] {
        // Text with no `*`, `[` or `\` has no markup: no character of it can be one of those, each being a whole
        // character of one ASCII byte, which no other character's UTF-8 contains. Most of a consent's paragraphs
        // are such text, and reading them a character at a time was 3 % of laying a document out.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\") }) {
            return text.isEmpty ? [] : [Span(text: text)]
        }
        let chars = Array(text)
        var spans: [Span] = []
        var bold = false, italic = false
        var buffer = ""
        func emit(_ text: String, link: String? = nil) {
            guard !text.isEmpty else { return }
            if link == nil, let last = spans.last, last.bold == bold, last.italic == italic, last.link == nil {
                spans[spans.count - 1].text += text
            } else {
                spans.append(Span(text: text, bold: bold, italic: italic, link: link))
            }
        }
        func flush() { emit(buffer); buffer = "" }
        /// Whether a marker of `stars` asterisks (`**` or `*`; a lone `*` only, for one) occurs again, unescaped,
        /// after `from`.
        func closes(stars: Int, after from: Int) -> Bool {
            var k = from
            while k + stars <= chars.count {
                if chars[k] == "\\" { k += 2; continue }
                let found = stars == 2
                    ? chars[k] == "*" && chars[k + 1] == "*"
                    : chars[k] == "*" && (k + 1 >= chars.count || chars[k + 1] != "*") && (k == 0 || chars[k - 1] != "*")
                if found { return true }
                k += 1
            }
            return false
        }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, "*[]()\\".contains(chars[i + 1]) {
                buffer.append(chars[i + 1]); i += 2; continue
            }
            if c == "*", i + 1 < chars.count, chars[i + 1] == "*", bold || closes(stars: 2, after: i + 2) {
                flush(); bold.toggle(); i += 2; continue
            }
            if c == "*", (i + 1 >= chars.count || chars[i + 1] != "*"), italic || closes(stars: 1, after: i + 1) {
                flush(); italic.toggle(); i += 1; continue
            }
            if c == "[", let link = link(at: i, in: chars) {
                flush()
                emit(link.text, link: link.address)
                i = link.end
                continue
            }
            buffer.append(c)
            i += 1
        }
        flush()
        return spans
    }

    /// A link `[text](address)` starting at `start`, with an allowed scheme, or `nil`.
    private static func link(at start: Int, in chars: [Character]) -> (text: String, address: String, end: Int)? {
        guard let close = chars[(start + 1)...].firstIndex(of: "]"), close + 1 < chars.count, chars[close + 1] == "(",
              let end = chars[(close + 2)...].firstIndex(of: ")") else { return nil }
        let text = String(chars[(start + 1)..<close]), address = String(chars[(close + 2)..<end])
        guard !text.isEmpty, !address.containsText(" "), address.count <= 2000,
              linkSchemes.contains(where: { address.lowercased().hasPrefix($0) && address.count > $0.count }) else { return nil }
        return (text, address, end + 1)
    }

    /// The blocks' text without markup, one block a line: what a reader reads.
    public static func plainText(_ blocks: [Block]) -> String {
        blocks.map { block in
            switch block {
            case let .paragraph(spans), let .bullet(spans), let .numbered(_, spans): spans.map(\.text).joined()
            }
        }.joined(separator: "\n")
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        // Indices, not a reversed copy: rebuilding a string from a reversed sequence of characters made one
        // allocation per character, a fifth of a consent's layout.
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
