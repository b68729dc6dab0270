// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats
import Testing

/// Pens a front end wrote with values the model does not store are held to its ranges, said in the assumptions,
/// and the signature then survives the native format.
@Suite struct PenRangeTests {
    @Test func signaturePadSettingsOutsideTheModelAreHeldAndTheNativeFormReadsBack() throws {
        // velocityFilterWeight past 1 (a fuzzer's find), a negative minWidth, a maxWidth past the widest line.
        let json = """
        [{"penColor":"black","dotSize":0,"minWidth":-1,"maxWidth":5000,"velocityFilterWeight":1.7,
          "compositeOperation":"source-over","points":[{"x":1,"y":2,"time":1700000000000,"pressure":0.5},
          {"x":30,"y":40,"time":1700000000016,"pressure":0.5}]}]
        """
        let result = try InkDecoder().decode(Data(json.utf8))
        let pen = try #require(result.signature.pens.first)
        #expect(pen.minWidth == nil)
        #expect(pen.maxWidth == Pen.widestLine)
        #expect(pen.widthModel == .signaturePad(velocityFilterWeight: 1))
        #expect(result.assumptions.contains { $0.hasPrefix("pen widths held to") })
        let again = try InkDecoder().decode(InkEncoder().encode(result.signature, as: .native))
        #expect(again.signature.pens == result.signature.pens)
    }

    @Test func heldKeepsAPenInRangeAsItIs() {
        let pen = Pen(color: .black, minWidth: 1, maxWidth: 5, dotWidth: 2,
                      widthModel: .signaturePad(velocityFilterWeight: 0.7), blend: .erase)
        #expect(pen.held == pen)
        let crossed = Pen(minWidth: 6, maxWidth: 2).held
        #expect(crossed.minWidth == 2 && crossed.maxWidth == 2)
        #expect(Pen(widthModel: .signaturePad(velocityFilterWeight: -.infinity)).held.widthModel == .signaturePad(velocityFilterWeight: 0.7))
    }
}
