// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// How a signature is drawn: size, framing, colours, pen, view mode and decorations.
///
/// Lengths are in *output units*: pixels at scale 1 for PNG, CSS pixels for SVG, and the same units mapped to
/// points through ``dpi`` for PDF. Without ``Framing/fit`` one canvas unit is one output unit.
public struct RenderOptions: Sendable, Hashable {
    /// Output pixels per output unit, > 0 and <= ``RenderLimits/maxScale``; default 1. Use 2 or 3 for HiDPI.
    /// Only raster output has pixels: SVG and PDF are the same size at every scale.
    public var scale: Double
    /// Ink colour for strokes without a recorded pen, and for every stroke when ``recordedPen`` leaves out
    /// ``RecordedPenParts/color``; default opaque black.
    public var penColor: Color
    /// What a stroke's recorded pen (`Signature.pens`) decides instead of ``penColor`` and
    /// ``penStyle``; default ``RecordedPenParts/all``: the file's pen wins. An eraser always erases.
    public var recordedPen: RecordedPenParts = .all
    /// Background; default `Color.clear` (transparent).
    public var background: Color
    /// How samples become ink: smoothing, widths (from pressure, else speed) and tapers, with lengths in output
    /// units; default `PenStyle.default` (1 to 3 units wide). Widths must be in `(0, 1000]`. A stroke's
    /// recorded pen replaces the widths (and, for signature_pad's pens, the width model) unless ``recordedPen``
    /// leaves out ``RecordedPenParts/widths``.
    public var penStyle: PenStyle
    /// A constant pen width in output units: reads the style's widest line; setting it makes the style
    /// `PenStyle.constant(_:)` of that width (round caps, no tapers).
    public var penWidth: Double {
        get { Swift.max(penStyle.maxWidth, penStyle.effectiveDotWidth) }
        set { penStyle = .constant(newValue) }
    }
    /// Space around the ink in output units when cropping or fitting, >= 0 and <= 10000; default 16 (the SAP
    /// signature component's default).
    public var padding: Double
    /// The output box in output units, or `nil` for the canvas size (or, without a canvas, the cropped ink).
    public var box: OutputSize?
    /// How the ink is placed in the output; default ``Framing/canvas``.
    public var framing: Framing
    /// Opacity of the whole signature, applied once to everything drawn over the background so overlapping
    /// strokes do not darken, in `0...1`; default 1. The read-only "view mode" uses 0.5.
    public var opacity: Double
    /// The signature line, "X" mark, watermark and timestamp drawn with the ink; default none.
    public var decorations: Decorations
    /// Output resolution in pixels per inch, > 0 and <= 100000, or `nil` for the canvas's units per inch times
    /// ``scale`` (96 x scale for CSS pixels). Written to the PNG `pHYs` chunk; sets the physical size of SVG
    /// and PDF output (PDF points = output units x 72 x scale / dpi).
    public var dpi: Double?

    /// The opacity of ``viewMode(opacity:)`` when none is given: the design guides' semi-transparent saved look.
    public static let defaultViewOpacity = 0.5
    /// The most padding, in output units.
    public static let maxPadding = 10_000.0
    /// The highest resolution, in pixels per inch.
    public static let maxDPI = 100_000.0

    /// Creates options; every argument defaults to the documented default.
    /// - Parameters:
    ///   - scale: output pixels per output unit, > 0, default 1.
    ///   - penColor: ink colour, default black.
    ///   - background: background colour, default transparent.
    ///   - penStyle: smoothing, widths and tapers in output units, default `PenStyle.default`.
    ///   - penWidth: a constant pen width in output units, > 0, replacing `penStyle` with
    ///     `PenStyle.constant(_:)`; default `nil` (use `penStyle`).
    ///   - padding: space around cropped or fitted ink in output units, >= 0, default 16.
    ///   - box: output box in output units, default `nil` (the canvas).
    ///   - framing: placement of the ink, default ``Framing/canvas``.
    ///   - opacity: opacity of the whole signature in `0...1`, default 1.
    ///   - decorations: line, mark, watermark and timestamp, default none.
    ///   - dpi: output pixels per inch, default `nil` (canvas units per inch x scale).
    public init(scale: Double = 1, penColor: Color = .black, background: Color = .clear,
                penStyle: PenStyle = .default, penWidth: Double? = nil, padding: Double = 16, box: OutputSize? = nil,
                framing: Framing = .canvas, opacity: Double = 1, decorations: Decorations = Decorations(),
                dpi: Double? = nil) {
        self.scale = scale
        self.penColor = penColor
        self.background = background
        self.penStyle = penWidth.map { PenStyle.constant($0) } ?? penStyle
        self.padding = padding
        self.box = box
        self.framing = framing
        self.opacity = opacity
        self.decorations = decorations
        self.dpi = dpi
    }

    /// These options in view mode: the signature drawn read-only and semi-transparent, as one group.
    /// - Parameter opacity: opacity of the whole signature in `0...1`, default ``defaultViewOpacity`` (0.5).
    /// - Returns: a copy with ``opacity`` set.
    public func viewMode(opacity: Double = RenderOptions.defaultViewOpacity) -> RenderOptions {
        var o = self
        o.opacity = opacity
        return o
    }

    /// Throws when an option is out of range.
    /// - Parameter limits: the bounds to check against, default ``RenderLimits/default``.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` naming the option and its valid range.
    public func validate(limits: RenderLimits = .default) throws(RenderError) {
        guard scale.isFinite, scale > 0, scale <= limits.maxScale else {
            throw .invalidOption(option: "scale", message: "\(number(scale)) is outside (0, \(number(limits.maxScale))]")
        }
        for (name, w) in [("pen width", penStyle.minWidth), ("pen width", penStyle.maxWidth),
                          ("dot width", penStyle.effectiveDotWidth)] {
            guard w.isFinite, w > 0, w <= 1000 else { throw .invalidOption(option: name, message: "\(w) is outside (0, 1000]") }
        }
        guard penStyle.minWidth <= penStyle.maxWidth else {
            throw .invalidOption(option: "pen width", message: "minimum \(penStyle.minWidth) is above maximum \(penStyle.maxWidth)")
        }
        guard padding.isFinite, padding >= 0, padding <= Self.maxPadding else {
            throw .invalidOption(option: "padding", message: "\(number(padding)) is outside [0, \(number(Self.maxPadding))]")
        }
        guard opacity.isFinite, opacity >= 0, opacity <= 1 else {
            throw .invalidOption(option: "opacity", message: "\(number(opacity)) is outside [0, 1]")
        }
        if let dpi {
            guard dpi.isFinite, dpi > 0, dpi <= Self.maxDPI else {
                throw .invalidOption(option: "dpi", message: "\(number(dpi)) is outside (0, \(number(Self.maxDPI))]")
            }
        }
        if let box {
            for (name, v) in [("width", box.width), ("height", box.height)] {
                guard v.isFinite, v > 0, v <= Double(limits.maxSide) else {
                    throw .invalidOption(option: name, message: "\(v) is outside (0, \(limits.maxSide)]")
                }
            }
        }
        if framing == .fit, let box, 2 * padding + penWidth >= Swift.min(box.width, box.height) {
            throw .invalidOption(option: "padding", message:
                "\(padding) on each side leaves no room for the ink in a \(box.width) x \(box.height) box")
        }
        try decorations.validate()
    }
}

/// A number as people write it in a message: `16`, not `16.0`.
func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
}

/// The parts of a recorded pen that a render takes from the file rather than from ``RenderOptions``.
public struct RecordedPenParts: OptionSet, Sendable, Hashable {
    /// The bits of the set: 1 for ``color``, 2 for ``widths``.
    public let rawValue: UInt8
    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The ink colour and opacity.
    public static let color = RecordedPenParts(rawValue: 1)
    /// The widths, the dot size and the width model.
    public static let widths = RecordedPenParts(rawValue: 2)
    /// Everything the file records: its pens win.
    public static let all: RecordedPenParts = [.color, .widths]
    /// Nothing: the options' pen draws every stroke (erasers still erase).
    public static let none: RecordedPenParts = []
}

/// A width and height in output units.
public struct OutputSize: Sendable, Hashable, Codable {
    /// Width in output units, > 0.
    public var width: Double
    /// Height in output units, > 0.
    public var height: Double

    /// Creates a size.
    /// - Parameters:
    ///   - width: width in output units, > 0 (checked by ``RenderOptions/validate(limits:)``).
    ///   - height: height in output units, > 0.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// How the ink is placed in the output.
public enum Framing: String, Sendable, Hashable, Codable, CaseIterable {
    /// Canvas coordinates map unchanged onto the output (one canvas unit = one output unit), so points land
    /// where the user drew them; the output is the box, else the canvas. An input with neither is cropped to
    /// its ink plus padding, and ink (plus padding) larger than 2000 units on a side, such as tablet
    /// coordinates, is fitted into 600 x 300 instead.
    case canvas
    /// The ink plus padding is scaled to fit the box (else the canvas, else 600 x 300), keeping its aspect,
    /// centred. Pen width and padding stay in output units.
    case fit
    /// The output is the ink bounds plus half the pen width plus the padding, at one output unit per canvas unit.
    case crop
}

/// Bounds on what one render may cost, checked before any pixel is allocated.
public struct RenderLimits: Sendable, Hashable {
    /// Most output pixels (width x height); default 64 megapixels (256 MiB as ARGB).
    public var maxPixels: Int
    /// Longest output side in pixels; default 32767, Cairo's own limit.
    public var maxSide: Int
    /// Largest scale; default 16.
    public var maxScale: Double
    /// Longest side of a box a ``RenderRequest`` may ask for, in output units; default 32767. A server asks less.
    public var maxBoxSide: Double
    /// Most work units one PNG render may cost, estimated before any pixel is allocated: each pixel of the image
    /// (1 unit as coverage, 16 as colour: decorations or several ink colours), plus the fill's ``RasterCost/work``
    /// (the outline's edges and the pixel rows they cross, more where many share a row). A unit is about 3 ns of
    /// one core and about a byte of memory. The default, 2^31, refuses only the absurd (a pen far wider than the
    /// ink over thousands of zigzag samples at scale 16); a 600 x 300 signature costs about 0.4 M units at scale
    /// 1 and 47 M at scale 16. A server sets less (`signature-ink-server`: 2^27). SVG and PDF are not counted.
    public var maxWork: Int

    /// Creates limits; every argument defaults to the documented default.
    /// - Parameters:
    ///   - maxPixels: most output pixels, default 64 Mi.
    ///   - maxSide: longest output side in pixels, default 32767.
    ///   - maxScale: largest scale, default 16.
    ///   - maxBoxSide: longest side of a requested box in output units, >= 1, default 32767.
    ///   - maxWork: most work units a raster render may cost, > 0, default ``defaultMaxWork``.
    public init(maxPixels: Int = 64 << 20, maxSide: Int = 32767, maxScale: Double = 16, maxBoxSide: Double = 32767,
                maxWork: Int = RenderLimits.defaultMaxWork) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxScale = maxScale
        self.maxBoxSide = maxBoxSide
        self.maxWork = maxWork
    }

    /// The default work budget of a render, 2^31 units.
    public static let defaultMaxWork = 1 << 31

    /// Work units a pixel of a colour (ARGB) image costs: clearing, filling, un-premultiplying and encoding 4
    /// bytes, and up to 16 bytes of memory (Cairo's surface, the RGBA rows, and the encoder's tokens when nothing
    /// compresses).
    static let colourPixelWork = 16

    /// Refuses a raster render of `pixels` pixels whose fills cost `fill`, when together they pass ``maxWork``.
    /// - Parameter colour: whether the image is drawn in colour (ARGB) rather than as coverage.
    /// - Throws: ``RenderError/overBudget(work:budget:pixels:pixelWork:edges:edgeRows:)``.
    func checkWork(pixels: Int, colour: Bool = false, fill: RasterCost) throws(RenderError) {
        let pixelWork = pixels.multipliedReportingOverflow(by: colour ? Self.colourPixelWork : 1)
        let work = pixelWork.partialValue.addingReportingOverflow(fill.work)
        guard pixelWork.overflow || work.overflow || work.partialValue > maxWork else { return }
        throw .overBudget(work: pixelWork.overflow || work.overflow ? Int.max : work.partialValue, budget: maxWork,
                          pixels: pixels, pixelWork: pixelWork.overflow ? Int.max : pixelWork.partialValue,
                          edges: fill.edges, edgeRows: fill.edgeRows)
    }

    /// The defaults.
    public static let `default` = RenderLimits()
}
