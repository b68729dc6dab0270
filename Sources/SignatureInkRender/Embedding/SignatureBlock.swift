// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// A signature as a form shows it: the ink over a line, the signer's name under the line on the left and the
/// date on the right. A typed signature (``typedSignature``) takes the place of the ink: the name the signer typed,
/// written over the line in a handwriting face.
///
/// ResearchKit's consent PDF draws the same block with the signature as a raster image; this one stays vector
/// in PDF. The ink is fitted into the space above the line (keeping its aspect, centred), in the renderer
/// options' colour and opacity.
public struct SignatureBlock: Sendable {
    /// The signature drawn over the line.
    public var signature: Signature
    /// The name the signer typed in place of drawing, written over the line in the handwriting face (Ecolier;
    /// other scripts in the project's other fonts) instead of ``signature``; `nil` (the default) for the ink.
    public var typedSignature: String?
    /// The signer's name, written under the line on the left; empty for none.
    public var signerName: String
    /// The date written under the line on the right, or `nil` for none.
    public var date: String?
    /// Pen, colours and opacity of the ink; its box, framing and decorations are not used.
    public var options: RenderOptions
    /// Colour of the line; default `#757575`.
    public var lineColor: Color
    /// Colour of the name and date; default `#212121`.
    public var textColor: Color
    /// With ``TextDirection/rightToLeft`` the name is written at the right end of the line and the date at the
    /// left, as a right-to-left form reads; otherwise the name is on the left. Default ``TextDirection/auto``.
    public var direction: TextDirection = .auto
    /// What a screen reader says of the block in a tagged PDF (``PagedDocument``), which has it as a figure: `nil`
    /// (the default) for the signer's name and the date, or the role and a "signed" word the caller knows better.
    public var alternateText: String?

    /// The block's alternate text: ``alternateText``, else the signer's name and the date, else nothing.
    var figureDescription: String {
        alternateText ?? [signerName, date ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// The pattern of the default date: the calendar date of the capture, `yyyy-MM-dd`.
    public static let defaultDateFormat = try! TimestampFormat(pattern: "yyyy-MM-dd")

    /// Creates a block.
    /// - Parameters:
    ///   - signature: the signature.
    ///   - signerName: the name under the line, default empty.
    ///   - date: the date text; default the capture date (UTC) as `yyyy-MM-dd`, or none when the signature has
    ///     no `startTime`.
    ///   - options: pen, colours and opacity, default ``RenderOptions/init(scale:penColor:background:penStyle:penWidth:padding:box:framing:opacity:decorations:dpi:)``
    ///     with a padding of 4.
    ///   - lineColor: line colour, default `#757575`.
    ///   - textColor: text colour, default `#212121`.
    public init(signature: Signature, signerName: String = "", date: String? = nil,
                options: RenderOptions = RenderOptions(padding: 4),
                lineColor: Color = Color(red: 0x75, green: 0x75, blue: 0x75),
                textColor: Color = Color(red: 0x21, green: 0x21, blue: 0x21)) {
        self.signature = signature
        self.signerName = signerName
        self.date = date ?? signature.startTime.flatMap { Self.defaultDateFormat.string(millisecondsSince1970: $0) }
        self.options = options
        self.lineColor = lineColor
        self.textColor = textColor
    }

    /// Font size of the name and date for a block `height` units tall: a tenth of it, within 6...11.
    static func fontSize(height: Double) -> Double { Swift.min(11, Swift.max(6, height / 10)) }

    /// The y of the line in a block `height` units tall, measured from its top.
    static func lineY(height: Double) -> Double { height - fontSize(height: height) * 2 }

    /// Draws the block into a rectangle of a Cairo context.
    /// - Parameters:
    ///   - rect: where to draw, in the target's user space (points on a ``PDFDocument`` page); at least 24
    ///     units tall and wide so the ink, line and text have room.
    ///   - target: the context to draw into; its state is saved and restored.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` for a rectangle too small or a bad option,
    ///   ``RenderError/cairo(_:)`` when Cairo fails.
    public func draw(in rect: Rect, on target: CairoTarget) throws(RenderError) {
        guard rect.width >= 24, rect.height >= 24, rect.width.isFinite, rect.height.isFinite,
              rect.minX.isFinite, rect.minY.isFinite else {
            throw .invalidOption(option: "rect", message: "a signature block needs at least 24 x 24 units, got \(rect.width) x \(rect.height)")
        }
        let size = Self.fontSize(height: rect.height), lineY = Self.lineY(height: rect.height)
        var o = options
        o.decorations = Decorations()
        o.padding = Swift.min(o.padding, lineY / 6)
        o.penWidth = Swift.min(o.penWidth, lineY / 4)
        // The ink sits on the line: its box ends a little below it, as handwriting crosses the line.
        let inkBox = Rect(x: rect.minX, y: rect.minY, width: rect.width, height: lineY + o.padding / 2)
        let typed = typedSignature.flatMap { $0.isEmpty ? nil : $0 }
        let context = try CairoContext(borrowing: target.unsafeContext)
        // In a tagged document's figure, the ink and line, the name and the date are each a span of it: Cairo marks
        // no content of an element that holds others, and the name's and date's words stay apart.
        let spans = context.isInsideStructure
        if spans { context.beginStructure(.span, actualText: typed) }
        if typed == nil { try SignatureRenderer(options: o).draw(signature, in: inkBox, on: target, framing: .fit) }

        context.save()
        context.translate(rect.minX, rect.minY)
        if let typed {
            do { try drawTyped(typed, width: rect.width, lineY: lineY, on: context) } catch {
                context.restore()
                throw error
            }
        }
        context.setSource(lineColor)
        context.moveTo(Point(0, lineY))
        context.lineTo(Point(rect.width, lineY))
        context.strokeButt(width: 0.75)
        if spans { context.endStructure() }
        context.setSource(textColor)
        let baseline = lineY + size * 1.35
        do {
            let rightToLeft = direction == .rightToLeft
            if !signerName.isEmpty {
                if spans { context.beginStructure(.span, actualText: signerName) }
                defer { if spans { context.endStructure() } }
                try TextLine(text: signerName, font: TextFont(size: size))
                    .draw(anchor: rightToLeft ? .end : .start, at: Point(rightToLeft ? rect.width : 0, baseline), on: context)
            }
            if let date, !date.isEmpty {
                if spans { context.beginStructure(.span, actualText: date) }
                defer { if spans { context.endStructure() } }
                try TextLine(text: date, font: TextFont(size: size))
                    .draw(anchor: rightToLeft ? .start : .end, at: Point(rightToLeft ? 0 : rect.width, baseline), on: context)
            }
        } catch {
            context.restore()
            throw error
        }
        context.restore()
        try context.check()
    }

    /// Writes a typed signature on the line, in the pen's colour, as large as the space above the line allows (at
    /// most 60 % of it) and no wider than the block; from the left, or from the right in a right-to-left block.
    private func drawTyped(_ text: String, width: Double, lineY: Double, on context: CairoContext) throws(RenderError) {
        let margin = Swift.min(8, width / 12)
        var font = TextFont(size: Swift.max(4, lineY * 0.6), handwriting: true)
        let measured = try TextLine(text: text, font: font).metrics().width
        if measured > width - 2 * margin, measured > 0 { font.size = Swift.max(4, font.size * (width - 2 * margin) / measured) }
        let pen = options.penColor
        context.setSource(Color(red: pen.red, green: pen.green, blue: pen.blue, alpha: UInt8(Double(pen.alpha) * options.opacity)))
        let rightToLeft = direction == .rightToLeft
        // The baseline a little above the line, as a hand writes on it.
        try TextLine(text: text, font: font)
            .draw(anchor: rightToLeft ? .end : .start, at: Point(rightToLeft ? width - margin : margin, lineY - font.size * 0.12), on: context)
    }

    /// The block alone as a one-page vector PDF.
    /// - Parameters:
    ///   - width: page width in points, in `24...14400`; default 288 (4 inches).
    ///   - height: page height in points, in `24...14400`; default 108 (1.5 inches).
    /// - Returns: the bytes of a PDF file dated with the capture time (see ``PDFDocument``).
    /// - Throws: ``RenderError`` for a bad size or option, or when Cairo fails.
    public func pdf(width: Double = 288, height: Double = 108) throws(RenderError) -> [UInt8] {
        let document = PDFDocument(creationDate: SignatureRenderer.captureTime(of: signature))
        try document.addRenderedPage(width: width, height: height) { (page) throws(RenderError) in
            try draw(in: Rect(x: 0, y: 0, width: width, height: height), on: page)
        }
        return try document.finish()
    }
}
