// SPDX-License-Identifier: Apache-2.0

/// Turns strokes into closed variable-width outlines: the one shape that raster and vector output both fill.
///
/// Each stroke becomes one closed sub-path (side A, end cap, side B reversed, start cap) made of lines along
/// the sides and cubic arcs at caps and sharp outer turns, filled with the non-zero rule. A tap becomes one
/// round dot. The outline is exactly the union of the capsules between consecutive ink points, so it has no
/// spikes at sharp turns or reversals, no gaps between sparse samples (they are joined by curves first), and a
/// stroke that crosses itself, or strokes that cross each other, fill once: a semi-transparent pen never shows
/// darker overlaps when the whole signature is filled in one operation.
///
/// An outliner keeps its buffers between calls; reuse one to outline many strokes without allocating.
///
/// ```swift
/// var outliner = Outliner(style: .default)
/// var path = Path()
/// for stroke in signature.strokes { outliner.appendOutline(of: stroke, to: &path) }
/// ```
public struct Outliner: Sendable {
    /// The style in use, sanitised.
    public var style: PenStyle { stream.style }
    private var stream: InkStream
    private var builder: OutlineBuilder

    /// Creates an outliner.
    /// - Parameter style: the pen style; default ``PenStyle/default``.
    public init(style: PenStyle = .default) {
        stream = InkStream(style: style)
        builder = OutlineBuilder(tolerance: stream.style.curveTolerance)
    }

    /// Appends the closed outline of one stroke to a path. A stroke with no finite sample adds nothing.
    /// - Parameters:
    ///   - stroke: the stroke's samples in drawing order (a slice of ``Signature/samples``).
    ///   - path: the path to append one closed sub-path to.
    public mutating func appendOutline(of stroke: ArraySlice<InkSample>, to path: inout Path) {
        stream.reset()
        stream.reserveCapacity(stroke.count)
        stroke.withUnsafeBufferPointer { stream.append(contentsOf: $0) }
        stream.finish()
        appendCurrentOutline(to: &path)
    }

    /// Appends the closed outline of one stroke given as any collection of samples.
    /// - Parameters:
    ///   - stroke: the samples in drawing order.
    ///   - path: the path to append one closed sub-path to.
    public mutating func appendOutline<C: Collection>(of stroke: C, to path: inout Path)
    where C.Element == InkSample {
        stream.reset()
        stream.reserveCapacity(stroke.count)
        stream.append(contentsOf: stroke)
        stream.finish()
        appendCurrentOutline(to: &path)
    }

    /// The ink points a stroke is outlined from: smoothed, merged, subdivided, with final widths.
    /// - Parameter stroke: the stroke's samples.
    /// - Returns: the ink points; one point (with the dot's radius) for a tap; empty for no finite sample.
    public mutating func inkPoints<C: Collection>(of stroke: C) -> [InkPoint] where C.Element == InkSample {
        stream.reset()
        stream.append(contentsOf: stroke)
        stream.finish()
        return stream.points
    }

    /// Appends the outline of ink points computed elsewhere.
    /// - Parameters:
    ///   - points: ink points in order, consecutive ones at distinct positions and with
    ///     `|radius change| < distance`, as ``InkStream`` makes them.
    ///   - isDot: whether the points are a tap, drawn as a circle of the first point's radius.
    ///   - path: the path to append one closed sub-path to.
    public mutating func appendOutline(of points: [InkPoint], isDot: Bool, to path: inout Path) {
        points.withUnsafeBufferPointer { builder.append($0, dot: isDot, to: &path) }
    }

    /// Appends the outline of ink points computed elsewhere, given as a slice (no copy).
    /// - Parameters:
    ///   - points: ink points in order, consecutive ones at distinct positions and with
    ///     `|radius change| < distance`, as for the array form.
    ///   - isDot: whether the points are a tap, drawn as a circle of the first point's radius.
    ///   - path: the path to append one closed sub-path to.
    public mutating func appendOutline(of points: ArraySlice<InkPoint>, isDot: Bool, to path: inout Path) {
        points.withUnsafeBufferPointer { builder.append($0, dot: isDot, to: &path) }
    }

    private mutating func appendCurrentOutline(to path: inout Path) {
        stream.points.withUnsafeBufferPointer { builder.append($0, dot: stream.isDot, to: &path) }
    }
}
