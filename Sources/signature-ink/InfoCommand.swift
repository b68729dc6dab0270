// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
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
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
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
        for (k, v) in s.metadata.sorted(by: { $0.key < $1.key }) { lines.append("\(k): \(v)") }
        return lines.joined(separator: "\n")
    }
}
