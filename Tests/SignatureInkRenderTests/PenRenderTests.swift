// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkRender
import Testing

/// How recorded pens are drawn: their colours win by default, options replace them when told to, erasers
/// erase the ink and never the background, and one-colour ink keeps the coverage PNG.
@Suite struct PenRenderTests {
    static let navy = Color(red: 0, green: 0, blue: 128)
    static let crimson = Color(red: 220, green: 20, blue: 60)

    /// Two horizontal strokes (y 20 and y 40) and, when asked, a thick vertical eraser across both at x 50.
    static func signature(pens: [Pen], eraser: Bool = false) -> Signature {
        var strokes: [[InkSample]] = []
        for y in [20.0, 40.0] {
            strokes.append((0..<12).map { InkSample(x: 10 + Double($0) * 8, y: y, t: Double($0) * 16) })
        }
        if eraser { strokes.append((0..<8).map { InkSample(x: 50, y: 5 + Double($0) * 8, t: 400 + Double($0) * 100) }) }
        var s = Signature(strokes: strokes, canvas: Canvas(width: 120, height: 60))
        s.pens = pens
        return s
    }

    static func pad(_ color: Color, erases: Bool = false, radius: Double = 2.5) -> Pen {
        .signaturePad(color: color, minWidth: radius, maxWidth: radius, dotSize: 0, velocityFilterWeight: 0.7, erases: erases)
    }

    static func png(_ s: Signature, _ options: RenderOptions = RenderOptions()) throws -> DecodedPNG {
        try DecodedPNG(try SignatureRenderer(options: options).png(s))
    }

    @Test func eachStrokeTakesItsPensColour() throws {
        let image = try Self.png(Self.signature(pens: [Self.pad(Self.navy), Self.pad(Self.crimson)]))
        #expect(image.pixel(x: 40, y: 20) == Self.navy)
        #expect(image.pixel(x: 40, y: 40) == Self.crimson)
        #expect(image.colorType == .rgba)
    }

    @Test func oneColourStillUsesTheCoveragePNG() throws {
        let image = try Self.png(Self.signature(pens: [Self.pad(Self.navy), Self.pad(Self.navy)]))
        #expect(image.colorType == .indexed)
        #expect(image.pixel(x: 40, y: 20) == Self.navy && image.pixel(x: 40, y: 40) == Self.navy)
    }

    @Test func optionsReplaceWhatTheyAreToldTo() throws {
        var options = RenderOptions(penColor: Self.crimson)
        options.recordedPen = .widths
        let image = try Self.png(Self.signature(pens: [Self.pad(Self.navy), Self.pad(Self.navy)]), options)
        #expect(image.pixel(x: 40, y: 20) == Self.crimson)
        // The file's 5-unit line is kept: a pixel 1 to 2 units off the centre line is all ink.
        #expect(image.pixel(x: 40, y: 21).alpha == 255)
        options.recordedPen = .none
        options.penStyle = .constant(1)
        let thin = try Self.png(Self.signature(pens: [Self.pad(Self.navy), Self.pad(Self.navy)]), options)
        #expect(thin.pixel(x: 40, y: 21).alpha == 0)
    }

    @Test func anEraserRemovesInkButNotTheBackground() throws {
        let s = Self.signature(pens: [Self.pad(.black), Self.pad(.black), Self.pad(.black, erases: true, radius: 6)], eraser: true)
        let clear = try Self.png(s)
        #expect(clear.pixel(x: 50, y: 20).alpha == 0 && clear.pixel(x: 50, y: 40).alpha == 0)
        #expect(clear.pixel(x: 30, y: 20) == .black)
        let white = Color.white
        let backed = try Self.png(s, RenderOptions(background: white))
        #expect(backed.pixel(x: 50, y: 20) == white)
        #expect(backed.pixel(x: 30, y: 20) == .black)
    }

    @Test func svgPaintsRunsAndMasksErasers() throws {
        let s = Self.signature(pens: [Self.pad(Self.navy), Self.pad(Self.crimson), Self.pad(.black, erases: true, radius: 6)],
                               eraser: true)
        let svg = try SignatureRenderer().svg(s)
        #expect(svg.contains("fill=\"#000080\"") && svg.contains("fill=\"#dc143c\""))
        #expect(svg.contains("<mask id=\"erase2\"") && svg.contains("mask=\"url(#erase2)\""))
    }

    @Test func aTranslucentPenBuildsUpWhereSignaturePadsCurvesOverlap() throws {
        // Two coincident strokes of one half-transparent pen: signature_pad fills each on its own.
        let half = Color(red: 200, green: 0, blue: 0, alpha: 128)
        let image = try Self.png(Self.signature(pens: [Self.pad(half), Self.pad(half)]))
        let alpha = image.pixel(x: 40, y: 20).alpha
        #expect(alpha >= 128 && alpha < 200)
        // Consecutive curves of one stroke overlap at their joints: more opaque there than one layer.
        #expect((30...70).map { image.pixel(x: $0, y: 20).alpha }.max()! > 128)
    }

    @Test func svgDrawsATranslucentSignaturePadPenCurveByCurve() throws {
        let half = Color(red: 200, green: 0, blue: 0, alpha: 128)
        let svg = try SignatureRenderer().svg(Self.signature(pens: [Self.pad(half), Self.pad(half)]))
        #expect(svg.contains("<g fill=\"#c80000\" fill-opacity=\"0.502\" transform=\"scale(0.1)\">"))
        #expect(svg.components(separatedBy: "<path d=").count - 1 > 4)
        let opaque = try SignatureRenderer().svg(Self.signature(pens: [Self.pad(Self.navy), Self.pad(Self.navy)]))
        #expect(opaque.components(separatedBy: "<path ").count - 1 == 1)
    }

    @Test func rendersTheSameBytesTwice() throws {
        let s = Self.signature(pens: [Self.pad(Self.navy), Self.pad(Self.crimson)])
        #expect(try SignatureRenderer().png(s) == (try SignatureRenderer().png(s)))
        #expect(try SignatureRenderer().pdf(s).count > 0)
    }
}
