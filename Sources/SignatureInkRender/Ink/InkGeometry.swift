// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// The ink of a signature as the one shape every output draws, in output units.
///
/// This is the single seam between the geometry core and the writers: PNG, SVG, PDF and a caller's Cairo
/// context all draw ``path``, so they agree.
struct InkGeometry {
    /// The ink in output units: centre lines (one sub-path per stroke) while ``strokeWidth`` is set, else
    /// closed outlines filled with the non-zero rule.
    var path: Path
    /// For each stroke, the range of ``path``'s elements that draw it.
    var strokeRanges: [Range<Int>]
    /// Width of the round-capped line the centre lines are stroked with, in output units; `nil` when ``path``
    /// holds filled outlines.
    var strokeWidth: Double?

    /// The ink of `signature` placed by `layout`.
    static func make(_ signature: Signature, layout: Layout, options: RenderOptions) -> InkGeometry {
        var path = Path()
        path.reserveCapacity(signature.samples.count + signature.strokeCount)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(signature.strokeCount)
        for stroke in signature.strokes {
            guard let first = stroke.first else { continue }
            let start = path.elements.count
            path.move(to: layout.apply(first.location))
            // A lone sample becomes a zero-length segment, which round caps draw as a dot.
            if stroke.count == 1 { path.line(to: layout.apply(first.location)) }
            for s in stroke.dropFirst() { path.line(to: layout.apply(s.location)) }
            ranges.append(start..<path.elements.count)
        }
        return InkGeometry(path: path, strokeRanges: ranges, strokeWidth: options.penWidth)
    }

    /// The path of one stroke.
    func strokePath(_ index: Int) -> Path { Path(Array(path.elements[strokeRanges[index]])) }
}
