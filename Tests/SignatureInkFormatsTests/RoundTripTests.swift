// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

/// Every decoded file survives the lossless encoders, and every encoder round-trips random signatures.
@Suite struct RoundTripTests {
    /// Every real file that decodes (the corrupted hwrt copies are left to the negative tests), and the
    /// fixtures.
    static func decodableFiles() throws -> [URL] {
        let real = try ["signature-pad", "hwrt", "wacom-uim"].flatMap { try TestFiles.realInk($0) }
            .filter { !$0.lastPathComponent.contains("-time") && !$0.lastPathComponent.contains("-wild") }
        let fixtures = ["svc2004-task2.txt", "svc2004-task1-crlf.txt", "inkml-difference-coded.inkml",
                        "inkml-no-format-bom.inkml", "inkml-inksource-context.inkml"].map { TestFiles.fixtures.appendingPathComponent($0) }
        return real + fixtures
    }

    @Test func everyFileSurvivesTheNativeAndInkMLEncoders() throws {
        let files = try Self.decodableFiles()
        #expect(files.count == 16)
        for url in files {
            let original = try InkDecoder().decode(Data(contentsOf: url)).signature
            // Both keep the pens as they are: InkML as brushes.
            let native = try InkDecoder().decode(InkEncoder().encode(original, as: .native)).signature
            #expect(native == original, "\(url.lastPathComponent) through native")
            let inkml = try InkDecoder().decode(InkEncoder().encode(original, as: .inkml)).signature
            #expect(inkml == original, "\(url.lastPathComponent) through InkML")
        }
    }

    @Test func filesSurviveTheirOwnFormat() throws {
        for url in try Self.decodableFiles() {
            let first = try InkDecoder().decode(Data(contentsOf: url))
            guard first.format.canEncode else { continue }
            let again = try InkDecoder().decode(InkEncoder().encode(first.signature, as: first.format))
            #expect(again.format == first.format)
            #expect(again.signature == first.signature, "\(url.lastPathComponent)")
        }
    }

    @Test(arguments: 0..<40)
    func nativeRoundTripsRandomSignatures(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(3000 + seed))
        let shape = SignatureShape(pressure: [.none, .everySample, .someSamples][seed % 3], angles: seed % 2 == 0,
                                   canvas: seed % 3 == 1, startTime: seed % 4 != 0, timeStep: 0.1)
        var s = random.signature(shape)
        s.metadata = seed % 2 == 0 ? [:] : ["device": "pen \"quoted\" \\ \u{1}", "pen.color": "red"]
        let back = try InkDecoder().decode(InkEncoder().encode(s, as: .native), as: .native).signature
        #expect(back == s)
    }

    @Test func encodersRefuseNonFiniteValues() {
        let bad = Signature(strokes: [[InkSample(x: .nan, y: 0, t: 0)]])
        for format in InkFormat.allCases where format.canEncode {
            #expect(throws: FormatError.self, "\(format)") { try InkEncoder().encode(bad, as: format) }
        }
        let badPressure = Signature(strokes: [[InkSample(x: 0, y: 0, t: 0, pressure: .infinity)]])
        for format in InkFormat.allCases where format.canEncode {
            #expect(throws: FormatError.self, "\(format)") { try InkEncoder().encode(badPressure, as: format) }
        }
    }

    @Test func anEmptySignatureEncodesButDoesNotDecode() throws {
        for format in InkFormat.allCases where format.canEncode {
            let data = try InkEncoder().encode(Signature(), as: format)
            guard case let .field(path, message) = decodeError(data, as: format) else {
                Issue.record("\(format): expected the no-ink error")
                continue
            }
            #expect(path.isEmpty && message.contains("no ink"))
        }
    }
}
