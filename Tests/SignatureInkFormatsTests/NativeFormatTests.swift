// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

@Suite struct NativeFormatTests {
    @Test func roundTripsASimpleSignature() throws {
        let s = Signature(strokes: [[InkSample(x: 1.5, y: 2, t: 0, pressure: 0.52), InkSample(x: 3, y: 4, t: 8.25, pressure: 0.6)]],
                          canvas: Canvas(width: 600, height: 300), startTime: 1_763_781_117_123, metadata: ["device": "pen"])
        let text = try NativeEncoder().encode(s)
        let back = try NativeDecoder().decode(Data(text.utf8))
        #expect(back == s)
    }
}
