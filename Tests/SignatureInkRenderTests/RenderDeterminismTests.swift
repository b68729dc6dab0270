// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import Testing

/// The same input and options give byte-identical PNG, SVG and PDF, on every real file and every sample.
@Suite struct RenderDeterminismTests {
    /// Every stroke file of the real ink and of `SampleStrokes/`, by path.
    static func inputs() -> [String] {
        var paths = TestData.sampleFiles().map(\.path)
        let real = TestData.realInk
        if let walker = FileManager.default.enumerator(atPath: real.path) {
            for case let relative as String in walker where relative.hasSuffix(".json") {
                paths.append(real.appendingPathComponent(relative).path)
            }
        }
        return paths.sorted()
    }

    @Test func theInputsIncludeTheRealInk() {
        let paths = Self.inputs()
        #expect(paths.filter { $0.contains("/realink/") }.count >= 14)
        #expect(paths.filter { $0.contains("/SampleStrokes/") }.count >= 12)
    }

    @Test(arguments: inputs())
    func renderingTwiceGivesTheSameBytes(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let signature: Signature
        do {
            signature = try InkDecoder().decode(data).signature
        } catch {
            // The deliberately corrupt real files are refused the same way each time.
            #expect(throws: error) { try InkDecoder().decode(data) }
            return
        }
        let fresh = try InkDecoder().decode(data).signature
        for options in [RenderOptions(), RenderOptions(scale: 2, background: Color(hex: "#ffffff")!)] {
            let renderer = SignatureRenderer(options: options)
            let png = try renderer.png(signature)
            #expect(try renderer.png(signature) == png, "\(path): PNG")
            // A fresh decode of the same bytes renders the same image.
            #expect(try renderer.png(fresh) == png, "\(path): PNG of a fresh decode")
            let svg = try renderer.svg(signature)
            #expect(try renderer.svg(signature) == svg, "\(path): SVG")
            #expect(try renderer.svg(fresh) == svg, "\(path): SVG of a fresh decode")
            // The PDF's dates are the capture time (or a fixed one), never the clock.
            let pdf = try renderer.pdf(signature)
            #expect(try renderer.pdf(signature) == pdf, "\(path): PDF")
            #expect(try renderer.pdf(fresh) == pdf, "\(path): PDF of a fresh decode")
        }
    }
}
