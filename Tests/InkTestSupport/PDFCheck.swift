// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What poppler and qpdf read from a PDF.
public enum PDFCheck {
    /// `qpdf --check`'s verdict: `nil` when it found no problem, else what it printed.
    public static func qpdfProblems(_ pdf: [UInt8]) throws -> String? {
        try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { path in
            let out = try ExternalTool.run("qpdf", ["--check", path], allowFailure: true)
            return out.contains("No syntax or stream encoding errors found") && !out.contains("WARNING") ? nil : out
        }
    }

    /// The text pdftotext reads, in reading order.
    public static func text(_ pdf: [UInt8], page: Int? = nil) throws -> String {
        try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { path in
            let range = page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []
            return try ExternalTool.run("pdftotext", range + [path, "-"])
        }
    }

    /// Every font pdffonts lists: name, whether embedded, whether a subset.
    public static func fonts(_ pdf: [UInt8]) throws -> [(name: String, embedded: Bool, subset: Bool)] {
        try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { path in
            try ExternalTool.run("pdffonts", [path]).split(separator: "\n").dropFirst(2).map { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                // name type... emb sub uni object-number generation
                let n = fields.count
                return (String(fields[0]), fields[n - 5] == "yes", fields[n - 4] == "yes")
            }
        }
    }

    /// The images pdfimages lists.
    public static func imageCount(_ pdf: [UInt8]) throws -> Int {
        try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { path in
            try ExternalTool.run("pdfimages", ["-list", path]).split(separator: "\n").count - 2
        }
    }

    /// The number of pages.
    public static func pages(_ pdf: [UInt8]) throws -> Int {
        try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { path in
            let info = try ExternalTool.run("pdfinfo", [path])
            let line = info.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
        }
    }

    /// Each word of a page with its box in points from the page's top left.
    public static func words(_ pdf: [UInt8], page: Int) throws -> [(text: String, minX: Double, minY: Double, maxX: Double, maxY: Double)] {
        try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { path in
            let html = try ExternalTool.run("pdftotext", ["-bbox", "-f", "\(page)", "-l", "\(page)", path, "-"])
            return html.components(separatedBy: "<word ").dropFirst().compactMap { item in
                func attribute(_ name: String) -> Double? {
                    guard let r = item.range(of: name + "=\"") else { return nil }
                    return Double(item[r.upperBound...].prefix { $0 != "\"" })
                }
                guard let x0 = attribute("xMin"), let y0 = attribute("yMin"), let x1 = attribute("xMax"), let y1 = attribute("yMax"),
                      let open = item.firstIndex(of: ">"), let close = item.range(of: "</word>") else { return nil }
                return (String(item[item.index(after: open)..<close.lowerBound]), x0, y0, x1, y1)
            }
        }
    }

    /// A page rasterised by pdftoppm at 72 dpi (a pixel a point), as rows of RGB pixels.
    public static func raster(_ pdf: [UInt8], page: Int) throws -> (width: Int, height: Int, pixel: @Sendable (Int, Int) -> (Int, Int, Int)) {
        try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { path in
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("raster-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = dir.appendingPathComponent("page").path
            _ = try ExternalTool.run("pdftoppm", ["-f", "\(page)", "-l", "\(page)", "-r", "72", "-singlefile", path, base])
            // Binary PPM: "P6\n<w> <h>\n255\n" then RGB bytes.
            let data = Array(try Data(contentsOf: URL(fileURLWithPath: base + ".ppm")))
            var fields: [Int] = [], k = 2, current = 0, inNumber = false
            while fields.count < 3, k < data.count {
                let c = data[k]
                if c >= 48 && c <= 57 { current = current * 10 + Int(c - 48); inNumber = true }
                else if inNumber { fields.append(current); current = 0; inNumber = false }
                k += 1
            }
            let (w, h) = (fields[0], fields[1])
            let pixels = Array(data[k...])
            return (w, h, { x, y in let i = (y * w + x) * 3; return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2])) })
        }
    }
}
