// SPDX-License-Identifier: Apache-2.0

/// The drawing area a signature was captured on.
public struct Canvas: Sendable, Hashable, Codable {
    /// Width in canvas units, > 0.
    public var width: Double
    /// Height in canvas units, > 0.
    public var height: Double
    /// Canvas units per inch: 96 for CSS pixels (the default), 72 for points, 25.4 for millimetres.
    public var unitsPerInch: Double

    /// CSS pixels per inch, the default unit of web and most touch capture.
    public static let cssPixelsPerInch = 96.0

    /// Creates a canvas.
    /// - Parameters:
    ///   - width: width in canvas units, > 0.
    ///   - height: height in canvas units, > 0.
    ///   - unitsPerInch: canvas units per inch, > 0, default 96 (CSS pixels).
    public init(width: Double, height: Double, unitsPerInch: Double = Canvas.cssPixelsPerInch) {
        self.width = width
        self.height = height
        self.unitsPerInch = unitsPerInch
    }

    /// The canvas as a rectangle with its origin at zero.
    public var rect: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}
