// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// One render as a front end asks for it: the output format, the box, the framing, the pen and what it replaces of
/// the file's, the decorations and the view mode, with the limits it is held to.
///
/// This is the one place the render options' rules live. The command line's `render` flags and the server's
/// `/render` query parameters are the same ``Option``s under the same names, and both only map what they read onto
/// a request: values given as text go through ``set(_:to:)``, and ``validate()`` checks every range and every pair
/// of options that contradict each other. What a pen option replaces of a file's own pen is said by
/// ``overrides(of:)``, never silently.
///
/// ```swift
/// var request = RenderRequest()
/// try request.set(.format, to: "svg")
/// try request.set(.penColor, to: "#1a237e")
/// try request.validate()
/// let svg = try request.render(signature)
/// ```
public struct RenderRequest: Sendable, Hashable {
    /// The kind of file a render writes.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// A PNG image: pixels, at ``RenderRequest/scale`` pixels per output unit.
        case png
        /// An SVG document in CSS pixels.
        case svg
        /// A one-page PDF document.
        case pdf

        /// The file name extension, without the dot: `png`, `svg` or `pdf`.
        public var fileExtension: String { rawValue }

        /// The media type of the file: `image/png`, `image/svg+xml` or `application/pdf`.
        public var mediaType: String {
            switch self {
            case .png: return "image/png"
            case .svg: return "image/svg+xml"
            case .pdf: return "application/pdf"
            }
        }

        /// The format a file name's extension names (`out.SVG` is SVG).
        /// - Parameter fileName: a file name or path.
        /// - Returns: `nil` when the name's last component has no extension, or one that is not a format's.
        public init?(fileName: String) {
            let bytes = fileName.utf8
            guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), !bytes[dot...].contains(UInt8(ascii: "/")) else {
                return nil
            }
            self.init(rawValue: fileName[bytes.index(after: dot)...].lowercased())
        }
    }

    /// The output box as the caller gave it.
    public enum Box: Sendable, Hashable {
        /// No box: the canvas, or without one the ink (see ``Framing``).
        case canvas
        /// A width alone, in output units: the height comes from the canvas, or without one makes a 2:1 box.
        case width(Double)
        /// A height alone, in output units: the width comes from the canvas, or without one makes a 2:1 box.
        case height(Double)
        /// Both sides, in output units.
        case size(OutputSize)

        /// The box of the sides given.
        /// - Parameters:
        ///   - width: the width in output units, or `nil`.
        ///   - height: the height in output units, or `nil`.
        public init(width: Double?, height: Double?) {
            switch (width, height) {
            case let (w?, h?): self = .size(OutputSize(width: w, height: h))
            case let (w?, nil): self = .width(w)
            case let (nil, h?): self = .height(h)
            case (nil, nil): self = .canvas
            }
        }

        /// The width given, or `nil`.
        public var width: Double? {
            switch self {
            case let .width(w): return w
            case let .size(size): return size.width
            case .canvas, .height: return nil
            }
        }

        /// The height given, or `nil`.
        public var height: Double? {
            switch self {
            case let .height(h): return h
            case let .size(size): return size.height
            case .canvas, .width: return nil
            }
        }

        /// The box for `signature`: a side given alone takes the other from the canvas, or, without a canvas, makes
        /// a 2:1 box (the usual signature pad's shape); `nil` without a box.
        /// - Parameter canvas: the signature's canvas, or `nil`.
        public func size(on canvas: Canvas?) -> OutputSize? {
            switch self {
            case .canvas: return nil
            case let .size(size): return size
            case let .width(w): return OutputSize(width: w, height: canvas?.height ?? w / 2)
            case let .height(h): return OutputSize(width: canvas?.width ?? 2 * h, height: h)
            }
        }
    }

    /// The output format, or `nil` to take it from the output file's name (``Format/init(fileName:)``), else PNG;
    /// default `nil`.
    public var format: Format?
    /// Output pixels per output unit, > 0 and <= ``RenderLimits/maxScale``; default 1. PNG only.
    public var scale: Double = 1
    /// An ink colour that replaces the colours the file records, or `nil` to keep them (black where the file has
    /// none); default `nil`.
    public var penColor: Color?
    /// The background; default transparent.
    public var background: Color = .clear
    /// One constant pen width in output units, `(0, 1000]`, that replaces the widths the file records; not with
    /// ``minWidth`` or ``maxWidth``; default `nil`.
    public var penWidth: Double?
    /// The thinnest line in output units, `(0, 1000]`, replacing the file's widths; default `nil` (the file's,
    /// else 1).
    public var minWidth: Double?
    /// The thickest line in output units, `(0, 1000]`, replacing the file's widths; default `nil` (the file's,
    /// else 3).
    public var maxWidth: Double?
    /// The output box; default ``Box/canvas``.
    public var box: Box = .canvas
    /// How the ink is placed: the canvas unchanged, fitted into the box, or cropped to the ink; default
    /// ``Framing/canvas``. ``Framing/crop`` takes no box.
    public private(set) var framing: Framing = .canvas
    /// Space around fitted or cropped ink in output units, `[0, 10000]`; default 16.
    public var padding: Double = 16
    /// Whether the signature is drawn read-only and semi-transparent, as a saved signature is shown; default
    /// `false`.
    public var viewMode = false
    /// The opacity of the whole signature, `0...1`, or `nil` for 0.5 in view mode and 1 otherwise; default `nil`.
    public var opacity: Double?
    /// The signature line, "X" mark, watermark and timestamp; default none.
    public var decorations = Decorations()
    /// Output pixels per inch, `(0, 100000]`, or `nil` for the canvas's units per inch times the scale; default
    /// `nil`.
    public var dpi: Double?
    /// SVG only: one `<path>` per stroke instead of one per signature; default `false`.
    public var pathPerStroke = false
    /// The bounds the output is held to: the largest scale, box, side and pixel count; default
    /// ``RenderLimits/default``.
    public var limits: RenderLimits = .default

    /// A request with every option at its default: the file's pen, its canvas, PNG at scale 1.
    public init() {}

    /// The format written: ``format``, else PNG.
    public var outputFormat: Format { format ?? .png }

    /// Places the ink by `framing`.
    /// - Parameter framing: ``Framing/fit`` or ``Framing/crop``; ``Framing/canvas`` changes nothing.
    /// - Throws: ``Invalid`` when the other of fit and crop was asked for already: the two contradict.
    public mutating func frame(_ framing: Framing) throws(Invalid) {
        guard framing != .canvas, framing != self.framing else { return }
        guard self.framing == .canvas else {
            throw Invalid(.fit, .contradicts(.crop))
        }
        self.framing = framing
    }

    /// The parts of a file's pen that no option replaces: all of them, less the colour when ``penColor`` is given
    /// and the widths when ``penWidth``, ``minWidth`` or ``maxWidth`` is.
    public var recordedPen: RecordedPenParts {
        var parts = RecordedPenParts.all
        if penColor != nil { parts.remove(.color) }
        if penWidth != nil || minWidth != nil || maxWidth != nil { parts.remove(.widths) }
        return parts
    }

    /// The pen style: one constant width, or the default style with the widths given.
    var penStyle: PenStyle {
        if let penWidth { return .constant(penWidth) }
        var style = PenStyle.default
        if let minWidth { style.minWidth = minWidth }
        if let maxWidth { style.maxWidth = maxWidth }
        return style
    }

    /// The renderer's options for `signature`, with a box given by one side completed from its canvas.
    /// - Parameter signature: the signature to draw, or `nil` to leave a one-sided box open.
    /// - Returns: the options; check them with ``validate()`` first.
    public func options(for signature: Signature? = nil) -> RenderOptions {
        var fixed: OutputSize?
        if case let .size(size) = box { fixed = size }
        var options = RenderOptions(
            scale: scale, penColor: penColor ?? .black, background: background, penStyle: penStyle, padding: padding,
            box: signature.map { box.size(on: $0.canvas) } ?? fixed,
            framing: framing, opacity: opacity ?? (viewMode ? RenderOptions.defaultViewOpacity : 1),
            decorations: decorations, dpi: dpi)
        options.recordedPen = recordedPen
        return options
    }

    /// Throws unless every option is in its range and no two contradict each other: the request's own rules (the
    /// options that contradict, each pen width, the box's sides within ``RenderLimits/maxBoxSide``), then the
    /// ranges ``RenderOptions/validate(limits:)`` holds for every caller, named by option.
    /// - Throws: ``Invalid`` naming the option and what it takes.
    public func validate() throws(Invalid) {
        if penWidth != nil && (minWidth != nil || maxWidth != nil) {
            throw Invalid(.penWidth, .contradicts(minWidth != nil ? .minWidth : .maxWidth))
        }
        for (option, width) in [(Option.penWidth, penWidth), (.minWidth, minWidth), (.maxWidth, maxWidth)] {
            if let width, !(width.isFinite && width > 0 && width <= Pen.widestLine) {
                throw Invalid(option, .outside("(0, \(number(Pen.widestLine))]"), width)
            }
        }
        let style = penStyle
        if style.minWidth > style.maxWidth {
            throw Invalid(.minWidth, .above(.maxWidth, style.maxWidth), style.minWidth)
        }
        for (option, side) in [(Option.width, box.width), (.height, box.height)] {
            if let side, !(side.isFinite && side >= 1 && side <= limits.maxBoxSide) {
                throw Invalid(option, .outside("[1, \(number(limits.maxBoxSide))]"), side)
            }
        }
        if framing == .crop && box != .canvas { throw Invalid(.crop, .takesNoBox) }
        do {
            try options().validate(limits: limits)
        } catch {
            // The ranges the options hold for any caller (scale, padding, opacity, dpi, the watermark's length, a
            // box side past the output's longest side, padding that leaves a fitted box no room), under the
            // option's name.
            guard case let .invalidOption(name, message) = error else { throw Invalid(.padding, .rejected("\(error)")) }
            throw Invalid(Option(rawValue: name) ?? (name.hasSuffix("width") ? .penWidth : .padding), .rejected(message))
        }
    }

    /// A renderer for this request; one renderer draws any number of signatures.
    /// - Throws: ``Invalid`` when ``validate()`` does.
    public func renderer() throws(Invalid) -> SignatureRenderer {
        try validate()
        return SignatureRenderer(options: options(), limits: limits)
    }

    /// Renders `signature` into the bytes of a file of ``outputFormat``.
    /// - Parameters:
    ///   - signature: the signature to draw.
    ///   - renderer: this request's ``renderer()``, made once for many signatures.
    ///   - stop: a switch that stops a PNG render between its steps, or `nil`.
    /// - Returns: the file's bytes.
    /// - Throws: ``RenderError`` when the output would pass the limits or the work budget, the render was
    ///   stopped, or Cairo, Pango or libpng fails.
    public func render(_ signature: Signature, with renderer: SignatureRenderer,
                       stop: RenderStop? = nil) throws(RenderError) -> [UInt8] {
        var renderer = renderer
        if renderer.options.box == nil, let size = box.size(on: signature.canvas) {
            renderer.options.box = size
            try renderer.options.validate(limits: renderer.limits)
        }
        switch outputFormat {
        case .svg: return Array(try renderer.svg(signature, pathPerStroke: pathPerStroke).utf8)
        case .pdf: return try renderer.pdf(signature)
        case .png: return try renderer.png(signature, stop: stop)
        }
    }

    /// Renders `signature` into the bytes of a file of ``outputFormat``.
    /// - Parameters:
    ///   - signature: the signature to draw.
    ///   - stop: a switch that stops a PNG render between its steps, or `nil`.
    /// - Returns: the file's bytes.
    /// - Throws: ``Invalid`` (as ``RenderError/invalidOption(option:message:)``) when an option is out of range,
    ///   ``RenderError`` when the output would pass the limits or the work budget, or drawing fails.
    public func render(_ signature: Signature, stop: RenderStop? = nil) throws(RenderError) -> [UInt8] {
        let renderer: SignatureRenderer
        do { renderer = try self.renderer() } catch {
            throw .invalidOption(option: error.option.name, message: error.reason.description)
        }
        return try render(signature, with: renderer, stop: stop)
    }
}
