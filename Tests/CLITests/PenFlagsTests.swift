// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkRender
import Testing

/// The file's pen through the CLI: it wins without flags, a flag replaces it and says so, `info` lists it,
/// `convert` says what it drops, and a bad colour is a clear error.
@Suite struct PenFlagsTests {
    static let piece = TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1/Hello-World-1-06.json").path

    @Test func theFilesPenWinsWithoutFlags() throws {
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(["render", Self.piece, "--width", "600", "--height", "300", "-o", dir.path("a.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        let png = try DecodedPNG(Array(Data(contentsOf: URL(fileURLWithPath: dir.path("a.png")))))
        let colors = Set((0..<png.height).flatMap { y in (0..<png.width).map { png.pixel(x: $0, y: y) } }.filter { $0.alpha == 255 })
        #expect(colors.contains(Color(css: "crimson")!) && colors.contains(Color(css: "#1e88e5")!))
    }

    @Test func aPenFlagReplacesThePenAndSaysSo() throws {
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(["render", Self.piece, "-o", dir.path("a.png"), "--pen-color", "darkgreen", "--pen-width", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("--pen-color darkgreen replaces the pen colours the file records: #000000, #dc143c, #1e88e5"))
        #expect(r.stderr.contains("--pen-width replaces the pen widths"))
        let png = try DecodedPNG(Array(Data(contentsOf: URL(fileURLWithPath: dir.path("a.png")))))
        let colors = Set((0..<png.height).flatMap { y in (0..<png.width).map { png.pixel(x: $0, y: y) } }.filter { $0.alpha == 255 })
        #expect(colors == [Color(red: 0, green: 100, blue: 0)])
    }

    @Test func infoPrintsThePens() throws {
        let r = try CLIRunner.run(["info", Self.piece])
        #expect(r.status == 0)
        #expect(r.stdout.contains("pen 2: #dc143c, width 1...5 (signature_pad minWidth 0.5, maxWidth 2.5)"))
        #expect(r.stdout.contains("strokes 3-4"))
        let plain = try TemporaryDirectory()
        let file = try plain.write("n.json", #"{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,0]]]}"#)
        #expect(try CLIRunner.run(["info", file]).stdout.contains("pens: none recorded"))
    }

    @Test func infoSaysWhatAPenKeepsThatIsNotDrawn() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("chisel.json", ##"{"format":"signature-ink","version":1,"channels":["x","y","t"],"##
            + ##""pens":[{"color":"#1a237e","minWidth":2,"maxWidth":2,"tip":"rectangle"},"##
            + ##"{"color":"#000000","compositeOperation":"multiply"}],"strokes":[[[1,2,0],[9,2,8]],[[1,5,20],[9,5,28]]]}"##)
        let r = try CLIRunner.run(["info", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("pen 1: #1a237e, width 2, rectangle tip (drawn round), stroke 1"), "\(r.stdout)")
        #expect(r.stdout.contains("composite operation multiply (drawn as source-over), stroke 2"), "\(r.stdout)")
    }

    @Test func convertSaysWhatItDrops() throws {
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(["convert", Self.piece, "--to", "stroke-list", "-o", dir.path("s.json")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("a stroke list holds no pen"))
        let native = try CLIRunner.run(["convert", Self.piece, "--to", "native", "-o", dir.path("n.json")])
        #expect(native.stderr.isEmpty)
    }

    @Test func aBadColourNamesTheGroup() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("bad.json", #"[{"penColor":"bluish","points":[{"x":1,"y":2,"time":1,"pressure":0}]}]"#)
        let r = try CLIRunner.run(["render", file, "-o", dir.path("bad.png")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("[0].penColor: \"bluish\" is not a CSS colour"))
    }
}
