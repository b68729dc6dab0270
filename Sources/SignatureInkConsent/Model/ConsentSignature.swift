// SPDX-License-Identifier: Apache-2.0
public import SignatureInk
import SignatureInkFormats
import SignatureInkRender

/// One signer's signature on a consent document: the slot, the printed name, the drawn ink and the date.
public struct ConsentSignature: Sendable, Hashable {
    /// The identifier of the ``SignatureSlot`` signed.
    public var slot: String
    /// The printed name as the signer gave it ("Given Family"); empty when the slot needs none.
    public var name: String
    /// The drawn signature, or `nil` when the slot needs none.
    public var signature: Signature?
    /// When it was signed, and in which time zone the date is printed.
    public var date: ConsentDate

    /// Most characters in a printed name.
    public static let maxNameLength = 200

    /// Creates a signature.
    /// - Parameters:
    ///   - slot: the slot's identifier.
    ///   - name: the printed name; surrounding white space is removed.
    ///   - signature: the ink, or `nil`.
    ///   - date: when it was signed.
    public init(slot: String, name: String, signature: Signature?, date: ConsentDate) {
        self.slot = slot
        self.name = name.trimmingWhitespace()
        self.signature = signature
        self.date = date
    }

    /// Throws unless `name` is at most ``maxNameLength`` characters with no control characters.
    static func validate(name: String, field: String) throws(ConsentError) {
        let count = name.unicodeScalars.count
        guard count <= maxNameLength else { throw .limitExceeded(field: field, limit: maxNameLength, actual: count) }
        if let bad = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw .invalidSignature(field: field, message: "control character U+\(String(bad.value, radix: 16, uppercase: true)) in the name")
        }
    }
}

/// An instant and the UTC offset its date is printed in: `2026-11-25T14:30:00+01:00`.
///
/// Consent dates carry their offset because a date printed in the wrong zone can be a day off: signed at 00:30 in
/// Berlin is still the previous day in UTC.
public struct ConsentDate: Sendable, Hashable, CustomStringConvertible {
    /// The instant, in milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Double
    /// The offset from UTC in minutes, `-1080...1080` (±18 hours).
    public var utcOffsetMinutes: Int

    /// Creates a date.
    /// - Parameters:
    ///   - millisecondsSince1970: the instant, in the years 1...9999.
    ///   - utcOffsetMinutes: offset from UTC in minutes, `-1080...1080`; default 0.
    /// - Returns: `nil` when the instant or offset is out of range.
    public init?(millisecondsSince1970: Double, utcOffsetMinutes: Int = 0) {
        guard millisecondsSince1970.isFinite, millisecondsSince1970 >= -62_135_596_800_000,
              millisecondsSince1970 < 253_402_300_800_000 - 86_400_000, (-1080...1080).contains(utcOffsetMinutes) else { return nil }
        self.millisecondsSince1970 = millisecondsSince1970
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Reads an ISO 8601 date or date and time: `2026-11-25` (the calendar date, printed as it is), or
    /// `2026-11-25T14:30`, `2026-11-25T14:30:05`, `2026-11-25T14:30:05.250` each followed by `Z`, `+01:00` or
    /// `+0100`. A time needs an offset: a local time alone does not say which day it was elsewhere.
    /// - Returns: `nil` for any other text, an impossible date (`2026-02-30`) or an offset past ±18 hours.
    public init?(iso8601 text: String) {
        guard let (ms, offset) = ISO8601Time.parse(text, lenient: true),
              let date = ConsentDate(millisecondsSince1970: ms, utcOffsetMinutes: offset) else { return nil }
        self = date
    }

    /// The date as ISO 8601 with its offset, to the millisecond when it has milliseconds:
    /// `2026-11-25T14:30:00+01:00`.
    public var iso8601: String {
        let whole = millisecondsSince1970.truncatingRemainder(dividingBy: 1000) == 0
        let format = whole ? Self.secondsFormat : Self.millisecondsFormat
        let text = format?.string(millisecondsSince1970: millisecondsSince1970, utcOffsetMinutes: utcOffsetMinutes) ?? ""
        // UTC as `Z`, the shortest form RFC 3339 allows.
        return utcOffsetMinutes == 0 && text.hasSuffix("+00:00") ? String(text.dropLast(6)) + "Z" : text
    }

    private static let secondsFormat = try? TimestampFormat(pattern: "yyyy-MM-dd'T'HH:mm:ssXXX")
    private static let millisecondsFormat = try? TimestampFormat(pattern: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX")

    public var description: String { iso8601 }
}

extension String {
    /// The string without leading and trailing white space and line breaks.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
