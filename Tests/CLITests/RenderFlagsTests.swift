// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInkRender
import Testing

@Suite struct RenderFlagsTests {
    /// A stroke from (10, 30) to (110, 30) on a 120 x 60 canvas, captured 2024-12-30T12:00:00Z.
    let good = #"{"format":"signature-ink","version":1,"canvas":{"width":120,"height":60},"startTime":1735560000000,"channels":["x","y","t"],"strokes":[[[10,30,0],[110,30,16]],[[60,5,300],[60,55,320]]]}"#
    /// The same ink without a canvas.
    let bare = #"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[10,30,0],[110,30,16]]]}"#

    func render(_ json: String, _ name: String, _ flags: [String]) throws -> (CLIRunner.Result, Data?, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let input = try dir.write("in.json", json)
        let out = dir.path(name)
        let r = try CLIRunner.run(["render", input, "-o", out] + flags)
        return (r, FileManager.default.contents(atPath: out), dir)
    }

    @Test func theFormatFollowsTheOutputsExtension() throws {
        let (svgRun, svg, _) = try render(good, "sig.svg", [])
        #expect(svgRun.status == 0, "\(svgRun.stderr)")
        #expect(String(decoding: try #require(svg), as: UTF8.self).hasPrefix("<svg "))
        let (pdfRun, pdf, _) = try render(good, "sig.pdf", [])
        #expect(pdfRun.status == 0, "\(pdfRun.stderr)")
        #expect(try #require(pdf).starts(with: Array("%PDF-".utf8)))
        let (_, png, _) = try render(good, "sig.out", [])
        #expect(try #require(png).starts(with: [0x89, 0x50, 0x4e, 0x47]))
        let (_, forced, _) = try render(good, "sig.png", ["--format", "svg"])
        #expect(String(decoding: try #require(forced), as: UTF8.self).hasPrefix("<svg "))
    }

    @Test func outDirNamesFollowTheFormat() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("a.json", good)
        let r = try CLIRunner.run(["render", input, "--out-dir", dir.path("out"), "--format", "pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")) == ["a.pdf"])
    }

    @Test func withoutFlagsTheCanvasMapsUnchanged() throws {
        let (r, data, _) = try render(good, "sig.png", ["--pen-width", "4"])
        #expect(r.status == 0)
        let png = try DecodedPNG(Array(try #require(data)))
        #expect(png.width == 120 && png.height == 60)
        #expect(png.pixel(x: 30, y: 30).alpha == 255)
        #expect(png.colorType == .indexed)
        #expect(abs((png.pixelsPerInch ?? 0) - 96) < 0.05)
    }

    @Test func withoutACanvasTheInkIsCropped() throws {
        let (_, data, _) = try render(bare, "sig.png", ["--padding", "4"])
        let png = try DecodedPNG(Array(try #require(data)))
        #expect(png.width == 100 + 2 * 4 + 3 && png.height == 2 * 4 + 3)
    }

    @Test func fitIntoABox() throws {
        let (r, data, _) = try render(good, "sig.png", ["--fit", "--width", "300", "--height", "100", "--scale", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try DecodedPNG(Array(try #require(data)))
        #expect(png.width == 600 && png.height == 200)
        #expect(abs((png.pixelsPerInch ?? 0) - 192) < 0.05)
    }

    @Test func aBoxWithoutFitKeepsThePoints() throws {
        let (_, data, _) = try render(good, "sig.png", ["--width", "80", "--pen-width", "4"])
        let png = try DecodedPNG(Array(try #require(data)))
        #expect(png.width == 80 && png.height == 60)
        #expect(png.pixel(x: 30, y: 30).alpha == 255)
    }

    @Test func cropAndPadding() throws {
        let (_, data, _) = try render(good, "sig.png", ["--crop", "--padding", "0", "--pen-width", "2"])
        let png = try DecodedPNG(Array(try #require(data)))
        #expect(png.width == 102 && png.height == 52)
    }

    @Test func viewModeHalvesTheOpacity() throws {
        let (_, data, _) = try render(good, "sig.png", ["--view-mode", "--pen-width", "4"])
        let png = try DecodedPNG(Array(try #require(data)))
        #expect(png.pixel(x: 30, y: 30).alpha == 128)
        #expect(png.pixel(x: 60, y: 30) == png.pixel(x: 30, y: 30))  // where the strokes cross
        let (_, faint, _) = try render(good, "sig.png", ["--view-mode", "--opacity", "0.25", "--pen-width", "4"])
        #expect(try DecodedPNG(Array(try #require(faint))).pixel(x: 30, y: 30).alpha == 64)
    }

    @Test func decorationsMakeAnImageOfTheirColours() throws {
        let flags = ["--signature-line", "--x-mark", "--watermark", "VOID", "--timestamp", "--background", "#ffffff"]
        let (r, data, _) = try render(good, "sig.png", flags)
        #expect(r.status == 0, "\(r.stderr)")
        let png = try DecodedPNG(Array(try #require(data)))
        // The default colours are greys, and the background is opaque.
        #expect(png.colorType == .grey)
        #expect(png.text["Creation Time"] == "2024-12-30T12:00:00Z")
        let (_, navy, _) = try render(good, "sig.png", flags + ["--pen-color", "navy"])
        #expect(try DecodedPNG(Array(try #require(navy))).colorType == .rgba)
    }

    @Test func textNoFontCanDrawIsAWarningNamingTheCharacters() throws {
        let (r, data, _) = try render(good, "sig.png", ["--watermark", "Zoë 𓀀", "--timestamp-pattern", "'ༀ' yyyy"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(data != nil)
        #expect(r.stderr.contains("warning: the watermark has characters no installed font can draw, shown as boxes: U+13000 '𓀀'\n"))
        #expect(r.stderr.contains("warning: the timestamp has characters no installed font can draw, shown as boxes: U+0F00 'ༀ'\n"))
        let (clean, _, _) = try render(good, "sig.png", ["--watermark", "محمد 山田太郎 राजेश Zoë"])
        #expect(clean.status == 0 && !clean.stderr.contains("warning"), "\(clean.stderr)")
    }

    @Test func theTimestampPatternReachesTheSVG() throws {
        let (r, data, _) = try render(good, "sig.svg", ["--timestamp-pattern", "dd.MM.yyyy"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: try #require(data), as: UTF8.self).contains("aria-label=\"30.12.2024\""))
    }

    @Test func dpiSetsThePNGChunkAndThePDFSize() throws {
        let (_, png, _) = try render(good, "sig.png", ["--dpi", "300"])
        #expect(abs((try DecodedPNG(Array(try #require(png))).pixelsPerInch ?? 0) - 300) < 0.05)
        let (_, pdf, _) = try render(good, "sig.pdf", ["--dpi", "192"])
        // 120 x 60 units at 192 per inch: 45 x 22.5 pt.
        #expect(String(decoding: try #require(pdf), as: UTF8.self).contains("/MediaBox [ 0 0 45 22.5 ]"))
    }

    @Test func penWidthsReachTheOutline() throws {
        let (_, thin, _) = try render(good, "thin.png", ["--pen-width", "1"])
        let (_, broad, _) = try render(good, "broad.png", ["--min-width", "6", "--max-width", "8"])
        // The ink's area in pixels: the alpha summed.
        func inked(_ d: Data?) throws -> Int {
            try DecodedPNG(Array(try #require(d))).rgba.enumerated().reduce(0) { $0 + ($1.offset % 4 == 3 ? Int($1.element) : 0) } / 255
        }
        let a = try inked(thin), b = try inked(broad)
        #expect(a > 100 && b > 3 * a, "\(a) vs \(b)")
    }

    @Test func pathPerStroke() throws {
        let (_, one, _) = try render(good, "sig.svg", [])
        let (_, two, _) = try render(good, "sig.svg", ["--path-per-stroke"])
        #expect(String(decoding: try #require(one), as: UTF8.self).components(separatedBy: "<path").count == 2)
        #expect(String(decoding: try #require(two), as: UTF8.self).components(separatedBy: "<path").count == 3)
    }

    @Test(arguments: [
        (["--fit", "--crop"], "--fit cannot be given with --crop"),
        (["--crop", "--width", "100"], "--crop sizes the output to the ink"),
        (["--opacity", "2"], "--opacity 2 is outside [0, 1]"),
        (["--timestamp-pattern", "dd.MM.YYYY"], "week-based year"),
        (["--min-width", "3", "--max-width", "1"], "--min-width 3 is larger than --max-width 1"),
        (["--max-width", "0"], "--max-width 0 is outside (0, 1000]"),
        (["--min-width", "5"], "--min-width 5 is larger than --max-width 3"),
        (["--pen-width", "2", "--max-width", "4"], "--pen-width cannot be given with --max-width"),
        (["--format", "gif"], "--format must be png, svg or pdf"),
        (["--dpi", "0"], "dpi"),
        (["--padding", "-1"], "padding"),
        (["--width", "0", "--height", "10"], "width"),
        (["--fit", "--width", "20", "--height", "20"], "leaves no room"),
    ])
    func badFlagsAreUsageErrors(flags: [String], message: String) throws {
        let r = try CLIRunner.run(["render", "x.json", "-o", "x.png"] + flags)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
