// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInk
import SignatureInkFormats

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print strokes, samples, duration, bounds and sampling rate of a stroke file.")

    @Argument(help: "A stroke file.")
    var input: String

    @OptionGroup var options: InputOptions

    func run() throws {
        let result: DecodeResult
        do {
            result = try options.loader.read(input)
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode.failure
        }
        print(Self.summary(of: result.signature, name: input, format: result.format))
        for note in result.assumptions { print("assumed: \(note)") }
    }

    static func summary(of s: Signature, name: String, format: InkFormat) -> String {
        func f(_ v: Double) -> String { formatted("%.1f", v) }
        var lines = ["file: \(name)", "format: \(format.displayName)", "strokes: \(s.strokeCount)", "samples: \(s.samples.count)",
                     "duration: \(f(s.duration)) ms"]
        if let b = s.bounds {
            lines.append("bounds: x \(f(b.minX))...\(f(b.maxX)), y \(f(b.minY))...\(f(b.maxY)) (\(f(b.width)) x \(f(b.height)))")
        } else {
            lines.append("bounds: none")
        }
        lines.append("sampling rate: " + (s.samplingRate.map { "\(f($0)) Hz" } ?? "unknown"))
        lines.append("pressure: " + (s.hasPressure ? "yes" : "no"))
        if let c = s.canvas {
            lines.append("canvas: \(f(c.width)) x \(f(c.height)) at \(f(c.unitsPerInch)) units per inch")
        }
        if let start = s.startTime {
            let date = Date(timeIntervalSince1970: start / 1000)
            lines.append("started: " + date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true)))
        }
        lines.append(contentsOf: penLines(of: s))
        for (k, v) in s.metadata.sorted(by: { $0.key < $1.key }) { lines.append("\(k): \(v)") }
        return lines.joined(separator: "\n")
    }

    /// One line per distinct pen with the strokes that use it, such as
    /// `pen 1: #0d1a66, width 1.4...5.6, signature_pad velocity model (filter 0.7), strokes 1-6`; `pens: none
    /// recorded` when the file records none.
    static func penLines(of s: Signature) -> [String] {
        guard !s.pens.isEmpty else { return ["pens: none recorded (drawn with the render options' pen)"] }
        var distinct: [Pen] = []
        var strokes: [[Int]] = []
        for (i, pen) in s.pens.enumerated() {
            if let k = distinct.firstIndex(of: pen) { strokes[k].append(i + 1) } else { distinct.append(pen); strokes.append([i + 1]) }
        }
        func n(_ v: Double) -> String { formatted("%g", v) }
        /// What the pen keeps that the renderer does not draw: a rectangular tip, a composite operation.
        func kept(_ pen: Pen) -> [String] {
            var parts: [String] = []
            if pen.tip == .rectangle { parts.append("rectangle tip (drawn round)") }
            if let operation = pen.compositeOperation { parts.append("composite operation \(operation) (drawn as source-over)") }
            return parts
        }
        return distinct.enumerated().map { k, pen in
            var parts = [pen.blend == .erase ? "eraser" : pen.color.description]
            if case .signaturePad = pen.widthModel, let lo = pen.minWidth, let hi = pen.maxWidth {
                // signature_pad's own numbers are radii.
                parts.append("width \(n(lo))...\(n(hi)) (signature_pad minWidth \(n(lo / 2)), maxWidth \(n(hi / 2)))")
                if let dot = pen.dotWidth { parts.append("dot \(n(dot)) (dotSize \(n(dot / 2)))") }
                if case let .signaturePad(weight) = pen.widthModel { parts.append("signature_pad velocity model (filter \(n(weight)))") }
                return "pen \(k + 1): " + (parts + kept(pen)).joined(separator: ", ") + ", " + Signature.strokeNames(strokes[k])
            }
            switch (pen.minWidth, pen.maxWidth) {
            case let (lo?, hi?) where lo == hi: parts.append("width \(n(lo))")
            case let (lo?, hi?): parts.append("width \(n(lo))...\(n(hi))")
            case let (lo?, nil): parts.append("min width \(n(lo))")
            case let (nil, hi?): parts.append("max width \(n(hi))")
            case (nil, nil): parts.append("default width")
            }
            if let dot = pen.dotWidth, dot != pen.minWidth || dot != pen.maxWidth { parts.append("dot \(n(dot))") }
            if case let .signaturePad(weight) = pen.widthModel { parts.append("signature_pad velocity model (filter \(n(weight)))") }
            return "pen \(k + 1): " + (parts + kept(pen)).joined(separator: ", ") + ", " + Signature.strokeNames(strokes[k])
        }
    }
}
