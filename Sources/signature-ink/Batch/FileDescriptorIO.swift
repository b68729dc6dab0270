// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes file descriptors directly, retrying calls a signal interrupted.
///
/// Foundation's `FileHandle.readData(ofLength:)` and `write(_:)` stop the process on any error, including an
/// `EINTR` that only means "try again"; a batch that runs many threads and children meets those.
enum FileDescriptorIO {
    /// Reads up to `count` bytes. Returns an empty array at the end of input, `nil` on an error.
    static func read(_ fd: Int32, upTo count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
            if n >= 0 { buffer.removeSubrange(n...); return buffer }
            if errno != EINTR { return nil }
        }
    }

    /// Writes all of `bytes`. Returns `false` when the descriptor refuses them (a closed pipe, a full disk).
    @discardableResult
    static func write(_ fd: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        let all = Array(bytes)
        var offset = 0
        while offset < all.count {
            let n = all.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, all.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }

    /// Writes text to standard error, ignoring failure (there is nowhere left to report it).
    static func standardError(_ text: String) { write(STDERR_FILENO, Array(text.utf8)) }
}
