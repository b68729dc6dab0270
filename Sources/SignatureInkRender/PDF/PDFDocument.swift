// SPDX-License-Identifier: Apache-2.0

/// A vector PDF document built page by page through Cairo, held in memory.
///
/// A form renderer draws its own content on each page through the page's ``CairoTarget`` (with its own Cairo
/// calls on ``CairoTarget/unsafeContext``) and places signatures with ``SignatureRenderer/draw(_:in:on:framing:opacity:)`` or
/// ``SignatureBlock/draw(in:on:)``:
///
/// ```swift
/// let document = PDFDocument()
/// try document.addPage(width: 595, height: 842) { page in
///     try SignatureBlock(signature: signature, signerName: "Ada Lovelace")
///         .draw(in: Rect(x: 72, y: 600, width: 240, height: 120), on: page)
/// }
/// let bytes = try document.finish()
/// ```
///
/// Not thread-safe: use one document from one task.
public final class PDFDocument {
    private let sink = PDFSink()
    private var surface: CairoSurface?
    private var context: CairoContext?
    private let title: String?
    private let subject: String?
    private let creationDate: String
    /// Pages added so far.
    public private(set) var pageCount = 0
    private var finished = false
    /// The BCP 47 language of a tagged document's text (its catalog's `/Lang`), or `nil`.
    var language: String?
    /// Set when a page's drawing threw: that page is half drawn, so the document cannot go on.
    private var failed = false

    /// The creation date written when none is given, so documents do not depend on the clock.
    public static let defaultCreationDate = "2000-01-01T00:00:00Z"

    /// Creates an empty document.
    /// - Parameters:
    ///   - title: the document title, or `nil` for none; default `nil`.
    ///   - subject: what the document is about, or `nil` for none; default `nil`.
    ///   - creationDate: creation and modification date as ISO 8601 (`2026-01-31T12:00:00Z`), or `nil` for
    ///     ``defaultCreationDate``; default `nil`.
    public init(title: String? = nil, subject: String? = nil, creationDate: String? = nil) {
        self.title = title
        self.subject = subject
        self.creationDate = creationDate ?? Self.defaultCreationDate
    }

    /// Adds a page and lets `draw` fill it.
    /// - Parameters:
    ///   - width: page width in points (1/72 inch), in `1...14400` (PDF's 200-inch limit).
    ///   - height: page height in points, in `1...14400`.
    ///   - draw: draws the page through a target whose user space is in points, origin at the top left,
    ///     y down. Borrow the target only for the call.
    /// - Throws: what `draw` throws, after which the document takes no more pages (the page is half drawn);
    ///   else ``RenderError`` for a bad size, a finished or failed document, or a Cairo failure.
    public func addPage(width: Double, height: Double, _ draw: (CairoTarget) throws -> Void) throws {
        guard !failed else { throw RenderError.invalidOption(option: "page", message: Self.failedMessage) }
        guard !finished else { throw RenderError.invalidOption(option: "page", message: "the document is already finished") }
        guard width.isFinite, height.isFinite, (1...14400).contains(width), (1...14400).contains(height) else {
            throw RenderError.invalidOption(option: "page size", message: "\(width) x \(height) pt is outside 1...14400")
        }
        let context: CairoContext
        if let existing = self.context, let surface {
            surface.setPDFPageSize(width: width, height: height)
            context = existing
        } else {
            let surface = try CairoSurface(pdfTo: sink, width: width, height: height)
            surface.setPDFMetadata(.creator, SignatureRenderer.software)
            surface.setPDFMetadata(.createDate, creationDate)
            surface.setPDFMetadata(.modDate, creationDate)
            if let title { surface.setPDFMetadata(.title, title) }
            if let subject { surface.setPDFMetadata(.subject, subject) }
            context = try CairoContext(surface: surface)
            self.surface = surface
            self.context = context
        }
        sink.page = pageCount + 1
        sink.pageHeight = height
        context.save()
        do { try draw(CairoTarget(context: context)) } catch { context.restore(); failed = true; throw error }
        context.restore()
        context.showPage()
        pageCount += 1
        try context.check()
    }

    /// Adds an outline entry (a bookmark in a viewer's side bar) that opens a page at a given height.
    /// - Parameters:
    ///   - title: the entry's text.
    ///   - page: the page, from 1 to ``pageCount`` (a page added already).
    ///   - y: where on the page, in points from its top; default 0.
    ///   - parent: the entry this one sits under, as returned by an earlier call, or `nil` for the top level.
    /// - Returns: the entry's id, to nest entries under it.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` for a page that was not added, or a finished
    ///   document.
    @discardableResult
    public func addOutlineEntry(_ title: String, page: Int, y: Double = 0, parent: Int? = nil) throws(RenderError) -> Int {
        guard let surface, !finished, !failed else {
            throw .invalidOption(option: "outline", message: "the document has no open page to point at")
        }
        guard (1...pageCount).contains(page), y.isFinite else {
            throw .invalidOption(option: "outline", message: "page \(page) is not one of the \(pageCount) pages added")
        }
        return Int(surface.addPDFOutline(parent: parent.map { Int32(truncatingIfNeeded: $0) }, title: title, page: page, y: y))
    }

    static let failedMessage = "an earlier page failed while drawing; start a new document"

    /// ``addPage(width:height:_:)`` for the engine's own drawing, whose only errors are ``RenderError``s.
    func addRenderedPage(width: Double, height: Double,
                         _ draw: (CairoTarget) throws(RenderError) -> Void) throws(RenderError) {
        do {
            try addPage(width: width, height: height) { target in try draw(target) }
        } catch let error as RenderError {
            throw error
        } catch {
            throw .cairo("\(error)")
        }
    }

    /// Ends the document and returns its bytes. The document takes no more pages afterwards.
    /// - Returns: the PDF file.
    /// - Throws: ``RenderError/invalidOption(option:message:)`` when no page was added, a page failed, or it is
    ///   already finished; ``RenderError/cairo(_:)`` when Cairo fails to write it.
    public func finish() throws(RenderError) -> [UInt8] {
        guard !failed else { throw .invalidOption(option: "page", message: Self.failedMessage) }
        guard !finished else { throw RenderError.invalidOption(option: "page", message: "the document is already finished") }
        guard let surface else { throw .invalidOption(option: "page", message: "a PDF needs at least one page") }
        finished = true
        context = nil
        self.surface = nil
        try surface.finish()
        return try PDFCompletion.complete(sink.bytes, links: sink.links, structure: sink.structure,
                                          metadata: .init(title: title, language: language, creationDate: creationDate))
    }
}
