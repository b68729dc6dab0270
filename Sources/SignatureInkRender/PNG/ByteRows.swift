// SPDX-License-Identifier: Apache-2.0

/// An image of one-byte pixels (coverage values or palette indices) whose non-zero bytes all lie inside one
/// rectangle, the window, held in caller-owned memory.
///
/// Only the window's bytes are stored and read; every pixel outside it is 0. A renderer that fills only the
/// ink's bounding box hands over that box, and the encoder turns the empty rows and margins around it into
/// runs without reading them. A whole image is the window that covers it.
struct ByteRows {
    /// The first byte of the window's first row; never read when the window is empty.
    var base: UnsafePointer<UInt8>
    /// Pixels per row of the image, 1...``SparseDeflate/maximumWidth``.
    var width: Int
    /// Number of rows of the image, >= 1.
    var height: Int
    /// Bytes from one window row to the next, >= ``windowWidth``.
    var stride: Int
    /// The window's first column, 0...`width`.
    var windowX: Int
    /// The window's first row, 0...`height`.
    var windowY: Int
    /// Columns in the window, 0...`width - windowX`; 0 for an image with no non-zero byte.
    var windowWidth: Int
    /// Rows in the window, 0...`height - windowY`; 0 for an image with no non-zero byte.
    var windowHeight: Int

    /// A whole image: `height` rows of `width` bytes, `stride` bytes apart.
    init(base: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) {
        self.init(base: base, width: width, height: height, stride: stride,
                  window: (x: 0, y: 0, width: width, height: height))
    }

    /// An image of `width` x `height` pixels that are 0 outside `window`, whose rows (`window.width` bytes,
    /// `stride` bytes apart) start at `base`.
    /// - Precondition: the window lies inside the image.
    init(base: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
         window: (x: Int, y: Int, width: Int, height: Int)) {
        precondition(window.x >= 0 && window.y >= 0 && window.width >= 0 && window.height >= 0
                     && window.x + window.width <= width && window.y + window.height <= height,
                     "the window \(window) is not inside the \(width)x\(height) image")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        let empty = window.width == 0 || window.height == 0
        windowX = empty ? 0 : window.x
        windowY = empty ? 0 : window.y
        windowWidth = empty ? 0 : window.width
        windowHeight = empty ? 0 : window.height
    }

    /// An image of `width` x `height` zeros: an empty window, nothing stored.
    static func blank(width: Int, height: Int) -> ByteRows {
        ByteRows(base: nothing, width: width, height: height, stride: 0, window: (0, 0, 0, 0))
    }

    /// A valid address for images with nothing stored; never read.
    nonisolated(unsafe) private static let nothing = UnsafePointer(UnsafeMutablePointer<UInt8>.allocate(capacity: 1))

    /// Whether the window is the whole image, so every row is stored in full.
    var isWhole: Bool { windowWidth == width && windowHeight == height }

    /// Whether row `y` crosses the window (otherwise it is all zeros).
    @inline(__always) func hasWindow(inRow y: Int) -> Bool { y >= windowY && y < windowY + windowHeight }

    /// The window's part of row `y`, ``windowWidth`` bytes; `y` must cross the window.
    @inline(__always) func windowRow(_ y: Int) -> UnsafePointer<UInt8> { base + (y - windowY) * stride }

    /// Row `y` as `width` consecutive bytes: the stored row of a whole image, otherwise the row copied into
    /// `buffer` (room for `width` bytes), zeros and all.
    func row(_ y: Int, buffer: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        if isWhole { return base + y * stride }
        buffer.update(repeating: 0, count: width)
        if hasWindow(inRow: y) { (buffer + windowX).update(from: windowRow(y), count: windowWidth) }
        return UnsafePointer(buffer)
    }

    /// The largest byte in the image.
    func largestByte() -> UInt8 {
        var largest: UInt8 = 0
        for y in windowY..<(windowY + windowHeight) {
            let row = windowRow(y)
            for x in 0..<windowWidth { largest = Swift.max(largest, row[x]) }
        }
        return largest
    }
}
