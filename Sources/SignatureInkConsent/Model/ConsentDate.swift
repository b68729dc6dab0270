// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInkFormats
import SignatureInkRender

/// An instant and the UTC offset its date is printed in: `2026-11-25T14:30:00+01:00`.
///
/// Consent dates carry their offset because a date printed in the wrong zone can be a day off: signed at 00:30 in
/// Berlin is still the previous day in UTC.
public struct ConsentDate: Sendable, Hashable, CustomStringConvertible {
    /// The instant, in milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Double
    /// The offset from UTC in minutes, `-1080...1080` (±18 hours).
    public var utcOffsetMinutes: Int

    /// The range of ``utcOffsetMinutes``: ±18 hours, the widest offset ISO 8601 and RFC 3339 readers take.
    public static let utcOffsetRange = -1080...1080

    /// Creates a date.
    /// - Parameters:
    ///   - millisecondsSince1970: the instant, in the years 1...9999.
    ///   - utcOffsetMinutes: offset from UTC in minutes, `-1080...1080`; default 0.
    /// - Returns: `nil` when the instant or offset is out of range.
    public init?(millisecondsSince1970: Double, utcOffsetMinutes: Int = 0) {
        guard millisecondsSince1970.isFinite, millisecondsSince1970 >= -62_135_596_800_000,
              millisecondsSince1970 < 253_402_300_800_000 - 86_400_000, Self.utcOffsetRange.contains(utcOffsetMinutes)
        else { return nil }
        self.millisecondsSince1970 = millisecondsSince1970
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// A date known to be in range.
    private init(checked millisecondsSince1970: Double, utcOffsetMinutes: Int) {
        self.millisecondsSince1970 = millisecondsSince1970
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// 1970-01-01T00:00:00Z.
    public static let unixEpoch = ConsentDate(checked: 0, utcOffsetMinutes: 0)

    /// Reads an ISO 8601 date or date and time: `2026-11-25` (the calendar date, printed as it is), or
    /// `2026-11-25T14:30`, `2026-11-25T14:30:05`, `2026-11-25T14:30:05.250` each followed by `Z`, `+01:00` or
    /// `+0100`. A time needs an offset: a local time alone does not say which day it was elsewhere.
    /// - Returns: `nil` for any other text, an impossible date (`2026-02-30`) or an offset past ±18 hours.
    public init?(iso8601 text: String) {
        guard let (ms, offset) = ISO8601Time.parse(text, lenient: true),
              let date = ConsentDate(millisecondsSince1970: ms, utcOffsetMinutes: offset) else { return nil }
        self = date
    }

    /// The date a signature is given: the one rule of the engine, which ``ConsentFlow`` and ``ConsentSubmission``
    /// (and through it the command line and the server) follow.
    ///
    /// 1. `given`, a date the signer or the caller states, printed in its own offset;
    /// 2. else the ink's capture start time (`Signature/startTime`), when it has one in the years 1...9999;
    /// 3. else `now`, the time of signing.
    ///
    /// The last two are printed in `utcOffsetMinutes`, the signer's offset.
    /// - Parameters:
    ///   - given: the stated date, or `nil`.
    ///   - inkStartTime: the ink's capture start in milliseconds since 1970, or `nil` without ink or when unknown.
    ///   - now: the time of signing in milliseconds since 1970, from the caller's clock (so that a test or a replay
    ///     gives the same date each time).
    ///   - utcOffsetMinutes: the signer's UTC offset in minutes, `-1080...1080`.
    /// - Returns: the date, or `nil` when it would come from `now` and `now` or the offset is out of range.
    public static func signing(given: ConsentDate?, inkStartTime: Double?, now: Double,
                               utcOffsetMinutes: Int) -> ConsentDate? {
        if let given { return given }
        if let start = inkStartTime, let date = ConsentDate(millisecondsSince1970: start, utcOffsetMinutes: utcOffsetMinutes) {
            return date
        }
        return ConsentDate(millisecondsSince1970: now, utcOffsetMinutes: utcOffsetMinutes)
    }

    /// The system clock now, in whole milliseconds since 1970: the default time of signing.
    public static func currentMilliseconds() -> Double { (Date().timeIntervalSince1970 * 1000).rounded() }

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
