// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats
import Testing

/// The pens each format records, as ``Signature/pens``.
@Suite struct PenDecodingTests {
    static func group(_ settings: String, x: Int = 1) -> String {
        #"{"# + settings + #""points":[{"x":\#(x),"y":2,"time":1700000000000,"pressure":0},{"x":\#(x + 9),"y":2,"time":1700000000016,"pressure":0}]}"#
    }

    @Test func signaturePadGroupsBecomePens() throws {
        let json = "[" + [Self.group(#""penColor":"rgb(13, 26, 102)","minWidth":0.7,"maxWidth":2.8,"#),
                          Self.group(#""penColor":"crimson","dotSize":3,"velocityFilterWeight":0.3,"#),
                          Self.group(#""penColor":"black","minWidth":6,"maxWidth":10,"compositeOperation":"destination-out","#)]
            .joined(separator: ",") + "]"
        let s = try InkDecoder().decode(Data(json.utf8)).signature
        #expect(s.pens.count == 3)
        #expect(s.pens[0] == .signaturePad(color: Color(red: 13, green: 26, blue: 102), minWidth: 0.7, maxWidth: 2.8,
                                           dotSize: 0, velocityFilterWeight: 0.7, erases: false))
        #expect(s.pens[0].minWidth == 1.4 && s.pens[0].maxWidth == 5.6)  // line widths: twice the radii
        #expect(s.pens[1].color == Color(red: 220, green: 20, blue: 60) && s.pens[1].dotWidth == 6)
        #expect(s.pens[1].widthModel == .signaturePad(velocityFilterWeight: 0.3))
        #expect(s.pens[2].blend == .erase && s.pens[0].blend == .normal)
    }

    @Test func aBadPenColourNamesItsGroup() {
        let json = "[" + Self.group(#""penColor":"black","#) + "," + Self.group(#""penColor":"blackish","#) + "]"
        guard case let .field(path, message)? = decodeError(Data(json.utf8)) else {
            Issue.record("expected a field error")
            return
        }
        #expect(path == "[1].penColor")
        #expect(message.contains("blackish") && message.contains("not a CSS colour"))
    }

    @Test func anUnknownCompositeOperationIsDrawnOverAndSaid() throws {
        let json = "[" + Self.group(#""compositeOperation":"multiply","#) + "]"
        let result = try InkDecoder().decode(Data(json.utf8))
        #expect(result.signature.pens.first?.blend == .normal)
        #expect(result.signature.pens.first?.compositeOperation == "multiply")
        #expect(result.assumptions.contains { $0.contains("multiply") })
    }

    @Test func inkMLBrushesGiveColourWidthAndTransparency() throws {
        let xml = """
            <ink><definitions><brush xml:id="b"><brushProperty name="color" value="hsl(120, 100%, 25%)"/>\
            <brushProperty name="width" value="2" units="mm"/><brushProperty name="transparency" value="51"/>\
            <brushProperty name="tip" value="rectangle"/></brush></definitions>\
            <traceFormat><channel name="X"/><channel name="Y"/></traceFormat>\
            <trace brushRef="#b">0 0, 10 10</trace><trace>5 5, 9 9</trace></ink>
            """
        let result = try InkDecoder().decode(Data(xml.utf8))
        let pen = try #require(result.signature.pens.first)
        #expect(pen.color == Color(red: 0, green: 128, blue: 0, alpha: 204))
        #expect(abs((pen.maxWidth ?? 0) - 2 * 96 / 25.4) < 1e-9 && pen.minWidth == pen.maxWidth)
        #expect(pen.tip == .rectangle)
        // The trace without a brush has InkML's default one.
        #expect(result.signature.pens.count == 2 && result.signature.pens[1] == Pen())
        #expect(result.assumptions.contains { $0.contains("tip") })
        // Through InkML again: the same pens.
        let back = try InkDecoder().decode(InkEncoder().encode(result.signature, as: .inkml)).signature
        #expect(back.pens == result.signature.pens)
    }

    @Test func aContextsBrushDrawsItsTraces() throws {
        let xml = """
            <ink><definitions><context xml:id="c"><brush xml:id="b"><brushProperty name="color" value="navy"/>\
            </brush><traceFormat><channel name="X"/><channel name="Y"/></traceFormat></context></definitions>\
            <traceGroup contextRef="#c"><trace>0 0, 10 10</trace></traceGroup></ink>
            """
        let s = try InkDecoder().decode(Data(xml.utf8)).signature
        #expect(s.pens == [.constant(color: Color(red: 0, green: 0, blue: 128), width: nil)])
    }

    @Test func aBadBrushColourIsAnErrorAtTheBrush() {
        let xml = ##"<ink><brush xml:id="pen1"><brushProperty name="color" value="#12"/></brush><trace brushRef="#pen1">0 0, 1 1</trace></ink>"##
        guard case let .syntax(line, _, message)? = decodeError(Data(xml.utf8)) else {
            Issue.record("expected an error with a position")
            return
        }
        #expect(line == 1)
        #expect(message.contains("pen1") && message.contains("#12"))
    }

    @Test func wacomStrokesGetTheirStyleColourAndSize() throws {
        let s = try InkDecoder().decode(TestFiles.realInk("wacom-uim", "Cell-Structure-1.json")).signature
        #expect(s.pens.count == s.strokeCount)
        let grey = Color(red: 74, green: 74, blue: 74)
        #expect(s.pens.first == Pen.constant(color: grey.withOpacity(0.7), width: 3.4))
        #expect(s.pens.contains { $0 == Pen.constant(color: grey, width: nil) })
        #expect(!s.metadata.keys.contains { $0.hasPrefix("pen.") })
    }

    @Test func nativeKeepsEveryPen() throws {
        var s = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0), InkSample(x: 5, y: 5, t: 8)], [InkSample(x: 9, y: 1, t: 20)]])
        s.pens = [.signaturePad(color: Color(red: 1, green: 2, blue: 3, alpha: 4), minWidth: 1, maxWidth: 4, dotSize: 2,
                                velocityFilterWeight: 0.3, erases: true),
                  .constant(color: .white, width: 2.5)]
        let back = try InkDecoder().decode(InkEncoder().encode(s, as: .native)).signature
        #expect(back == s)
    }

    @Test(arguments: [
        (#""pens":[{"color":"nope"}],"#, "pens[0].color"),
        (#""pens":[{"minWidth":0}],"#, "pens[0].minWidth"),
        (#""pens":[{"minWidth":3,"maxWidth":2}],"#, "pens[0].minWidth"),
        (#""pens":[{"model":"brush"}],"#, "pens[0].model"),
        (#""pens":[{"model":"signaturePad","velocityFilterWeight":2}],"#, "pens[0].velocityFilterWeight"),
        (#""pens":[{"blend":"multiply"}],"#, "pens[0].blend"),
        (#""pens":[{"tip":"round"}],"#, "pens[0].tip"),
        (#""pens":[{"compositeOperation":""}],"#, "pens[0].compositeOperation"),
        (#""pens":[{},{}],"#, "pens"),
    ])
    func nativeRefusesABadPen(_ pens: String, _ path: String) {
        let json = #"{"format":"signature-ink","version":1,"# + pens + #""channels":["x","y","t"],"strokes":[[[1,2,0]]]}"#
        guard case let .field(found, _)? = decodeError(Data(json.utf8)) else {
            Issue.record("expected a field error for \(pens)")
            return
        }
        #expect(found == path)
    }

    @Test func conversionSaysWhatItDrops() throws {
        let json = "[" + Self.group(#""penColor":"navy","compositeOperation":"destination-out","#) + "]"
        let s = try InkDecoder().decode(Data(json.utf8)).signature
        #expect(InkFormat.native.penLosses(of: s).isEmpty)
        #expect(InkFormat.signaturePad.penLosses(of: s).isEmpty)
        #expect(InkFormat.inkml.penLosses(of: s).isEmpty)
        #expect(!InkFormat.strokeList.penLosses(of: s).isEmpty)
        let uim = try InkDecoder().decode(TestFiles.realInk("wacom-uim", "Cell-Structure-1.json")).signature
        #expect(InkFormat.signaturePad.penLosses(of: uim).contains { $0.contains("width") })
        #expect(InkFormat.inkml.penLosses(of: uim).isEmpty)
        // The constant width goes to signature_pad as equal radii, the colour as CSS text.
        let pad = try InkDecoder().decode(InkEncoder().encode(uim, as: .signaturePad)).signature
        #expect(pad.pens.first?.minWidth == 3.4 && pad.pens.first?.maxWidth == 3.4)
        #expect(pad.pens.map(\.color) == uim.pens.map(\.color))
    }
}
