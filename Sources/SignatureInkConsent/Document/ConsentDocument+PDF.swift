// SPDX-License-Identifier: Apache-2.0
import SignatureInk
public import SignatureInkRender

extension ConsentDocument {
    /// The height of each signer's block on the signature page, in points.
    static let signatureBlockHeight = 100.0

    /// The document laid out as pages: the title, each section's title and text (or the review text), a "Learn
    /// more" link where a section has one, then the signature page with a block per slot, in the slots' order.
    ///
    /// Each section and the signature page get an outline entry; the running header is the title and the footer
    /// "Page n of N". The link's text, the footer and the month and weekday names of the dates are the document's
    /// ``words``. A signed slot's block shows the ink as vector paths over a line, the printed name under it
    /// on the left and the date in the slot's pattern on the right; an unsigned slot's block is an empty line to
    /// sign on paper; in the tagged PDF each block is a figure whose alternate text is the slot's title, the name and
    /// the date ("Participant: Ada Lovelace, 27 Nov 2026"). Everything is set in the document's ``layoutDirection``. The PDF's creation date is the latest
    /// signing date, so the same signed copy always gives the same bytes.
    /// - Parameter setup: paper and margins; default `PageSetup/a4`.
    /// - Returns: the paged document, ready for `pdf()` or a page preview.
    /// - Throws: ``ConsentError/invalidDocument(field:message:)`` when a slot's date pattern is refused.
    public func layout(setup: PageSetup = .a4) throws(ConsentError) -> PagedDocument {
        let direction = layoutDirection
        let body = TextFont(size: 11, language: language)
        var blocks: [DocumentBlock] = [.heading(title, level: 1, bookmark: true)]
        func add(_ markup: String) {
            for block in ConsentMarkup.parse(markup) {
                switch block {
                case let .paragraph(spans): blocks.append(.paragraph(paragraph(spans, font: body, direction: direction)))
                case let .bullet(spans): blocks.append(.listItem(paragraph(spans, font: body, direction: direction), marker: "•"))
                case let .numbered(n, spans): blocks.append(.listItem(paragraph(spans, font: body, direction: direction), marker: "\(n)."))
                }
            }
        }
        if let reviewContent {
            add(reviewContent)
        } else {
            for section in sections {
                blocks.append(.heading(section.title, level: 2, bookmark: true))
                add(section.content)
                if let link = section.learnMore {
                    blocks.append(.paragraph(Paragraph([TextRun(words.learnMore, link: link)], font: body, direction: direction)))
                }
            }
        }
        blocks.append(.space(12))
        blocks.append(.heading(signaturePageTitle, level: 2, bookmark: true))
        add(signaturePageContent)
        for (i, slot) in slots.enumerated() {
            let format: TimestampFormat
            do { format = try TimestampFormat(pattern: slot.dateFormat) } catch {
                throw .invalidDocument(field: "slots[\(i)].dateFormat", message: "\(error)")
            }
            let applied = appliedSignature(for: slot.identifier)
            let date = applied.flatMap { format.string(millisecondsSince1970: $0.date.millisecondsSince1970,
                                                           utcOffsetMinutes: $0.date.utcOffsetMinutes, names: words.dateNames) }
            blocks.append(.heading(slot.title, level: 3, bookmark: false))
            var block = SignatureBlock(signature: applied?.signature ?? Signature(), signerName: applied?.name ?? "",
                                       date: date ?? "")
            block.typedSignature = applied?.typedSignature
            // The figure's alternate text names the role, the signer and the date, in no language's words.
            let signed = [applied?.name ?? "", date ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
            block.alternateText = signed.isEmpty ? slot.title : slot.title + ": " + signed
            block.direction = direction
            blocks.append(.signature(block, height: Self.signatureBlockHeight))
        }
        let latest = appliedSignatures.max { $0.date.millisecondsSince1970 < $1.date.millisecondsSince1970 }
        return PagedDocument(blocks: blocks, setup: setup, title: title, subject: "Consent document",
                             footer: words.pageNumber, language: language, creationDate: latest?.date.iso8601,
                             direction: direction)
    }

    /// A paragraph of markup spans in `direction`.
    private func paragraph(_ spans: [ConsentMarkup.Span], font: TextFont, direction: TextDirection) -> Paragraph {
        Paragraph(spans.map { TextRun($0.text, bold: $0.bold, italic: $0.italic, link: $0.link) }, font: font, direction: direction)
    }

    /// The document as a PDF (see ``layout(setup:)``): vector text with the fonts embedded as subsets, vector ink,
    /// an outline entry per section, links, and the title, subject and creator in its metadata.
    /// - Parameter setup: paper and margins; default `PageSetup/a4`.
    /// - Returns: the PDF file.
    /// - Throws: ``ConsentError`` when the document cannot be laid out or drawn.
    public func pdf(setup: PageSetup = .a4) throws(ConsentError) -> [UInt8] {
        let document = try layout(setup: setup)
        do { return try document.pdf() } catch { throw .rendering("\(error)") }
    }

    /// One page of the PDF as a PNG image, for a review screen.
    /// - Parameters:
    ///   - page: the page, from 1.
    ///   - dpi: pixels per inch, `18...1200`; default 96.
    ///   - setup: paper and margins; default `PageSetup/a4`.
    /// - Returns: the PNG file.
    /// - Throws: ``ConsentError/rendering(_:)`` for a page that does not exist or a bad resolution.
    public func pagePreview(page: Int, dpi: Double = 96, setup: PageSetup = .a4) throws(ConsentError) -> [UInt8] {
        let document = try layout(setup: setup)
        do { return try document.png(page: page, dpi: dpi) } catch { throw .rendering("\(error)") }
    }

    /// The number of pages of the PDF.
    /// - Parameter setup: paper and margins; default `PageSetup/a4`.
    /// - Throws: ``ConsentError`` when the document cannot be laid out.
    public func pageCount(setup: PageSetup = .a4) throws(ConsentError) -> Int {
        let document = try layout(setup: setup)
        do { return try document.pageCount() } catch { throw .rendering("\(error)") }
    }
}
