// SPDX-License-Identifier: Apache-2.0

/// The paper and margins of a ``PagedDocument``, in points (1/72 inch).
public struct PageSetup: Sendable, Hashable {
    /// Page width in points, in `144...14400`.
    public var width: Double
    /// Page height in points, in `144...14400`.
    public var height: Double
    /// Margin at each edge in points, >= 18; the header and footer sit inside the top and bottom margins.
    public var margin: Double

    /// ISO A4, 210 x 297 mm, with 2 cm margins.
    public static let a4 = PageSetup(width: 595.28, height: 841.89, margin: 56.69)
    /// US Letter, 8.5 x 11 inches, with 3/4 inch margins.
    public static let letter = PageSetup(width: 612, height: 792, margin: 54)

    /// Creates a page set-up.
    /// - Parameters:
    ///   - width: page width in points, `144...14400`.
    ///   - height: page height in points, `144...14400`.
    ///   - margin: margin at every edge in points, at least 18 and less than a third of either side.
    public init(width: Double, height: Double, margin: Double) {
        self.width = width
        self.height = height
        self.margin = margin
    }

    /// The width of the text column.
    var columnWidth: Double { width - 2 * margin }

    /// Throws unless the sizes are usable.
    func validate() throws(RenderError) {
        guard width.isFinite, height.isFinite, (144...14400).contains(width), (144...14400).contains(height) else {
            throw .invalidOption(option: "page size", message: "\(width) x \(height) pt is outside 144...14400")
        }
        guard margin.isFinite, margin >= 18, margin < Swift.min(width, height) / 3 else {
            throw .invalidOption(option: "margin", message: "\(margin) pt; must be at least 18 and under a third of the page")
        }
    }
}
