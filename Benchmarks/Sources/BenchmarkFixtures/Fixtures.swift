// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk

/// The benchmark inputs: real pen input (`Tests/Fixtures/realink/SOURCES.md`) derived into `Fixtures/realink.ink`.
public enum Fixtures {
    /// The fixture folder, found from this file's location so any working directory works.
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Every signature of `realink.ink`, or a fatal error naming the file when it cannot be read.
    public static let signatures: [Signature] = {
        let url = folder.appendingPathComponent("realink.ink")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            fatalError("cannot read the benchmark fixture \(url.path); run Benchmarks/Fixtures/make-fixtures.py")
        }
        var out: [Signature] = []
        var strokes: [[InkSample]] = []
        var current: [InkSample] = []
        func endStroke() { if !current.isEmpty { strokes.append(current) }; current = [] }
        func endSignature() { endStroke(); if !strokes.isEmpty { out.append(Signature(strokes: strokes)) }; strokes = [] }
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("signature") { endSignature(); continue }
            if line == "stroke" { endStroke(); continue }
            let f = line.split(separator: " ")
            guard f.count == 4, let x = Double(f[0]), let y = Double(f[1]), let t = Double(f[2]) else { continue }
            current.append(InkSample(x: x, y: y, t: t, pressure: f[3] == "-" ? nil : Float(f[3])))
        }
        endSignature()
        return out
    }()

    /// Total number of samples in ``signatures``.
    public static let sampleCount = signatures.reduce(0) { $0 + $1.samples.count }

    /// Every stroke as a polyline of positions.
    public static let polylines: [[Point]] = signatures.flatMap { s in s.strokes.map { $0.map(\.location) } }
}
