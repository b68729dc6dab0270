// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// Writes one-byte-per-pixel images, such as the coverage of one ink colour, as 8-bit indexed PNGs, fast.
///
/// A signature rendered in one ink colour is a coverage image: byte `i` of a pixel says how much of it the
/// ink covers. With a palette whose entry `i` is the ink at coverage `i` over the background (see
/// ``palette(ink:background:opacity:)``), the coverage bytes are the PNG's pixels unchanged: lossless, one
/// byte a pixel, no colour conversion.
///
/// The image data goes through a deflate encoder made for mostly empty images (runs found 32 bytes a branch,
/// matches against the row above, a Huffman code fitted to each image), not through zlib: several times
/// faster than libpng at its fastest setting, with files no larger. The output is a standard PNG:
/// `IHDR`, `PLTE`, `tRNS` (when any entry is not opaque), `pHYs` (when a resolution is given), `tEXt` or
/// `iTXt` chunks, one `IDAT`, `IEND`.
///
/// The same encoder writes grey, grey and alpha, or RGBA images that are mostly one colour, such as a decorated
/// signature (``encode(_:channels:width:height:metadata:)``), each row Sub-filtered so that a flat colour becomes
/// runs.
///
/// The encoder keeps its working buffers between calls (about 2 bytes per byte of the largest image's rows:
/// 2 a coverage pixel, 8 an RGBA one), so
/// encoding a batch does not allocate per image beyond the returned array. It is a value: a copy gets its
/// own buffers the first time it encodes (copy on write), so copies can be used on different threads.
public struct CoveragePNGEncoder: Sendable {
    /// Buffers reused across calls; only ever mutated while uniquely referenced.
    final class Buffers: @unchecked Sendable {
        let deflate = SparseDeflate.Scratch()
        /// The signature and the chunks up to `pHYs` of the last call, and what they were made from: a batch
        /// with one size and palette builds them once.
        var header: [UInt8] = []
        var headerSize = (width: 0, height: 0)
        var headerPalette: [Color] = []
        var headerEntries = 0
        var headerPixelsPerMetre: UInt32 = 0
        /// The text chunks of the last call (`nil` before the first), and the text they hold.
        var textChunks: [UInt8]?
        var text: [(key: String, value: String)] = []
        /// The last palette made by ``CoveragePNGEncoder/palette(ink:background:)``, and its colours.
        var palette: (ink: Color, background: Color, colors: [Color])?
    }

    private var buffers = Buffers()
    /// Row filters and matching; the defaults are the measured best for signature coverage.
    var options = SparseDeflate.Options()

    /// Creates an encoder with empty buffers.
    public init() {}

    /// ``palette(ink:background:opacity:)`` at full opacity, kept from one call to the next with the same
    /// colours: a batch in one pen colour builds it once (building it took 1.3 % of a PNG batch).
    mutating func palette(ink: Color, background: Color) -> [Color] {
        if let last = buffers.palette, last.ink == ink, last.background == background { return last.colors }
        let colors = Self.palette(ink: ink, background: background)
        if !isKnownUniquelyReferenced(&buffers) { buffers = Buffers() }
        buffers.palette = (ink, background, colors)
        return colors
    }

    /// Encodes a one-byte-per-pixel image as an 8-bit indexed PNG.
    /// - Parameters:
    ///   - coverage: the pixels, row after row, `stride` bytes apart; each byte is a palette index (for a
    ///     Cairo A8 surface, the coverage 0...255). At least `stride * (height - 1) + width` bytes.
    ///   - width: pixels per row, 1...16,777,215.
    ///   - height: rows, 1...2,147,483,647.
    ///   - stride: bytes from one row to the next, >= `width` (Cairo pads rows to 4 bytes).
    ///   - palette: the colour of each byte value, 1...256 entries, straight alpha; every byte in the image
    ///     must be below its count. ``palette(ink:background:opacity:)`` builds one for coverage. Entries
    ///     after the largest byte in the image are left out of the file (an empty image needs only one).
    ///   - metadata: resolution for `pHYs` and text chunks; default none.
    /// - Returns: the PNG file's bytes.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` when the sizes do not match the buffer, the
    ///   palette is empty, too long or too short for the image, or a text keyword or value cannot be written;
    ///   ``RenderError/limitExceeded(what:limit:actual:)`` when the image data would not fit in one chunk.
    public mutating func encode(coverage: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int,
                                palette: [Color], metadata: PNGMetadata = PNGMetadata()) throws(RenderError) -> [UInt8] {
        guard (1...SparseDeflate.maximumWidth).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw .invalidOption(option: "size", message: "image size \(width)x\(height) is outside the PNG limits")
        }
        let (rowsBefore, overflow) = stride.multipliedReportingOverflow(by: height - 1)
        guard stride >= width, let base = coverage.baseAddress, !overflow,
              coverage.count - width >= rowsBefore
        else {
            throw .invalidOption(option: "coverage",
                                 message: "\(coverage.count) bytes do not hold \(height) rows of \(width) pixels, \(stride) bytes apart")
        }
        return try encode(ByteRows(base: base, width: width, height: height, stride: stride), palette: palette,
                          metadata: metadata)
    }

    /// Encodes `image`, whose bytes outside its window are zero, as an 8-bit indexed PNG: the same bytes as
    /// for the whole image, reading only the window.
    /// - Parameters:
    ///   - image: the pixels; `width` at most ``SparseDeflate/maximumWidth``, `height` at most `Int32.max`.
    ///   - palette: as for ``encode(coverage:width:height:stride:palette:metadata:)``.
    ///   - metadata: resolution for `pHYs` and text chunks.
    /// - Returns: the PNG file's bytes.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` when the palette is empty, too long or too short
    ///   for the image, or a text keyword or value cannot be written; ``RenderError/limitExceeded(what:limit:actual:)``
    ///   when the image data would not fit in one chunk.
    mutating func encode(_ image: ByteRows, palette: [Color], metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        guard (1...256).contains(palette.count) else {
            throw .invalidOption(option: "palette", message: "\(palette.count) entries; a PNG palette has 1...256")
        }
        if !isKnownUniquelyReferenced(&buffers) { buffers = Buffers() }
        let plan = SparseDeflate.plan(image, options: options, scratch: buffers.deflate)
        return try indexedFile(image, plan: plan, palette: palette, metadata: metadata)
    }

    /// Encodes as ``encode(_:palette:metadata:)`` does a `width` x `height` image whose bytes outside `window` are
    /// zero, the window's rows handed over by `produce` a band at a time (``SparseDeflate/RowPlanner/add(rows:count:stride:)``,
    /// top to bottom, every row once): the same file, without the image held whole.
    /// - Returns: the PNG file's bytes, or `nil` when the image would be stored rather than compressed (noise),
    ///   which needs its rows again, or the encoder's options filter rows: the caller then encodes the whole image.
    /// - Throws: as ``encode(_:palette:metadata:)``, and whatever `produce` throws.
    mutating func encode(width: Int, height: Int, window: (x: Int, y: Int, width: Int, height: Int), palette: [Color],
                         metadata: PNGMetadata,
                         rows produce: (inout SparseDeflate.RowPlanner) throws(RenderError) -> Void)
        throws(RenderError) -> [UInt8]? {
        guard (1...256).contains(palette.count) else {
            throw .invalidOption(option: "palette", message: "\(palette.count) entries; a PNG palette has 1...256")
        }
        guard options.filter == .none else { return nil }
        if !isKnownUniquelyReferenced(&buffers) { buffers = Buffers() }
        var planner = SparseDeflate.RowPlanner(width: width, height: height, window: window, options: options,
                                               scratch: buffers.deflate)
        try produce(&planner)
        let plan = planner.finish()
        guard plan.blockType != .stored else { return nil }
        // Fixed and dynamic blocks are written from the tokens alone: the image is not read again.
        return try indexedFile(ByteRows.blank(width: width, height: height), plan: plan, palette: palette,
                               metadata: metadata)
    }

    /// The indexed PNG of `image`, planned as `plan`, with the palette's entries up to the largest index used.
    private mutating func indexedFile(_ image: ByteRows, plan: SparseDeflate.Plan, palette: [Color],
                                      metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        let width = image.width, height = image.height
        guard plan.byteCount <= Int(Int32.max) else {
            throw .limitExceeded(what: "PNG image data bytes", limit: Int(Int32.max), actual: plan.byteCount)
        }
        // Entries past the largest value the image uses are never shown: an empty image needs one.
        var entries = palette.count
        if let largest = plan.largestPixel ?? (palette.count < 256 ? Int(image.largestByte()) : nil) {
            guard largest < palette.count else {
                throw .invalidOption(option: "palette",
                                     message: "the image uses index \(largest) but the palette has \(palette.count) entries")
            }
            entries = largest + 1
        }

        let pixelsPerMetre = metadata.pixelsPerMetre
        if buffers.header.isEmpty || buffers.headerSize != (width, height) || buffers.headerEntries != entries
            || buffers.headerPixelsPerMetre != pixelsPerMetre || buffers.headerPalette != palette {
            var header = PNGChunkWriter()
            header.indexedHeader(width: width, height: height)
            header.palette(palette.prefix(entries))
            header.physicalSize(pixelsPerMetre: pixelsPerMetre)
            buffers.header = header.bytes
            buffers.headerSize = (width, height)
            buffers.headerEntries = entries
            buffers.headerPixelsPerMetre = pixelsPerMetre
            buffers.headerPalette = palette
        }
        return try file(header: buffers.header, image: image, plan: plan, metadata: metadata)
    }

    /// The channels of a pixel in an image that is not indexed, each one byte.
    public enum Channels: Int, Sendable {
        /// Grey, opaque: one byte a pixel (PNG colour type 0).
        case grey = 1
        /// Grey and straight alpha: two bytes a pixel (colour type 4).
        case greyAlpha = 2
        /// Red, green, blue and straight alpha: four bytes a pixel (colour type 6).
        case rgba = 4

        /// The PNG colour type.
        var colourType: UInt8 {
            switch self {
            case .grey: 0
            case .greyAlpha: 4
            case .rgba: 6
            }
        }
    }

    /// ``encode(_:channels:width:height:metadata:)`` of RGBA pixels.
    public mutating func encode(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                                metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        try encode(rgba, channels: .rgba, width: width, height: height, metadata: metadata)
    }

    /// Encodes grey, grey and alpha or RGBA pixels (straight alpha, rows `width * channels` bytes apart) as an
    /// 8-bit PNG, every row Sub-filtered (each byte less the same byte of the pixel before it), so that a flat
    /// colour of any value is runs of zeros for the same deflate encoder as coverage. For images that are mostly
    /// one colour, such as a signature with a signature line or a watermark on a plain background. Through
    /// libpng, choosing each row's filter took 73 M of the 79 M instructions of `render FILE -o OUT.png
    /// --signature-line` (600 x 300) and zlib's run-length deflate 16 M; with this encoder the whole command
    /// takes 9.2 M (callgrind). The RGBA files are 12 % larger than libpng's with every filter tried (15 decorated
    /// renders of three recordings: 190 KB against 170 KB).
    /// - Parameters:
    ///   - pixels: `width * height * channels.rawValue` bytes.
    ///   - channels: the bytes of a pixel.
    ///   - width: pixels per row, at least 1, and at most 16,777,215 bytes a row.
    ///   - height: rows, 1...2,147,483,647.
    ///   - metadata: resolution for `pHYs` and text chunks.
    /// - Returns: the PNG file's bytes.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` when the sizes do not match the buffer or a text
    ///   keyword or value cannot be written; ``RenderError/limitExceeded(what:limit:actual:)`` when the image data
    ///   would not fit in one chunk.
    public mutating func encode(_ pixels: UnsafeBufferPointer<UInt8>, channels: Channels, width: Int, height: Int,
                                metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        let bytesPerPixel = channels.rawValue
        guard (1...SparseDeflate.maximumWidth / bytesPerPixel).contains(width), (1...Int(Int32.max)).contains(height),
              let base = pixels.baseAddress, pixels.count / bytesPerPixel / width >= height
        else {
            throw .invalidOption(option: "pixels",
                                 message: "\(pixels.count) bytes do not hold \(height) rows of \(width) pixels of \(bytesPerPixel) bytes")
        }
        if !isKnownUniquelyReferenced(&buffers) { buffers = Buffers() }
        let image = ByteRows(base: base, width: width * bytesPerPixel, height: height, stride: width * bytesPerPixel)
        var subOptions = options
        subOptions.filter = .sub(bytesPerPixel: bytesPerPixel)
        let plan = SparseDeflate.plan(image, options: subOptions, scratch: buffers.deflate)
        return try filteredFile(image, plan: plan, width: width, channels: channels, metadata: metadata)
    }

    /// The PNG of `image`, rows of `width` pixels of `channels`, planned Sub-filtered as `plan`.
    private mutating func filteredFile(_ image: ByteRows, plan: SparseDeflate.Plan, width: Int, channels: Channels,
                                       metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        guard plan.byteCount <= Int(Int32.max) else {
            throw .limitExceeded(what: "PNG image data bytes", limit: Int(Int32.max), actual: plan.byteCount)
        }
        var header = PNGChunkWriter()
        header.header(width: width, height: image.height, colourType: channels.colourType)
        header.physicalSize(pixelsPerMetre: metadata.pixelsPerMetre)
        return try file(header: header.bytes, image: image, plan: plan, metadata: metadata)
    }

    /// Encodes as ``encode(_:channels:width:height:metadata:)`` does a `width` x `height` image of `channels`
    /// pixels whose rows `produce` hands to the planner a band at a time (``SparseDeflate/RowPlanner/add(rows:count:stride:)``,
    /// `width * channels.rawValue` bytes a row, top to bottom, every row once): the same file, without the image
    /// held whole.
    /// - Returns: the PNG file's bytes, or `nil` when the image would be stored rather than compressed, which needs
    ///   its rows again: the caller then encodes the whole image.
    /// - Throws: as ``encode(_:channels:width:height:metadata:)``, and whatever `produce` throws.
    mutating func encode(width: Int, height: Int, channels: Channels, metadata: PNGMetadata,
                         rows produce: (inout SparseDeflate.RowPlanner) throws(RenderError) -> Void)
        throws(RenderError) -> [UInt8]? {
        let bytesPerPixel = channels.rawValue
        guard (1...SparseDeflate.maximumWidth / bytesPerPixel).contains(width), (1...Int(Int32.max)).contains(height)
        else {
            throw .invalidOption(option: "size", message: "image size \(width)x\(height) is outside the PNG limits")
        }
        if !isKnownUniquelyReferenced(&buffers) { buffers = Buffers() }
        var subOptions = options
        subOptions.filter = .sub(bytesPerPixel: bytesPerPixel)
        let rowBytes = width * bytesPerPixel
        var planner = SparseDeflate.RowPlanner(width: rowBytes, height: height, window: (0, 0, rowBytes, height),
                                               options: subOptions, scratch: buffers.deflate)
        try produce(&planner)
        let plan = planner.finish()
        guard plan.blockType != .stored else { return nil }
        // Fixed and dynamic blocks are written from the tokens alone: the image is not read again.
        return try filteredFile(ByteRows.blank(width: rowBytes, height: height), plan: plan, width: width,
                                channels: channels, metadata: metadata)
    }

    /// The PNG file: `header` (the signature and the chunks before the text), the text chunks, one `IDAT` with
    /// `image` deflated by `plan`, and `IEND`.
    private mutating func file(header prefix: [UInt8], image: ByteRows, plan: SparseDeflate.Plan,
                               metadata: PNGMetadata) throws(RenderError) -> [UInt8] {
        let scratch = buffers.deflate
        // Text such as a capture time changes from image to image; the chunks above usually do not.
        if buffers.textChunks == nil || !buffers.text.elementsEqual(metadata.text, by: { $0 == $1 }) {
            var chunks = PNGChunkWriter(signature: false)
            for entry in metadata.text { try chunks.text(key: entry.key, value: entry.value) }
            buffers.textChunks = chunks.bytes
            buffers.text = metadata.text
        }
        let text = buffers.textChunks ?? []

        let iend = Self.end
        let total = prefix.count + text.count + 8 + plan.byteCount + 4 + iend.count
        let slack = 8  // the bit writer stores whole words past its last byte
        return [UInt8](unsafeUninitializedCapacity: total + slack) { out, initialized in
            let start = out.baseAddress!
            start.initialize(from: prefix, count: prefix.count)
            (start + prefix.count).initialize(from: text, count: text.count)
            var p = start + prefix.count + text.count
            PNGChunkWriter.storeBigEndian(UInt32(plan.byteCount), at: p)
            (p + 4).initialize(from: Self.imageDataType, count: 4)
            let written = SparseDeflate.write(image, plan: plan, scratch: scratch, into: p + 8)
            let crc = CRC32.update(0, UnsafeRawBufferPointer(start: p + 4, count: 4 + written))
            p += 8 + written
            PNGChunkWriter.storeBigEndian(crc, at: p)
            p += 4
            p.initialize(from: iend, count: iend.count)
            initialized = total
        }
    }

    /// The `IEND` chunk: length 0, type, CRC.
    static let end: [UInt8] = [0, 0, 0, 0, 73, 69, 78, 68, 0xae, 0x42, 0x60, 0x82]
    /// The type of an `IDAT` chunk.
    static let imageDataType: [UInt8] = [73, 68, 65, 84]
}
