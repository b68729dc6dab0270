// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats

/// The end-to-end fixture set: signature-sized groups of real pen input (about 170 samples each) fitted into a
/// 600 x 300 canvas, one native file each in `Benchmarks/Fixtures/signatures/`, derived by
/// `Benchmarks/Fixtures/make-signatures.py`. The Raster, Vector and Batch suites, the timing harness and the
/// peers script all read these same files.
public enum SignatureSet {
    /// The folder of the fixture files, found from this file's location so any working directory works.
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/signatures")

    /// One fixture file: its name, its bytes and the signature decoded from them.
    public struct Entry: Sendable {
        /// The file name, such as `uim-hello-world-000.json`.
        public var name: String
        /// The file's bytes, as the CLI reads them.
        public var data: Data
        /// The decoded signature.
        public var signature: Signature
    }

    /// Every fixture in file-name order, or a fatal error naming the folder when it is missing or a file does
    /// not decode.
    public static let entries: [Entry] = load(from: folder)

    /// The decoded signatures of ``entries``.
    public static let signatures: [Signature] = entries.map(\.signature)

    /// Total number of samples in ``signatures``.
    public static let sampleCount = signatures.reduce(0) { $0 + $1.samples.count }

    /// Reads every `.json` file of `folder` in name order.
    /// - Parameter folder: a folder of native signature files.
    /// - Returns: the entries; never empty (an empty or unreadable folder is a fatal error).
    public static func load(from folder: URL) -> [Entry] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        guard !names.isEmpty else {
            fatalError("no fixtures in \(folder.path); run python3 Benchmarks/Fixtures/make-signatures.py")
        }
        let decoder = InkDecoder()
        return names.map { name in
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url) else { fatalError("cannot read \(url.path)") }
            do {
                return Entry(name: name, data: data, signature: try decoder.decode(data, as: .native).signature)
            } catch {
                fatalError("cannot decode \(url.path): \(error)")
            }
        }
    }
}
