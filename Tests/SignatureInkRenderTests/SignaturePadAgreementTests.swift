// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import Testing

/// signature_pad 5.1.3's own canvas, recorded in headless Chromium (`Tests/Fixtures/realink/signature-pad-chromium`),
/// against our render of the `toData()` the page posted, with `--width 600 --height 300 --scale DPR` and no pen
/// options: the file's pens decide colour, widths and erasing.
///
/// signature_pad never draws a stroke's last curve, and neither does the renderer for its pens, so every ink
/// pixel of both images counts.
@Suite struct SignaturePadAgreementTests {
    /// One recorded piece at one device pixel ratio.
    struct Piece: Sendable, CustomTestStringConvertible {
        var name: String
        var dpr: Int
        var testDescription: String { "\(name) at DPR \(dpr)" }
        var folder: URL {
            TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr\(dpr)")
        }
    }

    /// The stored pieces: one of each of the eight pen set-ups, at both ratios.
    static let pieces: [Piece] = {
        let folder = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".pad.png") }.map { String($0.dropLast(".pad.png".count)) }.sorted()
        return [1, 2].flatMap { dpr in names.map { Piece(name: $0, dpr: dpr) } }
    }()

    /// Share of the pad's ink pixels with our ink within one device pixel, at least.
    static let padCoveredMinimum = 0.98
    /// Share of our ink pixels with the pad's ink within one device pixel, at least.
    static let oursCoveredMinimum = 0.97
    /// Largest CIE76 colour difference between the mean ink colours of a pen, over white.
    static let maximumDeltaE = 3.0
    /// Pixels inked in both over pixels inked in either, with no tolerance, at least: a check beyond the issue's,
    /// which a render one pixel too thick or too thin everywhere would fail (the pieces measure 91% to 99%).
    static let exactOverlapMinimum = 0.85
    /// Share of the pixels the pad erased that our render erased too, at least.
    static let erasedMinimum = 0.97

    /// The figures of one piece.
    struct Agreement: CustomStringConvertible {
        var padCovered: Double
        var oursCovered: Double
        /// Pixels inked in both over pixels inked in either, without any tolerance.
        var exactOverlap: Double
        /// ΔE per pen colour, in order of first use.
        var deltaE: [(color: Color, value: Double)]
        /// Share of the pad's erased pixels erased by us, `nil` without an eraser.
        var erased: Double?
        var description: String {
            let e = deltaE.map { "\($0.color) \(String(format: "%.2f", $0.value))" }.joined(separator: ", ")
            return String(format: "pad->ours %.2f%%, ours->pad %.2f%%, exact overlap %.1f%%, ", padCovered * 100,
                          oursCovered * 100, exactOverlap * 100)
                + "ΔE [\(e)]" + (erased.map { String(format: ", erased %.2f%%", $0 * 100) } ?? "")
        }
    }

    static func measure(_ piece: Piece, recordedPen: RecordedPenParts = .all) throws -> Agreement {
        let data = try Data(contentsOf: piece.folder.appendingPathComponent("\(piece.name).json"))
        let signature = try InkDecoder().decode(data, as: .signaturePad).signature
        let pad = try DecodedPNG(Array(try Data(contentsOf: piece.folder.appendingPathComponent("\(piece.name).pad.png"))))
        var options = RenderOptions(scale: Double(piece.dpr), box: OutputSize(width: 600, height: 300))
        options.recordedPen = recordedPen
        let renderer = SignatureRenderer(options: options)
        let ours = try DecodedPNG(try renderer.png(signature))
        #expect(ours.width == pad.width && ours.height == pad.height)
        let w = pad.width, h = pad.height
        let drawn = signature.pens.filter { $0.blend == .normal }
        let inkAlpha = UInt8((drawn.map(\.color.alpha).max() ?? 255) / 2)
        let padInk = Mask(pad, threshold: inkAlpha), ourInk = Mask(ours, threshold: inkAlpha)
        let padCovered = padInk.share(within: ourInk), oursCovered = ourInk.share(within: padInk)

        // Mean colour per pen colour over white, on the pixels both inked, each given to the nearest stroke.
        var colors: [Color] = []
        for pen in drawn where !colors.contains(pen.color) { colors.append(pen.color) }
        var sums = [[Double]](repeating: [0, 0, 0, 0, 0, 0, 0], count: colors.count)
        let scale = Double(piece.dpr)
        for y in 0..<h { for x in 0..<w where padInk[x, y] && ourInk[x, y] {
            let p = Point((Double(x) + 0.5) / scale, (Double(y) + 0.5) / scale)
            var best = Double.infinity, bestStroke = 0
            for (i, stroke) in signature.strokes.enumerated() where signature.pens[i].blend == .normal {
                for s in stroke {
                    let d = (s.x - p.x) * (s.x - p.x) + (s.y - p.y) * (s.y - p.y)
                    if d < best { best = d; bestStroke = i }
                }
            }
            guard let k = colors.firstIndex(of: signature.pens[bestStroke].color) else { continue }
            let a = pad.pixel(x: x, y: y).overWhite, b = ours.pixel(x: x, y: y).overWhite
            for c in 0..<3 { sums[k][c] += a[c]; sums[k][c + 3] += b[c] }
            sums[k][6] += 1
        }}
        var deltaE: [(Color, Double)] = []
        for (k, color) in colors.enumerated() where sums[k][6] > 0 {
            let n = sums[k][6]
            let a = Lab(Array(sums[k][0..<3]).map { $0 / n }), b = Lab(Array(sums[k][3..<6]).map { $0 / n })
            deltaE.append((color, a.distance(to: b)))
        }

        // Erasing: where the ink without the erasers is, and the pad shows nothing, ours shows nothing either.
        var erased: Double?
        if signature.pens.contains(where: { $0.blend == .erase }) {
            var unerased = Signature(canvas: signature.canvas, startTime: signature.startTime, metadata: signature.metadata)
            for (i, stroke) in signature.strokes.enumerated() where signature.pens[i].blend == .normal {
                unerased.appendStroke(stroke)
                unerased.pens.append(signature.pens[i])
            }
            let before = Mask(try DecodedPNG(try renderer.png(unerased)), threshold: inkAlpha)
            var total = 0, agreed = 0
            for y in 0..<h { for x in 0..<w where before[x, y] && pad.pixel(x: x, y: y).alpha == 0 {
                total += 1
                if ours.pixel(x: x, y: y).alpha < inkAlpha / 4 { agreed += 1 }
            }}
            erased = total == 0 ? 0 : Double(agreed) / Double(total)
        }
        var both = 0, either = 0
        for i in padInk.bits.indices where padInk.bits[i] || ourInk.bits[i] {
            either += 1
            if padInk.bits[i] && ourInk.bits[i] { both += 1 }
        }
        return Agreement(padCovered: padCovered, oursCovered: oursCovered,
                         exactOverlap: either == 0 ? 0 : Double(both) / Double(either), deltaE: deltaE, erased: erased)
    }

    @Test(arguments: pieces)
    func inkLiesWhereThePadDrewIt(_ piece: Piece) throws {
        let a = try Self.measure(piece)
        print("signature_pad agreement \(piece.testDescription): \(a)")
        #expect(a.padCovered >= Self.padCoveredMinimum, "\(a)")
        #expect(a.oursCovered >= Self.oursCoveredMinimum, "\(a)")
        #expect(a.exactOverlap >= Self.exactOverlapMinimum, "\(a)")
        #expect(!a.deltaE.isEmpty)
        for (color, value) in a.deltaE { #expect(value <= Self.maximumDeltaE, "pen \(color): \(a)") }
        if let erased = a.erased { #expect(erased >= Self.erasedMinimum, "\(a)") }
    }

    @Test func theRenderersOwnPenWouldNotPass() throws {
        // The same measures tell a render that ignores the file's pen (black, 1 to 3 units) from the page.
        let piece = try #require(Self.pieces.first { $0.name == "Hello-World-1-04" && $0.dpr == 2 })
        let a = try Self.measure(piece, recordedPen: .none)
        #expect(a.padCovered < Self.padCoveredMinimum || a.deltaE.contains { $0.value > Self.maximumDeltaE }, "\(a)")
    }

    @Test func everyPenSetUpIsStoredAtBothRatios() throws {
        // The eight set-ups of the recording differ in their options files; each must be here at DPR 1 and 2.
        var setUps: [Int: Set<String>] = [:]
        for piece in Self.pieces {
            let options = try String(contentsOf: piece.folder.appendingPathComponent("\(piece.name).options.json"),
                                     encoding: .utf8)
            let key = options.replacingOccurrences(of: #""devicePixelRatio": [0-9.]+"#, with: "", options: .regularExpression)
            setUps[piece.dpr, default: []].insert(key)
        }
        #expect(setUps[1]?.count == 8)
        #expect(setUps[2]?.count == 8)
    }
}

/// Which pixels of an image are ink: alpha at or above a threshold.
private struct Mask {
    var width: Int, height: Int
    var bits: [Bool]

    init(_ image: DecodedPNG, threshold: UInt8) {
        width = image.width
        height = image.height
        bits = stride(from: 3, to: image.rgba.count, by: 4).map { image.rgba[$0] >= threshold }
    }

    subscript(x: Int, y: Int) -> Bool { bits[y * width + x] }

    /// The share of this mask's pixels that have a pixel of `other` within one pixel (the 3 x 3 around them).
    func share(within other: Mask) -> Double {
        var total = 0, near = 0
        for y in 0..<height { for x in 0..<width where self[x, y] {
            total += 1
            search: for dy in -1...1 { for dx in -1...1 {
                let u = x + dx, v = y + dy
                if u >= 0, v >= 0, u < width, v < height, other[u, v] { near += 1; break search }
            }}
        }}
        return total == 0 ? 0 : Double(near) / Double(total)
    }
}

private extension Color {
    /// The colour composited over white, as sRGB in 0...1.
    var overWhite: [Double] {
        let a = Double(alpha) / 255
        return [red, green, blue].map { Double($0) / 255 * a + (1 - a) }
    }
}

/// CIE L*a*b* (D65) of an sRGB colour.
private struct Lab {
    var l: Double, a: Double, b: Double

    init(_ rgb: [Double]) {
        let lin = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        let x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
        let y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
        let z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        l = 116 * f(y) - 16
        a = 500 * (f(x) - f(y))
        b = 200 * (f(y) - f(z))
    }

    /// CIE76 ΔE.
    func distance(to o: Lab) -> Double {
        ((l - o.l) * (l - o.l) + (a - o.a) * (a - o.a) + (b - o.b) * (b - o.b)).squareRoot()
    }
}
