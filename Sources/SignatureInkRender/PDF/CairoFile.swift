// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import SignatureInk

/// A PDF as Cairo 1.16 writes it, read for ``PDFCompletion``: its cross-reference table, trailer, pages, and each
/// object's bytes; and the file written anew with some objects changed (``rewritten(with:)``).
///
/// It reads only what Cairo writes (one classic cross-reference table, objects in order, dictionaries with their
/// tokens apart) and searches bytes, not text: for every object of a consent, Swift's `String` search cost 23 M
/// instructions more.
struct CairoFile {
    let bytes: [UInt8]
    let xref: Int
    let size: Int
    let root: Int
    let info: Int?
    let offsets: [Int: Int]
    private(set) var pages: [Int]

    init(_ bytes: [UInt8]) throws(RenderError) {
        self.bytes = bytes
        guard let xref = PDFIncrementalUpdate.lastCrossReference(in: bytes), xref > 0 else {
            throw .cairo("the PDF has no startxref")
        }
        self.xref = xref
        // Bytes, not characters, line by line without copying: Cairo's table is ASCII.
        var lineStart = xref
        func nextLine() -> ArraySlice<UInt8>? {
            while lineStart < bytes.count, bytes[lineStart] == 0x0a || bytes[lineStart] == 0x0d { lineStart += 1 }
            guard lineStart < bytes.count else { return nil }
            var end = lineStart
            while end < bytes.count, bytes[end] != 0x0a, bytes[end] != 0x0d { end += 1 }
            defer { lineStart = end }
            return bytes[lineStart..<end]
        }
        guard let first = nextLine(), first.elementsEqual("xref".utf8) else { throw .cairo("the PDF's cross-reference table is not a table") }
        var offsets: [Int: Int] = [:]
        var trailerStart = bytes.count
        while let header = nextLine() {
            if header.starts(with: "trailer".utf8) { trailerStart = header.startIndex; break }
            let parts = header.split(separator: 0x20)
            guard parts.count == 2, let start = Self.integer(parts[0]), let count = Self.integer(parts[1]) else {
                throw .cairo("bad cross-reference subsection '\(String(decoding: header, as: UTF8.self))'")
            }
            offsets.reserveCapacity(offsets.count + count)
            for k in 0..<count {
                // Each entry is `oooooooooo ggggg n`: ten digits of offset, and `n` for an object in use.
                guard let entry = nextLine(), entry.count >= 18 else { throw .cairo("the cross-reference table ends early") }
                let s = entry.startIndex
                if entry[s + 17] == UInt8(ascii: "n"), let offset = Self.integer(entry[s..<(s + 10)]) { offsets[start + k] = offset }
            }
        }
        self.offsets = offsets
        let sorted = offsets.sorted { $0.value < $1.value }
        var ends: [Int: Int] = [:]
        for (k, entry) in sorted.enumerated() { ends[entry.key] = k + 1 < sorted.count ? sorted[k + 1].value : xref }
        self.ends = ends
        let trailer = Array(bytes[trailerStart...])
        func value(_ key: String) -> Int? {
            guard let start = Self.index(after: key + " ", in: trailer) else { return nil }
            return Self.integer(trailer[start...].prefix { $0 >= 0x30 && $0 <= 0x39 })
        }
        guard let size = value("/Size"), let root = value("/Root") else { throw .cairo("the PDF's trailer has no /Size or /Root") }
        self.size = size
        self.root = root
        info = value("/Info")
        pages = []
        let catalog = try self.fields(of: root)
        guard let pagesRef = Self.reference(after: "/Pages", in: catalog) else { throw .cairo("the catalog has no /Pages") }
        guard let kids = try Self.items(after: "/Kids", in: try self.fields(of: pagesRef)) else { throw .cairo("the page tree has no /Kids") }
        pages = try kids.map { (item) throws(RenderError) -> Int in
            guard case let .reference(n) = item else { throw .cairo("the page tree's /Kids is not a list of pages") }
            return n
        }
    }

    /// Where each object's bytes end: the next object's offset, or the cross-reference table's.
    private let ends: [Int: Int]

    /// A decimal integer of ASCII digits.
    private static func integer(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count < 19 else { return nil }
        var value = 0
        for d in digits {
            guard d >= 0x30, d <= 0x39 else { return nil }
            value = value * 10 + Int(d - 0x30)
        }
        return value
    }

    /// The text of an object between `N 0 obj` and `endobj`.
    func body(of number: Int) throws(RenderError) -> String {
        String(decoding: try fields(of: number), as: UTF8.self)
    }

    /// The bytes of an object between `N 0 obj` and `endobj`, without white space at either end.
    func fields(of number: Int) throws(RenderError) -> [UInt8] {
        let object = try objectBytes(of: number)
        // Cairo ends each object with `endobj` and a line break.
        var end = object.endIndex
        while end > object.startIndex, object[end - 1] == 0x0a || object[end - 1] == 0x0d || object[end - 1] == 0x20 { end -= 1 }
        guard end - object.startIndex >= 6, object[(end - 6)..<end].elementsEqual("endobj".utf8) else {
            throw .cairo("object \(number) does not end")
        }
        var start = object.startIndex
        end -= 6
        while start < end, Self.isWhite(object[start]) { start += 1 }
        while end > start, Self.isWhite(object[end - 1]) { end -= 1 }
        return Array(object[start..<end])
    }

    /// The index just after the first `key` in `text`.
    static func index(after key: String, in text: [UInt8]) -> Int? {
        find(key, in: text[...]).map { $0 + key.utf8.count }
    }

    /// The index of the first `key` in `bytes`, found with the C library's `memchr` and `memcmp` (the standard
    /// library's generic search took a consent's completion a sixth of its time).
    static func find(_ key: String, in bytes: ArraySlice<UInt8>) -> Int? {
        var key = key
        return key.withUTF8 { needle in
            bytes.withUnsafeBufferPointer { hay -> Int? in
                guard let base = hay.baseAddress, let first = needle.first, let start = needle.baseAddress, hay.count >= needle.count else {
                    return nil
                }
                var i = 0
                while i + needle.count <= hay.count {
                    guard let hit = memchr(base + i, Int32(first), hay.count - needle.count - i + 1) else { return nil }
                    let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                    if memcmp(hit, start, needle.count) == 0 { return bytes.startIndex + at }
                    i = at + 1
                }
                return nil
            }
        }
    }

    /// The object number of `key N 0 R` in a dictionary's text.
    static func reference(after key: String, in text: [UInt8]) -> Int? {
        guard let start = index(after: key, in: text) else { return nil }
        let tokens = text[start...].split(maxSplits: 3, whereSeparator: isWhite).prefix(3)
        guard tokens.count == 3, let number = tokens.first, tokens.last?.elementsEqual("R".utf8) == true else { return nil }
        return integer(number)
    }

    /// ``reference(after:in:)`` in text.
    static func reference(after key: String, in text: String) -> Int? { reference(after: key, in: Array(text.utf8)) }

    /// Space, line feed or carriage return: what Cairo puts between tokens.
    static func isWhite(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0a || byte == 0x0d }

    /// The file written anew with `objects` in the place of Cairo's of the same numbers and the others after them,
    /// with one cross-reference table: what an incremental update would say, without Cairo's replaced objects (a
    /// page's rewritten contents would otherwise be in the file twice).
    func rewritten(with objects: [PDFIncrementalUpdate.Object]) -> [UInt8] {
        let replacing = Dictionary(objects.map { ($0.number, $0.body) }, uniquingKeysWith: { _, last in last })
        let byOffset = offsets.sorted { $0.value < $1.value }
        var out = Array(bytes[..<(byOffset.first?.value ?? xref)])
        out.reserveCapacity(bytes.count + objects.reduce(0) { $0 + $1.body.count + 32 })
        var written: [Int: Int] = [:]
        func write(_ number: Int, _ body: [UInt8]) {
            written[number] = out.count
            out += Array("\(number) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        for (k, entry) in byOffset.enumerated() {
            if let body = replacing[entry.key] {
                write(entry.key, body)
            } else {
                written[entry.key] = out.count
                out += bytes[entry.value..<(k + 1 < byOffset.count ? byOffset[k + 1].value : xref)]
            }
        }
        for object in objects.sorted(by: { $0.number < $1.number }) where offsets[object.number] == nil { write(object.number, object.body) }
        let size = (written.keys.max() ?? 0) + 1
        let start = out.count
        out += Array("xref\n0 \(size)\n0000000000 65535 f \n".utf8)
        for number in 1..<size {
            // Twenty bytes an entry: ten digits of offset, ` 00000 n \n` (or a free entry).
            guard var offset = written[number] else { out += Array("0000000000 65535 f \n".utf8); continue }
            let at = out.count
            out += Array("0000000000 00000 n \n".utf8)
            var k = at + 9
            while offset > 0, k >= at {
                out[k] = UInt8(ascii: "0") + UInt8(offset % 10)
                offset /= 10
                k -= 1
            }
        }
        out += Array(("trailer\n<< /Size \(size) /Root \(root) 0 R" + (info.map { " /Info \($0) 0 R" } ?? "")
                      + " >>\nstartxref\n\(start)\n%%EOF\n").utf8)
        return out
    }

    /// An object's bytes between `N 0 obj` and `endobj`, for a stream whose data is not text.
    func objectBytes(of number: Int) throws(RenderError) -> ArraySlice<UInt8> {
        guard let offset = offsets[number], offset < bytes.count else { throw .cairo("object \(number) is not in the PDF") }
        let header = Array("\(number) 0 obj".utf8)
        guard bytes[offset...].starts(with: header) else { throw .cairo("object \(number) is not where the table says") }
        return bytes[(offset + header.count)..<(ends[number] ?? xref)]
    }

    /// A stream's data, inflated when Cairo compressed it (`/FlateDecode`, its only filter).
    func streamData(of number: Int) throws(RenderError) -> [UInt8] {
        let object = try objectBytes(of: number)
        guard let keyword = Self.find("stream", in: object) else { throw .cairo("object \(number) is not a stream") }
        let dictionary = String(decoding: object[..<keyword], as: UTF8.self)
        var dataStart = keyword + 6
        if dataStart < object.endIndex, object[dataStart] == 0x0d { dataStart += 1 }
        if dataStart < object.endIndex, object[dataStart] == 0x0a { dataStart += 1 }
        let length: Int?
        if let ref = Self.reference(after: "/Length", in: dictionary) {
            length = Int(try body(of: ref).filter { !$0.isWhitespace })
        } else if let r = dictionary.firstTextRange(of: "/Length ") {
            length = Int(dictionary[r.upperBound...].prefix { $0.isNumber })
        } else {
            length = nil
        }
        guard let length, length >= 0, dataStart + length <= object.endIndex else { throw .cairo("object \(number) has no usable /Length") }
        let data = object[dataStart..<(dataStart + length)]
        guard dictionary.containsText("/Filter") else { return Array(data) }
        guard dictionary.containsText("/Filter /FlateDecode"), !dictionary.containsText("/DecodeParms") else {
            throw .cairo("object \(number) has a filter Cairo does not write")
        }
        return try Flate.inflate(data, limit: Self.streamLimit)
    }

    /// Most bytes a page's contents may inflate to: far above what a page of text and ink takes.
    static let streamLimit = 256 << 20

    /// The items of the array after `key` in a dictionary's text (`/K [ 4 0 R 15 0 R ]`), or the one value there
    /// (`/K 0`, `/K 4 0 R`): references as ``Item/reference(_:)``, integers as ``Item/integer(_:)``.
    static func items(after key: String, in text: [UInt8]) throws(RenderError) -> [Item]? {
        guard let start = index(after: key + " ", in: text) else { return nil }
        var rest = text[start...].drop(while: isWhite)
        let inArray = rest.first == UInt8(ascii: "[")
        if inArray {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { throw .cairo("an array after \(key) does not end") }
            rest = rest[rest.index(after: rest.startIndex)..<close]
        }
        let tokens = rest.split(whereSeparator: isWhite)
        var items: [Item] = []
        var i = 0
        while i < tokens.count {
            if i + 2 < tokens.count, tokens[i + 2].elementsEqual("R".utf8), let n = integer(tokens[i]), tokens[i + 1].elementsEqual("0".utf8) {
                items.append(.reference(n))
                i += 3
            } else if let n = integer(tokens[i]) {
                items.append(.integer(n))
                i += 1
            } else if tokens[i].elementsEqual("null".utf8) {
                items.append(.null)
                i += 1
            } else if inArray {
                throw .cairo("an unexpected '\(String(decoding: tokens[i], as: UTF8.self))' after \(key)")
            } else {
                break
            }
            if !inArray { break }
        }
        return items
    }

    /// A value in one of Cairo's arrays.
    enum Item: Equatable {
        case reference(Int)
        case integer(Int)
        case null

        /// The value as PDF text.
        var text: String {
            switch self {
            case let .reference(n): "\(n) 0 R"
            case let .integer(n): String(n)
            case .null: "null"
            }
        }
    }

    /// The name after `key` in a dictionary's text (`/S /H1` gives `H1`).
    static func name(after key: String, in text: [UInt8]) -> String? {
        guard let start = index(after: key + " /", in: text) else { return nil }
        let delimiters = "/>[<(".utf8
        return String(decoding: text[start...].prefix { !isWhite($0) && !delimiters.contains($0) }, as: UTF8.self)
    }
}
