// SPDX-License-Identifier: Apache-2.0

/// Rewrites the marked content of a page's contents as Cairo wrote them, for ``PDFCompletion``: the stand-in tags of
/// artifacts and links, and the `/ActualText` spans that Cairo nests inside an element's content.
///
/// Cairo writes a ligature whose glyph the font maps to another character, or a space where a line breaks, as a
/// `/Span << /ActualText … >> BDC … EMC` inside the element's marked content. poppler (22.12, Debian 12's) ends an
/// element's text at the first nested `EMC` (its `MarkedContentOutputDev` pops its stack for a sequence it never
/// pushed), so `pdfinfo -struct-text` and every poppler-based reader would lose the rest of the line. For an element
/// whose text the engine knows, the nested spans are dropped and the element carries that text as its own
/// `/ActualText` (ISO 32000-1, 14.9.4), which says the same for the whole element; other nested spans stay.
enum MarkedContent {
    /// What to change in one page's contents.
    struct Changes {
        /// The MCIDs of the running header and footer: written as `/Artifact << /Type /Pagination >>`, without MCID.
        var artifacts: Set<Int> = []
        /// The MCIDs whose tag is written under another name (a link's stand-in `Reference` as `Link`).
        var renamed: [Int: String] = [:]
        /// The MCIDs whose element has its text as `/ActualText`: their nested `/ActualText` spans are dropped.
        var actualText: Set<Int> = []

        var isEmpty: Bool { artifacts.isEmpty && renamed.isEmpty && actualText.isEmpty }
    }

    /// Each byte's kind in a content stream (ISO 32000-1, 7.2.2): 1 white space, 2 delimiter, 0 regular.
    private static let kinds: [UInt8] = (0...255).map { byte in
        if [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20].contains(byte) { return 1 }
        return "()<>[]{}/%".utf8.contains(UInt8(byte)) ? 2 : 0
    }

    /// The contents with `changes` made, and the MCIDs in `changes.actualText` that had a nested span dropped.
    /// - Throws: ``RenderError/cairo(_:)`` when the marked content does not nest, or an MCID to change is missing.
    static func rewrite(_ data: [UInt8], _ changes: Changes) throws(RenderError) -> (data: [UInt8], dropped: Set<Int>) {
        let result = data.withUnsafeBufferPointer { buffer in
            Self.kinds.withUnsafeBufferPointer { kinds in Result { () throws(RenderError) in try rewrite(buffer, kinds, changes) } }
        }
        let (out, dropped) = try result.get()
        return (out ?? data, dropped)
    }

    /// ``rewrite(_:_:)`` over the bytes in place; `nil` for contents left as they are.
    private static func rewrite(_ data: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>,
                                _ changes: Changes) throws(RenderError) -> (data: [UInt8]?, dropped: Set<Int>) {
        enum Open {
            case tagged(Int)
            case dropped
            case other
        }
        var edits: [(range: Range<Int>, with: [UInt8])] = []
        var stack: [Open] = []
        var dropped: Set<Int> = []
        var seen: Set<Int> = []
        var operands = 0
        var depth = 0  // of dictionaries and arrays
        var i = 0
        let n = data.count
        func isWhite(_ b: UInt8) -> Bool { kinds[Int(b)] == 1 }
        func isDelimiter(_ b: UInt8) -> Bool { kinds[Int(b)] == 2 }
        while i < n {
            let b = data[i]
            if isWhite(b) { i += 1; continue }
            switch b {
            case UInt8(ascii: "("):
                var nesting = 0
                while i < n {
                    let c = data[i]
                    if c == UInt8(ascii: "\\") { i += 2; continue }
                    if c == UInt8(ascii: "(") { nesting += 1 }
                    if c == UInt8(ascii: ")") { nesting -= 1; if nesting == 0 { i += 1; break } }
                    i += 1
                }
            case UInt8(ascii: "<"):
                if i + 1 < n, data[i + 1] == UInt8(ascii: "<") { depth += 1; i += 2 } else {
                    while i < n, data[i] != UInt8(ascii: ">") { i += 1 }
                    i += 1
                }
            case UInt8(ascii: ">"):
                depth -= 1
                i += data.count > i + 1 && data[i + 1] == UInt8(ascii: ">") ? 2 : 1
            case UInt8(ascii: "["): depth += 1; i += 1
            case UInt8(ascii: "]"): depth -= 1; i += 1
            case UInt8(ascii: "%"):
                while i < n, data[i] != 0x0a, data[i] != 0x0d { i += 1 }
            case UInt8(ascii: "/"):
                i += 1
                while i < n, !isWhite(data[i]), !isDelimiter(data[i]) { i += 1 }
            default:
                let start = i
                while i < n, !isWhite(data[i]), !isDelimiter(data[i]) { i += 1 }
                if i == start { i += 1; continue }
                let first = data[start]
                let isOperand = (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-")
                    || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") || first == UInt8(ascii: "t")
                    || first == UInt8(ascii: "f") || first == UInt8(ascii: "n")  // true, false, null
                guard depth == 0, !isOperand else { continue }
                defer { operands = i }
                // The three operators, told by their length and bytes: most tokens are path and text operators.
                guard i - start == 3, data[start + 2] == UInt8(ascii: "C") else { continue }
                let (b0, b1) = (data[start], data[start + 1])
                if b0 == UInt8(ascii: "B"), b1 == UInt8(ascii: "D") {
                    let from = data[operands..<start].firstIndex { kinds[Int($0)] != 1 } ?? start
                    let properties = Array(data[from..<start])
                    let tagEnd = from + (properties.firstIndex { kinds[Int($0)] == 1 } ?? properties.count)
                    if let at = CairoFile.index(after: "/MCID ", in: properties),
                       let mcid = Int(String(decoding: properties[at...].prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)) {
                        stack.append(.tagged(mcid))
                        seen.insert(mcid)
                        if changes.artifacts.contains(mcid) {
                            edits.append((from..<i, Array("/Artifact << /Type /Pagination >> BDC".utf8)))
                        } else if let name = changes.renamed[mcid] {
                            edits.append((from..<tagEnd, Array(("/" + name).utf8)))
                        }
                    } else if CairoFile.index(after: "/ActualText", in: properties) != nil, stack.contains(where: {
                        if case let .tagged(m) = $0 { changes.actualText.contains(m) } else { false }
                    }) {
                        stack.append(.dropped)
                        edits.append((from..<i, []))
                        for case let .tagged(m) in stack where changes.actualText.contains(m) { dropped.insert(m) }
                    } else {
                        stack.append(.other)
                    }
                } else if b0 == UInt8(ascii: "B"), b1 == UInt8(ascii: "M") {
                    stack.append(.other)
                } else if b0 == UInt8(ascii: "E"), b1 == UInt8(ascii: "M") {
                    guard let open = stack.popLast() else { throw .cairo("a page's contents end marked content that was never begun") }
                    if case .dropped = open { edits.append((start..<i, [])) }
                }
            }
        }
        guard stack.isEmpty else { throw .cairo("a page's contents leave marked content open") }
        let missing = changes.artifacts.union(changes.renamed.keys).subtracting(seen)
        guard missing.isEmpty else { throw .cairo("a page's contents have no marked content \(missing.sorted())") }
        guard !edits.isEmpty else { return (nil, dropped) }
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var k = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            out += data[k..<edit.range.lowerBound]
            out += edit.with
            k = edit.range.upperBound
        }
        out += data[k...]
        return (out, dropped)
    }
}
