// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import Testing

/// A stroke's pen lives in `Signature.pens` only: a pen set through the API is what every encoder writes, survives
/// every format that can hold it, and a format that cannot says what it drops.
@Suite struct PenRoundTripTests {
    static let crimson = Color(red: 220, green: 20, blue: 60)

    /// A signature of one three-sample stroke per pen, drawn with those pens.
    static func signature(_ pens: [Pen]) -> Signature {
        var s = Signature(strokes: pens.indices.map { i in
            let x = Double(i) * 40
            return [InkSample(x: x, y: 10, t: Double(i) * 100), InkSample(x: x + 12, y: 18, t: Double(i) * 100 + 16),
                    InkSample(x: x + 30, y: 14, t: Double(i) * 100 + 32)]
        }, startTime: 1_700_000_000_000)
        s.pens = pens
        return s
    }

    /// Pens signature_pad can hold: its width model with both widths, a dot width or none, an eraser, another
    /// composite operation, a translucent colour.
    static let signaturePadPens: [Pen] = {
        var multiply = Pen.signaturePad(color: Color(red: 30, green: 136, blue: 229), minWidth: 0.25, maxWidth: 3,
                                        dotSize: 0, velocityFilterWeight: 1, erases: false)
        multiply.compositeOperation = "multiply"
        return [
            Pen(color: crimson, minWidth: 1.4, maxWidth: 5.6, dotWidth: 3, widthModel: .signaturePad(velocityFilterWeight: 0.3)),
            Pen(color: Color(red: 192, green: 57, blue: 43, alpha: 128), minWidth: 2, maxWidth: 2,
                widthModel: .signaturePad(velocityFilterWeight: 0.7)),
            Pen(color: .black, minWidth: 12, maxWidth: 20, widthModel: .signaturePad(velocityFilterWeight: 0), blend: .erase),
            multiply,
        ]
    }()

    /// Pens signature_pad cannot hold: a constant width, widths that follow pressure, no widths at all, a
    /// rectangular tip.
    static let otherPens: [Pen] = [
        .constant(color: Color(red: 0, green: 0, blue: 128), width: 2.5),
        Pen(color: Color(red: 0, green: 100, blue: 0, alpha: 191), minWidth: 1, maxWidth: 6),
        Pen(color: crimson),
        Pen(color: Color(red: 26, green: 35, blue: 126, alpha: 204), minWidth: 3, maxWidth: 3, dotWidth: 3, tip: .rectangle),
        Pen(minWidth: 0.5, maxWidth: 4, dotWidth: 1, compositeOperation: "xor"),
    ]

    static func roundTrip(_ s: Signature, _ format: InkFormat) throws -> Signature {
        try InkDecoder().decode(InkEncoder().encode(s, as: format), as: format).signature
    }

    @Test(arguments: [InkFormat.native, .inkml, .signaturePad])
    func signaturePadPensSetThroughTheAPISurvive(format: InkFormat) throws {
        let s = Self.signature(Self.signaturePadPens)
        #expect(format.penLosses(of: s).isEmpty)
        #expect(try Self.roundTrip(s, format).pens == s.pens)
    }

    @Test(arguments: [InkFormat.native, .inkml])
    func everyPenSurvivesNativeAndInkML(format: InkFormat) throws {
        let s = Self.signature(Self.otherPens + Self.signaturePadPens)
        #expect(format.penLosses(of: s).isEmpty)
        let back = try Self.roundTrip(s, format)
        #expect(back.pens == s.pens)
        #expect(back.withoutPens == s.withoutPens)
    }

    @Test func aPenChangedThroughTheAPIIsTheOneWritten() throws {
        let json = #"[{"penColor":"black","points":[{"x":1,"y":2,"time":1700000000000},{"x":9,"y":4,"time":1700000000016}]}]"#
        var s = try InkDecoder().decode(Data(json.utf8)).signature
        s.pens[0].color = Self.crimson
        s.pens[0].minWidth = 3
        s.pens[0].maxWidth = 7
        s.pens[0].dotWidth = 4
        let text = String(decoding: try InkEncoder().encode(s, as: .signaturePad), as: UTF8.self)
        #expect(text.contains(##""penColor":"crimson","dotSize":2,"minWidth":1.5,"maxWidth":3.5,"velocityFilterWeight":0.7,"compositeOperation":"source-over""##))
        for format in [InkFormat.native, .inkml, .signaturePad] {
            #expect(try Self.roundTrip(s, format).pens == s.pens, "\(format)")
        }
    }

    @Test func signaturePadSaysWhatItCannotHold() throws {
        let s = Self.signature(Self.otherPens)
        let losses = InkFormat.signaturePad.penLosses(of: s)
        #expect(losses.contains { $0.contains("constant pen width") && $0.contains("strokes 1, 4 ") })
        #expect(losses.contains { $0.contains("pressure or speed") && $0.contains("strokes 2-3, 5 ") })
        #expect(losses.contains { $0.contains("both widths") && $0.contains("stroke 3 ") })
        #expect(losses.contains { $0.contains("tip") && $0.contains("stroke 4 ") })
        let back = try Self.roundTrip(s, .signaturePad)
        // What it holds comes back: colours, and widths where the pen has both.
        #expect(back.pens.map(\.color) == s.pens.map(\.color))
        for (pen, read) in zip(s.pens, back.pens) where pen.minWidth != nil && pen.maxWidth != nil {
            #expect(read.minWidth == pen.minWidth && read.maxWidth == pen.maxWidth)
        }
        #expect(back.pens[4].blend == .normal && back.pens[4].compositeOperation == "xor")
        #expect(InkFormat.strokeList.penLosses(of: s) == ["a stroke list holds no pen: the recorded colours and widths are dropped"])
        #expect(try Self.roundTrip(s, .strokeList).pens.isEmpty)
    }

    @Test func aSignatureWithoutPensGetsNoneAndLosesNone() throws {
        let s = Self.signature([])
        for format in InkFormat.allCases where format.canEncode {
            #expect(format.penLosses(of: s).isEmpty, "\(format)")
        }
        let plain = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0), InkSample(x: 4, y: 4, t: 8)]])
        for format in [InkFormat.native, .inkml, .strokeList] {
            #expect(try Self.roundTrip(plain, format).pens.isEmpty, "\(format)")
        }
    }

    @Test func inkMLWritesStandardBrushPropertiesAndThePenOnlyWhenTheyFallShort() throws {
        let s = Self.signature([.constant(color: Color(red: 0, green: 0, blue: 128, alpha: 205), width: 2.5),
                                Self.signaturePadPens[0]])
        let text = String(decoding: try InkEncoder().encode(s, as: .inkml), as: UTF8.self)
        #expect(text.contains(##"<brush xml:id="br0"><brushProperty name="color" value="#000080"/><brushProperty name="transparency" value="50"/><brushProperty name="width" value="2.5"/></brush>"##))
        #expect(text.contains(##"<brush xml:id="br1"><brushProperty name="color" value="#dc143c"/><brushProperty name="width" value="3.5"/><brushProperty name="signature-ink:pen" value="{&quot;color&quot;:&quot;#dc143c&quot;,&quot;minWidth&quot;:1.4"##))
        #expect(!text.contains("annotation"))
    }

    @Test func aFractionalInkMLTransparencyIsRoundedAndSaid() throws {
        func read(_ transparency: String) throws -> DecodeResult {
            let xml = "<ink><brush xml:id='b'><brushProperty name='transparency' value='\(transparency)'/></brush>"
                + "<trace brushRef='#b'>0 0, 10 10</trace></ink>"
            return try InkDecoder().decode(Data(xml.utf8))
        }
        let whole = try read("51")
        #expect(whole.signature.pens.first?.color.alpha == 204)
        #expect(!whole.assumptions.contains { $0.contains("transparency") })
        let fraction = try read("51.4")
        #expect(fraction.signature.pens.first?.color.alpha == 204)
        #expect(fraction.assumptions.contains { $0.contains("transparency") && $0.contains("rounded") })
    }

    @Test(arguments: [
        (#"<brushProperty name="tip" value="triangle"/>"#, "triangle"),
        (#"<brushProperty name="signature-ink:pen" value="{&quot;minWidth&quot;:-1}"/>"#, "minWidth"),
        (#"<brushProperty name="signature-ink:pen" value="{"/>"#, "signature-ink:pen"),
    ])
    func aBadInkMLBrushPropertyIsAnErrorAtIt(_ property: String, _ named: String) {
        let xml = "<ink><brush xml:id=\"b\">\(property)</brush>\n<trace brushRef=\"#b\">0 0, 1 1</trace></ink>"
        guard case let .syntax(line, _, message)? = decodeError(Data(xml.utf8), as: .inkml) else {
            Issue.record("expected an error with a position for \(property)")
            return
        }
        #expect(line == 1)
        #expect(message.contains(named))
    }

    @Test func nativeWritesAPenWithoutTheNewMembersAsBefore() throws {
        var s = Self.signature([Self.signaturePadPens[0], Self.signaturePadPens[2]])
        let text = String(decoding: try InkEncoder().encode(s, as: .native), as: UTF8.self)
        #expect(text.contains(##""pens":[{"color":"#dc143c","minWidth":1.4,"maxWidth":5.6,"dotWidth":3,"model":"signaturePad","velocityFilterWeight":0.3},{"color":"#000000","minWidth":12,"maxWidth":20,"model":"signaturePad","velocityFilterWeight":0,"blend":"erase"}]"##))
        s.pens[0].tip = .rectangle
        s.pens[1].compositeOperation = "multiply"
        let more = String(decoding: try InkEncoder().encode(s, as: .native), as: UTF8.self)
        #expect(more.contains(#""velocityFilterWeight":0.3,"tip":"rectangle"}"#))
        #expect(more.contains(#""blend":"erase","compositeOperation":"multiply"}"#))
    }

    // MARK: Stored recordings

    /// Every stored real recording and fixture whose format records pens.
    static func recordingsWithPens() throws -> [URL] {
        let real = try ["signature-pad", "signature-pad-chromium/dpr1", "signature-pad-chromium/dpr2", "wacom-uim"]
            .flatMap { try TestFiles.realInk($0) }
            .filter { !$0.lastPathComponent.hasSuffix(".options.json") }
        let fixtures = ["inkml-difference-coded.inkml", "inkml-inksource-context.inkml"]
            .map { TestFiles.fixtures.appendingPathComponent($0) }
        return real + fixtures
    }

    @Test func everyRecordingWithPensKeepsThemWhereTheFormatCanAndSaysWhereItCannot() throws {
        let files = try Self.recordingsWithPens()
        #expect(files.count == 2 + 18 + 5 + 2)
        for url in files {
            let name = url.lastPathComponent
            let original = try InkDecoder().decode(Data(contentsOf: url))
            let s = original.signature
            #expect(!s.pens.isEmpty, "\(name) records pens")
            // signature_pad's own pens go back to signature_pad whole; other formats' constant pens do not.
            #expect(InkFormat.signaturePad.penLosses(of: s).isEmpty == (original.format == .signaturePad), "\(name)")
            for format in InkFormat.allCases where format.canEncode {
                let losses = format.penLosses(of: s)
                let back = try Self.roundTrip(s, format)
                // The pens come back exactly when, and only when, nothing is said to be lost.
                #expect((back.pens == s.pens) == losses.isEmpty, "\(name) through \(format): \(losses)")
                if format != .strokeList {
                    #expect(back.pens.map(\.color) == s.pens.map(\.color), "\(name) colours through \(format)")
                    #expect(back.pens.map(\.blend) == s.pens.map(\.blend), "\(name) erasers through \(format)")
                }
            }
        }
    }
}
