// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs Foundation's JSON decoder with the limits in `userInfo`, turning every failure into a
/// ``FormatError`` with a line and column (syntax) or a field path (shape).
enum JSONInput {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data,
                                     limits: DecodingLimits) throws(FormatError) -> T {
        try limits.checkSize(data.count)
        let decoder = JSONDecoder()
        decoder.userInfo[limitsKey] = limits
        do {
            return try decoder.decode(type, from: data)
        } catch let error as FormatError {
            throw error
        } catch let error as DecodingError {
            if case let .dataCorrupted(context) = error, context.codingPath.isEmpty {
                throw syntaxError(in: data)
            }
            throw FormatError(error)
        } catch {
            throw .syntax(line: 0, column: 0, message: "invalid JSON: \(error)")
        }
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

    /// The limits a `Decodable` initialiser should check, from the decoder's `userInfo`.
    static func limits(_ decoder: any Decoder) -> DecodingLimits {
        decoder.userInfo[limitsKey] as? DecodingLimits ?? .default
    }
}

/// A coding key made from any string or index, for paths in error messages.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
}
