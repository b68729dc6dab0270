// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// Frames PNG chunks: a 4-byte big-endian length, the 4-letter type, the data, and the CRC-32 of type and
/// data (PNG specification, section 5.3). Builds the chunks that come before the image data.
struct PNGChunkWriter {
    /// The eight bytes every PNG starts with (PNG specification, section 5.2).
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// The file so far, starting with the signature unless told otherwise.
    private(set) var bytes: [UInt8]

    /// Starts a file, or with `signature` false a run of chunks to put in one.
    init(signature: Bool = true) {
        bytes = signature ? Self.signature : []
    }

    /// Appends one chunk.
    /// - Parameters:
    ///   - type: the chunk type, four ASCII letters such as `"IHDR"`.
    ///   - data: the chunk data, fewer than 2^31 bytes.
    mutating func chunk(_ type: String, _ data: [UInt8]) {
        let typeBytes = Array(type.utf8)
        precondition(typeBytes.count == 4, "chunk types are four letters")
        Self.appendBigEndian(UInt32(data.count), to: &bytes)
        bytes += typeBytes
        bytes += data
        let crc = (typeBytes + data).withUnsafeBytes { CRC32.update(0, $0) }
        Self.appendBigEndian(crc, to: &bytes)
    }

    /// Appends `value` as four big-endian bytes.
    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    /// Stores `value` as four big-endian bytes at `p`.
    static func storeBigEndian(_ value: UInt32, at p: UnsafeMutablePointer<UInt8>) {
        p[0] = UInt8(value >> 24)
        p[1] = UInt8(value >> 16 & 0xff)
        p[2] = UInt8(value >> 8 & 0xff)
        p[3] = UInt8(value & 0xff)
    }

    /// `IHDR` for an 8-bit indexed image without interlacing.
    mutating func indexedHeader(width: Int, height: Int) {
        header(width: width, height: height, colourType: 3)
    }

    /// `IHDR` for an 8-bit image of `colourType` (0 grey, 3 indexed, 4 grey and alpha, 6 RGBA) without interlacing.
    mutating func header(width: Int, height: Int, colourType: UInt8) {
        var data: [UInt8] = []
        Self.appendBigEndian(UInt32(width), to: &data)
        Self.appendBigEndian(UInt32(height), to: &data)
        data += [8, colourType, 0, 0, 0]  // bit depth 8, the colour type, deflate, adaptive filtering, no interlace
        chunk("IHDR", data)
    }

    /// `PLTE` with the colours of `palette`, and `tRNS` with its alphas unless all are opaque (trailing
    /// opaque entries are left out, as section 11.3.2.1 allows).
    mutating func palette(_ palette: some Collection<Color>) {
        var colours: [UInt8] = []
        colours.reserveCapacity(3 * palette.count)
        var alpha: [UInt8] = []
        alpha.reserveCapacity(palette.count)
        for c in palette {
            colours.append(c.red)
            colours.append(c.green)
            colours.append(c.blue)
            alpha.append(c.alpha)
        }
        chunk("PLTE", colours)
        while alpha.last == 255 { alpha.removeLast() }
        if !alpha.isEmpty { chunk("tRNS", alpha) }
    }

    /// `pHYs` with the same resolution on both axes, in pixels per metre; nothing for 0.
    mutating func physicalSize(pixelsPerMetre: UInt32) {
        guard pixelsPerMetre > 0 else { return }
        var data: [UInt8] = []
        Self.appendBigEndian(pixelsPerMetre, to: &data)
        Self.appendBigEndian(pixelsPerMetre, to: &data)
        data.append(1)  // unit: metre
        chunk("pHYs", data)
    }

    /// A `tEXt` chunk when `value` is Latin-1, else an `iTXt` chunk with UTF-8 text (sections 11.3.4.3 and
    /// 11.3.4.5).
    /// - Throws: ``RenderError/invalidOption(option:message:)`` when the keyword is not 1...79 printable
    ///   Latin-1 characters without leading, trailing or double spaces, or the value contains NUL.
    mutating func text(key: String, value: String) throws(RenderError) {
        let keyword = key.unicodeScalars.map(\.value)
        let printable = keyword.allSatisfy { (32...126).contains($0) || (161...255).contains($0) }
        let doubleSpace = zip(keyword, keyword.dropFirst()).contains { $0 == 32 && $1 == 32 }
        guard (1...79).contains(keyword.count), printable, keyword.first != 32, keyword.last != 32, !doubleSpace
        else {
            throw .invalidOption(option: "text", message: "keyword \"\(key)\" is not 1...79 printable Latin-1 characters")
        }
        guard !value.unicodeScalars.contains("\0") else {
            throw .invalidOption(option: "text", message: "the value of \"\(key)\" contains NUL")
        }
        let keyBytes = keyword.map { UInt8($0) }
        if value.unicodeScalars.allSatisfy({ $0.value <= 255 }) {
            chunk("tEXt", keyBytes + [0] + value.unicodeScalars.map { UInt8($0.value) })
        } else {
            // keyword, NUL, compression flag 0, method 0, empty language tag, empty translated keyword, text
            chunk("iTXt", keyBytes + [0, 0, 0, 0, 0] + Array(value.utf8))
        }
    }
}
