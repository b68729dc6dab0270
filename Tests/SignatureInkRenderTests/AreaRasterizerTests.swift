// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
@testable import SignatureInkRender
import Testing

/// The coverage PNG's rasterizer (``AreaRasterizer``): exact areas, the non-zero rule, clipping, blending, and
/// agreement with Cairo's fill.
@Suite struct AreaRasterizerTests {
    /// `elements` filled into a `width` x `height` image that holds `initial`, blended as `blend` says.
    static func fill(_ elements: [Path.Element], width: Int, height: Int, scale: Double = 1, offset: Point = .zero,
                     blend: AreaRasterizer.Blend = .over(alpha: 255), initial: [UInt8]? = nil) throws -> [UInt8] {
        var image = initial ?? [UInt8](repeating: 0, count: width * height)
        var rasterizer = AreaRasterizer(width: width, height: height)
        rasterizer.add(elements[...], scale: scale, offset: offset, tolerance: RasterWindow.cairoTolerance)
        try image.withUnsafeMutableBufferPointer { pixels in
            try rasterizer.fill(into: pixels.baseAddress!, stride: width, blend: blend)
        }
        return image
    }

    /// A rectangle as a closed outline, clockwise on screen (or the other way round).
    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, reversed: Bool = false) -> [Path.Element] {
        let corners = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
        let ordered = reversed ? Array(corners.reversed()) : corners
        return [.move(ordered[0])] + ordered.dropFirst().map { .line($0) } + [.close]
    }

    /// A disc of four cubic quarters.
    static func disc(centre c: Point, radius r: Double) -> [Path.Element] {
        let k = 0.5522847498 * r
        return [.move(Point(c.x + r, c.y)),
                .cubic(Point(c.x + r, c.y + k), Point(c.x + k, c.y + r), Point(c.x, c.y + r)),
                .cubic(Point(c.x - k, c.y + r), Point(c.x - r, c.y + k), Point(c.x - r, c.y)),
                .cubic(Point(c.x - r, c.y - k), Point(c.x - k, c.y - r), Point(c.x, c.y - r)),
                .cubic(Point(c.x + k, c.y - r), Point(c.x + r, c.y - k), Point(c.x + r, c.y)),
                .close]
    }

    /// A star of `points` spikes whose tips reach `outer` and notches `inner` from the centre.
    static func star(centre c: Point, outer: Double, inner: Double, points: Int) -> [Path.Element] {
        let corners = (0..<(2 * points)).map { i -> Point in
            let angle = Double(i) * Double.pi / Double(points) + 0.1
            let r = i % 2 == 0 ? outer : inner
            return Point(c.x + r * cos(angle), c.y + r * sin(angle))
        }
        return [.move(corners[0])] + corners.dropFirst().map { .line($0) } + [.close]
    }

    /// Cairo's coverage of the same outline, for comparison, its curves flattened within `tolerance` pixels.
    static func cairo(_ elements: [Path.Element], width: Int, height: Int, tolerance: Double = RasterWindow.cairoTolerance) throws -> [UInt8] {
        let surface = try CairoSurface(image: .a8, width: width, height: height)
        let context = try CairoContext(surface: surface)
        context.setTolerance(tolerance)
        context.setSource(.black)
        context.append(elements[...], scale: 1, offset: .zero)
        context.fillNonZero()
        try context.check()
        let stride = surface.stride
        return try surface.withPixels { pixels in
            (0..<height).flatMap { row in Array(pixels[(row * stride)..<(row * stride + width)]) }
        }
    }

    @Test func aRectangleCoversEachPixelByItsArea() throws {
        // Columns covered 0, 3/4, 1, 3/4, 0; rows 1/2, 1, 1/2.
        let image = try Self.fill(Self.rectangle(1.25, 0.5, 3.75, 2.5), width: 5, height: 3)
        let columns = [0, 0.75, 1, 0.75, 0], rows = [0.5, 1, 0.5]
        for row in 0..<3 {
            for column in 0..<5 {
                let expected = (columns[column] * rows[row] * 255).rounded()
                #expect(abs(Double(image[row * 5 + column]) - expected) <= 0.5001, "pixel \(column), \(row)")
            }
        }
    }

    @Test func theWindingDirectionDoesNotMatterButAHoleStaysEmpty() throws {
        let clockwise = try Self.fill(Self.rectangle(1, 1, 7, 7), width: 8, height: 8)
        let anticlockwise = try Self.fill(Self.rectangle(1, 1, 7, 7, reversed: true), width: 8, height: 8)
        #expect(clockwise == anticlockwise)
        #expect(clockwise[4 * 8 + 4] == 255 && clockwise[0] == 0)
        // The same direction twice is wound twice: still covered once (non-zero), not 510.
        let twice = try Self.fill(Self.rectangle(1, 1, 7, 7) + Self.rectangle(3, 3, 5, 5), width: 8, height: 8)
        #expect(twice == clockwise)
        // The inner square the other way round cancels the outer one: a hole.
        let hole = try Self.fill(Self.rectangle(1, 1, 7, 7) + Self.rectangle(3, 3, 5, 5, reversed: true),
                                 width: 8, height: 8)
        #expect(hole[4 * 8 + 4] == 0 && hole[2 * 8 + 2] == 255)
    }

    @Test(arguments: [(radius: 3.3, x: 10.4, y: 9.7), (radius: 20, x: 32.5, y: 31.25), (radius: 0.4, x: 5.5, y: 5.5)])
    func aDiscAgreesWithCairoAndCoversItsArea(radius: Double, x: Double, y: Double) throws {
        let size = Int((2 * max(x, y)).rounded(.up)) + 2
        let disc = Self.disc(centre: Point(x, y), radius: radius)
        let ours = try Self.fill(disc, width: size, height: size)
        // Cairo with its curves flattened a hundred times finer than ours: the true circle, sampled its own way.
        let theirs = try Self.cairo(disc, width: size, height: size, tolerance: 0.001)
        let largest = zip(ours, theirs).map { abs(Int($0) - Int($1)) }.max() ?? 0
        // Cairo samples fifteen sub-rows a pixel (and 256 columns): at most about one and a half sub-rows'
        // coverage apart, where an edge runs almost along a row.
        #expect(largest <= 255 * 3 / 30, "differs from Cairo by up to \(largest) levels")
        let total = zip(ours, theirs).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(total <= 4 * ours.filter { $0 != 0 }.count, "differs by \(total) levels in all")
        // The circle's area, although flattened within 0.1 px: the chords' area is put back (without it, a
        // 0.4-pixel dot lost 36 %, the 3.3-pixel one 4 %).
        let area = Double(ours.reduce(0) { $0 + Int($1) }) / 255
        let exact = Double.pi * radius * radius
        #expect(abs(area - exact) <= 0.002 * exact + 0.005, "area \(area), the circle's \(exact)")
    }

    @Test func aFillIntoABlankImageWritesWhatBlendingOverZeroWrites() throws {
        // Overlapping sub-paths, a hole, a wide interior (whole runs of eight columns) and a width that is no
        // multiple of eight, at full and half opacity.
        let shape = Self.star(centre: Point(40, 30), outer: 28, inner: 9, points: 5) + Self.disc(centre: Point(52, 20), radius: 7.3)
            + Self.rectangle(3.4, 2.2, 70.6, 12.8) + Self.rectangle(20, 4, 30, 9, reversed: true)
        for alpha: UInt8 in [255, 128] {
            var images: [[UInt8]] = []
            for blank in [false, true] {
                var image = [UInt8](repeating: 0, count: 77 * 61)
                var rasterizer = AreaRasterizer(width: 77, height: 61)
                rasterizer.add(shape[...], scale: 1, offset: .zero, tolerance: RasterWindow.cairoTolerance)
                try image.withUnsafeMutableBufferPointer {
                    try rasterizer.fill(into: $0.baseAddress!, stride: 77, blend: .over(alpha: alpha), blank: blank)
                }
                images.append(image)
            }
            #expect(images[0] == images[1])
            #expect(images[1].contains(alpha) && images[1].contains { $0 != 0 && $0 != alpha })
        }
    }

    /// A fill made down the image in parts (``AreaRasterizer/fill(_:sums:until:into:firstRow:stride:blend:blank:stop:)``),
    /// each part into a buffer of its own rows, over an image that already holds ink and blended over it or erasing
    /// it, writes the bytes of the fill made at once: parts of one band, of several, ending at the last row.
    @Test func aFillInPartsWritesTheBytesOfTheWholeFill() throws {
        let shape = Self.star(centre: Point(40, 50), outer: 45, inner: 12, points: 7) + Self.disc(centre: Point(60, 30), radius: 17.2)
        let width = 83, height = 101
        let initial = try Self.fill(Self.rectangle(10.5, 20.25, 70, 80.5), width: width, height: height)
        for blend in [AreaRasterizer.Blend.over(alpha: 255), .over(alpha: 100), .erase(alpha: 200)] {
            var rasterizer = AreaRasterizer(width: width, height: height)
            rasterizer.add(shape[...], scale: 1, offset: .zero, tolerance: RasterWindow.cairoTolerance)
            let whole = try Self.fill(shape, width: width, height: height, blend: blend, initial: initial)
            for partRows in [AreaRasterizer.bandRows, 3 * AreaRasterizer.bandRows, 112] {
                let sweep = AreaRasterizer.Sweep(rasterizer), sums = AreaRasterizer.Sums(width: width)
                var parts: [UInt8] = []
                var top = 0
                while top < height {
                    let end = Swift.min(height, top + partRows)
                    var rows = Array(initial[(top * width)..<(end * width)])
                    _ = try rows.withUnsafeMutableBufferPointer {
                        try rasterizer.fill(sweep, sums: sums, until: end, into: $0.baseAddress!, firstRow: top,
                                            stride: width, blend: blend, blank: false)
                    }
                    parts += rows
                    top = end
                }
                #expect(parts == whole, "\(blend) in parts of \(partRows) rows")
            }
            #expect(whole != initial)
        }
    }

    @Test func aCurvesAreaIsKeptAtEveryTolerance() throws {
        // A round cap's half circle and a dot, flattened from Cairo's default tolerance up to half a pixel: the
        // polygons are coarser, their areas the curve's.
        let half: [Path.Element] = [.move(Point(4, 10)), .cubic(Point(4, 10 - 8 * 0.5523), Point(12 - 8 * 0.5523, 2), Point(12, 2)),
                                    .cubic(Point(12 + 8 * 0.5523, 2), Point(20, 10 - 8 * 0.5523), Point(20, 10)), .close]
        let exactHalf = Double.pi * 64 / 2
        for tolerance in [0.1, 0.2, 0.5] {
            for (shape, exact) in [(half, exactHalf), (Self.disc(centre: Point(6.3, 5.8), radius: 1.25), Double.pi * 1.5625)] {
                var image = [UInt8](repeating: 0, count: 24 * 24)
                var rasterizer = AreaRasterizer(width: 24, height: 24)
                rasterizer.add(shape[...], scale: 1, offset: .zero, tolerance: tolerance)
                try image.withUnsafeMutableBufferPointer { try rasterizer.fill(into: $0.baseAddress!, stride: 24, blend: .over(alpha: 255)) }
                let area = Double(image.reduce(0) { $0 + Int($1) }) / 255
                #expect(abs(area - exact) <= 0.01 * exact + 0.01, "tolerance \(tolerance): area \(area), the curve's \(exact)")
            }
        }
    }

    @Test func whatLiesBeyondTheImageIsClippedExactly() throws {
        // A star cutting through every side of a 30 x 20 window, against the same star in a large image.
        let star = Self.star(centre: Point(60, 50), outer: 48, inner: 12, points: 7)
        let large = try Self.fill(star, width: 120, height: 100)
        let offset = Point(-40, -45)
        let window = try Self.fill(star, width: 30, height: 20, offset: offset)
        var largest = 0
        for row in 0..<20 {
            for column in 0..<30 {
                largest = max(largest, abs(Int(window[row * 30 + column]) - Int(large[(row + 45) * 120 + column + 40])))
            }
        }
        #expect(largest <= 1)
        #expect(window.contains(255) && window.contains(0))
    }

    @Test func aShapeCoveringTheRightSideFillsToIt() throws {
        // Its right edge lies beyond the image: the rows are covered to the last pixel.
        let image = try Self.fill(Self.rectangle(2, 1, 50, 3), width: 10, height: 4)
        #expect(Array(image[(1 * 10)..<(2 * 10)]) == [0, 0] + [UInt8](repeating: 255, count: 8))
        #expect(image[0..<10].allSatisfy { $0 == 0 })
    }

    @Test func blendsAddInkAndEraseIt() throws {
        let whole = Self.rectangle(0, 0, 4, 4)
        let half = try Self.fill(whole, width: 4, height: 4, blend: .over(alpha: 128))
        #expect(half.allSatisfy { $0 == 128 })
        // Over: c + dst (1 - c): 128 + 128 * (1 - 128/255) = 191.75.
        let twice = try Self.fill(whole, width: 4, height: 4, blend: .over(alpha: 128), initial: half)
        #expect(twice.allSatisfy { $0 == 192 })
        let erased = try Self.fill(Self.rectangle(0, 0, 2, 4), width: 4, height: 4, blend: .erase(alpha: 255),
                                   initial: [UInt8](repeating: 255, count: 16))
        #expect(erased == (0..<16).map { $0 % 4 < 2 ? 0 : 255 })
    }

    @Test func pointsThatAreNotFiniteOrFarAwayDrawNothingWrong() throws {
        let wild: [Path.Element] = [.move(Point(1, 1)), .line(Point(.nan, 3)), .line(Point(1e300, -1e300)),
                                    .cubic(Point(.infinity, 0), Point(2, 2), Point(3, 1)), .line(Point(-1e12, 5e11)),
                                    .close]
        let image = try Self.fill(wild, width: 16, height: 8)
        #expect(image.count == 128)
        let far = try Self.fill(Self.rectangle(-1e9, -1e9, 1e9, 1e9), width: 16, height: 8)
        #expect(far.allSatisfy { $0 == 255 })
    }

    @Test func aStopEndsTheFill() throws {
        var rasterizer = AreaRasterizer(width: 64, height: 512)
        // Enough edges in enough bands for the stop to be looked at.
        for i in 0..<2_000 { rasterizer.add(Self.rectangle(Double(i % 60), 0, Double(i % 60) + 2, 512)[...], scale: 1,
                                            offset: .zero, tolerance: 0.1) }
        let stop = RenderStop()
        stop.stop(.clientGone)
        var image = [UInt8](repeating: 0, count: 64 * 512)
        #expect(throws: RenderError.stopped(.clientGone)) {
            try image.withUnsafeMutableBufferPointer { try rasterizer.fill(into: $0.baseAddress!, stride: 64, blend: .over(alpha: 255), stop: stop) }
        }
    }
}
