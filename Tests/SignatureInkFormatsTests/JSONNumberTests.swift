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
}
