// SPDX-License-Identifier: Apache-2.0
public import SignatureInk
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
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard (48...57).contains(b[k]) else { return nil }
                v = v * 10 + Int(b[k] - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), year >= 1, expect(45), let month = digits(2), expect(45), let day = digits(2),
              (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        var ms = Double(Self.days(year: year, month: month, day: day)) * 86_400_000
        var offset = 0
        if i < b.count {
            guard expect(84), let hour = digits(2), hour < 24, expect(58), let minute = digits(2), minute < 60 else { return nil }
            var second = 0, milli = 0
            if expect(58) {
                guard let s = digits(2), s < 60 else { return nil }
                second = s
                if expect(46) {
                    let start = i
                    while i < b.count, (48...57).contains(b[i]), i - start < 9 { i += 1 }
                    guard i > start else { return nil }
                    let fraction = b[start..<min(i, start + 3)].reduce(0) { $0 * 10 + Int($1 - 48) }
                    milli = fraction * [100, 10, 1][min(i, start + 3) - start - 1]
                }
            }
            if expect(90) {
                offset = 0
            } else {
                guard i < b.count, b[i] == 43 || b[i] == 45 else { return nil }
                let sign = b[i] == 45 ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(58)
                guard let om = digits(2), om < 60 else { return nil }
                offset = sign * (oh * 60 + om)
            }
            // The local time less its offset is the instant.
            ms += Double(((hour * 60 + minute - offset) * 60 + second) * 1000 + milli)
        }
        guard i == b.count, let date = ConsentDate(millisecondsSince1970: ms, utcOffsetMinutes: offset) else { return nil }
        self = date
    }

    /// The local time in this date's offset, in milliseconds since 1970 as if that time were UTC.
    var localMilliseconds: Double { millisecondsSince1970 + Double(utcOffsetMinutes) * 60_000 }

    /// The date as ISO 8601 with its offset, to the millisecond when it has milliseconds:
    /// `2026-11-25T14:30:00+01:00`.
    public var iso8601: String {
        let local = localMilliseconds
        let pattern = local.truncatingRemainder(dividingBy: 1000) == 0 ? "yyyy-MM-dd'T'HH:mm:ss" : "yyyy-MM-dd'T'HH:mm:ss.SSS"
        let text = (try? TimestampFormat(pattern: pattern))?.string(millisecondsSince1970: local) ?? ""
        return text + Self.offsetText(utcOffsetMinutes)
    }

    public var description: String { iso8601 }

    /// `+01:00`, `-05:30`, or `Z` for UTC.
    static func offsetText(_ minutes: Int) -> String {
        guard minutes != 0 else { return "Z" }
        let m = abs(minutes)
        let hh = m / 60 < 10 ? "0\(m / 60)" : "\(m / 60)"
        let mm = m % 60 < 10 ? "0\(m % 60)" : "\(m % 60)"
        return (minutes < 0 ? "-" : "+") + hh + ":" + mm
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
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
