// SPDX-License-Identifier: Apache-2.0

extension Signature {
    /// The outline of every stroke in one path, one closed sub-path per stroke, to be filled in a single
    /// non-zero fill so that overlapping ink never darkens.
    /// - Parameter style: the pen style; default ``PenStyle/default``.
    /// - Returns: the outline path; empty for an empty signature.
    public func outlinePath(style: PenStyle = .default) -> Path {
        var outliner = Outliner(style: style)
        var path = Path()
        path.reserveCapacity(samples.count * 2 + strokeCount * 12)
        for stroke in strokes { outliner.appendOutline(of: stroke, to: &path) }
        return path
    }

    /// The outline of each stroke as its own path, in stroke order.
    /// - Parameter style: the pen style; default ``PenStyle/default``.
    /// - Returns: one path per stroke (empty for a stroke with no finite sample).
    public func outlines(style: PenStyle = .default) -> [Path] {
        var outliner = Outliner(style: style)
        return strokes.map { stroke in
            var path = Path()
            outliner.appendOutline(of: stroke, to: &path)
            return path
        }
    }
}
