// SPDX-License-Identifier: Apache-2.0

/// Writes a time as text with a date pattern, in UTC, without Foundation or the locale.
///
/// The pattern letters follow Unicode TR35 (as `DateFormatter` reads them) for the fields a signature's
/// timestamp needs: `yyyy` (calendar year, `yy` two digits), `MM`/`M` (month), `MMM` (Jan...Dec), `dd`/`d`
/// (day of month), `EEE` (Mon...Sun), `HH`/`H` (hour 0...23), `hh`/`h` (hour 1...12), `a` (AM/PM), `mm`, `ss`,
/// `SSS` (milliseconds), `X` (`Z`) and `XXX` (`+00:00`). Text in single quotes is literal (`''` is a quote);
/// other characters that are not letters are copied.
///
/// `Y` (the week-based year) is refused: `YYYY-MM-dd` writes 2025-12-30 for 30 December 2024, the bug of the
/// SAP component's default pattern. So is `D` (day of the year), the usual slip for `d`. Other letters are
/// refused too, rather than copied, so a typo cannot pass silently.
public struct TimestampFormat: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as given.
    public let pattern: String
    private let tokens: [Token]

    private enum Token: Sendable, Hashable {
        case literal(String)
        case field(Character, Int)
    }

    /// ISO 8601 in UTC to the second: `2026-11-22T03:24:38Z`. The default.
    public static let iso8601 = try! TimestampFormat(pattern: "yyyy-MM-dd'T'HH:mm:ssX")

    /// Parses a pattern.
    /// - Parameter pattern: a TR35 date pattern such as `yyyy-MM-dd HH:mm`, at most 100 characters.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` for `Y`, `D`, an unknown letter, an
    ///   unsupported field width or an unterminated quote, saying what to write instead.
    public init(pattern: String) throws(RenderError) {
        func fail(_ message: String) -> RenderError { .invalidOption(option: "timestamp pattern", message: message) }
        guard pattern.count <= 100 else { throw fail("longer than 100 characters") }
        guard !pattern.isEmpty else { throw fail("empty") }
        var tokens: [Token] = []
        var literal = ""
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                if i + 1 < chars.count, chars[i + 1] == "'" { literal.append("'"); i += 2; continue }
                // Quoted text; inside it too, '' is one quote.
                var j = i + 1
                while true {
                    guard j < chars.count else { throw fail("unterminated quote in \(pattern)") }
                    if chars[j] == "'" {
                        if j + 1 < chars.count, chars[j + 1] == "'" { literal.append("'"); j += 2; continue }
                        break
                    }
                    literal.append(chars[j])
                    j += 1
                }
                i = j + 1
                continue
            }
            guard c.isASCII, c.isLetter else { literal.append(c); i += 1; continue }
            var n = 1
            while i + n < chars.count, chars[i + n] == c { n += 1 }
            if c == "Y" {
                throw fail("'\(String(repeating: "Y", count: n))' is the week-based year, wrong around New Year; use 'yyyy'")
            }
            if c == "D" { throw fail("'\(String(repeating: "D", count: n))' is the day of the year; use 'dd'") }
            guard let widths = Self.widths(of: c) else { throw fail("unsupported pattern letter '\(c)'; quote literal text as 'text'") }
            guard widths.contains(n) else {
                throw fail("'\(String(repeating: c, count: n))' is not supported; use \(widths.map { String(repeating: c, count: $0) }.joined(separator: " or "))")
            }
            if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" }
            tokens.append(.field(c, n))
            i += n
        }
        if !literal.isEmpty { tokens.append(.literal(literal)) }
        self.pattern = pattern
        self.tokens = tokens
    }

    /// The field widths `letter` takes, in increasing order, or `nil` for a letter that is not supported. (A switch
    /// rather than a dictionary literal: the first render of a new process parses the ISO 8601 pattern, and a
    /// `[Character: Set<Int>]` made the runtime build two generic types for it.)
    private static func widths(of letter: Character) -> [Int]? {
        switch letter {
        case "y": [2, 4]
        case "M", "S": [1, 2, 3]
        case "d", "H", "h", "m", "s": [1, 2]
        case "E": [3]
        case "a": [1]
        case "X": [1, 3]
        default: nil
        }
    }

    /// The pattern.
    public var description: String { pattern }

    /// Writes a time.
    /// - Parameter ms: milliseconds since 1970-01-01T00:00:00Z, UTC; must be finite and fall
    ///   in the years 1...9999.
    /// - Returns: the text, or `nil` when the time is not finite or outside the years 1...9999.
    public func string(millisecondsSince1970 ms: Double) -> String? { string(millisecondsSince1970: ms, utcOffsetMinutes: 0) }

    /// Writes a time as the local time of a UTC offset: the fields are the local date and time, `XXX` writes the
    /// offset as `+01:00` and `X` as `+01` (`+0530` when it has minutes), each `Z` at offset 0.
    /// - Parameters:
    ///   - utc: milliseconds since 1970-01-01T00:00:00Z; the local time must fall in the years 1...9999.
    ///   - offset: the offset from UTC in minutes, `-1080...1080`.
    ///   - names: the words `MMM`, `EEE` and `a` write; default ``Names/english``.
    /// - Returns: the text, or `nil` when the time is not finite, outside the years 1...9999, or the offset is
    ///   out of range.
    public func string(millisecondsSince1970 utc: Double, utcOffsetMinutes offset: Int, names: Names = .english) -> String? {
        guard (-1080...1080).contains(offset) else { return nil }
        let ms = utc + Double(offset) * 60_000
        // 0001-01-01 and 10000-01-01 in milliseconds since 1970.
        guard ms.isFinite, ms >= -62_135_596_800_000, ms < 253_402_300_800_000 else { return nil }
        let total = Int64(ms.rounded(.down))
        let dayMs: Int64 = 86_400_000
        let days = total >= 0 ? total / dayMs : (total - dayMs + 1) / dayMs
        let msOfDay = total - days * dayMs
        let (year, month, day) = Self.civil(fromDays: days)
        let hour = Int(msOfDay / 3_600_000), minute = Int(msOfDay / 60_000 % 60)
        let second = Int(msOfDay / 1000 % 60), milli = Int(msOfDay % 1000)
        // 1970-01-01 was a Thursday.
        let weekday = Int(((days % 7) + 7 + 3) % 7)  // 0 = Monday
        var out = ""
        func pad(_ v: Int, _ width: Int) {
            let s = String(v)
            if s.count < width { out += String(repeating: "0", count: width - s.count) }
            out += s
        }
        for token in tokens {
            switch token {
            case let .literal(s): out += s
            case let .field(c, n):
                switch c {
                case "y": n == 2 ? pad(year % 100, 2) : pad(year, 4)
                case "M":
                    if n == 3 { out += names.months[month - 1] } else { pad(month, n) }
                case "d": pad(day, n)
                case "E": out += names.weekdays[weekday]
                case "H": pad(hour, n)
                case "h": pad(hour % 12 == 0 ? 12 : hour % 12, n)
                case "a": out += hour < 12 ? names.am : names.pm
                case "m": pad(minute, n)
                case "s": pad(second, n)
                case "S": pad(milli / [1, 100, 10, 1][n], n)
                default:  // X
                    if offset == 0 { out += n == 1 ? "Z" : "+00:00"; break }
                    out += offset < 0 ? "-" : "+"
                    pad(abs(offset) / 60, 2)
                    if n == 3 { out += ":"; pad(abs(offset) % 60, 2) } else if abs(offset) % 60 != 0 { pad(abs(offset) % 60, 2) }
                }
            }
        }
        return out
    }

    /// The words a pattern writes for a month (`MMM`), a weekday (`EEE`) and the half of the day (`a`): English
    /// abbreviations by default; a consent document in another language gives its own.
    public struct Names: Sendable, Hashable {
        /// Twelve month names, January first.
        public let months: [String]
        /// Seven weekday names, Monday first.
        public let weekdays: [String]
        /// Before noon.
        public let am: String
        /// From noon.
        public let pm: String

        /// Names for a pattern, or `nil` unless there are exactly twelve months and seven weekdays.
        public init?(months: [String], weekdays: [String], am: String, pm: String) {
            guard months.count == 12, weekdays.count == 7 else { return nil }
            (self.months, self.weekdays, self.am, self.pm) = (months, weekdays, am, pm)
        }

        /// Jan...Dec, Mon...Sun, AM and PM.
        public static let english = Names(
            months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
            weekdays: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], am: "AM", pm: "PM")!
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01), after Howard Hinnant's
    /// `civil_from_days`.
    static func civil(fromDays z0: Int64) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }
}
