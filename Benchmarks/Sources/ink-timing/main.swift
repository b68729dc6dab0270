// SPDX-License-Identifier: Apache-2.0
// Times the library on the fixture set the way Benchmarks/peers/peers.py times the peers, so both sides are
// measured in one run with one method: every round handles every signature once; the figure is the median
// round time divided by the number of signatures. Prints one JSON object per measurement on stdout.
//
// Usage: ink-timing [--rounds N] [--folder DIR]   (defaults: 30 rounds, Benchmarks/Fixtures/signatures)
//        ink-timing --probe load|png@1x|png@2x|file-png@1x|svg|pdf|outline|stream   (one pass, for callgrind)
//        ink-timing --dump DIR   (writes every fixture's PNG in a few option sets to DIR, to compare two builds' bytes)
import Foundation
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import SignatureSet

/// The command line: rounds (default 30), the fixture folder (default the committed set) and an optional probe.
func parseArguments() -> (rounds: Int, folder: URL, probe: String?, dump: URL?) {
    var rounds = 30
    var folder = SignatureSet.folder
    var probe: String?
    var dump: URL?
    var arguments = CommandLine.arguments.dropFirst()
    while let a = arguments.popFirst() {
        switch a {
        case "--rounds": rounds = arguments.popFirst().flatMap(Int.init).map { max($0, 1) } ?? rounds
        case "--folder": folder = URL(fileURLWithPath: arguments.popFirst() ?? folder.path)
        case "--probe": probe = arguments.popFirst()
        case "--dump": dump = arguments.popFirst().map { URL(fileURLWithPath: $0) }
        default:
            FileHandle.standardError.write(Data("usage: ink-timing [--rounds N] [--folder DIR] [--probe STAGE] [--dump DIR]\n".utf8))
            exit(64)
        }
    }
    return (rounds, folder, probe, dump)
}

let (rounds, folder, probe, dump) = parseArguments()
let entries = SignatureSet.load(from: folder)
let count = entries.count
let samples = entries.reduce(0) { $0 + $1.signature.samples.count }

// `--probe STAGE` runs one stage once over the fixture set and exits, for counting instructions under
// `valgrind --tool=callgrind` (Benchmarks/ci/instructions.sh): `load` only loads the fixtures, so a stage's
// count is its run minus the `load` run.
if let probe {
    let png1 = SignatureRenderer(), png2 = SignatureRenderer(options: RenderOptions(scale: 2))
    let decoder = InkDecoder()
    do {
        switch probe {
        case "load": break
        case "png@1x": for e in entries { _ = try png1.png(e.signature) }
        case "png@2x": for e in entries { _ = try png2.png(e.signature) }
        case "file-png@1x": for e in entries { _ = try png1.png(decoder.decode(e.data).signature) }
        case "svg": for e in entries { _ = try png1.svg(e.signature) }
        case "pdf": for e in entries { _ = try png1.pdf(e.signature) }
        case "outline": for e in entries { _ = e.signature.outlinePath(style: RenderOptions().penStyle) }
        case "stream":
            // Streaming.noLiveView's loop: samples one by one through a StrokeBuilder, the outline at pen-up.
            var builder = StrokeBuilder()
            var path = Path()
            for e in entries {
                for stroke in e.signature.strokes {
                    guard let first = stroke.first else { continue }
                    path.removeAll(keepingCapacity: true)
                    builder.begin(first)
                    for s in stroke.dropFirst() { builder.add(s) }
                    builder.end()
                    builder.appendOutline(to: &path)
                }
            }
        default:
            FileHandle.standardError.write(Data("ink-timing: unknown probe \(probe)\n".utf8))
            exit(64)
        }
    } catch {
        FileHandle.standardError.write(Data("ink-timing: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

// `--dump DIR` writes `<name>@<scale>x.png` for every fixture, so the bytes of two builds can be compared.
if let dump {
    do {
        try FileManager.default.createDirectory(at: dump, withIntermediateDirectories: true)
        let variants: [(tag: String, options: RenderOptions)] = [
            ("1x", RenderOptions()), ("2x", RenderOptions(scale: 2)), ("1.37x", RenderOptions(scale: 1.37)),
            ("crop", RenderOptions(framing: .crop)), ("fit-white", RenderOptions(background: .white, framing: .fit)),
            ("faded", RenderOptions(scale: 3, opacity: 0.5)),
        ]
        for (tag, options) in variants {
            let renderer = SignatureRenderer(options: options)
            for e in entries {
                let png = try renderer.png(e.signature)
                try Data(png).write(to: dump.appendingPathComponent("\(e.name)@\(tag).png"))
            }
        }
    } catch {
        FileHandle.standardError.write(Data("ink-timing: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

/// Median of the round times in milliseconds, after one untimed warm-up round.
func medianRoundMilliseconds(_ body: () throws -> Void) rethrows -> Double {
    try body()
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let d = try clock.measure(body)
        times.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15)
    }
    times.sort()
    return times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
}

func report(_ stage: String, _ fields: [String: Any]) {
    var all = fields
    all["stage"] = stage
    all["signatures"] = count
    all["rounds"] = rounds
    let data = try! JSONSerialization.data(withJSONObject: all, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

do {
    for scale in [1.0, 2.0] {
        let renderer = SignatureRenderer(options: RenderOptions(scale: scale))
        var bytes = 0
        let ms = try medianRoundMilliseconds {
            bytes = 0
            for e in entries { bytes += try renderer.png(e.signature).count }
        }
        report("png-e2e@\(Int(scale))x", ["ms_per_signature": ms / Double(count), "bytes_per_signature": bytes / count])

        let decoder = InkDecoder()
        let msFile = try medianRoundMilliseconds {
            for e in entries { _ = try renderer.png(decoder.decode(e.data).signature) }
        }
        report("file-png-e2e@\(Int(scale))x", ["ms_per_signature": msFile / Double(count)])

        // Cairo's own writer on the same outline drawn in ARGB32: the size a plain Cairo pipeline would write.
        var cairoBytes = 0
        for e in entries {
            guard let raster = CoverageRaster(width: 600, height: 300, scale: scale, argb: true),
                  raster.fill(e.signature.outlinePath(style: RenderOptions().penStyle)),
                  let size = raster.cairoPNGSize() else { fatalError("Cairo failed on \(e.name)") }
            cairoBytes += size
        }
        report("cairo-write-to-png-size@\(Int(scale))x", ["bytes_per_signature": cairoBytes / count])
    }

    let svgRenderer = SignatureRenderer()
    var svgBytes = 0
    let msSVG = try medianRoundMilliseconds {
        svgBytes = 0
        for e in entries { svgBytes += try svgRenderer.svg(e.signature).utf8.count }
    }
    report("svg-e2e", ["ms_per_signature": msSVG / Double(count), "bytes_per_signature": svgBytes / count])

    // RDP at 0.5 px over every stroke's positions, as `simplification.simplify_coords` is given them.
    let lines = entries.flatMap { e in e.signature.strokes.map { $0.map(\.location) } }
    var kept = 0
    let msRDP = medianRoundMilliseconds {
        kept = 0
        for line in lines { kept += RamerDouglasPeucker.simplify(line, tolerance: 0.5).count }
    }
    report("rdp-0.5px", ["ms_per_signature": msRDP / Double(count), "samples": samples,
                         "msamples_per_second": Double(samples) / msRDP / 1e3, "kept": kept])
} catch {
    FileHandle.standardError.write(Data("ink-timing: \(error)\n".utf8))
    exit(1)
}
