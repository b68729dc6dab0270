// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Runs a ``JSONReader`` over a file's bytes, turning every failure into a ``FormatError`` with a line
/// and column (syntax) or a field path (shape).
enum JSONInput {
    /// Runs `body` over the bytes of `data` with a ``JSONReader``, turning a stop into a ``FormatError``.
    ///
    /// A syntax error is reported at its line and column with what stands there. A field error is thrown only once the whole text is known to be well formed: a
    /// document that is both malformed and wrong is reported as malformed, wherever the two are.
    /// UTF-16 and UTF-32 text (which Foundation's decoder reads too) is transcoded to UTF-8 first.
    static func read<T>(_ data: Data, limits: DecodingLimits,
                        _ body: (inout JSONReader) throws(JSONReader.Stop) -> T) throws(FormatError) -> T {
        try limits.checkSize(data.count)
        if let utf8 = transcodedToUTF8(data) { return try read(utf8, limits: limits, body) }
        let outcome: Result<T, JSONReader.Stop> = data.withUnsafeBytes { raw in
            var reader = JSONReader(raw)
            do throws(JSONReader.Stop) {
                let value = try body(&reader)
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case let .success(value):
            return value
        case let .failure(.syntax(offset)):
            throw syntaxError(in: data, at: offset)
        case let .failure(.field(error)):
            if let offset = firstSyntaxError(in: data) { throw syntaxError(in: data, at: offset) }
            throw error
        }
    }

    /// The byte offset of the first syntax error in `data` (UTF-8), or `nil` when it is one well-formed value.
    static func firstSyntaxError(in data: Data) -> Int? {
        data.withUnsafeBytes { firstSyntaxError(in: $0) }
    }

    /// The byte offset of the first syntax error in `bytes` (UTF-8), or `nil` when they are one well-formed value.
    static func firstSyntaxError(in bytes: UnsafeRawBufferPointer) -> Int? {
        var reader = JSONReader(bytes)
        do throws(JSONReader.Stop) {
            try reader.skipValue()
            try reader.expectEnd()
            return nil
        } catch {
            if case let .syntax(offset) = error { return offset }
            return nil
        }
    }

    /// The error for a syntax error the reader found at byte `offset`: its line and column, and what stands there.
    static func syntaxError(in data: Data, at offset: Int) -> FormatError {
        let (line, column) = lineAndColumn(of: offset, in: data)
        return .syntax(line: line, column: column, message: "invalid JSON: " + problem(in: data, at: offset))
    }

    /// What the reader met at byte `offset`, in words: the end of the text, a control character, a byte that does
    /// not begin a UTF-8 character, a number it could not read, nesting past ``JSONReader/maxDepth``, or another
    /// character where it does not belong.
    static func problem(in data: Data, at offset: Int) -> String {
        guard offset < data.count else { return "unexpected end of file" }
        let byte = data[data.startIndex + offset]
        switch byte {
        case 0x00..<0x20:
            return "unescaped control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4))"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return "malformed number"
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard nestingDepth(of: data, at: offset) > JSONReader.maxDepth else {
                return "unexpected character '\(Character(Unicode.Scalar(byte)))'"
            }
            return "nested more than \(JSONReader.maxDepth) levels deep"
        case 0x80...:
            return "invalid UTF-8 or unexpected character"
        default:
            return "unexpected character '\(Character(Unicode.Scalar(byte)))'"
        }
    }

    /// How many arrays and objects are open just after byte `offset` (strings skipped).
    private static func nestingDepth(of data: Data, at offset: Int) -> Int {
        var depth = 0, inString = false, escaped = false
        for b in data.prefix(offset + 1) {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") {
                depth += 1
            } else if b == UInt8(ascii: "]") || b == UInt8(ascii: "}") {
                depth -= 1
            }
        }
        return depth
    }

    /// `data` as UTF-8 when it is UTF-16 or UTF-32 (told by a byte-order mark or by the zero bytes around
    /// the first ASCII character, as RFC 4627 describes); `nil` when it is UTF-8 already.
    static func transcodedToUTF8(_ data: Data) -> Data? {
        guard data.count >= 2 else { return nil }
        let b = Array(data.prefix(4)) + [1, 1, 1, 1]
        let encoding: String.Encoding
        switch (b[0], b[1], b[2], b[3]) {
        case (0, 0, 0xFE, 0xFF), (0, 0, 0, _): encoding = .utf32BigEndian
        case (0xFF, 0xFE, 0, 0): encoding = .utf32LittleEndian
        case (_, 0, 0, 0) where data.count >= 4: encoding = .utf32LittleEndian
        case (0xFE, 0xFF, _, _), (0, _, _, _): encoding = .utf16BigEndian
        case (0xFF, 0xFE, _, _), (_, 0, _, _): encoding = .utf16LittleEndian
        default: return nil
        }
        var body = data
        let bom = encoding == .utf32BigEndian || encoding == .utf32LittleEndian ? 4 : 2
        if [0xFEFF, 0xFFFE0000, 0xFFFE, 0x0000FEFF].contains(b.prefix(bom).reduce(0) { $0 << 8 | Int($1) }) {
            body = data.dropFirst(bom)
        }
        guard let text = String(data: body, encoding: encoding) else { return nil }
        return Data(text.utf8)
    }

    /// The 1-based line and column (in characters) of byte `offset` in `data`.
    static func lineAndColumn(of offset: Int, in data: Data) -> (Int, Int) {
        var line = 1, column = 1
        for b in data.prefix(offset) {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}

private extension String {
    /// The string with zeros before it, to at least `width` characters.
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
