// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// The one-page PDF of a signature that is ink alone, written by the engine instead of through Cairo's PDF surface.
///
/// Ink alone is a few filled outlines in one or more colours over an optional background: no text, no decorations,
/// no eraser, and a render opacity that applies to one fill at most. Such a page needs nothing of Cairo but its
/// number printing, and that is where a new process spent its time: Cairo prints each coordinate through
/// `snprintf("%f")` and trims it (`_cairo_dtostr`), 1.76 M of the 4.81 M instructions of `render ... -o x.pdf`
/// (662 numbers at about 2,650 instructions each; callgrind). Here each point is rounded to whole thousandths of a
/// point, the precision Cairo prints, and written as an integer under a `cm` that scales them back and turns y down,
/// as SVG's writer does with its steps (``SVGPathData``): at most 0.0005 pt off per axis (Cairo's own points are
/// 1/256 pt steps, up to 0.002 pt off). The same render in a new process takes 2.30 M instructions instead of
/// 4.82 M, a batch of the benchmark signatures 2.37 M a file instead of 7.24 M (callgrind).
///
/// Anything else (text, decorations, erasers, a translucent group of several fills, a date that is not ISO 8601 in
/// UTC) returns `nil` and goes through Cairo (``PDFDocument``), which draws the same outlines.
///
/// The file: a catalog, a page tree with one page, its content stream (`/FlateDecode` at zlib's fastest level with
/// a small window, ``Flate/deflateSmall(_:)``), and an information dictionary with the creator and the dates,
/// followed by a classic cross-reference table. The same scene gives the same bytes.
enum InkPDF {
    /// The PDF of `scene` on a page of its box at `pointsPerUnit` points an output unit, or `nil` when the scene is
    /// more than ink alone.
    /// - Parameters:
    ///   - background: painted over the whole page first when not transparent.
    ///   - creationDate: creation and modification date, `yyyy-MM-ddTHH:mm:ssZ`.
    static func document(_ scene: Scene, pointsPerUnit: Double, background: Color,
                         creationDate: String) throws(RenderError) -> [UInt8]? {
        let d = scene.options.decorations
        guard !d.signatureLine, !d.xMark, (d.watermark ?? "").isEmpty, scene.timestamp == nil,
              let date = pdfDate(creationDate) else { return nil }
        let fills = scene.inkFills
        guard !fills.contains(where: \.erases), scene.options.opacity >= 1 || fills.count <= 1 else { return nil }
        let opacity = scene.options.opacity
        let width = scene.layout.width * pointsPerUnit, height = scene.layout.height * pointsPerUnit
        // A size PDF cannot hold is Cairo's path to refuse (``PDFDocument/addPage(width:height:_:)``).
        guard (1...14400).contains(width), (1...14400).contains(height) else { return nil }

        var content = ContentStream()
        content.bytes.reserveCapacity(scene.ink.path.elements.count * 20 + 64)
        content.append("0.001 0 0 -0.001 0 ")
        content.decimal(height)
        content.append(" cm\n")
        if background.alpha > 0 {
            content.paint(background)
            content.append("0 0 ")
            content.integer(Int((width * 1000).rounded()))
            content.append(" ")
            content.integer(Int((height * 1000).rounded()))
            content.append(" re f\n")
        }
        let scale = pointsPerUnit * 1000
        for fill in fills where !fill.elements.isEmpty {
            var color = fill.color
            if opacity < 1 { color.alpha = UInt8((Double(color.alpha) * opacity).rounded()) }
            content.paint(color)
            content.path(scene.vectorPath(of: fill.elements), scale: scale)
            content.append("f\n")
        }
        let stream = try Flate.deflateSmall(content.bytes)

        var file = FileWriter()
        file.append("%PDF-1.7\n%\u{B5}\u{B6}\n")
        file.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        file.object(2, "<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>")
        var page = ContentStream()
        page.append("<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 ")
        page.decimal(width)
        page.append(" ")
        page.decimal(height)
        page.append(" ] /Contents 4 0 R /Resources << ")
        if !content.alphas.isEmpty {
            page.append("/ExtGState << ")
            for alpha in content.alphas.sorted() {
                page.append("/a\(alpha) << /Type /ExtGState /CA ")
                page.decimal(Double(alpha) / 255)
                page.append(" /ca ")
                page.decimal(Double(alpha) / 255)
                page.append(" >> ")
            }
            page.append(">> ")
        }
        page.append(">> /Group << /Type /Group /S /Transparency /I true /CS /DeviceRGB >> >>")
        file.object(3, page.bytes)
        file.begin(4)
        file.append("<< /Length \(stream.count) /Filter /FlateDecode >>\nstream\n")
        file.bytes += stream
        file.append("\nendstream\nendobj\n")
        let software = SignatureRenderer.software
        file.object(5, "<< /Creator (\(software)) /Producer (\(software)) /CreationDate (\(date)) /ModDate (\(date)) >>")
        file.finish(root: 1, info: 5)
        return file.bytes
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` as a PDF date, `D:yyyyMMddHHmmssZ`, or `nil` for any other text.
    static func pdfDate(_ iso: String) -> String? {
        let b = Array(iso.utf8)
        guard b.count == 20, b[19] == UInt8(ascii: "Z") else { return nil }
        let separators: [(Int, UInt8)] = [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")),
                                          (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":"))]
        guard separators.allSatisfy({ b[$0.0] == $0.1 }) else { return nil }
        let digits = b[..<19].enumerated().filter { i, _ in !separators.contains { $0.0 == i } }.map(\.element)
        guard digits.count == 14, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return "D:" + String(decoding: digits, as: UTF8.self) + "Z"
    }

    /// Page content, and the object text around it, as bytes.
    struct ContentStream {
        var bytes: [UInt8] = []
        /// The fill colour and opacity set so far; `nil` before the first.
        private var color: Color?
        /// The opacities, 0...255, that ``paint(_:)`` set with `gs`: each is an `/ExtGState` of the page.
        private(set) var alphas: Set<UInt8> = []

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// Writes `n` in decimal.
        mutating func integer(_ n: Int) {
            // The digits are put together backwards in a buffer on the stack and appended at once: a page's
            // thousands of numbers then cost one capacity check each, not one a digit.
            var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: a sign and any 64-bit magnitude's digits
            withUnsafeMutableBytes(of: &buffer) { d in
                var m = n.magnitude, i = 24
                repeat {
                    i -= 1
                    d[i] = UInt8(truncatingIfNeeded: m % 10) &+ UInt8(ascii: "0")
                    m /= 10
                } while m > 0
                if n < 0 { i -= 1; d[i] = UInt8(ascii: "-") }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: d[i...]))
            }
        }

        /// Writes `v` with at most four decimals, trailing zeros dropped (`450`, `0.0075`, `12.5`).
        mutating func decimal(_ v: Double) {
            let ticks = Int((v * 10_000).rounded())
            if ticks < 0 { bytes.append(UInt8(ascii: "-")) }
            let m = Int(ticks.magnitude)
            integer(m / 10_000)
            var fraction = m % 10_000, places = 4
            guard fraction != 0 else { return }
            while fraction % 10 == 0 { fraction /= 10; places -= 1 }
            bytes.append(UInt8(ascii: "."))
            var divisor = [1, 10, 100, 1000][places - 1]
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                divisor /= 10
            }
        }

        /// Sets the fill colour and opacity for what follows, where they change.
        mutating func paint(_ c: Color) {
            if color.map({ ($0.red, $0.green, $0.blue) != (c.red, c.green, c.blue) }) ?? true {
                for channel in [c.red, c.green, c.blue] {
                    decimal(Double(channel) / 255)
                    bytes.append(UInt8(ascii: " "))
                }
                append("rg\n")
            }
            if (color?.alpha ?? 255) != c.alpha {
                alphas.insert(c.alpha)
                append("/a\(c.alpha) gs\n")
            }
            color = c
        }

        /// Writes `path` as `m`, `l`, `c` and `h` operators, each point `p` as the whole number
        /// `p * scale` (thousandths of a point); a line to where the path already is is left out.
        mutating func path(_ path: Path, scale: Double) {
            var current = (x: Int.min, y: Int.min)
            @inline(__always) func tick(_ v: Double) -> Int {
                // Non-finite or absurd coordinates cannot be written; pinned, the file stays valid.
                let t = (v * scale).rounded()
                return Int(t.isFinite ? Swift.max(-1e12, Swift.min(1e12, t)) : 0)
            }
            @inline(__always) func point(_ p: Point) -> (x: Int, y: Int) {
                let t = (x: tick(p.x), y: tick(p.y))
                integer(t.x); bytes.append(0x20)
                integer(t.y); bytes.append(0x20)
                return t
            }
            for element in path.elements {
                switch element {
                case let .move(p):
                    current = point(p)
                    bytes.append(UInt8(ascii: "m")); bytes.append(0x0a)
                case let .line(p):
                    let t = (x: tick(p.x), y: tick(p.y))
                    if t == current { continue }
                    current = point(p)
                    bytes.append(UInt8(ascii: "l")); bytes.append(0x0a)
                case let .cubic(a, b, p):
                    _ = point(a); _ = point(b)
                    current = point(p)
                    bytes.append(UInt8(ascii: "c")); bytes.append(0x0a)
                case .close:
                    bytes.append(UInt8(ascii: "h")); bytes.append(0x0a)
                }
            }
        }
    }

    /// A PDF file being written object by object, with each object's offset for the cross-reference table.
    struct FileWriter {
        var bytes: [UInt8] = []
        private var offsets: [Int] = []

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// Starts object `number`, which must be the next one.
        mutating func begin(_ number: Int) {
            precondition(number == offsets.count + 1, "objects are written in order")
            offsets.append(bytes.count)
            append("\(number) 0 obj\n")
        }

        mutating func object(_ number: Int, _ body: String) { object(number, Array(body.utf8)) }

        mutating func object(_ number: Int, _ body: [UInt8]) {
            begin(number)
            bytes += body
            append("\nendobj\n")
        }

        /// Writes the cross-reference table and the trailer.
        mutating func finish(root: Int, info: Int) {
            let start = bytes.count
            append("xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n")
            for offset in offsets {
                let digits = String(offset)
                append(String(repeating: "0", count: Swift.max(0, 10 - digits.count)) + digits + " 00000 n \n")
            }
            append("trailer\n<< /Size \(offsets.count + 1) /Root \(root) 0 R /Info \(info) 0 R >>\nstartxref\n\(start)\n%%EOF\n")
        }
    }
}
