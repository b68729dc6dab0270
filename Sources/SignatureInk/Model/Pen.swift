// SPDX-License-Identifier: Apache-2.0

/// The pen a stroke was drawn with, as the capture front end recorded it: ink colour, line widths, how the
/// width follows the pen, whether the stroke erases, and what a format records beyond that (a tip shape, a
/// canvas composite operation).
///
/// This is the one place a stroke's pen lives (`Signature.pens`): every decoder fills it and every encoder
/// writes it, so a pen changed here is what the next file holds.
///
/// Lengths are line widths (diameters) in canvas units. A width left `nil` means the file did not say: the
/// renderer's ``PenStyle`` gives it. signature_pad's `minWidth`, `maxWidth` and `dotSize` are radii (it draws
/// circles of that radius), so a signature_pad pen has twice those numbers here.
public struct Pen: Sendable, Hashable, Codable {
    /// How the line width follows the pen.
    public enum WidthModel: Sendable, Hashable, Codable {
        /// The renderer's model (``PenStyle``): pressure when a sample has it, else a time-based speed filter,
        /// with tapers; the pen's widths replace the style's.
        case pressureOrSpeed
        /// signature_pad's own model, so that a page's ink is redrawn as the page drew it: the speed between
        /// consecutive points, filtered per point with this weight on the newest speed (`0...1`, signature_pad's
        /// default 0.7), gives the radius `max(maxWidth / 2 / (speed + 1), minWidth / 2)` at the end of each
        /// Bezier segment; the radius eases from one end to the other with the cube of the curve parameter.
        case signaturePad(velocityFilterWeight: Double)
    }

    /// How a stroke is combined with the ink under it.
    public enum Blend: String, Sendable, Hashable, Codable, CaseIterable {
        /// Painted over what is there (canvas `source-over`).
        case normal
        /// Removes what is under it, in proportion to its coverage (canvas `destination-out`): an eraser.
        case erase
    }

    /// The shape of the pen's tip, as InkML brushes record it (`tip`).
    public enum Tip: String, Sendable, Hashable, Codable, CaseIterable {
        /// Round or elliptical (InkML's `ellipse`, its default); every tip is drawn this way.
        case ellipse
        /// Rectangular (InkML's `rectangle`), such as a chisel nib: kept and written back, drawn round.
        case rectangle
    }

    /// The ink colour, with its opacity; default opaque black. An erasing pen's colour is ignored except for
    /// its opacity, which sets how much it removes.
    public var color: Color
    /// Thinnest line in canvas units, `> 0`, or `nil` for the renderer's; default `nil`.
    public var minWidth: Double?
    /// Thickest line in canvas units, `>= minWidth`, or `nil` for the renderer's; default `nil`.
    public var maxWidth: Double?
    /// Diameter of a tap's dot in canvas units, `> 0`, or `nil` for the mean of the widths; default `nil`.
    public var dotWidth: Double?
    /// How the width follows the pen; default ``WidthModel/pressureOrSpeed``.
    public var widthModel: WidthModel
    /// How the stroke combines with the ink under it; default ``Blend/normal``.
    public var blend: Blend
    /// The tip's shape; default ``Tip/ellipse``. The renderer draws every tip round.
    public var tip: Tip
    /// The canvas composite operation the front end drew the stroke with when ``blend`` cannot say it, such as
    /// signature_pad's `compositeOperation` `multiply`; `nil` (the default) when ``blend`` says it all
    /// (`source-over` is ``Blend/normal``, `destination-out` ``Blend/erase``). It is kept so that signature_pad
    /// JSON written back holds it; the stroke is drawn with ``blend``.
    public var compositeOperation: String?

    /// Thinnest line a recorded width is held to, canvas units.
    public static let thinnestLine = 0.001
    /// Widest line a recorded width is held to, canvas units: the renderer's own bound on pen widths.
    public static let widestLine = 1000.0

    /// Creates a pen; every argument is documented on its property.
    /// - Parameters:
    ///   - color: ink colour, default opaque black.
    ///   - minWidth: canvas units, `> 0`, or `nil` (the default) for the renderer's.
    ///   - maxWidth: canvas units, `>= minWidth`, or `nil` (the default) for the renderer's.
    ///   - dotWidth: canvas units, `> 0`, or `nil` (the default) for the mean width.
    ///   - widthModel: default ``WidthModel/pressureOrSpeed``.
    ///   - blend: default ``Blend/normal``.
    ///   - tip: default ``Tip/ellipse``.
    ///   - compositeOperation: a canvas composite operation other than `source-over` and `destination-out`, or
    ///     `nil` (the default).
    public init(color: Color = .black, minWidth: Double? = nil, maxWidth: Double? = nil, dotWidth: Double? = nil,
                widthModel: WidthModel = .pressureOrSpeed, blend: Blend = .normal, tip: Tip = .ellipse,
                compositeOperation: String? = nil) {
        self.color = color
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.dotWidth = dotWidth
        self.widthModel = widthModel
        self.blend = blend
        self.tip = tip
        self.compositeOperation = compositeOperation
    }

    private enum CodingKeys: String, CodingKey {
        case color, minWidth, maxWidth, dotWidth, widthModel, blend, tip, compositeOperation
    }

    /// Decodes a pen; `tip` and `compositeOperation` may be missing (pens encoded before they existed).
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when a member has the wrong type or `color`, `widthModel` or `blend` is missing.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(color: try c.decode(Color.self, forKey: .color),
                  minWidth: try c.decodeIfPresent(Double.self, forKey: .minWidth),
                  maxWidth: try c.decodeIfPresent(Double.self, forKey: .maxWidth),
                  dotWidth: try c.decodeIfPresent(Double.self, forKey: .dotWidth),
                  widthModel: try c.decode(WidthModel.self, forKey: .widthModel),
                  blend: try c.decode(Blend.self, forKey: .blend),
                  tip: try c.decodeIfPresent(Tip.self, forKey: .tip) ?? .ellipse,
                  compositeOperation: try c.decodeIfPresent(String.self, forKey: .compositeOperation))
    }

    /// The width of a constant pen, as InkML brushes and Wacom UIM styles record one: the width when both widths and
    /// the dot width are that one number and the width follows neither pressure nor speed
    /// (``WidthModel/pressureOrSpeed`` with no range to vary in); otherwise `nil`.
    public var constantWidth: Double? {
        guard widthModel == .pressureOrSpeed, let w = minWidth, maxWidth == w, dotWidth == w else { return nil }
        return w
    }

    /// A pen of one colour and one width (both widths equal), as InkML brushes and Wacom UIM styles give it.
    /// - Parameters:
    ///   - color: ink colour.
    ///   - width: line width in canvas units, `> 0`, or `nil` for the renderer's widths.
    public static func constant(color: Color, width: Double?) -> Pen {
        Pen(color: color, minWidth: width, maxWidth: width, dotWidth: width)
    }

    /// The pen signature_pad draws with, from the numbers its `toData()` records for a group.
    /// - Parameters:
    ///   - color: the parsed `penColor`.
    ///   - minWidth: `minWidth`, a radius in CSS pixels, `> 0` (signature_pad's default 0.5).
    ///   - maxWidth: `maxWidth`, a radius in CSS pixels, `>= minWidth` (default 2.5).
    ///   - dotSize: `dotSize`, a radius in CSS pixels; `0` (the default) means the mean of the two widths.
    ///   - velocityFilterWeight: `velocityFilterWeight`, `0...1` (default 0.7).
    ///   - erases: whether `compositeOperation` is `destination-out`.
    public static func signaturePad(color: Color, minWidth: Double, maxWidth: Double, dotSize: Double,
                                    velocityFilterWeight: Double, erases: Bool) -> Pen {
        Pen(color: color, minWidth: 2 * minWidth, maxWidth: 2 * maxWidth, dotWidth: dotSize > 0 ? 2 * dotSize : nil,
            widthModel: .signaturePad(velocityFilterWeight: velocityFilterWeight), blend: erases ? .erase : .normal)
    }

    /// `style` with this pen's widths in place of the style's (those the pen gives).
    ///
    /// A width that is not finite is ignored; the others are held to `0.001...1000` canvas units (the range
    /// ``PenStyle`` and the renderer accept), so no file can make the geometry fail or explode. A pen of one
    /// width (both widths equal) becomes a constant pen: no pressure, no tapers.
    /// - Parameter style: the renderer's style.
    /// - Returns: the style the pen's strokes are outlined with (signature_pad's model takes its widths from it).
    public func applied(to style: PenStyle) -> PenStyle {
        func usable(_ w: Double?) -> Double? {
            guard let w, w.isFinite else { return nil }
            return Swift.min(Self.widestLine, Swift.max(Self.thinnestLine, w))
        }
        var s = style
        let minWidth = usable(self.minWidth), maxWidth = usable(self.maxWidth)
        if let minWidth { s.minWidth = minWidth }
        if let maxWidth { s.maxWidth = maxWidth }
        if s.minWidth > s.maxWidth {
            if minWidth == nil { s.minWidth = s.maxWidth } else { s.maxWidth = s.minWidth }
        }
        if let dotWidth = usable(dotWidth) { s.dotWidth = dotWidth }
        if minWidth != nil, minWidth == maxWidth {
            // One width: a constant pen, as an InkML brush or a UIM style means it.
            s.usesPressure = false
            s.startTaper = 0
            s.endTaper = 0
        }
        return s
    }
}

extension Pen {
    /// The pen with every value in the range the model stores: widths held to
    /// ``thinnestLine``...``widestLine`` (a width that is not a positive finite number is dropped, so the
    /// renderer's applies), a minimum width above the maximum lowered to it, signature_pad's
    /// `velocityFilterWeight` held to `0...1` (a value that is not finite becomes signature_pad's 0.7), a
    /// ``compositeOperation`` of `source-over` or `destination-out` made the ``blend`` it means, and an empty one
    /// dropped.
    ///
    /// Decoders of formats written by other software apply it, so that whatever a file says, the signature can be
    /// stored in the native format and read back.
    public var held: Pen {
        var pen = self
        func hold(_ w: Double?) -> Double? {
            guard let w, w.isFinite, w > 0 else { return nil }
            return Swift.min(Self.widestLine, Swift.max(Self.thinnestLine, w))
        }
        pen.minWidth = hold(minWidth)
        pen.maxWidth = hold(maxWidth)
        pen.dotWidth = hold(dotWidth)
        if let lo = pen.minWidth, let hi = pen.maxWidth, lo > hi { pen.minWidth = hi }
        if case let .signaturePad(weight) = widthModel {
            pen.widthModel = .signaturePad(velocityFilterWeight: weight.isFinite ? Swift.min(1, Swift.max(0, weight)) : 0.7)
        }
        switch compositeOperation {
        case "source-over"?: pen.blend = .normal; pen.compositeOperation = nil
        case "destination-out"?: pen.blend = .erase; pen.compositeOperation = nil
        case ""?: pen.compositeOperation = nil
        default: break
        }
        return pen
    }
}
