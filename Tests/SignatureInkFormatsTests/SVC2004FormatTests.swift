// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

@Suite struct SVC2004FormatTests {
    @Test func decodesTask2WithPenUpDuplicateAndBackwardsTimes() throws {
        let result = try InkDecoder().decode(TestFiles.fixture("svc2004-task2.txt"))
        #expect(result.format == .svc2004)
        let s = result.signature
        #expect(s.strokes.map(\.count) == [15, 12, 8])
        #expect(timesAreMonotonic(s))
        #expect(pressuresAreNormalised(s))
        #expect(s.startTime == nil)
        #expect(s.canvas == nil)
        #expect(s.metadata[InkMetadataKey.deviceUnitsPerInch] == "2540")
        // Natural size: 3000 tablet units wide are 3000 / 2540 inches, 113 CSS pixels, not 3000.
        #expect(s.declaredUnitsPerInch == 2540)
        // Tablet units kept, moved to the origin and flipped: x 3000...6000, y 4200...5596 in the file.
        let b = try #require(s.bounds)
        #expect(b.minX == 0 && b.maxX == 3000 && b.minY == 0 && b.maxY == 1396)
        let first = s.samples[0]
        #expect(first.x == 0 && first.y == 596 && first.t == 0)
        #expect(first.pressure == Float(120.0 / 1023))
        #expect(abs(Double(first.azimuth!) - 135 * .pi / 180) < 1e-6)
        #expect(abs(Double(first.altitude!) - 56 * .pi / 180) < 1e-6)
        // The duplicate timestamp is kept, the backwards one raised to its predecessor's.
        #expect(s.samples[3].t == s.samples[4].t)
        #expect(s.strokes[1][s.strokes[1].startIndex].t == s.strokes[1][s.strokes[1].startIndex + 1].t)
        #expect(result.assumptions.contains { $0.contains("1 backwards") })
        #expect(result.assumptions.contains { $0.contains("5 pen-up") })
        #expect(result.assumptions.contains { $0.contains("tenths of a degree") })
        #expect(result.assumptions.contains { $0.contains("2540") })
    }

    @Test func decodesTask1WithCRLFAndNoPressure() throws {
        let result = try InkDecoder().decode(TestFiles.fixture("svc2004-task1-crlf.txt"))
        #expect(result.format == .svc2004)
        #expect(result.signature.strokes.map(\.count) == [15, 12, 8])
        #expect(!result.signature.hasPressure)
        #expect(result.signature.samples.allSatisfy { $0.altitude == nil && $0.azimuth == nil })
    }

    @Test func reportsTheLineOfABadValue() throws {
        let data = try TestFiles.fixture("svc2004-task2.txt").replacingFirst("3128 5198", with: "3128 NaN")
        #expect(decodeError(data) == .syntax(line: 3, column: 6, message: "\"NaN\" is not a finite number"))
    }

    @Test func reportsATruncatedFile() throws {
        let full = try TestFiles.fixture("svc2004-task2.txt")
        let text = String(decoding: full, as: UTF8.self)
        let cut = Data(text.split(separator: "\n").prefix(20).joined(separator: "\n").utf8)
        guard case let .syntax(_, _, message) = decodeError(cut) else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(message.contains("declares 40 samples, the file has 19"))
    }

    @Test func checksTheDeclaredCountBeforeAllocating() {
        let data = Data("4000000000\n1 2 3 1\n".utf8)
        #expect(decodeError(data) == .limitExceeded(what: "sample count", limit: DecodingLimits.default.maxSamples,
                                                    actual: 4_000_000_000))
    }

    @Test func refusesInkWiderThanTheCoordinateLimitOnceMoved() {
        // Each value is within the limit, but moving the ink to the origin would take y past it.
        let data = Data("2\n0 -9000000 0 1\n0 9000000 10 1\n".utf8)
        #expect(decodeError(data) == .field(path: "y", message: "the ink spans 18000000.0 tablet units, more than the coordinate limit 10000000.0"))
    }

    @Test func anAllPenUpFileIsEmptyInk() {
        let data = Data("2\n1 2 3 0\n4 5 6 0\n".utf8)
        guard case let .field(path, message) = decodeError(data) else {
            Issue.record("expected a field error")
            return
        }
        #expect(path.isEmpty)
        #expect(message.contains("no ink"))
    }

    @Test func refusesAnEncodeRequest() {
        let s = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0)]])
        #expect(throws: FormatError.self) { try InkEncoder().encode(s, as: .svc2004) }
    }
}
