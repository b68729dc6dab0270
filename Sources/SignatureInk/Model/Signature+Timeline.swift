// SPDX-License-Identifier: Apache-2.0

extension Signature {
    /// The ink drawn up to `time` milliseconds: every sample with `t <= time`, in the same strokes, for frames of
    /// a signing animation. Canvas, start time and metadata are kept.
    public func drawn(through time: Double) -> Signature {
        var out = Signature(canvas: canvas, startTime: startTime, metadata: metadata)
        for stroke in strokes {
            let end = stroke.firstIndex { $0.t > time } ?? stroke.endIndex
            out.appendStroke(stroke[stroke.startIndex..<end])
            if end != stroke.endIndex { break }
        }
        return out
    }
}
