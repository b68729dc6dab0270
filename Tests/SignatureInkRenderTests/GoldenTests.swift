// SPDX-License-Identifier: Apache-2.0
import SignatureInk
@testable import SignatureInkRender
import Testing

/// Every option against a reference image in `Goldens/<feature>/<case>.png`.
@Suite struct GoldenTests {
    static let ink = Color(hex: "#1a237e")!
    /// A broad pen, so overlaps are easy to see.
    static let bold = PenStyle(minWidth: 3, maxWidth: 7)

    /// Text is drawn with the system's sans-serif font, which differs between machines: images with text allow
    /// more differing pixels.
    static let textFraction = 0.03

    func check(_ sample: String, _ o: RenderOptions, _ feature: String, _ name: String,
               maxDifferingFraction: Double = 0.003, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let png = try SignatureRenderer(options: o).png(Fixtures.sample(sample))
        try Golden.check(png, feature: feature, name: name, maxDifferingFraction: maxDifferingFraction,
                         sourceLocation: sourceLocation)
    }

    @Test func raster() throws {
        try check("long-name", RenderOptions(), "raster", "default")
        try check("short-name", RenderOptions(scale: 2, penColor: Self.ink), "raster", "scale-2")
        try check("pressure", RenderOptions(background: Color(hex: "#fffde7")!), "raster", "background")
        try check("dotted-i", RenderOptions(penWidth: 4), "raster", "constant-width-4")
        try check("long-name", RenderOptions(penStyle: PenStyle(minWidth: 0.5, maxWidth: 2.5)), "raster", "widths-0.5-2.5")
        try check("pressure", RenderOptions(scale: 2, penStyle: PenStyle(minWidth: 1, maxWidth: 5)), "raster", "pressure-widths-1-5")
    }

    @Test func layout() throws {
        try check("long-name", RenderOptions(framing: .crop), "layout", "crop")
        try check("long-name", RenderOptions(padding: 8, framing: .crop), "layout", "crop-padding-8")
        try check("long-name", RenderOptions(background: .white, box: OutputSize(width: 300, height: 200), framing: .fit),
                  "layout", "fit-300x200")
        try check("no-canvas", RenderOptions(), "layout", "no-canvas")
        try check("past-the-edge", RenderOptions(), "layout", "past-the-edge")
    }

    @Test func viewMode() throws {
        try check("fast-scribble", RenderOptions(penColor: Self.ink, penStyle: Self.bold).viewMode(), "view-mode", "transparent")
        try check("fast-scribble", RenderOptions(penColor: Self.ink, background: .white, penStyle: Self.bold).viewMode(opacity: 0.3),
                  "view-mode", "opacity-0.3-on-white")
        try check("fast-scribble", RenderOptions(penColor: Self.ink, penStyle: Self.bold,
                                                 decorations: Decorations(signatureLine: true)).viewMode(),
                  "view-mode", "with-line")
    }

    @Test func decorations() throws {
        let white = RenderOptions(background: .white)
        var o = white
        o.decorations.signatureLine = true
        try check("long-name", o, "decorations", "signature-line")
        o = white
        o.decorations = Decorations(signatureLine: true, xMark: true)
        try check("long-name", o, "decorations", "x-mark")
        o = white
        o.decorations.watermark = "SPECIMEN"
        try check("long-name", o, "decorations", "watermark", maxDifferingFraction: Self.textFraction)
        o = white
        o.decorations = Decorations(signatureLine: true, timestamp: .iso8601)
        try check("long-name", o, "decorations", "timestamp", maxDifferingFraction: Self.textFraction)
        o = white
        o.decorations = Decorations(signatureLine: true, xMark: true, watermark: "COPY",
                                    timestamp: try TimestampFormat(pattern: "dd.MM.yyyy HH:mm"))
        o.scale = 2
        try check("long-name", o, "decorations", "all-scale-2", maxDifferingFraction: Self.textFraction)
    }

    @Test func pdfPagesLookRight() throws {
        let s = try Fixtures.sample("long-name")
        let pdf = try SignatureRenderer(options: RenderOptions(decorations: Decorations(signatureLine: true)).viewMode()).pdf(s)
        let page = try PDFInspection.rasterize(pdf, dpi: 96)
        try Golden.check(png(page), feature: "pdf", name: "view-mode-line")
        let block = try SignatureBlock(signature: s, signerName: "Selane Harlaye").pdf()
        try Golden.check(png(try PDFInspection.rasterize(block, dpi: 144)), feature: "pdf", name: "signature-block",
                         maxDifferingFraction: Self.textFraction)
    }

    @Test func svgText() throws {
        let s = try Fixtures.sample("short-name")
        try Golden.checkText(SignatureRenderer().svg(s), feature: "svg", name: "default")
        let o = RenderOptions(penColor: Self.ink, background: .white, framing: .crop,
                              decorations: Decorations(signatureLine: true, xMark: true, watermark: "COPY", timestamp: .iso8601))
        try Golden.checkText(SignatureRenderer(options: o.viewMode()).svg(s, pathPerStroke: true),
                             feature: "svg", name: "view-mode-per-stroke-decorated")
        try Golden.checkText(SignatureRenderer(options: RenderOptions(box: OutputSize(width: 300, height: 150), framing: .fit)).svg(Fixtures.sample("dotted-i")),
                             feature: "svg", name: "fit-300x150")
    }

    /// Re-encodes a decoded image, so rasterised PDF pages compare like renders.
    func png(_ image: DecodedPNG) throws -> [UInt8] {
        try image.rgba.withUnsafeBufferPointer {
            try LibPNGEncoder().encode(width: image.width, height: image.height, color: .rgba, pixels: $0,
                                       stride: image.width * 4, metadata: PNGMetadata())
        }
    }
}
