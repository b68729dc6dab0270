// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import Testing

/// The same input and options give byte-identical output, on every real file and every sample.
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
        for options in [RenderOptions(), RenderOptions(scale: 2, background: Color(hex: "#ffffff")!)] {
            let renderer = SignatureRenderer(options: options)
            let first = try renderer.png(signature)
            let second = try renderer.png(signature)
            #expect(first == second, "\(path)")
            // A fresh decode of the same bytes renders the same image.
            let again = try renderer.png(try InkDecoder().decode(data).signature)
            #expect(first == again, "\(path)")
        }
    }
}
