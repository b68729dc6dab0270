// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import Testing

/// Numbers in JSON stroke files read as the nearest `Double`, whatever path the reader takes: up to 15 digits, the
/// 17 to 19 a browser writes for a `float`, exponents, and more digits than fit a 64-bit mantissa.
@Suite struct JSONNumberTests {
    /// A decimal with `digits` significant digits, `point` of them before the decimal point, optionally negative
    /// or with an exponent.
    static func decimal(digits: Int, point: Int, exponent: Int?, negative: Bool, using random: inout SeededRandom) -> String {
        var text = String(Int.random(in: 1...9, using: &random))
        for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &random)) }
        if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
        if let exponent { text += "e\(exponent)" }
        return (negative ? "-" : "") + text
    }

    @Test func everyCoordinateIsTheNearestDouble() throws {
        var random = SeededRandom(seed: 2026)
        var texts: [String] = []
        for k in 0..<6_000 {
            let digits = [8, 15, 16, 17, 17, 18, 19, 20, 23][k % 9]
            let point = Int.random(in: 1...Swift.min(digits, 7), using: &random)
            let exponent: Int? = k % 7 == 0 ? Int.random(in: -12...0, using: &random) : nil
            texts.append(Self.decimal(digits: digits, point: point, exponent: exponent, negative: k % 5 == 0, using: &random))
        }
        // signature_pad's toData(), two coordinates a point.
        var json = "[{\"penColor\":\"black\",\"points\":["
        for i in stride(from: 0, to: texts.count, by: 2) {
            json += (i > 0 ? "," : "") + "{\"x\":\(texts[i]),\"y\":\(texts[i + 1]),\"time\":\(i)}"
        }
        json += "]}]"
        let signature = try InkDecoder().decode(Data(json.utf8)).signature
        #expect(signature.samples.count == texts.count / 2)
        var wrong: [String] = []
        for (i, s) in signature.samples.enumerated() {
            for (value, text) in [(s.x, texts[2 * i]), (s.y, texts[2 * i + 1])] where value.bitPattern != Double(text)?.bitPattern {
                wrong.append("\(text): \(value)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// Digits are read eight at a time: runs of every length up to 30 on either side of the point, zeros before
    /// the first significant digit (which do not count towards the 19 that fit), runs that cross the 19th digit inside
    /// a word, and numbers that end within eight bytes of the end of the text, where the reader goes byte by byte.
    @Test func digitsInWordsReadAsTheNearestDouble() throws {
        var random = SeededRandom(seed: 36)
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(Int.random(in: 0...9, using: &random))) }) }
        var texts: [String] = []
        for whole in 0...30 {
            for fraction in [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 18, 19, 20, 24] {
                let zeros = String(repeating: "0", count: [0, 1, 5, 9, 17][(whole + fraction) % 5])
                let head = whole == 0 ? "0" : String(Int.random(in: 1...9, using: &random)) + digits(whole - 1)
                var text = head
                if fraction > 0 { text += "." + (whole == 0 ? zeros : "") + digits(fraction) }
                // Within the coordinate limit: a long whole part is scaled down.
                if whole > 6 { text += "e-\(whole)" }
                if (whole + fraction) % 3 == 0 { text = "-" + text }
                texts.append(text)
            }
        }
        // One number a point and its time, so each list ends on a number with fewer than eight bytes after it.
        var wrong: [String] = []
        for (k, text) in texts.enumerated() {
            let json = "[{\"penColor\":\"black\",\"points\":[{\"x\":\(text),\"y\":\(k),\"time\":\(k)}]}]"
            let samples = try InkDecoder().decode(Data(json.utf8)).signature.samples
            guard let s = samples.first, samples.count == 1 else {
                wrong.append("\(text): \(samples.count) samples")
                continue
            }
            if s.x.bitPattern != Double(text)?.bitPattern || s.y != Double(k) { wrong.append("\(text): \(s.x)") }
        }
        // The last bytes of a text: a stroke list's bare numbers, written with nothing after them.
        for text in ["7", "1234567", "1234567.8", "0.5", "0.00000001", "98765.4321"] {
            let json = "[[{\"x\":1,\"y\":\(text)}]]"
            let y = try InkDecoder().decode(Data(json.utf8)).signature.samples.first?.y
            if y?.bitPattern != Double(text)?.bitPattern { wrong.append("\(text) at the end: \(String(describing: y))") }
        }
        #expect(texts.count == 31 * 14)
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// The byte writers give the text of `JSONText.number`: integers of every size either type holds exactly, their
    /// negatives, zero of either sign, fractions, and values past the integers' range.
    @Test func numbersAppendedAsBytesAreTheNumbersText() {
        var random = SeededRandom(seed: 9)
        var doubles: [Double] = [0, -0.0, 1, -1, 9, 10, 99, 100, 1e15, 9.007_199_254_740_991e15, 9.007_199_254_740_992e15,
                                 -9.007_199_254_740_991e15, 1e300, -1e-300, 0.1, 163.52, 1_411_811_187_486]
        var floats: [Float] = [0, -0.0, 1, -7, 16_777_215, 16_777_216, -16_777_215, 0.65, 1e30, -1e-30]
        for k in 0..<3_000 {
            let magnitude = Double.random(in: -1...16, using: &random)
            let v = (k % 2 == 0 ? 1 : -1) * Foundation.pow(10, magnitude)
            doubles.append(k % 3 == 0 ? v.rounded() : v)
            floats.append(Float(k % 3 == 0 ? v.rounded() : v))
        }
        var wrong: [String] = []
        for v in doubles {
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            JSONText.appendNumber(v, to: &bytes)
            if bytes != Array(("[" + JSONText.number(v)).utf8) { wrong.append("\(v): \(String(decoding: bytes, as: UTF8.self))") }
        }
        for v in floats {
            var bytes: [UInt8] = []
            JSONText.appendNumber(v, to: &bytes)
            if bytes != Array(JSONText.number(v).utf8) { wrong.append("Float \(v): \(String(decoding: bytes, as: UTF8.self))") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// Numbers with few digits after the point, as pens and clocks give them, and their neighbours one ulp away,
    /// which need all their digits: the byte writers give `description`'s text for each, at every magnitude where a
    /// short fraction is written without `description`.
    @Test func shortFractionsAreDescriptionsText() {
        var random = SeededRandom(seed: 17)
        var doubles: [Double] = [0.0001, -0.0001, 0.001, 0.5, 1.25, 90.75, 8.339, 1e-4 * 3, 0x1p50 / 10_000, 0x1p50 / 10,
                                 112_589_990_684.2624, 1_125_899_906_842.624]
        var floats: [Float] = [0.0001, 0.65, 0.5, 209_715.1, 209_715.2, 2_097_151.5, 0x1p21 / 10_000, -0.25]
        for n in 0..<40_000 {
            let digits = n % 6 + 1
            let scale = Foundation.pow(10, Double(digits))
            let whole = Double(UInt64.random(in: 1...(1 << UInt64(n % 48 + 2)), using: &random))
            let v = (n % 5 == 0 ? -1 : 1) * whole / scale
            doubles += [v, v.nextUp, v.nextDown]
            let f = Float(v)
            floats += [f, f.nextUp, f.nextDown]
        }
        var wrong: [String] = []
        for v in doubles where v != v.rounded() {
            var bytes: [UInt8] = []
            JSONText.appendNumber(v, to: &bytes)
            if bytes != Array(v.description.utf8) { wrong.append("\(v): \(String(decoding: bytes, as: UTF8.self))") }
        }
        for v in floats where v != v.rounded() {
            var bytes: [UInt8] = []
            JSONText.appendNumber(v, to: &bytes)
            if bytes != Array(v.description.utf8) { wrong.append("Float \(v): \(String(decoding: bytes, as: UTF8.self))") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(5))")
    }
}
