// SPDX-License-Identifier: Apache-2.0

/// One element of a parsed XML document: its name, attributes, child elements and character data.
struct XMLElement {
    /// The name without its namespace prefix (`trace` for `inkml:trace`).
    var name: String
    /// Attributes in document order, names as written (`xml:id` keeps its prefix).
    var attributes: [(name: String, value: String)] = []
    /// Child elements in document order.
    var children: [XMLElement] = []
    /// The character data directly inside the element, concatenated (text and CDATA; comments removed).
    var text = ""
    /// Byte offset of the element's `<` in the document.
    var offset: Int
    /// Byte offset of the element's first character data, for positions inside ``text``.
    var textOffset: Int?

    /// The value of the attribute named `name` (as written, such as `xml:id`), or `nil`.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

/// A small XML reader for untrusted InkML: elements, attributes, character data, CDATA, comments.
///
/// It refuses what makes XML parsing dangerous instead of handling it: a `<!DOCTYPE` (so there are no
/// DTDs, no external entities and no entity expansion), any entity other than the five predefined ones and
/// numeric character references. Processing instructions and the XML declaration are skipped. Nesting
/// depth, name length, attribute count, attribute value length and element count are bounded (``Limits``); the parser
/// keeps its own stack, so deep input cannot overflow the thread's stack. A UTF-8 byte-order mark is
/// accepted. Every error is a ``FormatError/syntax(line:column:message:)`` with the 1-based line and column
/// (in characters) where the problem is. Line ends are normalised to `\n`, and white space in attribute
/// values to spaces, as XML 1.0 requires.
struct XMLReader {
    /// Bounds on the document's structure.
    struct Limits {
        /// Deepest element nesting; default 64 (InkML needs under 10).
        var maxDepth = 64
        /// Longest element or attribute name in bytes; default 256.
        var maxNameLength = 256
        /// Most attributes on one element; default 64.
        var maxAttributes = 64
        /// Longest attribute value in bytes; default 64 KiB.
        var maxAttributeLength = 64 << 10
        /// Most elements in the document; default 1,000,000 (ten for each of 100,000 traces). Each element
        /// costs about 80 bytes however short its tag, so this bounds the tree a 64 MiB file of `<a/>` could
        /// build at 80 MB rather than over a gigabyte.
        var maxElements = 1_000_000
    }

    let bytes: [UInt8]
    let limits: Limits
    private var i = 0
    private var elementCount = 0

    init(bytes: [UInt8], limits: Limits = Limits()) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses the whole document and returns its root element.
    mutating func parse() throws(FormatError) -> XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        var stack: [XMLElement] = []
        var root: XMLElement?
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                if starts(with: "<?") {
                    try skip(past: "?>", what: "processing instruction")
                } else if starts(with: "<!--") {
                    try skipComment()
                } else if starts(with: "<![CDATA[") {
                    guard !stack.isEmpty else { throw error(at: i, "CDATA outside the root element") }
                    let start = i + 9
                    guard let end = find("]]>", from: start) else { throw error(at: i, "unterminated CDATA section") }
                    append(text: normalizedLineEnds(bytes[start..<end]), at: start, to: &stack[stack.count - 1])
                    i = end + 3
                } else if starts(with: "<!DOCTYPE") || starts(with: "<!doctype") {
                    throw error(at: i, "a DOCTYPE declaration is refused: InkML needs no DTD, and one could declare "
                                + "external or expanding entities")
                } else if starts(with: "<!") {
                    throw error(at: i, "unexpected markup declaration")
                } else if starts(with: "</") {
                    let at = i
                    i += 2
                    let name = try readName()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw error(at: i, "expected '>' to end </\(name)") }
                    i += 1
                    guard let open = stack.popLast() else { throw error(at: at, "end tag </\(name)> without a start tag") }
                    guard localName(name) == open.name else {
                        throw error(at: at, "end tag </\(name)> does not match <\(open.name)>")
                    }
                    if stack.isEmpty { root = open } else { stack[stack.count - 1].children.append(open) }
                } else {
                    if root != nil { throw error(at: i, "content after the root element") }
                    guard elementCount < limits.maxElements else {
                        throw error(at: i, "more than \(limits.maxElements) elements")
                    }
                    elementCount += 1
                    let (element, selfClosing) = try readStartTag()
                    if selfClosing {
                        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                    } else {
                        guard stack.count < limits.maxDepth else {
                            throw error(at: element.offset, "elements nested deeper than \(limits.maxDepth)")
                        }
                        stack.append(element)
                    }
                }
            } else {
                let start = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "<") { i += 1 }
                if stack.isEmpty {
                    guard bytes[start..<i].allSatisfy(isSpace) else {
                        throw error(at: start + (bytes[start..<i].firstIndex { !isSpace($0) }! - start),
                                    root == nil ? "text before the root element" : "text after the root element")
                    }
                } else {
                    let text = try decodeText(start..<i, attribute: false)
                    append(text: text, at: start, to: &stack[stack.count - 1])
                }
            }
        }
        if let open = stack.last { throw error(at: bytes.count, "the document ends inside <\(open.name)> (truncated?)") }
        guard let root else { throw error(at: bytes.count, "no root element") }
        return root
    }

    // MARK: Positions and errors

    /// The 1-based line and column (in characters) of byte `offset`.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var k = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let end = min(offset, bytes.count)
        while k < end {
            let b = bytes[k]
            if b == 0x0A {
                line += 1; column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        return (line, column)
    }

    func error(at offset: Int, _ message: String) -> FormatError {
        let p = position(of: offset)
        return .syntax(line: p.line, column: p.column, message: message)
    }

    // MARK: Pieces

    private func starts(with text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        let p = text.utf8Start
        for k in 0..<n where bytes[i + k] != p[k] { return false }
        return true
    }

    private func find(_ text: StaticString, from start: Int) -> Int? {
        let n = text.utf8CodeUnitCount
        let p = text.utf8Start
        var k = start
        while k + n <= bytes.count {
            if bytes[k] == p[0] {
                var match = true
                for j in 1..<n where bytes[k + j] != p[j] { match = false; break }
                if match { return k }
            }
            k += 1
        }
        return nil
    }

    private mutating func skip(past end: StaticString, what: String) throws(FormatError) {
        guard let k = find(end, from: i + 2) else { throw error(at: i, "unterminated \(what)") }
        i = k + end.utf8CodeUnitCount
    }

    private mutating func skipComment() throws(FormatError) {
        guard let k = find("--", from: i + 4) else { throw error(at: i, "unterminated comment") }
        guard k + 2 < bytes.count, bytes[k + 2] == UInt8(ascii: ">") else {
            throw error(at: k, "'--' inside a comment")
        }
        i = k + 3
    }

    private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private mutating func skipSpace() {
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
    }

    private func isNameByte(_ b: UInt8, first: Bool) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
             UInt8(ascii: ":"), 0x80...0xFF:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    private mutating func readName() throws(FormatError) -> String {
        let start = i
        guard i < bytes.count, isNameByte(bytes[i], first: true) else { throw error(at: i, "expected a name") }
        while i < bytes.count, isNameByte(bytes[i], first: false) {
            i += 1
            if i - start > limits.maxNameLength {
                throw error(at: start, "a name longer than \(limits.maxNameLength) bytes")
            }
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private func localName(_ name: String) -> String {
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
    }

    private mutating func readStartTag() throws(FormatError) -> (XMLElement, Bool) {
        let at = i
        i += 1
        let name = try readName()
        var element = XMLElement(name: localName(name), offset: at)
        while true {
            let hadSpace = i < bytes.count && isSpace(bytes[i])
            skipSpace()
            guard i < bytes.count else { throw error(at: at, "the document ends inside the tag <\(name)") }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                return (element, false)
            }
            if starts(with: "/>") {
                i += 2
                return (element, true)
            }
            guard hadSpace else { throw error(at: i, "expected white space before an attribute") }
            let nameAt = i
            let attribute = try readName()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw error(at: i, "expected '=' after \(attribute)") }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw error(at: i, "expected a quoted value for \(attribute)")
            }
            let quote = bytes[i]
            i += 1
            let start = i
            while i < bytes.count, bytes[i] != quote {
                if bytes[i] == UInt8(ascii: "<") { throw error(at: i, "'<' inside the value of \(attribute)") }
                i += 1
                if i - start > limits.maxAttributeLength {
                    throw error(at: start, "the value of \(attribute) is longer than \(limits.maxAttributeLength) bytes")
                }
            }
            guard i < bytes.count else { throw error(at: start, "unterminated value of \(attribute)") }
            let value = try decodeText(start..<i, attribute: true)
            i += 1
            guard element.attributes.count < limits.maxAttributes else {
                throw error(at: nameAt, "more than \(limits.maxAttributes) attributes on <\(name)>")
            }
            guard !element.attributes.contains(where: { $0.name == attribute }) else {
                throw error(at: nameAt, "attribute \(attribute) given twice")
            }
            element.attributes.append((attribute, value))
        }
    }

    private func append(text: String, at offset: Int, to element: inout XMLElement) {
        if element.textOffset == nil, text.contains(where: { !$0.isWhitespace }) { element.textOffset = offset }
        element.text += text
    }

    private func normalizedLineEnds(_ slice: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var k = slice.startIndex
        while k < slice.endIndex {
            let b = slice[k]
            if b == 0x0D {
                out.append(0x0A)
                if k + 1 < slice.endIndex, slice[k + 1] == 0x0A { k += 1 }
            } else {
                out.append(b)
            }
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Character data with references replaced and line ends normalised; in an attribute value, white space
    /// becomes spaces.
    private func decodeText(_ range: Range<Int>, attribute: Bool) throws(FormatError) -> String {
        if !bytes[range].contains(UInt8(ascii: "&")) && !bytes[range].contains(0x0D) && !attribute {
            return String(decoding: bytes[range], as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var k = range.lowerBound
        while k < range.upperBound {
            let b = bytes[k]
            if b == UInt8(ascii: "&") {
                guard let semicolon = bytes[k..<min(range.upperBound, k + 12)].firstIndex(of: UInt8(ascii: ";")) else {
                    throw error(at: k, "'&' that starts no reference (write &amp;)")
                }
                let name = String(decoding: bytes[(k + 1)..<semicolon], as: UTF8.self)
                switch name {
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "amp": out.append(UInt8(ascii: "&"))
                case "quot": out.append(UInt8(ascii: "\""))
                case "apos": out.append(UInt8(ascii: "'"))
                default:
                    guard name.hasPrefix("#") else {
                        throw error(at: k, "undefined entity &\(name); (only &lt; &gt; &amp; &quot; &apos; and numeric references)")
                    }
                    let hex = name.hasPrefix("#x")
                    guard let code = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                          code != 0, let scalar = Unicode.Scalar(code) else {
                        throw error(at: k, "invalid character reference &\(name);")
                    }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
                k = semicolon + 1
                continue
            }
            if b == 0x0D {
                out.append(attribute ? 0x20 : 0x0A)
                if k + 1 < range.upperBound, bytes[k + 1] == 0x0A { k += 1 }
            } else if attribute && (b == 0x09 || b == 0x0A) {
                out.append(0x20)
            } else {
                out.append(b)
            }
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
