// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// The ink of a signature as the one shape every output draws: closed variable-width outlines in output
/// units, filled once with the non-zero rule.
///
/// This is the single seam between the geometry core and the writers: PNG, SVG, PDF and a caller's Cairo
/// context all fill ``path``, so they agree, and overlapping strokes never darken.
struct InkGeometry {
    /// The outlines in output units, one closed sub-path per stroke (a tap is a round dot).
    var path: Path
    /// For each stroke, the range of ``path``'s elements that draw it (empty for a stroke with no finite sample).
    var strokeRanges: [Range<Int>]

    /// The ink of `signature` placed by `layout`.
    ///
    /// The samples are moved into output units first and outlined there, so widths, tapers and the curve
    /// tolerance are in output units whatever the layout's scale; the speed parameters are scaled with the
    /// ink so a fitted signature keeps the widths it has at its natural size.
    static func make(_ signature: Signature, layout: Layout, options: RenderOptions) -> InkGeometry {
        let k = layout.inkScale
        var style = options.penStyle
        let moved = k != 1 || layout.offset != .zero
        if moved {
            style.speedAtMidWidth *= k
            style.smoothingBeta /= k
        }
        var outliner = Outliner(style: style)
        var path = Path()
        path.reserveCapacity(signature.samples.count * 2 + signature.strokeCount * 12)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(signature.strokeCount)
        for stroke in signature.strokes {
            let start = path.elements.count
            if moved {
                // Moved as they are read: no copy of the samples.
                outliner.appendOutline(of: stroke.lazy.map { s in
                    var t = s
                    t.location = layout.apply(s.location)
                    return t
                }, to: &path)
            } else {
                outliner.appendOutline(of: stroke, to: &path)
            }
            ranges.append(start..<path.elements.count)
        }
        return InkGeometry(path: path, strokeRanges: ranges)
    }

    /// The path of one stroke.
    func strokePath(_ index: Int) -> Path { Path(Array(path.elements[strokeRanges[index]])) }
}
