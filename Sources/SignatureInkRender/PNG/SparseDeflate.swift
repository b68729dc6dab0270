// SPDX-License-Identifier: Apache-2.0

/// A zlib stream (RFC 1950) of deflate data (RFC 1951) holding PNG scanlines of one byte a pixel (or RGBA rows,
/// Sub-filtered), built for sparse images: long runs of one value (empty canvas, solid ink) broken by short
/// anti-aliased edges.
///
/// The image is first turned into tokens, one pass over the rows:
/// - Runs of a repeated byte become matches at distance 1 (up to 258 bytes each, continuing across rows),
///   found 32 bytes a branch. This alone is what zlib's `Z_RLE` strategy does, without its hashing.
/// - Optionally, bytes equal to the row above become matches at distance `width + 1`
///   (``Options/rowMatchMinimum``).
/// - Everything else is a literal.
///
/// The Adler-32 checksum is folded in during the same pass, runs in constant time each.
/// A histogram of the tokens then gives the cost of three block encodings, computed exactly: a dynamic
/// Huffman block built from the histogram, the fixed Huffman block, and stored blocks. The cheapest is
/// written, so the stream is never longer than the raw scanlines plus 5 bytes per 65,535 and 6 bytes of
/// zlib framing. On rendered signatures the dynamic block always wins: the fixed one is 33...50 % larger
/// and saves only 2...13 % of the instructions (the histogram is counted during tokenising anyway).
///
/// Deflate is two passes (``plan(_:options:scratch:)`` then ``write(_:plan:scratch:into:)``) so the caller
/// knows the exact length before writing, and can write straight into the final PNG.
enum SparseDeflate {
    /// Widest rows accepted: keeps the per-row Adler-32 sums in 64 bits (see ``Adler32``).
    static let maximumWidth = Adler32.bytesBetweenReductions - 1
    /// Longest match deflate can express (RFC 1951, section 3.2.5).
    static let maximumMatch = 258
    /// Farthest distance deflate can express (RFC 1951, section 3.2.5).
    static let maximumDistance = 32768
    /// Longest Huffman code for literals/lengths and distances (RFC 1951, section 3.2.7).
    static let maximumCodeLength = 15
    /// Longest code of the code-length alphabet (RFC 1951, section 3.2.7: 3-bit lengths).
    static let maximumCodeLengthCodeLength = 7
    /// Largest stored block (RFC 1951, section 3.2.4: a 16-bit length).
    static let maximumStoredBlock = 65535

    /// Token values: 0...255 literal bytes, then matches at distance 1 of lengths 3...258, then matches at
    /// the row distance of lengths 3...258.
    static let runTokenBase = 256
    static let rowTokenBase = 512
    static let tokenKinds = 768

    /// How rows are filtered and matched.
    struct Options: Hashable {
        /// Row filters to use (PNG specification, section 9).
        enum Filter: Hashable {
            /// Filter type 0 on every row: the bytes as they are.
            case none
            /// Filter type 2 on every row but the first: the difference from the row above.
            case up
            /// Per row, whichever of None and Up leaves fewer non-zero bytes.
            case adaptive
            /// Filter type 1 on every row: each byte less the same byte of the pixel before it, whose flat
            /// colours are then runs of zeros. `bytesPerPixel` must be the image's own (1 indexed, 4 RGBA): a
            /// decoder undoes the filter with it.
            case sub(bytesPerPixel: Int)
        }
        /// Row filter choice; default ``Filter/none``. Measured on rendered signatures (600 x 300 and
        /// 1200 x 600, straight and cursive ink), Up made files 15...31 % larger and the per-row choice
        /// 10...27 %, for 12...81 % more instructions: coverage edges shift between rows, so differences
        /// are no sparser than the values.
        var filter: Filter = .none
        /// Shortest match against the row above worth taking, in bytes, >= 3; 0 takes none. Such a match
        /// starts only at ink (a non-zero byte) and runs as long as the rows agree. Default 16: measured, it
        /// made straight-stroked signatures 6...7 % smaller and cursive ones 0.1 % larger, for 0...4 % more
        /// instructions; a minimum of 3 costs cursive ink up to 6 %.
        var rowMatchMinimum = 16
        /// Whether a dynamic Huffman block may be chosen (otherwise fixed or stored only).
        var allowDynamic = true
    }

    /// The block encoding chosen for the stream.
    enum BlockType: Hashable {
        case stored, fixed, dynamic
    }

    /// What ``plan(_:options:scratch:)`` found and decided; the input to ``write(_:plan:scratch:into:)``.
    struct Plan {
        /// Number of tokens in the scratch buffer.
        var tokenCount = 0
        /// Adler-32 of the filtered scanlines.
        var adler: UInt32 = 0
        /// The chosen block encoding.
        var blockType = BlockType.stored
        /// Length of the deflate data in bits (before the final byte's padding).
        var bitCount = 0
        /// The end-of-block code and its length.
        var endOfBlock: (bits: UInt64, count: Int) = (0, 0)
        /// The largest pixel value in the image, known when no row is filtered (every value then starts a
        /// run or is a literal, so it shows in the histogram); `nil` otherwise.
        var largestPixel: Int?

        /// For rows filtered with Sub (``Options/Filter/sub(bytesPerPixel:)``), the bytes of a pixel; 0 otherwise.
        var subBytesPerPixel = 0

        /// Bytes of the complete zlib stream: 2 header, the deflate data, 4 checksum.
        var byteCount: Int { 2 + (bitCount + 7) / 8 + 4 }
    }

    /// Reusable buffers, grown as needed and never shrunk.
    final class Scratch {
        private(set) var tokens: UnsafeMutablePointer<UInt16>
        private(set) var tokenCapacity = 0
        let histogram = UnsafeMutablePointer<UInt32>.allocate(capacity: SparseDeflate.tokenKinds)
        /// Four rows of ``rowCapacity`` + 8 bytes: two filtered rows (the current one and the one above),
        /// then two rows of a windowed image copied out whole, also the current one and the one above.
        private(set) var rows: UnsafeMutablePointer<UInt8>
        private(set) var rowCapacity = 0
        /// The `k`th of the four rows, 0...3.
        func row(_ k: Int) -> UnsafeMutablePointer<UInt8> { rows + k * (rowCapacity + 8) }
        /// The filter type byte chosen for each row.
        var rowFilters: [UInt8] = []
        /// Symbol frequencies of the literal/length and distance alphabets.
        var literalFrequencies = [UInt32](repeating: 0, count: 286)
        var distanceFrequencies = [UInt32](repeating: 0, count: 30)
        /// The codes of the last dynamic block priced.
        /// 288 symbols: the fixed code gives 286 and 287 lengths too, and canonical codes count them.
        var literalCode = HuffmanCode(alphabetSize: 288)
        var distanceCode = HuffmanCode(alphabetSize: 30)
        var codeLengthCode = HuffmanCode(alphabetSize: 19)
        let workspace = HuffmanCode.Workspace()
        /// Code lengths of both alphabets, end to end (at most 286 + 30).
        let allLengths = UnsafeMutablePointer<UInt8>.allocate(capacity: 286 + 30)
        /// Their run-length coding, one symbol per length at most: symbol | extra << 8 | extra bits << 16.
        let lengthSymbols = UnsafeMutablePointer<UInt32>.allocate(capacity: 286 + 30)
        /// Bit fields of the dynamic block header after the 3-bit block header, in order (3 counts, 19 code
        /// length code lengths, one field per length symbol); ``headerCount`` is 0 for a fixed block.
        let headerBits = UnsafeMutablePointer<UInt64>.allocate(capacity: 3 + 19 + 286 + 30)
        let headerBitCounts = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 + 19 + 286 + 30)
        var headerCount = 0
        /// Bits to write for each token kind, and how many; only kinds that occur are up to date.
        var tokenBits = [UInt64](repeating: 0, count: SparseDeflate.tokenKinds)
        var tokenBitCounts = [UInt8](repeating: 0, count: SparseDeflate.tokenKinds)

        init() {
            tokens = .allocate(capacity: 1)
            rows = .allocate(capacity: 1)
        }

        deinit {
            tokens.deallocate()
            rows.deallocate()
            histogram.deallocate()
            allLengths.deallocate()
            lengthSymbols.deallocate()
            headerBits.deallocate()
            headerBitCounts.deallocate()
        }

        /// Makes room for `tokenCount` tokens and four rows of `rowBytes` bytes (plus 8 bytes of slack each).
        func reserve(tokenCount: Int, rowBytes: Int) {
            if tokenCount > tokenCapacity {
                tokens.deallocate()
                tokens = .allocate(capacity: tokenCount)
                tokenCapacity = tokenCount
            }
            if rowBytes > rowCapacity {
                rows.deallocate()
                rows = .allocate(capacity: 4 * (rowBytes + 8))
                rowCapacity = rowBytes
            }
        }
    }

    // MARK: - Tables of RFC 1951, section 3.2.5

    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                     67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtraBits: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                          4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
                                       513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtraBits: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
                                            9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// Order in which code-length code lengths are sent (RFC 1951, section 3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The length code (257...285), its extra bit count and extra value for a match length of 3...258.
    static func lengthCode(_ length: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        lengthCodes[length - 3]
    }

    /// ``lengthCode(_:)`` for every length 3...258, indexed by length - 3.
    static let lengthCodes: [(symbol: Int, extraBits: Int, extra: Int)] = (3...maximumMatch).map { length in
        var i = lengthBase.count - 1
        while lengthBase[i] > length { i -= 1 }
        return (257 + i, lengthExtraBits[i], length - lengthBase[i])
    }

    /// The distance code (0...29), its extra bit count and extra value for a distance of 1...32768.
    static func distanceCode(_ distance: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        var i = distanceBase.count - 1
        while distanceBase[i] > distance { i -= 1 }
        return (i, distanceExtraBits[i], distance - distanceBase[i])
    }

    /// Code lengths of the fixed Huffman code (RFC 1951, section 3.2.6).
    static let fixedLiteralLengths: [UInt8] =
        Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24)
        + Array(repeating: 8, count: 8)
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)

    // MARK: - Pass 1: tokens, checksum, block choice

    /// Tokenises the filtered scanlines of `image` into `scratch`, and chooses and prices the block encoding.
    /// - Parameters:
    ///   - image: the rows, at most ``maximumWidth`` wide.
    ///   - options: filters and matching; the defaults suit sparse coverage.
    ///   - scratch: buffers reused across images.
    /// - Returns: the plan for ``write(_:plan:scratch:into:)``, with the exact stream length.
    static func plan(_ image: ByteRows, options: Options = Options(), scratch: Scratch) -> Plan {
        if options.filter == .none {
            // Rows as they are: only the window is read; rows outside it and its margins are runs of zeros.
            var planner = RowPlanner(width: image.width, height: image.height,
                                     window: (image.windowX, image.windowY, image.windowWidth, image.windowHeight),
                                     options: options, scratch: scratch)
            if image.windowHeight > 0 {
                planner.add(rows: image.base, count: image.windowHeight, stride: image.stride)
            }
            return planner.finish()
        }
        if case .sub = options.filter {
            // Whole rows, through the row planner too; a windowed image's rows are copied out one at a time.
            var planner = RowPlanner(width: image.width, height: image.height,
                                     window: (0, 0, image.width, image.height), options: options, scratch: scratch)
            if image.isWhole {
                planner.add(rows: image.base, count: image.height, stride: image.stride)
            } else {
                for y in 0..<image.height {
                    planner.add(rows: image.row(y, buffer: scratch.row(2 + (y & 1))), count: 1, stride: image.width)
                }
            }
            return planner.finish()
        }
        // Up or adaptive.
        let width = image.width
        let rowBytes = width + 1
        let total = rowBytes * image.height
        scratch.reserve(tokenCount: total, rowBytes: rowBytes)
        scratch.histogram.update(repeating: 0, count: tokenKinds)
        if scratch.rowFilters.count < image.height {
            scratch.rowFilters = [UInt8](repeating: 0, count: image.height)
        }
        let rowDistance = rowBytes
        let rowMatchMinimum = rowDistance <= maximumDistance ? options.rowMatchMinimum : 0

        var tokenizer = Tokenizer(start: scratch.tokens, histogram: scratch.histogram,
                                  rowMatchMinimum: rowMatchMinimum)
        scratch.rowFilters.withUnsafeMutableBufferPointer { filters in
            // Up-filtered rows alternate between two buffers, so the row above stays readable for matches; so do
            // the whole rows copied out of a windowed image.
            var above: UnsafePointer<UInt8>? = nil
            var up: UnsafePointer<UInt8>? = nil
            for y in 0..<image.height {
                let row = image.row(y, buffer: scratch.row(2 + (y & 1)))
                var filter: UInt8 = 0
                if let up {
                    filter = options.filter == .up || prefersUp(row, above: up, count: width) ? 2 : 0
                }
                filters[y] = filter
                var data = row
                if filter == 2, let up {
                    let target = scratch.row(y & 1)
                    for x in 0..<width { target[x] = row[x] &- up[x] }
                    data = UnsafePointer(target)
                }
                tokenizer.add(row: data, above: above, count: width, filter: filter)
                above = data
                up = row
            }
        }
        tokenizer.flushRun()

        var plan = Plan()
        plan.tokenCount = tokenizer.count
        plan.adler = tokenizer.adler.value
        price(&plan, scratch: scratch, rowDistance: rowDistance, rawBytes: total, allowDynamic: options.allowDynamic)
        return plan
    }

    /// The plan of an image made from its rows as they are produced, a band at a time, so that the image need not
    /// be held whole: the same tokens, checksum and plan as ``plan(_:options:scratch:)`` of the whole image.
    /// Unfiltered (``Options/Filter/none``: coverage or palette indices), only the window's rows are handed over,
    /// the rows around it and its margins being zeros; Sub-filtered (``Options/Filter/sub(bytesPerPixel:)``: grey
    /// or RGBA pixels), every row of the image, whole.
    struct RowPlanner {
        private var tokenizer: Tokenizer
        private let width: Int, height: Int
        private let window: (x: Int, y: Int, width: Int, height: Int)
        private let options: Options
        private let scratch: Scratch
        /// The window's rows handed over so far.
        private var rowsAdded = 0
        /// The bytes of a pixel of a Sub-filtered image; 0 for an unfiltered one.
        private let subBytesPerPixel: Int
        /// A Sub-filtered image's last row, filtered, unless it was all zeros: the next row's matches are against it.
        private var above: UnsafePointer<UInt8>?
        /// Where the zeros that end `above` begin.
        private var aboveEnd = 0

        /// Starts the plan of a `width` x `height` image whose bytes outside `window` are zero; a Sub-filtered
        /// image's window is the whole image.
        init(width: Int, height: Int, window: (x: Int, y: Int, width: Int, height: Int), options: Options,
             scratch: Scratch) {
            switch options.filter {
            case .none: subBytesPerPixel = 0
            case let .sub(bytesPerPixel):
                precondition(window == (0, 0, width, height), "a Sub-filtered image is planned whole")
                subBytesPerPixel = bytesPerPixel
            default: preconditionFailure("rows planned as they come are unfiltered or Sub-filtered")
            }
            self.width = width
            self.height = height
            self.window = window.width == 0 || window.height == 0 ? (0, height, 0, 0) : window
            self.options = options
            self.scratch = scratch
            let rowBytes = width + 1
            scratch.reserve(tokenCount: rowBytes * height, rowBytes: rowBytes)
            scratch.histogram.update(repeating: 0, count: tokenKinds)
            if scratch.rowFilters.count < height {
                scratch.rowFilters = [UInt8](repeating: 0, count: height)
            } else {
                scratch.rowFilters.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            }
            tokenizer = Tokenizer(start: scratch.tokens, histogram: scratch.histogram,
                                  rowMatchMinimum: rowBytes <= maximumDistance ? options.rowMatchMinimum : 0)
            for _ in 0..<self.window.y { tokenizer.addZeroRow(count: width) }
        }

        /// Adds the next `count` rows of the window, `window.width` bytes each, `stride` bytes apart from `rows`.
        /// The last of them is copied aside: the first row of the next call is matched against it.
        mutating func add(rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
            precondition(rowsAdded + count <= window.height, "more rows than the window has")
            if subBytesPerPixel > 0 {
                addFiltered(rows: rows, count: count, stride: stride)
                return
            }
            let leading = window.x, trailing = width - window.x - window.width
            // The row above the first one given: the last one of the call before, kept in the scratch.
            let kept = scratch.row(0)
            for k in 0..<count {
                let row = rows + k * stride
                let above: UnsafePointer<UInt8>? = k > 0 ? row - stride : rowsAdded > 0 ? UnsafePointer(kept) : nil
                tokenizer.add(row: row, above: above, count: window.width, filter: 0, leadingZeros: leading,
                              trailingZeros: trailing)
            }
            if count > 0 { kept.update(from: rows + (count - 1) * stride, count: window.width) }
            rowsAdded += count
        }

        /// Rows of a Sub-filtered image: a row of zeros (transparent, most rows of a decorated signature) is written
        /// unfiltered, as runs, found without subtracting or tokenising byte by byte; any other is Sub-filtered into
        /// the scratch, the rows alternating between two buffers so that the one above stays readable for matches.
        ///
        /// Only the part of a row from its first byte that is not zero to just past its last (a pixel on, where the
        /// filter gives 0 less the last pixel) is filtered and tokenised: the zeros on either side filter to zeros,
        /// handed over as counts. The part reaches as far right as the row above's does, so that a match at the row
        /// distance that runs into the zeros finds zeros above them too, as it would byte by byte. The tokens are the
        /// same as the whole row's.
        private mutating func addFiltered(rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
            scratch.rowFilters.withUnsafeMutableBufferPointer { filters in
                for k in 0..<count {
                    let y = rowsAdded + k, row = rows + k * stride
                    let first = Tokenizer.endOfRun(row, from: 0, to: width, value: 0)
                    if first == width {
                        filters[y] = 0
                        tokenizer.addZeroRow(count: width)
                        above = nil
                        continue
                    }
                    filters[y] = 1
                    var end = Swift.min(width, Self.endOfNonZero(row, from: first, to: width) + subBytesPerPixel)
                    if above != nil { end = Swift.max(end, aboveEnd) }
                    let target = scratch.row(y & 1)
                    // The bytes outside the part are zeros, for the next row's matches against this one.
                    target.update(repeating: 0, count: first)
                    subtract(row + first, into: target + first, count: end - first, bytesPerPixel: subBytesPerPixel)
                    (target + end).update(repeating: 0, count: width - end)
                    tokenizer.add(row: target + first, above: above.map { $0 + first }, count: end - first, filter: 1,
                                  leadingZeros: first, trailingZeros: width - end)
                    above = UnsafePointer(target)
                    aboveEnd = end
                }
            }
            rowsAdded += count
        }

        /// The index just past the last byte in `from..<to` that is not zero, or `from`: a word at a time from the end.
        private static func endOfNonZero(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
            var i = to
            while i - 8 >= from {
                let w = UInt64(littleEndian: UnsafeRawPointer(p + i - 8).loadUnaligned(as: UInt64.self))
                if w != 0 { return i - w.leadingZeroBitCount >> 3 }
                i -= 8
            }
            while i > from, p[i - 1] == 0 { i -= 1 }
            return i
        }

        /// The plan, once every row of the window has been added.
        mutating func finish() -> Plan {
            precondition(rowsAdded == window.height, "\(rowsAdded) of the window's \(window.height) rows were added")
            for _ in (window.y + window.height)..<height { tokenizer.addZeroRow(count: width) }
            tokenizer.flushRun()
            var plan = Plan()
            plan.tokenCount = tokenizer.count
            plan.adler = tokenizer.adler.value
            if subBytesPerPixel > 0 {
                plan.subBytesPerPixel = subBytesPerPixel
            } else {
                var v = 255
                while v > 0, scratch.histogram[v] == 0 { v -= 1 }
                plan.largestPixel = v
            }
            let rowBytes = width + 1
            price(&plan, scratch: scratch, rowDistance: rowBytes, rawBytes: rowBytes * height,
                  allowDynamic: options.allowDynamic)
            return plan
        }
    }

    /// The Sub filter of `row` into `target`: each byte less the byte `bytesPerPixel` before it (the first
    /// pixel's bytes as they are).
    static func subtract(_ row: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, count: Int,
                         bytesPerPixel: Int) {
        let first = Swift.min(bytesPerPixel, count)
        for x in 0..<first { target[x] = row[x] }
        // Eight bytes at a time, each less its own without borrowing from the next (Hacker's Delight, 2-18).
        let high: UInt64 = 0x8080_8080_8080_8080
        var x = first
        while x + 8 <= count {
            let a = UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self)
            let b = UnsafeRawPointer(row + x - bytesPerPixel).loadUnaligned(as: UInt64.self)
            let difference = ((a | high) &- (b & ~high)) ^ ((a ^ ~b) & high)
            UnsafeMutableRawPointer(target + x).storeBytes(of: difference, as: UInt64.self)
            x += 8
        }
        while x < count {
            target[x] = row[x] &- row[x - bytesPerPixel]
            x += 1
        }
    }

    /// Whether the Up filter leaves fewer non-zero bytes in `row` than no filter, skipping words that are
    /// zero in both rows.
    static func prefersUp(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int) -> Bool {
        var plain = 0
        var up = 0
        var x = 0
        while x + 8 <= count {
            let a = UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self)
            let b = UnsafeRawPointer(above + x).loadUnaligned(as: UInt64.self)
            if a | b != 0 {
                plain += nonZeroBytes(a)
                up += nonZeroBytes(a ^ b)
            }
            x += 8
        }
        while x < count {
            if row[x] != 0 { plain += 1 }
            if row[x] != above[x] { up += 1 }
            x += 1
        }
        return up < plain
    }

    /// Number of non-zero bytes in a word.
    @inline(__always) static func nonZeroBytes(_ w: UInt64) -> Int {
        let low7 = w & 0x7f7f_7f7f_7f7f_7f7f
        let t = ((low7 &+ 0x7f7f_7f7f_7f7f_7f7f) | w) & 0x8080_8080_8080_8080
        return t.nonzeroBitCount
    }

    /// Turns the token histogram into symbol frequencies, prices the three block encodings and keeps the
    /// cheapest, leaving in `scratch` everything ``write(_:plan:scratch:into:)`` needs to emit it.
    static func price(_ plan: inout Plan, scratch: Scratch, rowDistance: Int, rawBytes: Int, allowDynamic: Bool) {
        let h = scratch.histogram
        let rowCode = distanceCode(Swift.min(rowDistance, maximumDistance))
        var extraBitCount = 0
        scratch.literalFrequencies.withUnsafeMutableBufferPointer { literals in
            scratch.distanceFrequencies.withUnsafeMutableBufferPointer { distances in
                distances.update(repeating: 0)
                for v in 0..<256 { literals[v] = h[v] }
                literals[256] = 1
                for v in 257..<286 { literals[v] = 0 }
                for length in 3...maximumMatch {
                    let runs = h[runTokenBase + length - 3]
                    let rows = h[rowTokenBase + length - 3]
                    guard runs | rows != 0 else { continue }
                    let code = lengthCode(length)
                    literals[code.symbol] += runs + rows
                    distances[0] += runs
                    distances[rowCode.symbol] += rows
                    extraBitCount += Int(runs) * code.extraBits + Int(rows) * (code.extraBits + rowCode.extraBits)
                }
            }
        }

        func cost(_ lengths: [UInt8], _ frequencies: [UInt32]) -> Int {
            var bits = 0
            for i in frequencies.indices { bits += Int(lengths[i]) * Int(frequencies[i]) }
            return bits
        }

        // Stored: per block 3 header bits padded to a byte, then LEN and NLEN; the first block starts
        // byte-aligned after the zlib header.
        let storedBlocks = Swift.max(1, (rawBytes + maximumStoredBlock - 1) / maximumStoredBlock)
        let storedBits = 8 * (5 * storedBlocks + rawBytes)
        let fixedBits = 3 + cost(fixedLiteralLengths, scratch.literalFrequencies)
            + cost(fixedDistanceLengths, scratch.distanceFrequencies) + extraBitCount

        var dynamicBits = Int.max
        if allowDynamic {
            scratch.literalFrequencies.withUnsafeBufferPointer {
                scratch.literalCode.build(frequencies: $0, maxLength: maximumCodeLength, workspace: scratch.workspace)
            }
            scratch.distanceFrequencies.withUnsafeBufferPointer {
                scratch.distanceCode.build(frequencies: $0, maxLength: maximumCodeLength, workspace: scratch.workspace)
            }
            let headerBits = dynamicHeader(scratch)
            dynamicBits = 3 + headerBits + cost(scratch.literalCode.lengths, scratch.literalFrequencies)
                + cost(scratch.distanceCode.lengths, scratch.distanceFrequencies) + extraBitCount
        }

        if storedBits <= Swift.min(fixedBits, dynamicBits) {
            plan.blockType = .stored
            plan.bitCount = storedBits
            return
        }
        if dynamicBits < fixedBits {
            plan.blockType = .dynamic
            plan.bitCount = dynamicBits
        } else {
            plan.blockType = .fixed
            plan.bitCount = fixedBits
            scratch.headerCount = 0
            scratch.literalCode.lengths.withUnsafeMutableBufferPointer {
                _ = $0.update(fromContentsOf: fixedLiteralLengths)
            }
            scratch.distanceCode.lengths.withUnsafeMutableBufferPointer { $0.update(repeating: 5) }
            scratch.literalCode.assignCodes()
            scratch.distanceCode.assignCodes()
        }

        let literals = scratch.literalCode
        let distances = scratch.distanceCode
        let distanceFields: ((bits: UInt64, count: Int), (bits: UInt64, count: Int)) = {
            func field(_ distance: Int) -> (bits: UInt64, count: Int) {
                let code = distanceCode(Swift.min(distance, maximumDistance))
                let n = Int(distances.lengths[code.symbol])
                return (UInt64(distances.codes[code.symbol]) | UInt64(code.extra) << UInt64(n), n + code.extraBits)
            }
            return (field(1), field(rowDistance))
        }()
        scratch.tokenBits.withUnsafeMutableBufferPointer { bits in
            scratch.tokenBitCounts.withUnsafeMutableBufferPointer { counts in
                // Only token kinds that occur need their bits: the others are never looked up.
                for v in 0..<256 where h[v] != 0 {
                    bits[v] = UInt64(literals.codes[v])
                    counts[v] = literals.lengths[v]
                }
                for length in 3...maximumMatch where h[runTokenBase + length - 3] | h[rowTokenBase + length - 3] != 0 {
                    let code = lengthCode(length)
                    let n = Int(literals.lengths[code.symbol])
                    let lengthBits = UInt64(literals.codes[code.symbol]) | UInt64(code.extra) << UInt64(n)
                    let lengthCount = n + code.extraBits
                    let run = runTokenBase + length - 3
                    bits[run] = lengthBits | distanceFields.0.bits << UInt64(lengthCount)
                    counts[run] = UInt8(lengthCount + distanceFields.0.count)
                    let row = rowTokenBase + length - 3
                    bits[row] = lengthBits | distanceFields.1.bits << UInt64(lengthCount)
                    counts[row] = UInt8(lengthCount + distanceFields.1.count)
                }
            }
        }
        plan.endOfBlock = (UInt64(literals.codes[256]), Int(literals.lengths[256]))
    }

    /// Fills `scratch.headerBits` with the bit fields of a dynamic block header after BFINAL/BTYPE for the
    /// codes in `scratch`: HLIT, HDIST, HCLEN, the code-length code, and the run-length coded literal/length
    /// and distance code lengths (RFC 1951, section 3.2.7).
    /// - Returns: the header's length in bits.
    static func dynamicHeader(_ scratch: Scratch) -> Int {
        let all = scratch.allLengths
        var literalCount = 286
        var distanceCount = 30
        scratch.literalCode.lengths.withUnsafeBufferPointer { literals in
            scratch.distanceCode.lengths.withUnsafeBufferPointer { distances in
                while literalCount > 257, literals[literalCount - 1] == 0 { literalCount -= 1 }
                while distanceCount > 1, distances[distanceCount - 1] == 0 { distanceCount -= 1 }
                all.update(from: literals.baseAddress!, count: literalCount)
                (all + literalCount).update(from: distances.baseAddress!, count: distanceCount)
            }
        }
        let total = literalCount + distanceCount

        // Run-length code the lengths: symbols 0...15 literally, 16 repeats the previous 3...6 times,
        // 17 repeats zero 3...10 times, 18 repeats zero 11...138 times.
        let symbols = scratch.lengthSymbols
        var symbolCount = 0
        var frequencies: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                          UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &frequencies) { raw in
            let frequencies = raw.bindMemory(to: UInt32.self)
            func append(_ symbol: Int, _ extra: Int, _ extraBits: Int) {
                symbols[symbolCount] = UInt32(symbol | extra << 8 | extraBits << 16)
                symbolCount += 1
                frequencies[symbol] += 1
            }
            var i = 0
            while i < total {
                let l = all[i]
                var run = 1
                while i + run < total, all[i + run] == l { run += 1 }
                i += run
                if l == 0 {
                    while run >= 11 {
                        let r = Swift.min(run, 138)
                        append(18, r - 11, 7)
                        run -= r
                    }
                    if run >= 3 {
                        append(17, run - 3, 3)
                        run = 0
                    }
                } else {
                    append(Int(l), 0, 0)
                    run -= 1
                    while run >= 3 {
                        let r = Swift.min(run, 6)
                        append(16, r - 3, 2)
                        run -= r
                    }
                }
                for _ in 0..<run { append(Int(l), 0, 0) }
            }
            scratch.codeLengthCode.build(frequencies: UnsafeBufferPointer(frequencies),
                                         maxLength: maximumCodeLengthCodeLength, workspace: scratch.workspace)
        }
        let code = scratch.codeLengthCode
        var codeLengthCount = 19
        while codeLengthCount > 4, code.lengths[codeLengthOrder[codeLengthCount - 1]] == 0 { codeLengthCount -= 1 }

        let bits = scratch.headerBits, counts = scratch.headerBitCounts
        var n = 0
        func field(_ value: UInt64, _ count: Int) {
            bits[n] = value
            counts[n] = UInt8(count)
            n += 1
        }
        field(UInt64(literalCount - 257), 5)
        field(UInt64(distanceCount - 1), 5)
        field(UInt64(codeLengthCount - 4), 4)
        var headerBitTotal = 14 + 3 * codeLengthCount
        for k in 0..<codeLengthCount { field(UInt64(code.lengths[codeLengthOrder[k]]), 3) }
        for k in 0..<symbolCount {
            let s = Int(symbols[k])
            let symbol = s & 0xff, extra = s >> 8 & 0xff, extraBits = s >> 16
            let length = Int(code.lengths[symbol])
            field(UInt64(code.codes[symbol]) | UInt64(extra) << UInt64(length), length + extraBits)
            headerBitTotal += length + extraBits
        }
        scratch.headerCount = n
        return headerBitTotal
    }

    // MARK: - Pass 2: bits

    /// Writes the zlib stream planned by ``plan(_:options:scratch:)`` for the same image and scratch.
    /// - Parameters:
    ///   - image: the rows given to ``plan(_:options:scratch:)``.
    ///   - plan: its result.
    ///   - scratch: the scratch given to ``plan(_:options:scratch:)``, untouched since.
    ///   - out: room for ``Plan/byteCount`` bytes plus 8 bytes of slack.
    /// - Returns: the number of bytes written, always ``Plan/byteCount``.
    static func write(_ image: ByteRows, plan: Plan, scratch: Scratch, into out: UnsafeMutablePointer<UInt8>) -> Int {
        // CMF 0x78: deflate with a 32 KiB window; FLG 0x01: fastest level, no dictionary, check bits
        // making 0x7801 a multiple of 31 (RFC 1950, section 2.2).
        out[0] = 0x78
        out[1] = 0x01
        var writer = BitWriter(out + 2)
        switch plan.blockType {
        case .stored:
            writeStored(image, filters: scratch.rowFilters, subBytesPerPixel: plan.subBytesPerPixel, scratch: scratch,
                        writer: &writer)
        case .fixed, .dynamic:
            writer.put(plan.blockType == .fixed ? 0b011 : 0b101, 3)  // BFINAL = 1, BTYPE = 01 or 10
            for i in 0..<scratch.headerCount { writer.put(scratch.headerBits[i], Int(scratch.headerBitCounts[i])) }
            scratch.tokenBits.withUnsafeBufferPointer { bits in
                scratch.tokenBitCounts.withUnsafeBufferPointer { counts in
                    let tokens = scratch.tokens
                    for i in 0..<plan.tokenCount {
                        let t = Int(tokens[i])
                        writer.put(bits[t], Int(counts[t]))
                    }
                }
            }
            writer.put(plan.endOfBlock.bits, plan.endOfBlock.count)
            writer.alignToByte()
        }
        var end = writer.cursor
        for shift in [24, 16, 8, 0] as [UInt32] {
            end.pointee = UInt8(truncatingIfNeeded: plan.adler >> shift)
            end += 1
        }
        let written = end - out
        precondition(written == plan.byteCount, "deflate wrote \(written) bytes, planned \(plan.byteCount)")
        return written
    }

    /// Writes the filtered scanlines as stored blocks of at most 65,535 bytes.
    static func writeStored(_ image: ByteRows, filters: [UInt8], subBytesPerPixel: Int, scratch: Scratch,
                            writer: inout BitWriter) {
        let rowBytes = image.width + 1
        var remaining = rowBytes * image.height
        var blockLeft = 0
        func emit(_ source: UnsafePointer<UInt8>, _ count: Int) {
            var p = source
            var n = count
            while n > 0 {
                if blockLeft == 0 {
                    blockLeft = Swift.min(remaining, maximumStoredBlock)
                    writer.put(remaining <= maximumStoredBlock ? 1 : 0, 3)  // BFINAL, BTYPE = 00
                    writer.alignToByte()
                    let len = UInt64(blockLeft)
                    writer.put(len | (~len & 0xffff) << 16, 32)
                }
                let k = Swift.min(n, blockLeft)
                writer.copy(p, count: k)
                p += k
                n -= k
                blockLeft -= k
                remaining -= k
            }
        }
        var up: UnsafePointer<UInt8>? = nil
        for y in 0..<image.height {
            let row = image.row(y, buffer: scratch.row(2 + (y & 1)))
            var filter = filters[y]
            emit(&filter, 1)
            if filter == 2, let up {
                let filtered = scratch.row(0)
                for x in 0..<image.width { filtered[x] = row[x] &- up[x] }
                emit(filtered, image.width)
            } else if filter == 1 {
                let filtered = scratch.row(0)
                subtract(row, into: filtered, count: image.width, bytesPerPixel: subBytesPerPixel)
                emit(filtered, image.width)
            } else {
                emit(row, image.width)
            }
            up = row
        }
    }
}

/// Pass 1's state: turns filtered scanlines into tokens and histogram counts, and sums Adler-32.
struct Tokenizer {
    private var cursor: UnsafeMutablePointer<UInt16>
    private let start: UnsafeMutablePointer<UInt16>
    private let histogram: UnsafeMutablePointer<UInt32>
    private let rowMatchMinimum: Int
    /// The checksum of every byte seen.
    private(set) var adler = Adler32()
    /// The last byte emitted, or -1 before the first.
    private var runValue = -1
    /// Repeats of `runValue` seen but not yet emitted.
    private var runLength = 0

    init(start: UnsafeMutablePointer<UInt16>, histogram: UnsafeMutablePointer<UInt32>, rowMatchMinimum: Int) {
        self.cursor = start
        self.start = start
        self.histogram = histogram
        self.rowMatchMinimum = rowMatchMinimum
    }

    /// Tokens written so far.
    var count: Int { cursor - start }

    @inline(__always) private mutating func emit(_ token: Int) {
        cursor.pointee = UInt16(truncatingIfNeeded: token)
        cursor += 1
        histogram[token] &+= 1
    }

    /// Emits `length` bytes as matches of up to 258 bytes on the token base given; with `length` >= 3 the
    /// last piece is never shorter than 3. Returns the 0...2 bytes left over.
    @inline(__always) private mutating func emitMatches(_ length: Int, base: Int) -> Int {
        var n = length
        while n >= 3 {
            let piece = n <= SparseDeflate.maximumMatch ? n
                : n - SparseDeflate.maximumMatch >= 3 ? SparseDeflate.maximumMatch : n - 3
            emit(base + piece - 3)
            n -= piece
        }
        return n
    }

    /// Emits the pending run of repeats.
    @inline(__always) mutating func flushRun() {
        guard runLength > 0 else { return }
        let left = emitMatches(runLength, base: SparseDeflate.runTokenBase)
        for _ in 0..<left { emit(runValue) }
        runLength = 0
    }

    /// Adds `count` zero bytes: they continue a run of zeros, or start one with a literal.
    @inline(__always) private mutating func addZeros(_ count: Int) {
        if runValue == 0 {
            runLength += count
        } else {
            flushRun()
            emit(0)
            runValue = 0
            runLength += count - 1
        }
        adler.add(run: 0, count: count)
    }

    /// Tokenises one scanline of filter type 0 whose `count` bytes are all zero.
    mutating func addZeroRow(count: Int) {
        addZeros(1 + count)
        adler.reduce()
    }

    /// Tokenises one scanline: its filter type byte, `leadingZeros` zero bytes, `count` filtered bytes, then
    /// `trailingZeros` zero bytes.
    /// - Parameters:
    ///   - row: the filtered bytes between the zeros.
    ///   - above: the previous scanline's bytes at the same columns, for matches at the row distance (its
    ///     bytes in the zeros' columns must be zero too); `nil` for none, or for a row of zeros.
    ///   - count: bytes at `row`.
    ///   - filter: the filter type byte.
    ///   - leadingZeros: zero bytes before `row`, default 0.
    ///   - trailingZeros: zero bytes after `row`, default 0.
    mutating func add(row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, count: Int, filter: UInt8,
                      leadingZeros: Int = 0, trailingZeros: Int = 0) {
        if Int(filter) == runValue {
            runLength += 1
        } else {
            flushRun()
            emit(Int(filter))
            runValue = Int(filter)
        }
        adler.add(filter)
        if leadingZeros > 0 { addZeros(leadingZeros) }
        var trailing = trailingZeros
        // A row match tried at `i` and found too short ends where the rows first differ; one tried before that
        // end ends there too and is shorter still, so it is not tried.
        var noMatchBefore = 0
        var i = 0
        while i < count {
            let b = row[i]
            if Int(b) == runValue {
                let end = Self.endOfRun(row, from: i + 1, to: count, value: b)
                runLength += end - i
                adler.add(run: b, count: end - i)
                i = end
                continue
            }
            if rowMatchMinimum > 0, b != 0, i >= noMatchBefore, let above, above[i] == b {
                let end = Self.endOfMatch(row, above, from: i + 1, to: count)
                // Both rows are zero after `row`: a match that reaches its end runs on to the scanline's end.
                let zeros = end == count ? trailing : 0
                if end - i + zeros >= rowMatchMinimum {
                    flushRun()
                    _ = emitMatches(end - i + zeros, base: SparseDeflate.rowTokenBase)
                    adler.add(sparse: row + i, count: end - i)
                    runValue = Int(row[end - 1])
                    if zeros > 0 {
                        adler.add(run: 0, count: zeros)
                        runValue = 0
                        trailing = 0
                    }
                    i = end
                    continue
                }
                noMatchBefore = end
            }
            flushRun()
            emit(Int(b))
            adler.add(b)
            runValue = Int(b)
            i += 1
        }
        if trailing > 0 { addZeros(trailing) }
        adler.reduce()
    }

    /// The first index in `from..<to` whose byte is not `value`, or `to`: one word, then 32 bytes at a time
    /// (four words tested with one branch), then a word at a time.
    @inline(__always) static func endOfRun(_ p: UnsafePointer<UInt8>, from: Int, to: Int, value: UInt8) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        @inline(__always) func word(_ i: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) ^ pattern
        }
        var i = from
        // Most runs between anti-aliased pixels are short: try one word before the wide loop.
        if i + 8 <= to {
            let w = word(i)
            if w != 0 { return i + w.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i + 32 <= to {
            let a = word(i), b = word(i + 8), c = word(i + 16), d = word(i + 24)
            if a | b | c | d != 0 {
                if a != 0 { return i + a.trailingZeroBitCount >> 3 }
                if b != 0 { return i + 8 + b.trailingZeroBitCount >> 3 }
                if c != 0 { return i + 16 + c.trailingZeroBitCount >> 3 }
                return i + 24 + d.trailingZeroBitCount >> 3
            }
            i += 32
        }
        while i + 8 <= to {
            let w = word(i)
            if w != 0 { return i + w.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < to, p[i] == value { i += 1 }
        return i
    }

    /// The first index in `from..<to` where `a` and `b` differ, or `to`; 32 bytes at a time, then eight.
    @inline(__always) static func endOfMatch(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                             from: Int, to: Int) -> Int {
        @inline(__always) func difference(_ i: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self))
                ^ UInt64(littleEndian: UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self))
        }
        var i = from
        while i + 32 <= to {
            if difference(i) | difference(i + 8) | difference(i + 16) | difference(i + 24) != 0 { break }
            i += 32
        }
        while i + 8 <= to {
            let w = difference(i)
            if w != 0 { return i + w.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < to, a[i] == b[i] { i += 1 }
        return i
    }
}
