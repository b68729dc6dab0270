// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs a ``JSONReader`` over a file's bytes, turning every failure into a ``FormatError`` with a line
/// and column (syntax) or a field path (shape).
enum JSONInput {
    /// Runs `body` over the bytes of `data` with a ``JSONReader``, turning a stop into a ``FormatError``.
    ///
    /// A syntax error is located and worded as ``syntaxError(in:)`` does it, so messages stay those of
    /// Foundation's parser. A field error is thrown only once the whole text is known to be well formed: a
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
        data.withUnsafeBytes { raw in
            var reader = JSONReader(raw)
            do throws(JSONReader.Stop) {
                try reader.skipValue()
                try reader.expectEnd()
                return nil
            } catch {
                if case let .syntax(offset) = error { return offset }
                return nil
            }
        }
    }

    /// The error for a syntax error the reader found at byte `offset`: Foundation's wording and position
    /// when its parser agrees the text is malformed, otherwise a plain message at the offset. When
    /// Foundation's parser only notices at the end of the file (a lone surrogate escape reads on to the end
    /// looking for its pair), the reader's earlier offset is the one given.
    static func syntaxError(in data: Data, at offset: Int) -> FormatError {
        let error = syntaxError(in: data)
        if case let .syntax(line, column, message) = error, line > 0 {
            let end = lineAndColumn(of: data.count, in: data)
            guard line == end.0, column == end.1, offset < data.count, message.contains("string parse") else {
                return error
            }
            let (line, column) = lineAndColumn(of: offset, in: data)
            return .syntax(line: line, column: column, message: message)
        }
        let (line, column) = lineAndColumn(of: offset, in: data)
        if case let .syntax(_, _, message) = error, message != "invalid JSON" {
            return .syntax(line: line, column: column, message: message)
        }
        return .syntax(line: line, column: column, message: "invalid JSON: unexpected character")
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

    /// Locates a JSON syntax error. Foundation's `JSONDecoder` says only that the data is not valid JSON;
    /// `JSONSerialization` names a byte offset ("around character 11", "starting from character 40"), the
    /// end of the file, or the number it cannot represent; for a stray control character the first one is
    /// found here. The offset is turned into a 1-based line and column.
    static func syntaxError(in data: Data) -> FormatError {
        let text: String
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return .syntax(line: 0, column: 0, message: "invalid JSON")
        } catch {
            text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        var offset: Int?
        var message = text
        for lead in [" around character ", " starting from character "] {
            if let r = text.range(of: lead) {
                offset = Int(text[r.upperBound...].prefix { $0.isNumber })
                message = String(text[..<r.lowerBound])
                break
            }
        }
        if offset != nil {
            // Found above.
        } else if text.contains("end of file") {
            offset = data.count
        } else if text.hasPrefix("Number "), let number = text.split(separator: " ").dropFirst().first,
                  let r = data.range(of: Data(number.utf8)) {
            offset = r.lowerBound - data.startIndex
        } else if text.contains("control character"),
                  let k = data.firstIndex(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            offset = k - data.startIndex
        }
        if message.hasSuffix(".") { message.removeLast() }
        guard let offset else { return .syntax(line: 0, column: 0, message: "invalid JSON: \(message)") }
        let (line, column) = lineAndColumn(of: offset, in: data)
        return .syntax(line: line, column: column, message: "invalid JSON: \(message)")
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
