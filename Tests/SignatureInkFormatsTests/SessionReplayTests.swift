// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import Testing

/// Real signatures, replayed through the capture session and saved, come back sample for sample.
@Suite struct SessionReplayTests {
    static let realFiles: [URL] = {
        let root = TestData.realInk
        let folders = ["hwrt", "signature-pad", "wacom-uim"]
        return folders.flatMap { folder -> [URL] in
            let dir = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
        }
    }()

    @Test func thereIsRealInk() { #expect(Self.realFiles.count >= 14) }

    @Test(arguments: realFiles)
    func replayingAndSavingGivesTheSameSamplesBack(file: URL) throws {
        let decoded: Signature
        do {
            decoded = try InkDecoder().decode(Data(contentsOf: file)).signature
        } catch {
            // The deliberately corrupted copies are refused by the decoder; nothing to replay.
            #expect(file.lastPathComponent.contains("-"), "\(file.lastPathComponent): \(error)")
            return
        }
        var session = CaptureSession(configuration: .init(canvas: decoded.canvas, minimums: .none))
        try session.replay(decoded)
        let record = try session.save(at: 0)
        #expect(record.signature.strokeEnds == decoded.strokeEnds, "\(file.lastPathComponent)")
        #expect(record.signature.samples == decoded.samples, "\(file.lastPathComponent)")
        #expect(record.digest == SignatureRecord.digest(of: decoded))
        // The digest survives re-encoding in every lossless format.
        for format in [InkFormat.native, .inkml] {
            let again = try InkDecoder().decode(InkEncoder().encode(record.signature, as: format)).signature
            #expect(SignatureRecord.digest(of: again) == record.digest, "\(format)")
        }
    }
}
