// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// One piece of a ``PagedDocument``'s content, in reading order.
public enum DocumentBlock: Sendable {
    /// A heading in bold: level 1 (a document title), 2 (a section) or 3; kept on a page with what follows it.
    /// With `bookmark`, the PDF's outline gets an entry for it (level 3 entries nest under level 2, level 2 under
    /// level 1).
    case heading(String, level: Int, bookmark: Bool)
    /// A paragraph, broken across pages between lines when it does not fit.
    case paragraph(Paragraph)
    /// A list item: the marker (`•`, `1.`) at the start edge (the right for a paragraph whose direction is
    /// ``TextDirection/rightToLeft``) and the paragraph indented after it.
    case listItem(Paragraph, marker: String)
    /// A signature block, never broken: the ink over a line with the name and date under it. `height` is in
    /// points, `48...400`; the block is as wide as the column, at most 320 points.
    case signature(SignatureBlock, height: Double)
    /// Vertical space in points, `0...720`; dropped at the top of a page.
    case space(Double)
    /// The next block starts a new page.
    case pageBreak
}

/// A multi-page document laid out from ``DocumentBlock``s: paragraphs broken between lines (never inside one, and
/// never leaving a heading alone at the foot of a page), a running header with the title, a footer with the page
/// number, outline entries for headings, and vector signatures. It is written as a PDF, or any page as a PNG.
///
/// The PDF is tagged (toward PDF/UA-1): a structure tree in reading order (`Document`; `H1` to `H3` for headings;
/// `P`; `L` with `LI`, `Lbl` and `LBody` for a run of list items; `Link` for a paragraph that is one link, and a
/// `Link` element for each link annotation; `Figure` for a signature block, with ``SignatureBlock/alternateText``),
/// a paragraph of several lines as one element with a `Span` for each line, the header and footer as
/// artifacts, the ``language`` as `/Lang`, the title shown as the window's title, and XMP metadata.
///
/// The same blocks, setup and date give the same bytes.
public struct PagedDocument: Sendable {
    /// The content, in reading order.
    public var blocks: [DocumentBlock]
    /// Paper and margins.
    public var setup: PageSetup
    /// The document title: PDF metadata and the running header; empty for none.
    public var title: String
    /// PDF metadata subject; empty for none.
    public var subject: String
    /// The footer, with `{n}` for the page number and `{N}` for the page count; empty for none. Default
    /// `Page {n} of {N}`.
    public var footer: String
    /// BCP 47 language of the text, for the glyph forms of the headings, header and footer; default `und`.
    public var language: String
    /// The PDF's creation date, ISO 8601; `nil` for ``PDFDocument/defaultCreationDate``.
    public var creationDate: String?
    /// The direction of the headings and the running header; right to left also puts the header and the signature
    /// blocks at the right edge. Default ``TextDirection/auto``: headings from their first letter, header and
    /// blocks at the left.
    public var direction: TextDirection

    /// Creates a document.
    /// - Parameters:
    ///   - blocks: the content.
    ///   - setup: paper and margins; default ``PageSetup/a4``.
    ///   - title: title for the metadata and header; default empty.
    ///   - subject: metadata subject; default empty.
    ///   - footer: footer template; default `Page {n} of {N}`.
    ///   - language: BCP 47 tag; default `und`.
    ///   - creationDate: ISO 8601 creation date; default `nil`.
    ///   - direction: headings' and header's direction; default ``TextDirection/auto``.
    public init(blocks: [DocumentBlock], setup: PageSetup = .a4, title: String = "", subject: String = "",
                footer: String = "Page {n} of {N}", language: String = "und", creationDate: String? = nil,
                direction: TextDirection = .auto) {
        self.blocks = blocks
        self.setup = setup
        self.title = title
        self.subject = subject
        self.footer = footer
        self.language = language
        self.creationDate = creationDate
        self.direction = direction
    }

    /// Most blocks in one document.
    public static let maxBlocks = 20_000

    /// The number of pages the blocks take.
    /// - Throws: ``RenderError`` for a bad setup or block, or when the fonts cannot be loaded.
    public func pageCount() throws(RenderError) -> Int {
        try ProjectFonts.holding { () throws(RenderError) in try paginate().count }
    }

    /// The document as a PDF: fonts embedded as subsets, signatures as vector paths, an outline entry for each
    /// bookmarked heading.
    /// - Throws: ``RenderError`` for a bad setup or block, missing fonts, or a Cairo failure.
    public func pdf() throws(RenderError) -> [UInt8] { try pdfAndPageCount().pdf }

    /// The document as a PDF (see ``pdf()``) and its number of pages, from one pagination: what ``pdf()`` and
    /// ``pageCount()`` give for the layout work of one.
    /// - Throws: as ``pdf()``.
    public func pdfAndPageCount() throws(RenderError) -> (pdf: [UInt8], pageCount: Int) {
        // One font map from pagination to drawing: the pages keep their paragraphs' layouts.
        try ProjectFonts.holding { () throws(RenderError) in try pdfAndPageCountHoldingFonts() }
    }

    private func pdfAndPageCountHoldingFonts() throws(RenderError) -> (pdf: [UInt8], pageCount: Int) {
        let pages = try paginate()
        let document = PDFDocument(title: title.isEmpty ? nil : title, subject: subject.isEmpty ? nil : subject,
                                   creationDate: creationDate)
        document.language = language == "und" || language.isEmpty ? nil : language
        for (index, items) in pages.enumerated() {
            try document.addRenderedPage(width: setup.width, height: setup.height) { (page) throws(RenderError) in
                try draw(items, page: index + 1, of: pages.count, on: page)
            }
        }
        var parents: [Int: Int] = [:]  // level -> id of the last entry at that level
        for (index, items) in pages.enumerated() {
            for case let .bookmark(text, level, y) in items {
                let parent = (1..<level).reversed().lazy.compactMap { parents[$0] }.first
                parents[level] = try document.addOutlineEntry(text, page: index + 1, y: y, parent: parent)
                for deeper in (level + 1)...4 { parents[deeper] = nil }
            }
        }
        return (try document.finish(), pages.count)
    }

    /// One page as a PNG, for a review screen.
    /// - Parameters:
    ///   - page: the page, from 1.
    ///   - dpi: pixels per inch, `18...1200`; default 96.
    /// - Throws: ``RenderError`` for a page that does not exist, or as ``pdf()``.
    public func png(page: Int, dpi: Double = 96) throws(RenderError) -> [UInt8] {
        try ProjectFonts.holding { () throws(RenderError) in
            let pages = try paginate()
            guard (1...pages.count).contains(page) else {
                throw .invalidOption(option: "page", message: "\(page) is not one of the \(pages.count) pages")
            }
            return try PageImage.png(width: setup.width, height: setup.height, dpi: dpi) { (target) throws(RenderError) in
                try draw(pages[page - 1], page: page, of: pages.count, on: target)
            }
        }
    }

    // MARK: Layout

    /// Something placed on a page, at a height in points from the page's top. Paragraphs keep their layout from
    /// pagination, so pages are made while the fonts are held (``ProjectFonts/holding(_:)``).
    enum Item {
        /// Lines of a paragraph; with `spans`, each line a `Span` of the paragraph's element.
        case lines(Paragraph.Layout, Range<Int>, x: Double, y: Double, spans: Bool)
        case marker(TextLine, x: Double, baseline: Double, anchor: TextAnchor)
        case signature(SignatureBlock, Rect)
        case bookmark(String, level: Int, y: Double)
        /// A structure element of the tagged PDF opens, or the innermost open one closes.
        case open(PDFStructureRole, alternateText: String? = nil, actualText: String? = nil)
        case close
    }

    /// Heading paragraphs by level: size and the space above them.
    private func heading(_ text: String, level: Int) -> (paragraph: Paragraph, spaceBefore: Double) {
        let size: Double = level == 1 ? 20 : level == 2 ? 14 : 12
        let font = TextFont(size: size, bold: true, language: language)
        return (Paragraph([TextRun(text)], font: font, lineSpacing: 1.05, direction: direction), size * (level == 1 ? 0 : 0.9))
    }

    /// Width of a list item's marker column.
    static func indent(_ font: TextFont) -> Double { font.size * 1.6 }

    /// Places every block on pages; called while the fonts are held.
    func paginate() throws(RenderError) -> [[Item]] {
        try setup.validate()
        guard blocks.count <= Self.maxBlocks else {
            throw .limitExceeded(what: "document blocks", limit: Self.maxBlocks, actual: blocks.count)
        }
        let top = setup.margin, bottom = setup.height - setup.margin, width = setup.columnWidth
        var pages: [[Item]] = [[]]
        var y = top
        func newPage() { pages.append([]); y = top }
        func place(_ item: Item) { pages[pages.count - 1].append(item) }
        /// Each paragraph is laid out once; a heading lays out the block after it, which keeps its layout here.
        var lookahead: (index: Int, layout: Paragraph.Layout?)?
        func layout(_ i: Int) throws(RenderError) -> Paragraph.Layout? {
            if let lookahead, lookahead.index == i { return lookahead.layout }
            switch blocks[i] {
            case let .paragraph(p): return try p.layout(width: width)
            case let .listItem(p, _): return try p.layout(width: width - Self.indent(p.font))
            case let .heading(text, level, _): return try heading(text, level: level).paragraph.layout(width: width)
            case .signature, .space, .pageBreak: return nil
            }
        }
        /// The height of what must follow a heading on its page: a paragraph's first line, or its first two when it
        /// has more (a first line alone at a page's foot goes to the next page, which would leave the heading alone).
        func firstLineHeight(_ i: Int) throws(RenderError) -> Double {
            guard i < blocks.count else { return 0 }
            if case let .signature(_, height) = blocks[i] { return height }
            let next = try layout(i)
            lookahead = (i, next)
            guard let lines = next?.lines else { return 0 }
            if case .heading = blocks[i] { return lines.first?.height ?? 0 }
            return lines.prefix(lines.count > 1 ? 2 : 1).reduce(0) { $0 + $1.height }
        }
        /// Places a paragraph's lines from `y`, breaking between lines where the page ends: no line alone at a
        /// page's foot when more follow, none alone at the top of the next.
        ///
        /// In the structure, the lines are one `role` element (a list item's `LI` with its `Lbl` and `LBody` when
        /// it has a marker): with the paragraph's text when it is one line, or a `Span` for each line.
        func flow(_ p: Paragraph, _ layout: Paragraph.Layout, x: Double, width: Double, marker: String?, role: PDFStructureRole) {
            let lines = layout.lines
            var start = 0
            var opened = false
            while start < lines.count {
                var fit = 0, used = 0.0
                while start + fit < lines.count, y + used + lines[start + fit].height <= bottom {
                    used += lines[start + fit].height
                    fit += 1
                }
                let left = lines.count - start - fit
                if fit == 1 && left > 0 && y > top { fit = 0 }  // a first line alone at the foot
                if left == 1 && fit >= 3 { fit -= 1 }  // a last line alone at the top of the next page
                if fit == 0 {
                    if y > top { newPage(); continue }
                    fit = 1  // a line taller than the page: it goes alone
                }
                if start == 0, let marker {
                    let line = TextLine(text: marker, font: p.font)
                    // The marker sits in the indent at the paragraph's start edge.
                    let rightToLeft = p.direction == .rightToLeft
                    let markerX = rightToLeft ? x + width + Self.indent(p.font) : x - Self.indent(p.font)
                    place(.open(.listItem))
                    place(.open(.label, actualText: marker))
                    place(.marker(line, x: markerX, baseline: y + lines[0].baseline, anchor: rightToLeft ? .end : .start))
                    place(.close)
                    place(.open(.listBody, actualText: lines.count == 1 ? layout.text : nil))
                } else if !opened {
                    place(.open(role, actualText: lines.count == 1 ? layout.text : nil))
                }
                opened = true
                place(.lines(layout, start..<(start + fit), x: x, y: y, spans: lines.count > 1))
                y += lines[start..<(start + fit)].reduce(0) { $0 + $1.height }
                start += fit
                if start < lines.count { newPage() }
            }
            if opened { place(.close) }
            if opened, marker != nil { place(.close) }
            y += p.font.size * 0.5
        }
        place(.open(.document))
        var inList = false
        for (i, block) in blocks.enumerated() {
            let listItem = if case .listItem = block { true } else { false }
            if inList != listItem {
                place(listItem ? .open(.list) : .close)
                inList = listItem
            }
            switch block {
            case .pageBreak:
                if !(pages.last ?? []).isEmpty { newPage() }
            case let .space(height):
                guard height.isFinite, (0...720).contains(height) else {
                    throw .invalidOption(option: "space", message: "\(height) pt is outside 0...720")
                }
                if y > top { y += height }
                if y > bottom { newPage() }
            case let .heading(text, level, bookmark):
                guard (1...3).contains(level) else {
                    throw .invalidOption(option: "heading level", message: "\(level); must be 1, 2 or 3")
                }
                let (paragraph, spaceBefore) = heading(text, level: level)
                guard let laidOut = try layout(i) else { continue }
                let needed = (y > top ? spaceBefore : 0) + laidOut.lines.reduce(0) { $0 + $1.height } + (try firstLineHeight(i + 1))
                if y > top && y + needed > bottom { newPage() } else if y > top { y += spaceBefore }
                if bookmark { place(.bookmark(text, level: level, y: y)) }
                flow(paragraph, laidOut, x: setup.margin, width: width, marker: nil, role: .heading(level))
                y -= paragraph.font.size * 0.25
            case let .paragraph(p):
                guard let laidOut = try layout(i) else { continue }
                // A paragraph that is one link is a `P` holding a `Link`.
                let oneLink = p.runs.first?.link != nil && p.runs.allSatisfy { $0.link == p.runs.first?.link }
                if oneLink { place(.open(.paragraph)) }
                flow(p, laidOut, x: setup.margin, width: width, marker: nil, role: oneLink ? .link : .paragraph)
                if oneLink { place(.close) }
            case let .listItem(p, marker):
                let indent = Self.indent(p.font)
                let x = p.direction == .rightToLeft ? setup.margin : setup.margin + indent
                guard let laidOut = try layout(i) else { continue }
                flow(p, laidOut, x: x, width: width - indent, marker: marker, role: .listBody)
            case let .signature(block, height):
                guard height.isFinite, (48...400).contains(height) else {
                    throw .invalidOption(option: "signature height", message: "\(height) pt is outside 48...400")
                }
                if y > top && y + height > bottom { newPage() }
                let blockWidth = Swift.min(width, 320)
                let x = direction == .rightToLeft ? setup.margin + width - blockWidth : setup.margin
                place(.open(.figure, alternateText: block.figureDescription))
                place(.signature(block, Rect(x: x, y: y, width: blockWidth, height: height)))
                place(.close)
                y += height + 12
            }
        }
        if pages.count > 1, pages[pages.count - 1].isEmpty { pages.removeLast() }
        if inList { place(.close) }
        place(.close)
        return pages
    }

    /// Draws one page: its items, then the header and footer.
    private func draw(_ items: [Item], page: Int, of count: Int, on target: CairoTarget) throws(RenderError) {
        let context = try CairoContext(borrowing: target.unsafeContext)
        for item in items {
            switch item {
            case let .lines(layout, range, x, y, spans):
                try layout.draw(lines: range, at: Point(x, y), on: target, spans: spans)
            case let .marker(line, x, baseline, anchor):
                context.setSource(Color(red: 0x21, green: 0x21, blue: 0x21))
                try line.draw(anchor: anchor, at: Point(x, baseline), on: context)
            case let .signature(block, rect):
                try block.draw(in: rect, on: target)
            case let .open(role, alternateText, actualText):
                context.beginStructure(role, alternateText: alternateText, actualText: actualText)
            case .close:
                context.endStructure()
            case .bookmark:
                break
            }
        }
        context.setSource(Color(red: 0x75, green: 0x75, blue: 0x75))
        let small = TextFont(size: 8, language: language)
        if !title.isEmpty {
            context.beginStructure(.artifact)
            defer { context.endStructure() }
            let rightToLeft = direction == .rightToLeft
            try TextLine(text: title, font: small).draw(anchor: rightToLeft ? .end : .start,
                                                        at: Point(rightToLeft ? setup.width - setup.margin : setup.margin, setup.margin * 0.55),
                                                        on: context)
        }
        if !footer.isEmpty {
            context.beginStructure(.artifact)
            defer { context.endStructure() }
            let text = footer.replacing("{n}", with: String(page)).replacing("{N}", with: String(count))
            try TextLine(text: text, font: small).draw(anchor: .middle, at: Point(setup.width / 2, setup.height - setup.margin * 0.45),
                                                      on: context)
        }
    }
}
