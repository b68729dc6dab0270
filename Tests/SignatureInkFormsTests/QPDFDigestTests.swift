// SPDX-License-Identifier: Apache-2.0
import Crypto
@_spi(QPDFLinking) import SignatureInkForms
import Testing

/// The digests the release build's qpdf computes through `si_qpdf_digest_*` (Scripts/qpdf-static.c): the MD5 of each
/// deterministic `/ID`, SHA-2 for AES-256 encryption. The release agreement test checks the PDFs they make.
@Suite struct QPDFDigestTests {
    /// Runs one digest over `bytes`, added in pieces of `piece` bytes, as qpdf adds a file a few bytes at a time.
    func digest(_ algorithm: Int32, of bytes: [UInt8], piece: Int, length: Int) throws -> [UInt8] {
        let state = try #require(qpdfDigestStart(algorithm))
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            bytes[start..<end].withUnsafeBytes { qpdfDigestUpdate(state, $0.baseAddress, $0.count) }
            start = end
        }
        var out = [UInt8](repeating: 0, count: length)
        out.withUnsafeMutableBytes { qpdfDigestFinish(state, $0.baseAddress) }
        return out
    }

    @Test func eachAlgorithmGivesTheDigestOfTheWholeInputWhateverThePieces() throws {
        let text = Array("The quick brown fox jumps over the lazy dog, \u{00e9}\u{0141}".utf8) + [UInt8](0..<200)
        for piece in [1, 7, 4096] {
            #expect(try digest(2, of: text, piece: piece, length: 16) == Array(Insecure.MD5.hash(data: text)))
            #expect(try digest(6, of: text, piece: piece, length: 32) == Array(SHA256.hash(data: text)))
            #expect(try digest(7, of: text, piece: piece, length: 48) == Array(SHA384.hash(data: text)))
            #expect(try digest(8, of: text, piece: piece, length: 64) == Array(SHA512.hash(data: text)))
        }
        // RFC 1321's test vector, independent of swift-crypto.
        #expect(try digest(2, of: Array("abc".utf8), piece: 1, length: 16)
                == [0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0, 0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72])
    }

    @Test func otherAlgorithmsAreRefusedAndADigestCanBeDroppedUnread() {
        for algorithm: Int32 in [0, 1, 3, 9, 200] { #expect(qpdfDigestStart(algorithm) == nil) }
        let state = qpdfDigestStart(2)
        #expect(state != nil)
        if let state { qpdfDigestFinish(state, nil) }
    }
}
