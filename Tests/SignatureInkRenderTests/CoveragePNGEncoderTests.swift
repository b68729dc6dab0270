// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk
@testable import SignatureInkRender
import Testing

/// A one-byte-per-pixel image in memory, rows `stride` bytes apart.
struct ByteImage: CustomStringConvertible {
    var name: String
    var width: Int
    var height: Int
    var stride: Int
    var bytes: [UInt8]

    init(_ name: String, width: Int, height: Int, stride: Int? = nil, pixel: (Int, Int) -> UInt8) {
        self.name = name
        self.width = width
        self.height = height
        self.stride = stride ?? width
        bytes = [UInt8](repeating: 0xEE, count: self.stride * height)  // padding that must not leak
        for y in 0..<height { for x in 0..<width { bytes[y * self.stride + x] = pixel(x, y) } }
    }

    subscript(x: Int, y: Int) -> UInt8 { bytes[y * stride + x] }
    var description: String { "\(name) \(width)x\(height) stride \(stride)" }
}

/// Palette entry `i` has red `i`, so a decoded pixel names its index; the other channels make every
/// entry distinct and exercise tRNS.
let indexPalette: [Color] = (0..<256).map { (i: Int) -> Color in
    let blue = UInt8(i * 37 & 255)
    let alpha = UInt8(i * 101 & 255)
    return Color(red: UInt8(i), green: UInt8(255 - i), blue: blue, alpha: alpha)
}

/// Anti-aliased thick curves drawn by Cairo on an A8 surface, like a rendered signature.
func cairoCoverage(width: Int, height: Int, strokes: Int, seed: UInt64, penWidth: Double = 2.5) throws -> ByteImage {
    let surface = try CairoSurface(image: .a8, width: width, height: height)
    let context = try CairoContext(surface: surface)
    context.setSource(.black)
    var random = SeededRandom(seed: seed)
    var path = Path()
    for _ in 0..<strokes {
        func point() -> Point {
            Point(random.uniform(0...Double(width)), random.uniform(0...Double(height)))
        }
        path.move(to: point())
        for _ in 0..<3 { path.curve(to: point(), control1: point(), control2: point()) }
    }
    context.append(path)
    context.strokeRound(width: penWidth)
    try context.check()
    let stride = surface.stride
    let pixels = try surface.withPixels { Array($0) }
    return ByteImage("cairo seed \(seed)", width: width, height: height, stride: stride) { x, y in
        pixels[y * stride + x]
    }
}

func encode(_ image: ByteImage, palette: [Color] = indexPalette, metadata: PNGMetadata = PNGMetadata(),
            options: SparseDeflate.Options = SparseDeflate.Options()) throws -> [UInt8] {
    var encoder = CoveragePNGEncoder()
    encoder.options = options
    return try image.bytes.withUnsafeBufferPointer {
        try encoder.encode(coverage: $0, width: image.width, height: image.height, stride: image.stride,
                           palette: palette, metadata: metadata)
    }
}

/// Decodes `png` with libpng and checks every pixel is the palette entry of the image's byte.
func expectRoundTrip(_ png: [UInt8], _ image: ByteImage, palette: [Color] = indexPalette,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
    let decoded = try DecodedPNG(png)
    #expect(decoded.width == image.width && decoded.height == image.height, sourceLocation: sourceLocation)
    #expect(decoded.colorType == .indexed && decoded.bitDepth == 8, sourceLocation: sourceLocation)
    var wrong = 0
    for y in 0..<image.height {
        for x in 0..<image.width where decoded.pixel(x: x, y: y) != palette[Int(image[x, y])] { wrong += 1 }
    }
    #expect(wrong == 0, "\(wrong) pixels differ in \(image)", sourceLocation: sourceLocation)
}

extension CoveragePNGEncoder {
    /// The PNG of `image` with ``indexPalette``, from a copy of this encoder.
    func encoding(_ image: ByteRows) throws -> [UInt8] {
        var copy = self
        return try copy.encode(image, palette: indexPalette, metadata: PNGMetadata())
    }
}

@Suite struct CoveragePNGEncoderTests {
    static let syntheticImages: [ByteImage] = {
        var random = SeededRandom(seed: 7)
        var noise: [UInt8] = (0..<(203 * 97)).map { _ in UInt8.random(in: 0...255, using: &random) }
        var sparse: [UInt8] = (0..<(150 * 80)).map { _ in
            Double.random(in: 0...1, using: &random) < 0.03 ? UInt8.random(in: 1...255, using: &random) : 0
        }
        return [
            ByteImage("empty", width: 600, height: 300) { _, _ in 0 },
            ByteImage("full", width: 600, height: 300) { _, _ in 255 },
            ByteImage("single pixel 0", width: 1, height: 1) { _, _ in 0 },
            ByteImage("single pixel 255", width: 1, height: 1) { _, _ in 255 },
            ByteImage("one row", width: 1000, height: 1) { x, _ in x % 97 < 5 ? UInt8(x % 256) : 0 },
            ByteImage("one column", width: 1, height: 1000) { _, y in y % 50 < 3 ? 200 : 0 },
            ByteImage("odd stride", width: 13, height: 11, stride: 16) { x, y in UInt8((x * y) % 7) },
            ByteImage("odd stride wide", width: 301, height: 40, stride: 305) { x, y in x == y || x == 300 - y ? 255 : 0 },
            ByteImage("runs around 258", width: 259, height: 3) { x, y in x < 258 + y ? 9 : 10 },
            ByteImage("stripes", width: 64, height: 64) { x, _ in x < 32 ? 0 : 255 },
            ByteImage("random noise", width: 203, height: 97) { x, y in noise[y * 203 + x] },
            ByteImage("sparse noise", width: 150, height: 80) { x, y in sparse[y * 150 + x] },
            ByteImage("gradient", width: 256, height: 256) { x, y in UInt8((x + y) & 255) },
            ByteImage("wider than deflate's window", width: 40000, height: 3) { x, y in x % 1000 < 3 + y ? 255 : 0 },
            // Distinct bytes repeated row after row: the only matches are against the row above, so the
            // distance code has a single symbol, and it is not 0.
            ByteImage("copied rows", width: 200, height: 20) { x, _ in UInt8(x % 7 + 1) },
            ByteImage("rows repeat", width: 40, height: 30) { x, y in y % 2 == 0 ? UInt8(x * 6) : UInt8(x * 6 + 1) },
        ]
    }()

    static let variants: [SparseDeflate.Options] = [
        SparseDeflate.Options(),
        SparseDeflate.Options(filter: .up),
        SparseDeflate.Options(filter: .adaptive),
        SparseDeflate.Options(rowMatchMinimum: 3),
        SparseDeflate.Options(rowMatchMinimum: 0),
        SparseDeflate.Options(filter: .up, rowMatchMinimum: 3),
        SparseDeflate.Options(filter: .adaptive, rowMatchMinimum: 8),
        SparseDeflate.Options(allowDynamic: false),
        SparseDeflate.Options(filter: .sub(bytesPerPixel: 1)),
        SparseDeflate.Options(filter: .sub(bytesPerPixel: 1), rowMatchMinimum: 3),
    ]

    @Test(arguments: syntheticImages)
    func syntheticImagesRoundTripThroughLibpng(image: ByteImage) throws {
        for options in Self.variants {
            try expectRoundTrip(encode(image, options: options), image)
        }
    }

    /// Seeded random images of random size, stride, density and run structure, through every variant.
    @Test func randomImagesRoundTripThroughLibpng() throws {
        var random = SeededRandom(seed: 2026)
        for trial in 0..<60 {
            let width = Int.random(in: 1...300, using: &random)
            let height = Int.random(in: 1...40, using: &random)
            let stride = width + Int.random(in: 0...7, using: &random)
            let density = Double.random(in: 0...1, using: &random)
            let runLength = Int.random(in: 1...20, using: &random)
            var value: UInt8 = 0
            var pixels: [UInt8] = []
            for i in 0..<(width * height) {
                if i % runLength == 0 {
                    value = Double.random(in: 0...1, using: &random) < density ? UInt8.random(in: 0...255, using: &random) : 0
                }
                pixels.append(value)
            }
            // Every few trials, copy rows down so matches against the row above occur.
            let copyRows = trial % 3 == 0
            let image = ByteImage("random \(trial)", width: width, height: height, stride: stride) { x, y in
                pixels[(copyRows ? y / 2 : y) * width + x]
            }
            for options in Self.variants {
                try expectRoundTrip(encode(image, options: options), image)
            }
        }
    }

    /// An image handed over as a window (zeros around it, not stored) encodes to the bytes of the whole image,
    /// in every variant: windows at random, touching each edge, whole and empty.
    @Test func windowedImagesGiveTheBytesOfTheWholeImage() throws {
        var random = SeededRandom(seed: 404)
        let images = try Self.syntheticImages + [cairoCoverage(width: 300, height: 120, strokes: 5, seed: 9)]
        for image in images {
            let w = image.width, h = image.height
            var windows = [(0, 0, w, h), (0, 0, 0, 0), (0, 0, w / 2, h), (w / 2, 0, w - w / 2, h), (0, h / 3, w, h / 3)]
            for _ in 0..<3 {
                let x = Int.random(in: 0...w, using: &random), y = Int.random(in: 0...h, using: &random)
                windows.append((x, y, Int.random(in: 0...(w - x), using: &random), Int.random(in: 0...(h - y), using: &random)))
            }
            for window in windows {
                let inside = { (x: Int, y: Int) in
                    x >= window.0 && x < window.0 + window.2 && y >= window.1 && y < window.1 + window.3
                }
                let whole = ByteImage("\(image.name) in \(window)", width: w, height: h) { x, y in
                    inside(x, y) ? image[x, y] : 0
                }
                let stride = window.2 + Int.random(in: 0...5, using: &random)
                var stored = [UInt8](repeating: 0xEE, count: Swift.max(1, stride * window.3))  // padding must not leak
                for y in 0..<window.3 {
                    for x in 0..<window.2 { stored[y * stride + x] = image[window.0 + x, window.1 + y] }
                }
                for options in Self.variants {
                    var encoder = CoveragePNGEncoder()
                    encoder.options = options
                    let png = try stored.withUnsafeBufferPointer { (pixels) throws(RenderError) in
                        try encoder.encode(ByteRows(base: pixels.baseAddress!, width: w, height: h, stride: stride,
                                                    window: window), palette: indexPalette, metadata: PNGMetadata())
                    }
                    #expect(try png == encode(whole, options: options), "\(whole) \(options)")
                }
            }
        }
        let blank = try CoveragePNGEncoder().encoding(ByteRows.blank(width: 600, height: 300))
        #expect(try blank == encode(ByteImage("empty", width: 600, height: 300) { _, _ in 0 }))
    }

    /// The window's rows handed over a band at a time, bands of random heights (a row, several, all), give the
    /// bytes of the whole image; an image that would be stored (noise) is handed back, for the whole image to be
    /// encoded.
    @Test func rowsInBandsGiveTheBytesOfTheWholeImage() throws {
        var random = SeededRandom(seed: 405)
        let images = try Self.syntheticImages + [cairoCoverage(width: 300, height: 120, strokes: 5, seed: 10)]
        var handedBack = 0
        for image in images {
            let w = image.width, h = image.height
            let x = Int.random(in: 0..<w, using: &random), y = Int.random(in: 0..<h, using: &random)
            let windows = [(0, 0, w, h), (0, 0, 0, 0),
                           (x, y, Int.random(in: 1...(w - x), using: &random), Int.random(in: 1...(h - y), using: &random))]
            for window in windows {
                let whole = ByteImage("\(image.name) in \(window)", width: w, height: h) { px, py in
                    px >= window.0 && px < window.0 + window.2 && py >= window.1 && py < window.1 + window.3
                        ? image[px, py] : 0
                }
                var encoder = CoveragePNGEncoder()
                let banded = try encoder.encode(width: w, height: h, window: window, palette: indexPalette,
                                                metadata: PNGMetadata()) { (planner) throws(RenderError) in
                    var row = 0
                    while row < window.3 {
                        let count = Swift.min(window.3 - row, [1, 3, 16, window.3].randomElement(using: &random)!)
                        // Each band in a buffer of its own, so that no row of an earlier band can be read again.
                        var band = [UInt8](repeating: 0xEE, count: count * window.2 + 1)
                        for k in 0..<count {
                            for c in 0..<window.2 { band[k * window.2 + c] = image[window.0 + c, window.1 + row + k] }
                        }
                        band.withUnsafeBufferPointer { planner.add(rows: $0.baseAddress!, count: count, stride: window.2) }
                        row += count
                    }
                }
                let expected = try encode(whole)
                if let banded {
                    #expect(banded == expected, "\(whole)")
                } else {
                    // Handed back only for an image the whole encoder stores: its IDAT is the rows uncompressed.
                    handedBack += 1
                    #expect(expected.count > w * h, "\(whole) was handed back")
                }
            }
        }
        #expect(handedBack >= 1)
    }

    @Test func renderedCurvesRoundTripThroughLibpng() throws {
        for seed: UInt64 in 1...4 {
            let image = try cairoCoverage(width: 600, height: 300, strokes: 6, seed: seed)
            #expect(image.bytes.contains { $0 > 0 && $0 < 255 }, "the curves are anti-aliased")
            for options in Self.variants {
                try expectRoundTrip(encode(image, options: options), image)
            }
        }
    }

    /// The chunks of a PNG file: type, data, and whether the stored CRC matches.
    static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8], crcMatches: Bool)] {
        var result: [(String, [UInt8], Bool)] = []
        var i = 8
        while i + 12 <= png.count {
            let length = png[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
            let typeAndData = Array(png[(i + 4)..<(i + 8 + length)])
            let stored = png[(i + 8 + length)..<(i + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            result.append((String(decoding: typeAndData.prefix(4), as: UTF8.self), Array(typeAndData.dropFirst(4)),
                           CRC32.checksum(typeAndData) == stored))
            i += 12 + length
        }
        return result
    }

    @Test(arguments: syntheticImages)
    func chunkCRCsAndTheZlibChecksumAreRight(image: ByteImage) throws {
        let png = try encode(image)  // default options: filter type 0 on every row
        let chunks = Self.chunks(png)
        #expect(Array(png.prefix(8)) == PNGChunkWriter.signature)
        #expect(chunks.map(\.type) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        #expect(chunks.allSatisfy { $0.crcMatches })
        let idat = try #require(chunks.first { $0.type == "IDAT" }?.data)
        #expect(idat.prefix(2) == [0x78, 0x01])
        var adler = Adler32()
        for y in 0..<image.height {
            adler.add(0)
            image.bytes[(y * image.stride)..<(y * image.stride + image.width)].withUnsafeBufferPointer { adler.add($0) }
        }
        let stored = idat.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(stored == adler.value)
    }

    @Test func incompressibleNoiseStaysBounded() throws {
        let image = Self.syntheticImages.first { $0.name == "random noise" }!
        let png = try encode(image)
        let raw = (image.width + 1) * image.height
        // Stored blocks: 5 bytes per 65,535 plus zlib's 6; chunks: signature, IHDR, PLTE, tRNS, IDAT, IEND.
        let bound = raw + 5 * (raw / 65535 + 1) + 6 + 8 + 25 + 780 + 268 + 12 + 12
        #expect(png.count <= bound)
    }

    @Test func emptyImageIsTiny() throws {
        let png = try encode(ByteImage("empty", width: 600, height: 300) { _, _ in 0 },
                             palette: CoveragePNGEncoder.palette(ink: .black))
        let chunks = Self.chunks(png)
        // Only palette entry 0 is used, so only it is written.
        #expect(chunks.first { $0.type == "PLTE" }?.data.count == 3)
        #expect(chunks.first { $0.type == "tRNS" }?.data == [0])
        // 180,300 zero bytes are about 700 matches of 258 at 2 bits each: under 250 bytes of image data.
        #expect(try #require(chunks.first { $0.type == "IDAT" }).data.count < 250)
        #expect(png.count < 400)
    }

    @Test func paletteStopsAtTheLargestValueUsed() throws {
        let image = ByteImage("small values", width: 30, height: 20) { x, y in UInt8((x * y) % 10) }
        for options in Self.variants {
            let png = try encode(image, options: options)
            let entries = try #require(Self.chunks(png).first { $0.type == "PLTE" }).data.count / 3
            // Without row filters the histogram shows the largest value; with them the full palette is kept.
            #expect(entries == (options.filter == .none ? 10 : 256))
            try expectRoundTrip(png, image)
        }
    }

    @Test func reusedEncoderAndItsCopiesGiveTheSameBytes() throws {
        let big = try cairoCoverage(width: 300, height: 200, strokes: 4, seed: 11)
        let small = ByteImage("small", width: 10, height: 5) { x, y in UInt8(x * y) }
        var encoder = CoveragePNGEncoder()
        func run(_ e: inout CoveragePNGEncoder, _ image: ByteImage) throws -> [UInt8] {
            try image.bytes.withUnsafeBufferPointer {
                try e.encode(coverage: $0, width: image.width, height: image.height, stride: image.stride,
                             palette: indexPalette)
            }
        }
        let first = try run(&encoder, big)
        var copy = encoder
        #expect(try run(&encoder, small) == encode(small))
        #expect(try run(&copy, big) == first)
        #expect(try run(&encoder, big) == first)
    }

    @Test func resolutionAndTextReadBack() throws {
        let image = ByteImage("dot", width: 20, height: 10) { x, y in x == 5 && y == 5 ? 255 : 0 }
        let metadata = PNGMetadata(pixelsPerInch: 300, text: [
            ("Software", "signature-ink"), ("Creation Time", "2026-11-22T03:45:00Z"), ("Title", "Zoë 署名"),
        ])
        let png = try encode(image, metadata: metadata)
        let decoded = try DecodedPNG(png)
        #expect(abs((decoded.pixelsPerInch ?? 0) - 300) < 0.01)
        #expect(decoded.text["Software"] == "signature-ink")
        #expect(decoded.text["Creation Time"] == "2026-11-22T03:45:00Z")
        #expect(decoded.text["Title"] == "Zoë 署名")
        #expect(try DecodedPNG(encode(image)).pixelsPerInch == nil)
    }

    /// RGBA images (a decorated signature's pixels) through the same deflate, every row Sub-filtered but the
    /// transparent ones, which are written unfiltered: libpng reads back every byte, with the resolution and text,
    /// whichever block the encoder chooses (noise is stored), and whatever row a match reaches back to.
    @Test func rgbaImagesRoundTripThroughLibpng() throws {
        var random = SeededRandom(seed: 31)
        var images: [(name: String, width: Int, height: Int, rgba: [UInt8])] = []
        func add(_ name: String, _ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) {
            images.append((name, width, height, (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } }))
        }
        add("one pixel", 1, 1) { _, _ in [1, 2, 3, 4] }
        add("transparent", 600, 300) { _, _ in [0, 0, 0, 0] }
        add("flat colour", 600, 300) { _, _ in [0xfd, 0xf6, 0xe3, 255] }
        add("a line on white", 300, 100) { x, y in y == 78 && x > 20 && x < 280 ? [0x75, 0x75, 0x75, 255] : [255, 255, 255, 255] }
        add("noise", 97, 41) { _, _ in (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) } }
        add("one column", 1, 500) { _, y in [UInt8(y & 255), 0, UInt8((255 - y) & 255), 128] }
        add("runs across rows", 70, 9) { x, y in x + y * 70 < 300 ? [9, 9, 9, 9] : [9, 9, 9, 10] }
        // Transparent rows between rows that repeat the row above, the row above that, or nothing.
        add("rows between transparent ones", 64, 40) { x, y in
            switch y % 5 {
            case 0, 3: return [0, 0, 0, 0]
            case 1, 2: return x > 10 && x < 50 ? [0x1f, 0x3a, 0x93, UInt8(x * 5)] : [0, 0, 0, 0]
            default: return (x + y) % 7 == 0 ? [0x75, 0x75, 0x75, 255] : [0, 0, 0, 0]
            }
        }
        add("one pixel a row, the last byte", 33, 12) { x, y in y % 2 == 1 && x == 32 ? [0, 0, 0, 1] : [0, 0, 0, 0] }
        let metadata = PNGMetadata(pixelsPerInch: 144, text: [("Software", "signature-ink")])
        for (name, width, height, rgba) in images {
            var encoder = CoveragePNGEncoder()
            let png = try rgba.withUnsafeBufferPointer { try encoder.encode(rgba: $0, width: width, height: height, metadata: metadata) }
            let decoded = try DecodedPNG(png)
            #expect(decoded.colorType == .rgba && decoded.bitDepth == 8, "\(name)")
            #expect(decoded.width == width && decoded.height == height && decoded.rgba == rgba, "\(name)")
            #expect(abs((decoded.pixelsPerInch ?? 0) - 144) < 0.01 && decoded.text["Software"] == "signature-ink", "\(name)")
            #expect(Self.chunks(png).allSatisfy(\.crcMatches) && Self.chunks(png).map(\.type) == ["IHDR", "pHYs", "tEXt", "IDAT", "IEND"],
                    "\(name)")
        }
        var encoder = CoveragePNGEncoder()
        #expect(throws: RenderError.self) { try [UInt8](repeating: 0, count: 15).withUnsafeBufferPointer {
            try encoder.encode(rgba: $0, width: 2, height: 2, metadata: PNGMetadata())
        } }
    }

    /// Each row one flat colour of its own: Sub-filtered, a row is its first pixel and a run of zeros, where its
    /// bytes as they are repeat only four apart and match no row above.
    @Test func flatRowsOfAnyColourAreRuns() throws {
        let width = 600, height = 300
        var rgba: [UInt8] = []
        for y in 0..<height {
            let pixel: [UInt8] = [UInt8(y & 255), UInt8((y * 7) & 255), UInt8((y * 13) & 255), 255]
            for _ in 0..<width { rgba += pixel }
        }
        var encoder = CoveragePNGEncoder()
        let png = try rgba.withUnsafeBufferPointer { try encoder.encode(rgba: $0, width: width, height: height, metadata: PNGMetadata()) }
        #expect(png.count < 12_000, "\(png.count) bytes of 720,300 raw")  // unfiltered, every byte is a literal
        #expect(try DecodedPNG(png).rgba == rgba)
    }

    @Test func trailingOpaqueAlphasAreLeftOutOfTRNS() throws {
        let image = ByteImage("two", width: 2, height: 1) { x, _ in UInt8(x) }
        func chunkTypes(_ png: [UInt8]) -> [String] {
            var types: [String] = []
            var i = 8
            while i + 8 <= png.count {
                let length = png[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
                types.append(String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self))
                i += 12 + length
            }
            return types
        }
        let opaque = try encode(image, palette: [.black, .white])
        #expect(chunkTypes(opaque) == ["IHDR", "PLTE", "IDAT", "IEND"])
        let translucent = try encode(image, palette: [.clear, .black])
        #expect(chunkTypes(translucent) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        let trns = translucent.firstRange(of: Array("tRNS".utf8))!
        #expect(translucent[trns.lowerBound - 1] == 1, "only the transparent entry")
        try expectRoundTrip(translucent, image, palette: [.clear, .black])
    }

    @Test func invalidInputThrows() throws {
        let image = ByteImage("ramp", width: 10, height: 2) { x, _ in UInt8(x) }
        #expect(throws: RenderError.self) { try encode(image, palette: []) }
        #expect(throws: RenderError.self) { try encode(image, palette: Array(indexPalette.prefix(9))) }
        #expect(throws: RenderError.self) { try encode(image, palette: indexPalette + [.black]) }
        #expect(throws: RenderError.self) { try encode(image, metadata: PNGMetadata(text: [("", "x")])) }
        #expect(throws: RenderError.self) { try encode(image, metadata: PNGMetadata(text: [(" lead", "x")])) }
        #expect(throws: RenderError.self) { try encode(image, metadata: PNGMetadata(text: [("Nul", "a\0b")])) }
        var encoder = CoveragePNGEncoder()
        #expect(throws: RenderError.self) {
            try image.bytes.withUnsafeBufferPointer {
                try encoder.encode(coverage: $0, width: 10, height: 3, stride: 10, palette: indexPalette,
                                   metadata: PNGMetadata())
            }
        }
        #expect(throws: RenderError.self) {
            try image.bytes.withUnsafeBufferPointer {
                try encoder.encode(coverage: $0, width: 10, height: 2, stride: 9, palette: indexPalette,
                                   metadata: PNGMetadata())
            }
        }
        // A palette of exactly the largest index plus one is enough.
        try expectRoundTrip(encode(image, palette: Array(indexPalette.prefix(10))), image,
                            palette: Array(indexPalette.prefix(10)))
    }

    @Test func noLargerThanCairosOwnWriterForTheSamePixels() throws {
        let palette = CoveragePNGEncoder.palette(ink: Color(hex: "#1a237e")!)
        for seed: UInt64 in 1...3 {
            let image = try cairoCoverage(width: 600, height: 300, strokes: 8, seed: seed)
            let ours = try encode(image, palette: palette)
            // What cairo_surface_write_to_png does: RGBA, zlib level 6, libpng's adaptive filters.
            var rgba: [UInt8] = []
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let c = palette[Int(image[x, y])]
                    rgba += [c.red, c.green, c.blue, c.alpha]
                }
            }
            let cairoLike = try rgba.withUnsafeBufferPointer {
                try LibPNGEncoder().encode(width: image.width, height: image.height, color: .rgba, pixels: $0,
                                           stride: image.width * 4, metadata: PNGMetadata())
            }
            #expect(ours.count <= cairoLike.count, "ours \(ours.count), RGBA level 6 \(cairoLike.count)")
            try expectRoundTrip(ours, image, palette: palette)
        }
    }
}

@Suite struct HuffmanCodeTests {
    /// Kraft's sum over used symbols, times 2^15: exactly 2^15 for a complete prefix code.
    func kraft(_ lengths: [UInt8]) -> Int { lengths.filter { $0 > 0 }.reduce(0) { $0 + (1 << (15 - Int($1))) } }

    @Test func fibonacciFrequenciesAreLimited() {
        // Fibonacci weights give the deepest possible tree: 30 symbols would need 29 bits unlimited.
        var f: [UInt32] = [1, 1]
        while f.count < 30 { f.append(f[f.count - 1] + f[f.count - 2]) }
        for limit in [7, 9, 15] {
            let lengths = HuffmanCode.lengths(frequencies: f, maxLength: limit)
            #expect(lengths.allSatisfy { (1...UInt8(limit)).contains($0) })
            #expect(kraft(lengths) == 1 << 15)
        }
    }

    /// The frequency sort agrees with a plain sort of the keys, ties (kept in symbol order) and frequencies of
    /// one to four bytes included.
    @Test(arguments: [UInt32(3), 300, 70_000, UInt32.max])
    func theFrequencySortOrdersLikeAPlainSort(largest: UInt32) {
        var random = SeededRandom(seed: UInt64(largest))
        let workspace = HuffmanCode.Workspace()
        for count in [2, 19, 30, 286] {
            var keys = (0..<count).map { symbol in
                UInt64(UInt32.random(in: 1...largest, using: &random)) << 16 | UInt64(symbol)
            }
            let expected = keys.sorted()
            keys.withUnsafeMutableBufferPointer {
                HuffmanCode.sortByFrequency($0.baseAddress!, count: count, workspace: workspace)
            }
            #expect(keys == expected)
        }
    }

    @Test func fewSymbolsStillMakeACompleteCode() {
        #expect(HuffmanCode.lengths(frequencies: [0, 0, 0], maxLength: 15) == [1, 1, 0])
        // A lone used symbol keeps a code: here symbol 2, completed by symbol 0.
        #expect(HuffmanCode.lengths(frequencies: [0, 0, 5], maxLength: 15) == [1, 0, 1])
        #expect(HuffmanCode.lengths(frequencies: [5, 0, 0], maxLength: 15) == [1, 1, 0])
        let two = HuffmanCode.lengths(frequencies: [0, 3, 5], maxLength: 15)
        #expect(two == [0, 1, 1])
    }

    @Test func canonicalCodesMatchTheRFCExample() {
        // RFC 1951, section 3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give codes 010 ... 1111.
        let code = HuffmanCode(lengths: [3, 3, 3, 3, 3, 2, 4, 4])
        let expected: [UInt16] = [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111]
        for (i, e) in expected.enumerated() {
            #expect(code.codes[i] == HuffmanCode.reversed(e, bits: Int(code.lengths[i])))
        }
    }
}
