// SPDX-License-Identifier: Apache-2.0

extension Signature {
    /// The ink drawn up to `time` milliseconds: every sample with `t <= time`, in the same strokes, for frames of
    /// a signing animation. Canvas, start time and metadata are kept.
    public func drawn(through time: Double) -> Signature {
        var out = Signature(canvas: canvas, startTime: startTime, metadata: metadata)
        for (i, stroke) in strokes.enumerated() {
            let end = stroke.firstIndex { $0.t > time } ?? stroke.endIndex
            let before = out.strokeCount
            out.appendStroke(stroke[stroke.startIndex..<end])
            if out.strokeCount > before, let pen = pen(ofStroke: i), out.pens.count == before { out.pens.append(pen) }
            if end != stroke.endIndex { break }
        }
        return out
    }
}
