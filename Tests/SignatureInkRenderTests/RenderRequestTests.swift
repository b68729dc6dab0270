// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import Testing

/// The one render request: every option by its one name, every rule in one place.
@Suite struct RenderRequestTests {
    typealias Option = RenderRequest.Option

    static let penFile = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1/Cell-Structure-1-19.json")

    @Test func everyOptionIsInTheTableOnceUnderItsOneName() {
        let names = RenderOptionTable.rows.map(\.option)
        #expect(names.count == Set(names).count)
        #expect(Set(names) == Set(Option.allCases.map(\.name)))
        for row in RenderOptionTable.rows {
            #expect(row.flag == "--" + row.option && row.query == row.option, "\(row)")
            #expect(Option(rawValue: row.option)?.isSwitch == (row.value == nil), "\(row)")
        }
    }

    @Test(arguments: RenderOptionTable.rows)
    func eachOptionChangesTheRequest(_ row: RenderOptionTable.Row) throws {
        var request = RenderRequest()
        try request.set(try #require(Option(rawValue: row.option)), to: row.value ?? "true")
        #expect(request != RenderRequest(), "\(row)")
        try request.validate()
    }

    @Test func textValuesAreReadAsTheirKind() throws {
        let request = try RenderRequest(values: [
            (.format, "pdf"), (.scale, "2.5"), (.penColor, "crimson"), (.background, "transparent"), (.width, "300"),
            (.height, "100"), (.fit, ""), (.viewMode, "true"), (.signatureLine, "false"), (.timestampPattern, "dd.MM.yyyy"),
            (.timestamp, "true"),
        ])
        #expect(request.format == .pdf && request.scale == 2.5 && request.penColor == Color(css: "crimson"))
        #expect(request.background == .clear && request.box == .size(OutputSize(width: 300, height: 100)))
        #expect(request.framing == .fit && request.viewMode && !request.decorations.signatureLine)
        // A pattern given before --timestamp stays: the pattern implies the timestamp.
        #expect(request.decorations.timestamp == (try TimestampFormat(pattern: "dd.MM.yyyy")))
        #expect(request.options().opacity == RenderOptions.defaultViewOpacity)
        #expect(request.recordedPen == [.widths])
    }

    static let refused: [(values: [(Option, String)], option: Option, message: String)] = [
        ([(.fit, "true"), (.crop, "true")], .fit, "fit cannot be given with crop"),
        ([(.crop, "true"), (.width, "300")], .crop, "crop sizes the output to the ink and takes no width or height"),
        ([(.penWidth, "2"), (.minWidth, "1")], .penWidth, "pen-width cannot be given with min-width"),
        ([(.minWidth, "5")], .minWidth, "min-width 5 is larger than max-width 3"),
        ([(.maxWidth, "0")], .maxWidth, "max-width 0 is outside (0, 1000]"),
        ([(.scale, "0")], .scale, "scale 0 is outside (0, 16]"),
        ([(.scale, "17")], .scale, "scale 17 is outside (0, 16]"),
        ([(.opacity, "2")], .opacity, "opacity 2 is outside [0, 1]"),
        ([(.dpi, "-1")], .dpi, "dpi -1 is outside (0, 100000]"),
        ([(.fit, "maybe")], .fit, "fit must be true or false"),
        ([(.width, "0")], .width, "width 0 is outside [1, 32767]"),
        ([(.padding, "-1")], .padding, "padding -1 is outside [0, 10000]"),
        ([(.penColor, "<script>")], .penColor, "pen-color is not a CSS colour"),
        ([(.background, "#12")], .background, "background is not transparent or a CSS colour"),
        ([(.format, "gif")], .format, "format must be png, svg or pdf"),
        ([(.scale, "nan")], .scale, "scale must be a number"),
        ([(.timestampPattern, "dd.MM.YYYY")], .timestampPattern, "week-based year"),
        ([(.watermark, String(repeating: "w", count: 201))], .watermark, "watermark is longer than 200 characters"),
        ([(.fit, "true"), (.width, "40"), (.height, "20"), (.padding, "30")], .padding, "leaves no room for the ink"),
    ]

    @Test(arguments: refused.indices)
    func contradictoryOrOutOfRangeValuesNameTheOption(_ index: Int) {
        let (values, option, message) = Self.refused[index]
        #expect {
            _ = try RenderRequest(values: values)
        } throws: { error in
            guard let invalid = error as? RenderRequest.Invalid else { return false }
            return invalid.option == option && invalid.description.contains(message)
                && invalid.description(prefix: "--").hasPrefix("--" + option.name)
        }
    }

    @Test func aValueSentAsTextIsNeverRepeated() throws {
        do {
            _ = try RenderRequest(values: [(.penColor, "<b>bold</b>")])
            Issue.record("a markup colour was accepted")
        } catch {
            #expect(!error.description.contains("<"))
        }
    }

    @Test func theLimitsBoundTheBox() throws {
        var request = try RenderRequest(values: [(.width, "5000")])
        request.limits.maxBoxSide = 4096
        #expect(throws: RenderRequest.Invalid(.width, .outside("[1, 4096]"), 5000)) { try request.validate() }
    }

    @Test func aBoxOfOneSideTakesTheOtherFromTheCanvasElseIsTwoToOne() {
        let canvas = Canvas(width: 500, height: 200)
        #expect(RenderRequest.Box.width(250).size(on: canvas) == OutputSize(width: 250, height: 200))
        #expect(RenderRequest.Box.height(100).size(on: canvas) == OutputSize(width: 500, height: 100))
        #expect(RenderRequest.Box.height(120).size(on: nil) == OutputSize(width: 240, height: 120))
        #expect(RenderRequest.Box.width(300).size(on: nil) == OutputSize(width: 300, height: 150))
        #expect(RenderRequest.Box.canvas.size(on: canvas) == nil)
    }

    @Test func theFormatFollowsAFileName() {
        #expect(RenderRequest.Format(fileName: "out/sig.SVG") == .svg)
        #expect(RenderRequest.Format(fileName: "a.pdf") == .pdf)
        #expect(RenderRequest.Format(fileName: "dir.png/sig") == nil)
        #expect(RenderRequest.Format(fileName: "sig.gif") == nil)
    }

    @Test func penOptionsThatReplaceTheFilesPenAreSaid() throws {
        let signature = try InkDecoder().decode(Data(contentsOf: Self.penFile)).signature
        #expect(RenderRequest().overrides(of: signature).isEmpty)
        let colour = try RenderRequest(values: [(.penColor, "#0000ff")]).overrides(of: signature)
        #expect(colour.map { $0.sentence(naming: \.name) } == ["pen-color replaces the pen colour the file records: #c0392b80"])
        let widths = try RenderRequest(values: [(.minWidth, "0.5"), (.maxWidth, "6")]).overrides(of: signature)
        #expect(widths.map { $0.sentence { "--" + $0.name } } == ["--min-width and --max-width replace the pen widths the file records"])
        // The file's own colour again replaces nothing.
        #expect(try RenderRequest(values: [(.penColor, "#c0392b80")]).overrides(of: signature).isEmpty)
    }

    @Test func theRequestRendersWhatItsRendererDraws() throws {
        let signature = try InkDecoder().decode(Data(contentsOf: Self.penFile)).signature
        let request = try RenderRequest(values: [(.width, "300"), (.format, "svg")])
        let direct = try request.render(signature)
        var options = request.options()
        options.box = OutputSize(width: 300, height: signature.canvas?.height ?? 150)
        #expect(direct == Array(try SignatureRenderer(options: options).svg(signature).utf8))
    }
}
