// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads newline-separated records from a file descriptor in bounded memory.
///
/// A record longer than the limit is skipped up to its newline and returned as `.tooLong`, so one hostile line
/// can neither exhaust memory nor stop the stream.
struct LineReader {
    enum Line {
        case text(Data)
        case tooLong(bytes: Int)
    }

    private let fd: Int32
    private let maxBytes: Int
    private var buffer = Data()
    private var atEnd = false
    /// Bytes read from the descriptor at a time.
    private static let chunkSize = 1 << 16

    init(fd: Int32, maxBytes: Int) {
        self.fd = fd
        self.maxBytes = maxBytes
    }

    /// The next record without its newline, or `nil` at the end of input.
    mutating func next() -> Line? {
        var skipped = 0
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                if skipped > 0 || line.count > maxBytes { return .tooLong(bytes: skipped + line.count) }
                return .text(Data(line))
            }
            if buffer.count > maxBytes {
                skipped += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            if atEnd {
                if skipped > 0 { return .tooLong(bytes: skipped + buffer.count) }
                guard !buffer.isEmpty else { return nil }
                let last = buffer
                buffer.removeAll()
                return .text(last)
            }
            let chunk = FileDescriptorIO.read(fd, upTo: LineReader.chunkSize) ?? []
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
