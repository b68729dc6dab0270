// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkFormats
import Testing

/// The committed fuzz corpus (`Fuzz/Corpus/<target>/`): its seeds decode, and every input a fuzzer once crashed
/// on (`crash-*`) now gives a typed error or a signature that keeps the decoders' promises.
@Suite struct FuzzCorpusTests {
    /// The format each fuzz target reads, `nil` for detection.
    static let targets: [(String, InkFormat?)] = [
        ("native", .native), ("inkml", .inkml), ("signature-pad", .signaturePad), ("svc2004", .svc2004),
        ("uim", .uim), ("stroke-list", .strokeList), ("detect", nil), ("render", nil),
    ]

    /// Every committed corpus file with the format its target reads.
    static func files() -> [(String, InkFormat?)] {
        let root = TestData.repositoryRoot.appendingPathComponent("Fuzz/Corpus")
        var out: [(String, InkFormat?)] = []
        for (target, format) in targets {
            let dir = root.appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            out += names.sorted().map { (dir.appendingPathComponent($0).path, format) }
        }
        return out
    }

    @Test func thereIsASeedForEveryFormatThatHasNoRealInk() {
        let paths = Self.files().map(\.0)
        for target in ["inkml", "svc2004", "uim"] {
            #expect(paths.contains { $0.contains("/Corpus/\(target)/") }, "\(target)")
        }
    }

    @Test(arguments: files().map(\.0))
    func aCorpusFileDecodesOrGivesATypedError(path: String) throws {
        let format = Self.files().first { $0.0 == path }?.1
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let isCrash = URL(fileURLWithPath: path).lastPathComponent.hasPrefix("crash-")
        do {
            let result = try InkDecoder().decode(data, as: format)
            let s = result.signature
            #expect(!s.isEmpty)
            #expect(timesAreMonotonic(s) || result.format == .native)
            #expect(pressuresAreNormalised(s))
            #expect(s.samples.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.t.isFinite && $0.t >= 0 })
            let native = try InkEncoder().encode(s, as: .native)
            #expect(try NativeDecoder().decode(native) == s)
        } catch {
            // A seed is a valid file; an input that once crashed only has to be refused cleanly.
            #expect(isCrash, "\(path): \(error)")
            #expect(!error.description.isEmpty)
        }
    }
}
