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
