// SPDX-License-Identifier: Apache-2.0
public import SignatureInk
import CPNG

/// A PNG read back through libpng: its stored layout and chunks, and its pixels as straight RGBA.
public struct DecodedPNG: Sendable {
    /// Colour types of the PNG specification.
    public enum ColorType: Sendable, Equatable {
        case grey, rgb, indexed, greyAlpha, rgba, other(Int)
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per channel as stored in the file.
    public var bitDepth: Int
    /// Colour type as stored in the file.
    public var colorType: ColorType
    /// Resolution from the `pHYs` chunk in pixels per inch, or `nil` when there is none (or it has no unit).
    public var pixelsPerInch: Double?
    /// The `tEXt`/`zTXt`/`iTXt` chunks, by keyword.
    public var text: [String: String]
    /// Pixels, row by row, four bytes each: red, green, blue, alpha (not premultiplied).
    public var rgba: [UInt8]

    /// The pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> Color {
        let i = (y * width + x) * 4
        return Color(red: rgba[i], green: rgba[i + 1], blue: rgba[i + 2], alpha: rgba[i + 3])
    }

    /// Reads a PNG held in memory.
    /// - Throws: ``RenderError/png(_:)`` with libpng's message when the bytes are not a valid PNG.
    public init(_ bytes: [UInt8]) throws(RenderError) {
        var image = sink_png_image()
        let status = bytes.withUnsafeBufferPointer { sink_png_decode($0.baseAddress, $0.count, &image) }
        defer { free(image.rgba) }
        guard status == 0, let rgba = image.rgba else {
            throw .png(withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        width = Int(image.width)
        height = Int(image.height)
        bitDepth = Int(image.bit_depth)
        switch image.color_type {
        case PNG_COLOR_TYPE_GRAY: colorType = .grey
        case PNG_COLOR_TYPE_RGB: colorType = .rgb
        case PNG_COLOR_TYPE_PALETTE: colorType = .indexed
        case PNG_COLOR_TYPE_GRAY_ALPHA: colorType = .greyAlpha
        case PNG_COLOR_TYPE_RGBA: colorType = .rgba
        default: colorType = .other(Int(image.color_type))
        }
        if image.phys_unit == PNG_RESOLUTION_METER, image.pixels_per_metre_x > 0 {
            pixelsPerInch = Double(image.pixels_per_metre_x) * 0.0254
        }
        let chunks = withUnsafeBytes(of: image.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var text: [String: String] = [:]
        for line in chunks.split(separator: "\n") {
            if let eq = line.firstIndex(of: "=") { text[String(line[..<eq])] = String(line[line.index(after: eq)...]) }
        }
        self.text = text
        self.rgba = Array(UnsafeBufferPointer(start: rgba, count: width * height * 4))
    }
}
