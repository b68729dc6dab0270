// SPDX-License-Identifier: Apache-2.0

/// The palette of a coverage image: entry `c` is the colour of a pixel that the ink covers `c / 255`.
enum CoveragePalette {
    /// 256 colours: the ink, its alpha scaled by the coverage and by `opacity`, composited over `background`
    /// with the "over" operator in straight alpha. Entry 0 is the background.
    static func make(ink: Color, background: Color, opacity: Double) -> [Color] {
        let inkAlpha = Double(ink.alpha) / 255 * Swift.min(1, Swift.max(0, opacity))
        let bgAlpha = Double(background.alpha) / 255
        var palette: [Color] = []
        palette.reserveCapacity(256)
        for c in 0..<256 {
            let a = inkAlpha * Double(c) / 255
            let outAlpha = a + bgAlpha * (1 - a)
            guard outAlpha > 0 else { palette.append(.clear); continue }
            func blend(_ i: UInt8, _ b: UInt8) -> UInt8 {
                let v = (Double(i) * a + Double(b) * bgAlpha * (1 - a)) / outAlpha
                return UInt8(Swift.min(255, Swift.max(0, v.rounded())))
            }
            palette.append(Color(red: blend(ink.red, background.red), green: blend(ink.green, background.green),
                                 blue: blend(ink.blue, background.blue),
                                 alpha: UInt8(Swift.min(255, (outAlpha * 255).rounded()))))
        }
        return palette
    }
}
