// SPDX-License-Identifier: Apache-2.0

/// Reads ISO 8601 dates and times: InkML's `timeString` (an internet date and time such as
/// `2024-05-06T07:08:09.250Z` or `2024-05-06T09:08:09+02:00`) and, for consent dates, a calendar date alone or a time
/// without seconds.
///
/// Read here, not by Foundation's `ISO8601DateFormatter`: that hands the text to ICU, and a fraction of a few
/// hundred digits crashed ICU with a division by zero (found by the InkML fuzz target). Fractions are truncated
/// to milliseconds, as ICU does.
public enum ISO8601Time {
    /// Longest text accepted, in bytes: a date, a time, 30 fraction digits and an offset.
    public static let maxLength = 64

    /// Milliseconds since 1970-01-01T00:00:00Z, or `nil` when `text` is not an internet date and time (RFC 3339:
    /// seconds and an offset required).
    static func millisecondsSince1970(_ text: String) -> Double? { parse(text, lenient: false)?.milliseconds }

    /// Reads a date and time with its offset.
    /// - Parameters:
    ///   - text: the text.
    ///   - lenient: also accept a calendar date alone (`2026-11-25`, midnight UTC), a time without seconds
    ///     (`T14:30Z`) and an offset without a colon (`+0100`). Every time still needs its offset: a local time
    ///     alone does not say which instant it was.
    /// - Returns: the instant in milliseconds since 1970-01-01T00:00:00Z and the offset in minutes, or `nil` for any
    ///   other text, an impossible date or time, or an offset past ±23:59.
    public static func parse(_ text: String, lenient: Bool) -> (milliseconds: Double, offsetMinutes: Int)? {
        let b = Array(text.utf8)
        guard b.count <= maxLength else { return nil }
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var v = 0
            for k in i..<(i + count) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            i += count
            return v
        }
        func take(_ bytes: UInt8...) -> Bool {
            guard i < b.count, bytes.contains(b[i]) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), take(0x2D), let month = number(2), take(0x2D), let day = number(2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        if lenient && i == b.count { return (Double(days) * 86_400_000, 0) }
        guard take(UInt8(ascii: "T"), UInt8(ascii: "t")), let hour = number(2), take(0x3A), let minute = number(2) else {
            return nil
        }
        var second = 0, hasSeconds = false
        if take(0x3A) {
            guard let s = number(2) else { return nil }
            second = s
            hasSeconds = true
        } else if !lenient {
            return nil
        }
        var milliseconds = 0
        if hasSeconds, take(UInt8(ascii: "."), UInt8(ascii: ",")) {
            var digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(b[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        var offsetMinutes = 0
        if !take(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
            guard i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return nil }
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let h = number(2), take(0x3A) || lenient, let m = number(2), h <= 23, m <= 59 else { return nil }
            offsetMinutes = sign * (h * 60 + m)
        }
        guard i == b.count, hour <= 23, minute <= 59, second <= 60 else { return nil }
        let seconds = ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60 + second
        return (Double(seconds) * 1000 + Double(milliseconds), offsetMinutes)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
