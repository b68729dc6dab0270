// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
@testable import SignatureInkRender
import Testing

/// The coverage images the PNG benchmarks encode, stroked by Cairo into an A8 surface, fitted into 600 x 300
/// with 16 px of padding, at scale 1 and 2:
/// - `real`: real handwriting of about a signature's sample count (hwrt 292934: 7 strokes, 163 points);
/// - `cursive`: the synthetic `SampleStrokes/long-name.json` (3 strokes, 710 points), denser ink.
///
/// Stored in `Benchmarks/Fixtures/` as indexed PNGs whose palette entry `i` is grey `i`, so the decoded red
/// channel is the coverage.
@Suite struct CoverageFixtureTests {
    static let source = TestData.realInk.appendingPathComponent("hwrt/292934.json")
    static let cursive = TestData.sampleStrokes.appendingPathComponent("long-name.json")
    static let fixtures = TestData.repositoryRoot.appendingPathComponent("Benchmarks/Fixtures")
    /// Pen width at scale 1 in pixels: signature_pad's default `maxWidth`.
    static let penWidth = 2.5
    /// Space kept free around the ink, in pixels at scale 1 (the padding SAP's capture view crops to).
    static let padding = 16.0
    static let grey: [Color] = (0..<256).map { Color(red: UInt8($0), green: UInt8($0), blue: UInt8($0)) }

    /// The strokes of an hwrt file (`[[{x, y, time}]]`) or a native file (`{"strokes": [[[x, y, t]]]}`).
    static func strokes(_ url: URL) throws -> [[Point]] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        if let hwrt = json as? [[[String: Double]]] {
            return hwrt.map { $0.map { Point($0["x"] ?? 0, $0["y"] ?? 0) } }
        }
        let native = try #require((json as? [String: Any])?["strokes"] as? [[[Double]]])
        return native.map { $0.map { Point($0[0], $0[1]) } }
    }

    static func render(_ url: URL, scale: Int) throws -> ByteImage {
        let points = try strokes(url)
        let all = points.flatMap { $0 }
        let minX = all.map(\.x).min()!, maxX = all.map(\.x).max()!
        let minY = all.map(\.y).min()!, maxY = all.map(\.y).max()!
        let fit = min((600 - 2 * padding) / (maxX - minX), (300 - 2 * padding) / (maxY - minY))
        let offset = Point(300 - fit * (minX + maxX) / 2, 150 - fit * (minY + maxY) / 2)

        let s = Double(scale)
        let surface = try CairoSurface(image: .a8, width: 600 * scale, height: 300 * scale)
        let context = try CairoContext(surface: surface)
        context.setSource(.black)
        var path = Path()
        for stroke in points {
            guard let first = stroke.first else { continue }
            path.move(to: (first * fit + offset) * s)
            for p in stroke.dropFirst() { path.line(to: (p * fit + offset) * s) }
        }
        context.append(path)
        context.strokeRound(width: penWidth * s)
        try context.check()
        let stride = surface.stride
        let pixels = try surface.withPixels { Array($0) }
        return ByteImage("\(url.lastPathComponent) at \(scale)x", width: 600 * scale, height: 300 * scale, stride: stride) {
            x, y in pixels[y * stride + x]
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: source.path)),
          arguments: ["real", "cursive"], [1, 2])
    func benchmarkFixtureMatchesAFreshRender(name: String, scale: Int) throws {
        let image = try Self.render(name == "real" ? Self.source : Self.cursive, scale: scale)
        let url = Self.fixtures.appendingPathComponent("coverage-\(name)@\(scale)x.png")
        guard FileManager.default.fileExists(atPath: url.path),
              ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == nil
        else {
            try Data(encode(image, palette: Self.grey)).write(to: url)
            Issue.record("recorded \(url.path); run the tests again")
            return
        }
        let decoded = try DecodedPNG(Array(try Data(contentsOf: url)))
        #expect(decoded.width == image.width && decoded.height == image.height)
        // System Cairo versions rasterise slightly differently: allow a small difference on a few pixels.
        var differing = 0
        var ink = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                if image[x, y] > 0 { ink += 1 }
                if abs(Int(decoded.pixel(x: x, y: y).red) - Int(image[x, y])) > 8 { differing += 1 }
            }
        }
        #expect(ink > 1000, "the signature left ink")
        #expect(differing * 100 <= ink, "\(differing) of \(ink) ink pixels differ by more than 8")
    }
}
