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
            throw FormatError(error)
        } catch {
            throw .syntax(line: 0, column: 0, message: "invalid JSON: \(error)")
        }
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
