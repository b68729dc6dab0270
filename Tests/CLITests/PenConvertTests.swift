// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats
import Testing

/// `convert` writes the pens of `Signature.pens`, and says on stderr what the target format cannot hold.
@Suite struct PenConvertTests {
    static let crimson = Color(red: 220, green: 20, blue: 60)

    /// A native file whose two strokes were given a crimson pen through the API, with signature_pad's model.
    static let crimsonNative = """
        {"format":"signature-ink","version":1,"startTime":1700000000000,\
        "pens":[{"color":"#dc143c","minWidth":1.4,"maxWidth":5.6,"model":"signaturePad","velocityFilterWeight":0.7},\
        {"color":"#dc143c","minWidth":1,"maxWidth":3,"dotWidth":2,"model":"signaturePad","velocityFilterWeight":0.5}],\
        "channels":["x","y","t"],"strokes":[
        [[10,20,0],[30,25,16],[50,22,32]],
        [[60,40,100],[80,45,116]]]}

        """

    @Test func aCrimsonPenReachesSignaturePadWithItsWidthsAndNoNote() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("native-file-with-a-crimson-pen.json", Self.crimsonNative)
        let r = try CLIRunner.run(["convert", input, "--to", "signature-pad", "-o", dir.path("out.json")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("note:"), "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.path("out.json")))
        let groups = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(groups.count == 2)
        // Named as a page names it, so signature_pad and a person reading the file see crimson.
        #expect(groups.map { $0["penColor"] as? String } == ["crimson", "crimson"])
        // signature_pad's widths are radii: half the pen's line widths.
        #expect(groups.map { $0["minWidth"] as? Double } == [0.7, 0.5])
        #expect(groups.map { $0["maxWidth"] as? Double } == [2.8, 1.5])
        #expect(groups.map { $0["dotSize"] as? Double } == [0, 1])
        #expect(groups.map { $0["velocityFilterWeight"] as? Double } == [0.7, 0.5])
        #expect(groups.map { $0["compositeOperation"] as? String } == ["source-over", "source-over"])

        // And back: the same pens.
        let back = try CLIRunner.run(["convert", dir.path("out.json"), "--to", "native", "-o", dir.path("back.json")])
        #expect(back.status == 0, "\(back.stderr)")
        let original = try NativeDecoder().decode(Data(Self.crimsonNative.utf8))
        let again = try NativeDecoder().decode(Data(contentsOf: URL(fileURLWithPath: dir.path("back.json"))))
        #expect(again.pens == original.pens)
    }

    @Test func aTargetThatCannotHoldThePenSaysWhatItDrops() throws {
        let dir = try TemporaryDirectory()
        // A crimson pen whose width follows pressure and speed, as the renderer's model has it.
        let pressurePen = Self.crimsonNative.replacingOccurrences(of: #","model":"signaturePad","velocityFilterWeight":0.7"#, with: "")
        let input = try dir.write("pressure.json", pressurePen)
        let pad = try CLIRunner.run(["convert", input, "--to", "signature-pad", "-o", dir.path("pad.json")])
        #expect(pad.status == 0, "\(pad.stderr)")
        #expect(pad.stderr.contains("note: ") && pad.stderr.contains("signature_pad JSON has no pressure or speed width model: stroke 1 "),
                "\(pad.stderr)")
        let list = try CLIRunner.run(["convert", input, "--to", "stroke-list", "-o", dir.path("list.json")])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.contains("a stroke list holds no pen"), "\(list.stderr)")
        let inkml = try CLIRunner.run(["convert", input, "--to", "inkml", "-o", dir.path("out.inkml")])
        #expect(inkml.status == 0 && !inkml.stderr.contains("note:"), "\(inkml.stderr)")
        let original = try NativeDecoder().decode(Data(pressurePen.utf8))
        let fromInkML = try InkDecoder().decode(Data(contentsOf: URL(fileURLWithPath: dir.path("out.inkml")))).signature
        #expect(fromInkML.pens == original.pens)
    }
}
