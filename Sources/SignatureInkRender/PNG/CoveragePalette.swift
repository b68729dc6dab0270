// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

extension CoveragePNGEncoder {
    /// The 256-entry palette that shows coverage `i` (0...255) of `ink` over `background`, for
    /// ``encode(coverage:width:height:stride:palette:metadata:)``.
    ///
    /// Entry `i` is Porter-Duff "source over" in straight alpha, computed in real numbers and rounded once
    /// to the nearest 8-bit value. With `c = i / 255`, ink alpha `ai`, background alpha `ab` (0...1):
    ///
    ///     as = ai * c                              (ink alpha after coverage)
    ///     ao = as + ab * (1 - as)                  (alpha of ink over background)
    ///     channel = (ink * as + bg * ab * (1 - as)) / ao
    ///     alpha = 255 * ao * opacity
    ///
    /// An entry whose alpha rounds to 0 is (0, 0, 0, 0). This is what a premultiplied ARGB32 render of the
    /// same coverage shows after un-premultiplying, up to that path's own 8-bit rounding (within 1 in
    /// alpha; in colour within about 255 / (2 * alpha)).
    /// - Parameters:
    ///   - ink: the ink colour, straight alpha.
    ///   - background: the colour behind the ink; default `Color.clear` (a transparent image).
    ///   - opacity: a factor on the alpha of the whole image, 0...1 (clamped; NaN counts as 1), default 1,
    ///     as for a read-only view drawn faded.
    /// - Returns: 256 colours, entry `i` for coverage `i`.
    public static func palette(ink: Color, background: Color = .clear, opacity: Double = 1) -> [Color] {
        let fade = opacity.isNaN ? 1 : Swift.min(1, Swift.max(0, opacity))
        let inkAlpha = Double(ink.alpha) / 255
        let backgroundAlpha = Double(background.alpha) / 255
        func byte(_ v: Double) -> UInt8 { UInt8(Swift.min(255, Swift.max(0, v.rounded()))) }
        return (0..<256).map { i in
            let sourceAlpha = inkAlpha * Double(i) / 255
            let behind = backgroundAlpha * (1 - sourceAlpha)
            let alpha = sourceAlpha + behind
            let alphaByte = byte(255 * alpha * fade)
            guard alpha > 0, alphaByte > 0 else { return .clear }
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { byte((Double(a) * sourceAlpha + Double(b) * behind) / alpha) }
            return Color(red: mix(ink.red, background.red), green: mix(ink.green, background.green),
                         blue: mix(ink.blue, background.blue), alpha: alphaByte)
        }
    }
}
