// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import Testing

/// SVG size on real ink against signature_pad's `toSVG`, which averages 26 KiB on real signatures of about 170
/// points (about 157 bytes a point: one `<path>` with its own stroke width per curve segment).
@Suite struct SVGSizeTests {
    /// signature_pad's bytes per input point, from its 26 KiB average over about 170 points.
    static let signaturePadBytesPerPoint = 26.0 * 1024 / 170

    /// Real ink from other projects, and the sample signatures, decoded by format detection.
    static func realFiles() -> [URL] {
        let real = ["signature-pad/face.derived.json", "signature-pad/square.derived.json", "hwrt/97705.json",
                    "hwrt/292934.json", "hwrt/293035.json", "hwrt/293036.json"]
            .map { TestData.realInk.appendingPathComponent($0) }
        return real + TestData.sampleFiles()
    }

    @Test func atLeastFourTimesSmallerThanSignaturePad() throws {
        var total = 0, points = 0
        var lines: [String] = []
        for url in Self.realFiles() {
            let signature = try InkDecoder().decode(Data(contentsOf: url)).signature
            let svg = try SignatureRenderer().svg(signature)
            let bytes = svg.utf8.count
            total += bytes
            points += signature.samples.count
            let perPoint = Double(bytes) / Double(signature.samples.count)
            lines.append("\(url.lastPathComponent): \(signature.samples.count) points, \(bytes) bytes, \(Int(perPoint)) B/point")
            // Small files are dominated by the fixed header, and sparse ones by the curves that join their
            // distant samples; judge those by the average alone.
            if signature.samples.count >= 100 {
                #expect(perPoint * 4 <= Self.signaturePadBytesPerPoint, "\(url.lastPathComponent): \(perPoint) bytes a point")
            }
        }
        let average = Double(total) / Double(Self.realFiles().count)
        let perPoint = Double(total) / Double(points)
        print("SVG sizes:\n" + lines.joined(separator: "\n")
              + "\naverage \(Int(average)) bytes, \(String(format: "%.1f", perPoint)) bytes a point")
        #expect(perPoint * 4 <= Self.signaturePadBytesPerPoint)
        #expect(average * 4 <= 26 * 1024)
    }
}
