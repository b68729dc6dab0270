// SPDX-License-Identifier: Apache-2.0
import Crypto

/// The digests qpdf asks of GnuTLS when it is linked into the release build, computed by swift-crypto.
///
/// The release build of `signature-ink` links qpdf's archive in (Scripts/link-release) instead of opening
/// `libqpdf.so`, which brought the C++ runtime, GnuTLS and nine libraries behind it into the process (4.2 ms of a
/// 15 ms `sign`, the larger part in the loader). qpdf hashes through GnuTLS: the MD5 of its deterministic `/ID` on
/// every write, SHA-2 for AES-256 encryption. Scripts/qpdf-static.c gives qpdf GnuTLS's hash functions and answers
/// them with these three (its ciphers, for encrypted files, open the real GnuTLS on first use).
///
/// The functions are C symbols for that file alone; other builds open `libqpdf.so` and never call them.
enum QPDFDigest {
    /// One digest in progress; a subclass holds the hash function.
    class State {
        func update(_ bytes: UnsafeRawBufferPointer) {}
        /// Writes the digest to `out`, which has room for it.
        func finish(into out: UnsafeMutableRawPointer) {}
    }

    /// A digest by `H`, updated in place: qpdf adds a written file to its MD5 a few bytes at a time, and a copy of the
    /// hash function's state at each update (an enum's payload taken out and put back) cost 1.8 M instructions of a
    /// 16.6 M `sign` (callgrind).
    final class Hashing<H: HashFunction>: State {
        var hash = H()

        override func update(_ bytes: UnsafeRawBufferPointer) { hash.update(bufferPointer: bytes) }

        override func finish(into out: UnsafeMutableRawPointer) {
            hash.finalize().withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
    }
}

/// A new digest: `algorithm` 2 (MD5), 6 (SHA-256), 7 (SHA-384) or 8 (SHA-512), GnuTLS's numbers; `nil` for any other.
@_spi(QPDFLinking) @_cdecl("si_qpdf_digest_start")
public func qpdfDigestStart(_ algorithm: Int32) -> UnsafeMutableRawPointer? {
    let state: QPDFDigest.State
    switch algorithm {
    case 2: state = QPDFDigest.Hashing<Insecure.MD5>()
    case 6: state = QPDFDigest.Hashing<SHA256>()
    case 7: state = QPDFDigest.Hashing<SHA384>()
    case 8: state = QPDFDigest.Hashing<SHA512>()
    default: return nil
    }
    return Unmanaged.passRetained(state).toOpaque()
}

/// Adds `count` bytes at `bytes` to the digest `state`.
@_spi(QPDFLinking) @_cdecl("si_qpdf_digest_update")
public func qpdfDigestUpdate(_ state: UnsafeMutableRawPointer, _ bytes: UnsafeRawPointer?, _ count: Int) {
    guard let bytes, count > 0 else { return }
    Unmanaged<QPDFDigest.State>.fromOpaque(state).takeUnretainedValue()
        .update(UnsafeRawBufferPointer(start: bytes, count: count))
}

/// Ends the digest `state`, writing it to `out` unless that is `nil`, and frees it.
@_spi(QPDFLinking) @_cdecl("si_qpdf_digest_finish")
public func qpdfDigestFinish(_ state: UnsafeMutableRawPointer, _ out: UnsafeMutableRawPointer?) {
    let digest = Unmanaged<QPDFDigest.State>.fromOpaque(state).takeRetainedValue()
    if let out { digest.finish(into: out) }
}
