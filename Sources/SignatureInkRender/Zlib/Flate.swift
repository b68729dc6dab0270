// SPDX-License-Identifier: Apache-2.0
import CZlib

/// zlib's one-call compression (`compress2`) and decompression (`uncompress`) of a PDF stream's `/FlateDecode` data,
/// for the page contents the engine rewrites after Cairo (see ``PDFCompletion``).
enum Flate {
    /// `bytes` compressed at zlib's fastest level: a consent's page contents took 1.8 M instructions fewer than at the
    /// default level (Cairo's), for 1 KB more in a 45 KB file.
    static func deflate(_ bytes: [UInt8]) throws(RenderError) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &size, source.baseAddress, uLong(source.count), Z_BEST_SPEED)
            }
        }
        guard status == Z_OK else { throw .cairo("zlib could not compress a stream (status \(status))") }
        out.removeSubrange(Int(size)...)
        return out
    }

    /// `bytes` compressed at zlib's fastest level with a 4 KiB window and a 16 KiB hash table (`windowBits` 12,
    /// `memLevel` 6), for a stream of a few kilobytes that a new process writes: zlib then sets up and touches about
    /// 48 KB instead of 256 KB. A signature's page contents (4,977 bytes) come to 2,333 bytes instead of 2,345, and
    /// the render to PDF in a new process takes 340 page faults instead of 373 at the default window. At `memLevel` 4 the faults are the
    /// same but a batch of PDFs takes 1.9 % more instructions.
    static func deflateSmall(_ bytes: [UInt8]) throws(RenderError) -> [UInt8] {
        var stream = z_stream()
        let ready = deflateInit2_(&stream, Z_BEST_SPEED, Z_DEFLATED, 12, 6, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                  Int32(MemoryLayout<z_stream>.size))
        guard ready == Z_OK else { throw .cairo("zlib could not start compressing (status \(ready))") }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw .cairo("zlib could not compress a stream (status \(status))") }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }

    /// The bytes `data` decompresses to.
    /// - Parameter limit: most bytes the result may have.
    /// - Throws: ``RenderError/cairo(_:)`` when `data` is not a zlib stream or comes to more than `limit` bytes.
    static func inflate(_ data: ArraySlice<UInt8>, limit: Int) throws(RenderError) -> [UInt8] {
        // Page contents inflate to about three times their size: one try in most cases.
        var capacity = Swift.min(Swift.max(data.count * 6, 4096), limit)
        while true {
            var size = uLong(capacity)
            var out = [UInt8](repeating: 0, count: capacity)
            let status = out.withUnsafeMutableBufferPointer { target in
                data.withUnsafeBufferPointer { source in uncompress(target.baseAddress, &size, source.baseAddress, uLong(source.count)) }
            }
            switch status {
            case Z_OK:
                out.removeSubrange(Int(size)...)
                return out
            case Z_BUF_ERROR where capacity < limit:
                capacity = Swift.min(capacity * 4, limit)
            case Z_BUF_ERROR:
                throw .cairo("a stream inflates to more than \(limit) bytes")
            default:
                throw .cairo("a stream is not zlib data (status \(status))")
            }
        }
    }
}
