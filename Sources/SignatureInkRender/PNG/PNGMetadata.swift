// SPDX-License-Identifier: Apache-2.0

/// Facts written into a PNG next to its pixels.
public struct PNGMetadata: Sendable, Hashable {
    /// Pixels per inch, written as a `pHYs` chunk in pixels per metre; `nil` writes none.
    public var pixelsPerInch: Double?
    /// `tEXt` chunks as keyword/value pairs, in order (Latin-1 keywords of 1...79 bytes, at most 16 entries).
    public var text: [(key: String, value: String)]

    /// Creates metadata.
    /// - Parameters:
    ///   - pixelsPerInch: resolution for the `pHYs` chunk, > 0, or `nil` for none.
    ///   - text: keyword/value pairs for `tEXt` chunks, such as `("Software", "signature-ink")`.
    public init(pixelsPerInch: Double? = nil, text: [(key: String, value: String)] = []) {
        self.pixelsPerInch = pixelsPerInch
        self.text = text
    }

    /// Pixels per metre for the `pHYs` chunk, or 0 for none.
    var pixelsPerMetre: UInt32 {
        guard let ppi = pixelsPerInch, ppi > 0, ppi.isFinite else { return 0 }
        return UInt32(Swift.min((ppi / 0.0254).rounded(), Double(Int32.max)))
    }

    /// Whether the resolution and every text chunk, in order, are equal.
    public static func == (a: PNGMetadata, b: PNGMetadata) -> Bool {
        a.pixelsPerInch == b.pixelsPerInch && a.text.elementsEqual(b.text) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the resolution and the text chunks in order.
    public func hash(into h: inout Hasher) {
        h.combine(pixelsPerInch)
        for (k, v) in text { h.combine(k); h.combine(v) }
    }
}
