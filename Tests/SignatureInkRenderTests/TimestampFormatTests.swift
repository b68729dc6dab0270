// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
@testable import SignatureInkRender
import Testing

@Suite struct TimestampFormatTests {
    @Test(arguments: [
        (1_735_560_000_000.0, "2024-12-30T12:00:00Z"),  // ISO week 1 of 2025: YYYY would say 2025
        (1_609_459_199_999, "2020-12-31T23:59:59Z"),
        (1_609_459_200_000, "2021-01-01T00:00:00Z"),    // ISO week 53 of 2020: YYYY would say 2020
        (1_709_193_909_045, "2024-02-29T08:05:09Z"),
        (-1000, "1969-12-31T23:59:59Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00Z"),
        (253_402_300_799_000, "9999-12-31T23:59:59Z"),
    ])
    func iso8601UsesTheCalendarYearInUTC(ms: Double, expected: String) {
        #expect(TimestampFormat.iso8601.string(millisecondsSince1970: ms) == expected)
    }

    @Test func patternsWriteEveryField() throws {
        let ms = 1_709_193_909_045.0  // Thursday 2024-02-29 08:05:09.045 UTC
        #expect(try TimestampFormat(pattern: "dd.MM.yyyy HH:mm").string(millisecondsSince1970: ms) == "29.02.2024 08:05")
        #expect(try TimestampFormat(pattern: "EEE, d MMM yy h:mm a").string(millisecondsSince1970: ms) == "Thu, 29 Feb 24 8:05 AM")
        #expect(try TimestampFormat(pattern: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX").string(millisecondsSince1970: ms)
                == "2024-02-29T08:05:09.045+00:00")
        #expect(try TimestampFormat(pattern: "'signed' M/d 'o''clock' H").string(millisecondsSince1970: ms)
                == "signed 2/29 o'clock 8")
        #expect(try TimestampFormat(pattern: "hh a").string(millisecondsSince1970: 1_609_459_199_999) == "11 PM")
        #expect(try TimestampFormat(pattern: "h a").string(millisecondsSince1970: 1_609_459_200_000) == "12 AM")
    }

    @Test func theWeekBasedYearIsRefusedWithTheFix() {
        #expect(throws: RenderError.invalidOption(option: "timestamp pattern",
                                                  message: "'YYYY' is the week-based year, wrong around New Year; use 'yyyy'")) {
            try TimestampFormat(pattern: "dd.MM.YYYY")
        }
        #expect(throws: RenderError.self) { try TimestampFormat(pattern: "YY-MM-dd") }
        #expect(throws: RenderError.self) { try TimestampFormat(pattern: "yyyy-MM-DD") }
    }

    @Test(arguments: ["", "yyyy-MM-dd 'T", "qqqq", "yyy", "MMMM", "SSSS"])
    func badPatternsAreRefused(pattern: String) {
        #expect(throws: RenderError.self) { try TimestampFormat(pattern: pattern) }
    }

    @Test func outOfRangeTimesGiveNothing() {
        #expect(TimestampFormat.iso8601.string(millisecondsSince1970: .nan) == nil)
        #expect(TimestampFormat.iso8601.string(millisecondsSince1970: 1e20) == nil)
        #expect(TimestampFormat.iso8601.string(millisecondsSince1970: -1e16) == nil)
    }

    @Test func agreesWithFoundationOnRandomDates() throws {
        var rng = SeededRandom(seed: 2026)
        let ours = try TimestampFormat(pattern: "yyyy-MM-dd HH:mm:ss.SSS EEE")
        let theirs = DateFormatter()
        theirs.locale = Locale(identifier: "en_US_POSIX")
        theirs.timeZone = TimeZone(identifier: "UTC")
        theirs.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS EEE"
        for _ in 0..<2000 {
            let ms = (rng.uniform(-2e12...4e12)).rounded()
            let expected = theirs.string(from: Date(timeIntervalSince1970: ms / 1000))
            #expect(ours.string(millisecondsSince1970: ms) == expected, "\(ms)")
        }
    }
}
