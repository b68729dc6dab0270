// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
@testable import SignatureInkRender
import Testing

/// Reference images under `Goldens/<feature>/<case>.png`, found through this file's path.
///
/// A render matches when at most `maxDifferingFraction` of its pixels differ from the golden by more than
/// `tolerance` in any channel (system Cairo versions anti-alias slightly differently). A missing golden, or
/// `RECORD_GOLDENS=1`, writes the render as the golden and fails, so a recorded image is always looked at
/// before it counts. A mismatch writes the render and a diff image (differing pixels red) to a temporary
/// directory named in the failure.
enum Golden {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens")

    static func check(_ png: [UInt8], feature: String, name: String, tolerance: Int = 32,
                      maxDifferingFraction: Double = 0.003, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = root.appendingPathComponent(feature).appendingPathComponent(name + ".png")
        let record = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
        guard !record, let stored = try? Data(contentsOf: url) else {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(png).write(to: url)
            Issue.record("recorded golden \(url.path); look at it and run again", sourceLocation: sourceLocation)
            return
        }
        let expected = try DecodedPNG(Array(stored)), actual = try DecodedPNG(png)
        guard expected.width == actual.width, expected.height == actual.height else {
            Issue.record("\(feature)/\(name): size \(actual.width)x\(actual.height), golden \(expected.width)x\(expected.height)",
                         sourceLocation: sourceLocation)
            return
        }
        var differing = 0
        var diff = [UInt8](repeating: 0, count: actual.rgba.count)
        for i in stride(from: 0, to: actual.rgba.count, by: 4) {
            var worst = 0
            for c in 0..<4 { worst = max(worst, abs(Int(actual.rgba[i + c]) - Int(expected.rgba[i + c]))) }
            if worst > tolerance {
                differing += 1
                diff[i] = 255; diff[i + 3] = 255
            } else {
                diff[i] = 128; diff[i + 1] = 128; diff[i + 2] = 128; diff[i + 3] = actual.rgba[i + 3] / 4
            }
        }
        let allowed = Int(Double(actual.width * actual.height) * maxDifferingFraction)
        if differing > allowed {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("signature-ink-goldens/\(feature)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(png).write(to: dir.appendingPathComponent(name + ".actual.png"))
            let diffPNG = try diff.withUnsafeBufferPointer {
                try LibPNGEncoder().encode(width: actual.width, height: actual.height, color: .rgba, pixels: $0,
                                           stride: actual.width * 4, metadata: PNGMetadata())
            }
            try Data(diffPNG).write(to: dir.appendingPathComponent(name + ".diff.png"))
            Issue.record("\(feature)/\(name): \(differing) pixels differ (allowed \(allowed)); see \(dir.path)",
                         sourceLocation: sourceLocation)
        }
    }
}

extension Golden {
    /// Compares text (an SVG document) with `Goldens/<feature>/<case>.svg` exactly: its coordinates are
    /// rounded, and the geometry is plain Swift arithmetic, the same on every machine.
    static func checkText(_ text: String, feature: String, name: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = root.appendingPathComponent(feature).appendingPathComponent(name + ".svg")
        let record = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
        guard !record, let stored = try? String(contentsOf: url, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded golden \(url.path); look at it and run again", sourceLocation: sourceLocation)
            return
        }
        if stored != text {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("signature-ink-goldens/\(feature)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try text.write(to: dir.appendingPathComponent(name + ".actual.svg"), atomically: true, encoding: .utf8)
            let a = stored.split(separator: "\n"), b = text.split(separator: "\n")
            let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            Issue.record("\(feature)/\(name).svg differs from line \(line + 1); see \(dir.path)", sourceLocation: sourceLocation)
        }
    }
}

/// What `pdfinfo` and `pdftoppm` (poppler-utils, installed by `make deps`) say about a PDF.
struct PDFInspection {
    var pages: Int
    /// Each page's size in points.
    var pageSizes: [(width: Double, height: Double)]
    /// The `CreationDate` line, as pdfinfo prints it.
    var creationDate: String?

    init(_ pdf: [UInt8]) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString).pdf")
        try Data(pdf).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let summary = try Self.run("pdfinfo", [file.path])
        let count = summary.split(separator: "\n").first { $0.hasPrefix("Pages:") }
            .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        guard let count else { throw InspectionError(message: "pdfinfo printed no page count:\n\(summary)") }
        pages = count
        creationDate = summary.split(separator: "\n").first { $0.hasPrefix("CreationDate:") }
            .map { $0.dropFirst(13).trimmingCharacters(in: .whitespaces) }
        let sizes = try Self.run("pdfinfo", ["-f", "1", "-l", String(count), file.path])
        pageSizes = sizes.split(separator: "\n").filter { $0.hasPrefix("Page ") && $0.contains(" size:") }.compactMap { line in
            // "Page    1 size: 450 x 225 pts"
            let parts = line.split(separator: ":", maxSplits: 1)[1].split(separator: " ")
            guard parts.count >= 3, let w = Double(parts[0]), let h = Double(parts[2]) else { return nil }
            return (w, h)
        }
    }

    /// Rasterises one page at `dpi` with pdftoppm, over white.
    static func rasterize(_ pdf: [UInt8], page: Int = 1, dpi: Int = 96) throws -> DecodedPNG {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("in.pdf")
        try Data(pdf).write(to: file)
        _ = try run("pdftoppm", ["-f", String(page), "-l", String(page), "-r", String(dpi), "-png", "-singlefile",
                                 file.path, dir.appendingPathComponent("out").path])
        return try DecodedPNG(Array(Data(contentsOf: dir.appendingPathComponent("out.png"))))
    }

    struct InspectionError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    static func run(_ tool: String, _ arguments: [String]) throws -> String { try ExternalTool.run(tool, arguments) }
}

/// Reads back what ``SVGWriter`` writes: the `<path>` elements and their data, as absolute polylines.
struct SVGInspection {
    var text: String
    /// Each `<path>` in order: its `d` attribute, and the scale its numbers are drawn at (its own `scale(...)`
    /// transform times those of the groups around it).
    var paths: [(data: String, scale: Double)] = []
    /// The `d` attribute of each `<path>`, in order.
    var pathData: [String] { paths.map(\.data) }
    /// The `viewBox` numbers.
    var viewBox: [Double]

    init(_ text: String) {
        self.text = text
        var groups: [Double] = [1]
        for tag in text.split(separator: "<").dropFirst() {
            let name = tag.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            let scale = groups[groups.count - 1] * (Self.attribute("transform", in: tag).map(Self.scale) ?? 1)
            if tag.hasPrefix("/g") {
                groups.removeLast()
            } else if name == "g" {
                groups.append(scale)
            } else if name == "path", let d = Self.attribute("d", in: tag) {
                paths.append((String(d), scale))
            }
        }
        viewBox = Self.attribute("viewBox", in: Substring(text)).map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
    }

    /// The sub-paths of every `<path>` in document units, cubics flattened into `segments` lines each.
    func polylines(segments: Int = 16) -> [[Point]] {
        paths.flatMap { path in Self.polylines(path.data, segments: segments).map { $0.map { $0 * path.scale } } }
    }

    /// The value of ` name="..."` in a tag, if it has one.
    private static func attribute(_ name: String, in tag: Substring) -> Substring? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { rest[..<$0] }
    }

    /// The factor of a `scale(s)` transform; NaN for any other transform, so a test cannot pass over it.
    private static func scale(_ transform: Substring) -> Double {
        guard transform.hasPrefix("scale("), transform.hasSuffix(")") else { return .nan }
        return Double(transform.dropFirst(6).dropLast()) ?? .nan
    }

    /// The sub-paths of relative or absolute path data, cubics flattened into `segments` lines each.
    static func polylines(_ d: String, segments: Int = 16) -> [[Point]] {
        var tokens: [String] = []
        var current = ""
        func flush() { if !current.isEmpty { tokens.append(current); current = "" } }
        for ch in d {
            if ch.isLetter { flush(); tokens.append(String(ch)) }
            else if ch == " " || ch == "," { flush() }
            else if ch == "-" { flush(); current.append(ch) }
            else if ch == "." && current.contains(".") { flush(); current.append(ch) }
            else { current.append(ch) }
        }
        flush()
        var result: [[Point]] = []
        var p = Point.zero, start = Point.zero
        var command: Character = "m"
        var i = 0
        func num() -> Double { defer { i += 1 }; return Double(tokens[i]) ?? .nan }
        while i < tokens.count {
            if let c = tokens[i].first, c.isLetter { command = c; i += 1; if c == "z" || c == "Z" { p = start; result[result.count - 1].append(p); continue } }
            let relative = command.isLowercase
            let base = relative ? p : .zero
            switch command.lowercased() {
            case "m":
                p = base + Point(num(), num()); start = p; result.append([p])
                command = relative ? "l" : "L"
            case "l": p = base + Point(num(), num()); result[result.count - 1].append(p)
            case "h": p = Point((relative ? p.x : 0) + num(), p.y); result[result.count - 1].append(p)
            case "v": p = Point(p.x, (relative ? p.y : 0) + num()); result[result.count - 1].append(p)
            case "c":
                let a = base + Point(num(), num()), b = base + Point(num(), num()), e = base + Point(num(), num())
                let s = p
                for k in 1...segments {
                    let t = Double(k) / Double(segments), u = 1 - t
                    let q = s * (u * u * u) + a * (3 * u * u * t) + b * (3 * u * t * t) + e * (t * t * t)
                    result[result.count - 1].append(q)
                }
                p = e
            default: return result
            }
        }
        return result
    }
}

extension Path {
    /// The sub-paths as polylines, cubics flattened into `segments` lines each.
    func flattened(segments: Int) -> [[Point]] {
        var result: [[Point]] = []
        var p = Point.zero, start = Point.zero
        for e in elements {
            switch e {
            case let .move(q): p = q; start = q; result.append([q])
            case let .line(q): p = q; result[result.count - 1].append(q)
            case let .cubic(a, b, e):
                let s = p
                for k in 1...segments {
                    let t = Double(k) / Double(segments), u = 1 - t
                    result[result.count - 1].append(s * (u * u * u) + a * (3 * u * u * t) + b * (3 * u * t * t) + e * (t * t * t))
                }
                p = e
            case .close: p = start; result[result.count - 1].append(start)
            }
        }
        return result
    }

    /// Every end point of the path's commands, in order.
    var endPoints: [Point] {
        elements.compactMap {
            switch $0 {
            case let .move(p), let .line(p), let .cubic(_, _, p): p
            case .close: nil
            }
        }
    }
}

/// Signatures the render tests share.
enum Fixtures {
    /// Two strokes crossing at (50, 25) on a 100 x 50 canvas: an X.
    static let cross = Signature(
        strokes: [[InkSample(x: 20, y: 10, t: 0), InkSample(x: 80, y: 40, t: 50)],
                  [InkSample(x: 20, y: 40, t: 400), InkSample(x: 80, y: 10, t: 450)]],
        canvas: Canvas(width: 100, height: 50), startTime: 1_735_560_000_000)

    /// A sample file from `SampleStrokes/`.
    static func sample(_ name: String) throws -> Signature {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleStrokes/\(name).json")
        return try SignatureInkFormats.NativeDecoder().decode(Data(contentsOf: url))
    }
}
