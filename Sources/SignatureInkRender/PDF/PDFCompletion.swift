// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// What a structure element of a tagged PDF is (ISO 32000-1, 14.8.4: the standard structure types).
enum PDFStructureRole: Equatable, Sendable {
    /// The whole document.
    case document
    /// A heading, level 1 to 6.
    case heading(Int)
    /// A paragraph.
    case paragraph
    /// A list, `L`.
    case list
    /// One of its items, `LI`: a label and a body.
    case listItem
    /// A list item's marker, `Lbl`.
    case label
    /// A list item's text, `LBody`.
    case listBody
    /// An illustration, with alternate text for readers that cannot see it.
    case figure
    /// A part of a paragraph that continues on the next page, `Span`.
    case span
    /// A link's text; its annotation joins it when the file is completed.
    case link
    /// A running header or footer: written as an `/Artifact` in the page's content, outside the structure.
    case artifact

    /// The name Cairo 1.16 is given. It refuses `Artifact` and keeps `Link` for link annotations it writes badly,
    /// so those two are drawn under stand-ins that ``PDFCompletion`` rewrites.
    var cairoName: String {
        switch self {
        case .document: "Document"
        case let .heading(level): "H\(level)"
        case .paragraph: "P"
        case .list: "L"
        case .listItem: "LI"
        case .label: "Lbl"
        case .listBody: "LBody"
        case .figure: "Figure"
        case .span: "Span"
        case .link: "Reference"
        case .artifact: "Private"
        }
    }

    /// The name in the completed file.
    var writtenName: String { self == .link ? "Link" : cairoName }
}

/// A structure element opened while drawing, in the order opened (the structure tree's pre-order).
struct PDFStructureElement {
    /// What it is.
    var role: PDFStructureRole
    /// Its alternate text (a figure's), or `nil`.
    var alternateText: String?
    /// The text drawn in it, when it is text the engine laid out, or `nil`: written as its `/ActualText` when
    /// Cairo nested spans in its content (see ``MarkedContent``).
    var actualText: String?
}

/// Completes a PDF that Cairo wrote: the link annotations (``PDFLinkAnnotations``) and, for a tagged document, what
/// Cairo 1.16 cannot write of its structure.
///
/// Cairo's `cairo_tag_begin` makes the structure tree and marks each element's content in the page streams. The
/// update then:
/// - turns the header and footer, drawn under the stand-in `Private`, into `/Artifact` marked content (the page's
///   contents are inflated, the markers replaced, and the stream written anew) and takes them out of the tree;
/// - renames each `Reference` stand-in `Link` and gives every link annotation a `Link` element (`/OBJR`), a key in
///   the parent tree, and its page `/Tabs /S`;
/// - gives each figure its `/Alt` text, and an element whose content Cairo nested spans in its text
///   (``MarkedContent``) its `/ActualText`;
/// - gives the catalog `/Lang`, `/ViewerPreferences << /DisplayDocTitle true >>` and XMP metadata with the title
///   and the PDF/UA identification.
///
/// The file is written anew as one revision (``CairoFile/rewritten(with:)``): Cairo's objects in their order, the
/// changed ones in place, the new ones after them. Written as an incremental update, the study consent's PDF took
/// 48 KB instead of 40 KB, its page contents being in it twice.
///
/// Not through qpdf, which the form code uses: through pikepdf, qpdf took 2.1 ms to open, edit and save the study
/// consent's PDF, and loading it costs a new process 3 ms more (`CQPDF/shim.h`). Tagging as a whole, Cairo's part
/// and this completion, makes the study consent take 4.74-4.89 ms in one process against 3.88-3.96 ms untagged
/// (`seal-timing`, medians of 100).
enum PDFCompletion {
    /// The document's metadata that the update writes.
    struct Metadata {
        /// The title, or `nil`.
        var title: String?
        /// The BCP 47 language tag, or `nil` for none.
        var language: String?
        /// The creation date, ISO 8601.
        var creationDate: String
    }

    /// Cairo's file with the links and the structure's missing parts added, or the file unchanged when there are
    /// neither links nor structure.
    /// - Throws: ``RenderError/cairo(_:)`` when the file is not laid out as Cairo writes it.
    static func complete(_ pdf: [UInt8], links: [PDFLink], structure: [PDFStructureElement],
                         metadata: Metadata) throws(RenderError) -> [UInt8] {
        guard !links.isEmpty || !structure.isEmpty else { return pdf }
        let file = try CairoFile(pdf)
        var update = Update(next: file.size)
        var tree = structure.isEmpty ? nil : try StructureTree(file: file, plan: structure)
        let byPage = Dictionary(grouping: links, by: \.page)
        for page in byPage.keys.sorted() {
            guard page >= 1, page <= file.pages.count else { throw .cairo("a link points at page \(page) of \(file.pages.count)") }
            let object = file.pages[page - 1]
            var numbers: [Int] = []
            for link in byPage[page] ?? [] {
                let annotation = update.reserve()
                var key: Int?
                if let element = link.element, tree != nil {
                    key = try tree?.addLink(annotation: annotation, page: object, in: element, update: &update)
                }
                update.write(annotation, PDFLinkAnnotations.dictionary(link, structParent: key))
                numbers.append(annotation)
            }
            var body = try file.body(of: object)
            guard !body.containsText("/Annots"), let open = body.firstTextRange(of: "<<") else {
                throw .cairo("page \(page)'s dictionary is not as Cairo writes it")
            }
            body.replaceSubrange(open, with: "<< /Annots [" + numbers.map { " \($0) 0 R" }.joined() + " ]" + (tree == nil ? "" : " /Tabs /S"))
            update.write(object, body)
        }
        if var tree {
            try tree.write(into: &update, file: file)
            let xmp = update.reserve()
            update.objects.append(PDFIncrementalUpdate.Object(number: xmp, body: metadataStream(metadata)))
            var catalog = try file.body(of: file.root)
            guard !catalog.containsText("/Lang"), !catalog.containsText("/Metadata"), !catalog.containsText("/ViewerPreferences"),
                  let open = catalog.firstTextRange(of: "<<") else { throw .cairo("the catalog is not as Cairo writes it") }
            var fields = "<< /ViewerPreferences << /DisplayDocTitle true >> /Metadata \(xmp) 0 R"
            if let language = metadata.language { fields += " /Lang " + textString(language) }
            catalog.replaceSubrange(open, with: fields)
            update.write(file.root, catalog)
        }
        return file.rewritten(with: update.objects)
    }

    /// The objects of the update, and the next free object number.
    struct Update {
        var next: Int
        var objects: [PDFIncrementalUpdate.Object] = []

        /// A new object number.
        mutating func reserve() -> Int {
            defer { next += 1 }
            return next
        }

        /// Writes object `number` as `body`.
        mutating func write(_ number: Int, _ body: String) {
            objects.append(PDFIncrementalUpdate.Object(number: number, body: Array(body.utf8)))
        }
    }

    /// A PDF text string: a literal for printable ASCII, else UTF-16BE with its byte order mark, in hexadecimal.
    static func textString(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7e }) {
            bytes.append(UInt8(ascii: "("))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: ")"))
        } else {
            let hex = Array("0123456789ABCDEF".utf8)
            bytes += Array("<FEFF".utf8)
            for unit in text.utf16 {
                for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int((unit >> UInt16(shift)) & 0xf)]) }
            }
            bytes.append(UInt8(ascii: ">"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The XMP metadata stream: the title, the creation date, the creator and `pdfuaid:part` 1.
    static func metadataStream(_ metadata: Metadata) -> [UInt8] {
        // XMP is XML: the SVG writer's escaping (which also drops the control characters XML 1.0 has no place for).
        let escaped = SVGWriter.escape
        var description = "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
            + "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\">\n"
        if let title = metadata.title {
            let language = metadata.language.map(escaped) ?? "x-default"
            description += "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(title))</rdf:li>"
                + (language == "x-default" ? "" : "<rdf:li xml:lang=\"\(language)\">\(escaped(title))</rdf:li>")
                + "</rdf:Alt></dc:title>\n"
        }
        if let language = metadata.language {
            description += "<dc:language><rdf:Bag><rdf:li>\(escaped(language))</rdf:li></rdf:Bag></dc:language>\n"
        }
        description += "<dc:format>application/pdf</dc:format>\n"
            + "<xmp:CreateDate>\(escaped(metadata.creationDate))</xmp:CreateDate>\n"
            + "<xmp:CreatorTool>\(escaped(SignatureRenderer.software))</xmp:CreatorTool>\n"
            + "<pdfuaid:part>1</pdfuaid:part>\n</rdf:Description>\n"
        let packet = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
            + description + "</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
        let data = Array(packet.utf8)
        return Array("<< /Type /Metadata /Subtype /XML /Length \(data.count) >>\nstream\n".utf8) + data + Array("\nendstream".utf8)
    }
}

/// The structure tree Cairo wrote, read back to be completed.
struct StructureTree {
    /// One element, as Cairo 1.16 writes it (`/S`, `/P`, `/Pg`, `/K`), with the update's changes.
    struct Element {
        var role: String
        var parent: Int
        var page: Int?
        var kids: [Kid]
        var alternateText: String?
        var actualText: String?
    }

    /// An element's kid.
    enum Kid: Equatable {
        /// Another element.
        case element(Int)
        /// Marked content on the element's page.
        case content(Int)
        /// An annotation on a page.
        case annotation(Int, page: Int)

        var text: String {
            switch self {
            case let .element(n): "\(n) 0 R"
            case let .content(mcid): String(mcid)
            case let .annotation(n, page): "<< /Type /OBJR /Obj \(n) 0 R /Pg \(page) 0 R >>"
            }
        }
    }

    let plan: [PDFStructureElement]
    let root: Int
    var rootKids: [Int]
    var elements: [Int: Element] = [:]
    /// Element object numbers in the order they were opened: `order[i]` is `plan[i]`'s.
    var order: [Int] = []
    /// Each element's index in `order` and `plan`.
    var orderIndex: [Int: Int] = [:]
    let parentTree: Int
    var numbers: [(key: Int, value: CairoFile.Item)]
    var changed: Set<Int> = []
    var removed: Set<Int> = []
    var rootChanged = false
    var numbersChanged = false

    /// Reads the tree of `file`, which must hold one element for each of `plan`, in order.
    init(file: CairoFile, plan: [PDFStructureElement]) throws(RenderError) {
        self.plan = plan
        let catalog = try file.fields(of: file.root)
        guard let root = CairoFile.reference(after: "/StructTreeRoot", in: catalog) else { throw .cairo("the catalog has no /StructTreeRoot") }
        self.root = root
        let rootBody = try file.fields(of: root)
        guard let parentTree = CairoFile.reference(after: "/ParentTree", in: rootBody) else { throw .cairo("the structure has no /ParentTree") }
        self.parentTree = parentTree
        rootKids = try Self.elementNumbers(CairoFile.items(after: "/K", in: rootBody) ?? [], in: root)
        let numbersText = try file.fields(of: parentTree)
        let flat = try CairoFile.items(after: "/Nums", in: numbersText) ?? []
        guard flat.count % 2 == 0 else { throw .cairo("the parent tree's /Nums is not in pairs") }
        numbers = []
        for i in stride(from: 0, to: flat.count, by: 2) {
            guard case let .integer(key) = flat[i] else { throw .cairo("the parent tree has a key that is not a number") }
            numbers.append((key, flat[i + 1]))
        }
        var stack = Array(rootKids.reversed())
        while let number = stack.popLast() {
            guard elements[number] == nil, order.count < plan.count else { throw .cairo("the structure tree has more elements than were drawn") }
            let element = try Self.element(try file.objectBytes(of: number), number: number)
            guard element.role == plan[order.count].role.cairoName else {
                throw .cairo("structure element \(number) is \(element.role) where \(plan[order.count].role.cairoName) was drawn")
            }
            let kids = element.kids
            elements[number] = element
            orderIndex[number] = order.count
            order.append(number)
            for case let .element(n) in kids.reversed() { stack.append(n) }
        }
        guard order.count == plan.count else { throw .cairo("the structure tree has \(order.count) of the \(plan.count) elements drawn") }
    }

    /// A structure element read from its object's bytes in one pass: Cairo writes `/Type`, `/S`, `/P`, `/Pg` and
    /// `/K` (an MCID, a reference, or an array of them), each token apart. One pass over the bytes, where a search
    /// for each key took a consent's completion a quarter of its time.
    static func element(_ object: ArraySlice<UInt8>, number: Int) throws(RenderError) -> Element {
        var role: String?, parent: Int?, page: Int?
        var kids: [Kid] = []
        let problem: String? = object.withUnsafeBufferPointer { bytes -> String? in
            var i = 0
            let n = bytes.count
            func skipWhite() { while i < n, bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d { i += 1 } }
            func token() -> UnsafeBufferPointer<UInt8>.SubSequence {
                skipWhite()
                let start = i
                if i < n, bytes[i] == UInt8(ascii: "/") { i += 1 }
                while i < n, bytes[i] > 0x20, bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: "["), bytes[i] != UInt8(ascii: "]"),
                      bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "<") { i += 1 }
                if i == start, i < n { i += 1 }  // a one-byte delimiter
                return bytes[start..<i]
            }
            func integer(_ t: UnsafeBufferPointer<UInt8>.SubSequence) -> Int? {
                guard !t.isEmpty, t.count < 19 else { return nil }
                var v = 0
                for d in t { guard d >= 0x30, d <= 0x39 else { return nil }; v = v * 10 + Int(d - 0x30) }
                return v
            }
            /// A reference `N 0 R` whose first token was `first`.
            func reference(_ first: UnsafeBufferPointer<UInt8>.SubSequence) -> Int? {
                guard let v = integer(first), token().elementsEqual("0".utf8), token().elementsEqual("R".utf8) else { return nil }
                return v
            }
            /// An MCID, or a reference when `R` follows.
            func kid(_ first: UnsafeBufferPointer<UInt8>.SubSequence) -> Kid? {
                guard let v = integer(first) else { return nil }
                let mark = i
                if token().elementsEqual("0".utf8), token().elementsEqual("R".utf8) { return .element(v) }
                i = mark
                return .content(v)
            }
            while i < n {
                let key = token()
                if key.isEmpty { break }
                if key.elementsEqual("/S".utf8) {
                    role = String(decoding: token().dropFirst(), as: UTF8.self)
                } else if key.elementsEqual("/P".utf8) {
                    parent = reference(token())
                } else if key.elementsEqual("/Pg".utf8) {
                    page = reference(token())
                } else if key.elementsEqual("/K".utf8) {
                    let first = token()
                    if first.elementsEqual("[".utf8) {
                        while true {
                            let t = token()
                            if t.isEmpty { return "an array after /K does not end" }
                            if t.elementsEqual("]".utf8) { break }
                            guard let k = kid(t) else { return "an unexpected kid after /K" }
                            kids.append(k)
                        }
                    } else {
                        guard let k = kid(first) else { return "an unexpected kid after /K" }
                        kids.append(k)
                    }
                } else if key.elementsEqual("endobj".utf8) {
                    break
                }
            }
            return nil
        }
        if let problem { throw .cairo("structure element \(number): \(problem)") }
        guard let role, let parent else { throw .cairo("structure element \(number) has no /S or /P") }
        return Element(role: role, parent: parent, page: page, kids: kids)
    }

    private static func elementNumbers(_ items: [CairoFile.Item], in owner: Int) throws(RenderError) -> [Int] {
        try items.map { (item) throws(RenderError) -> Int in
            guard case let .reference(n) = item else { throw .cairo("object \(owner) has a kid that is not an element") }
            return n
        }
    }

    /// Joins the annotation `annotation` on page object `page` to the element opened `index`th: the element
    /// itself when it is a link's text, else a new `Link` element inside it. Returns the annotation's key in the
    /// parent tree.
    mutating func addLink(annotation: Int, page: Int, in index: Int, update: inout PDFCompletion.Update) throws(RenderError) -> Int {
        guard plan.indices.contains(index) else { throw .cairo("a link is in element \(index) of \(plan.count)") }
        let owner = order[index]
        let link: Int
        if plan[index].role == .link {
            link = owner
        } else {
            link = update.reserve()
            elements[link] = Element(role: "Link", parent: owner, page: nil, kids: [])
            elements[owner]?.kids.append(.element(link))
            changed.insert(owner)
        }
        elements[link]?.kids.append(.annotation(annotation, page: page))
        changed.insert(link)
        let key = (numbers.map(\.key).max() ?? -1) + 1
        numbers.append((key, .reference(link)))
        numbersChanged = true
        return key
    }

    /// Writes element `number` into the update.
    func writeElement(_ number: Int, into update: inout PDFCompletion.Update) {
        guard let element = elements[number], !removed.contains(number) else { return }
        let role = orderIndex[number].map { plan[$0].role.writtenName } ?? element.role
        var body = "<< /Type /StructElem /S /\(role) /P \(element.parent) 0 R"
        if let page = element.page { body += " /Pg \(page) 0 R" }
        body += " /K " + (element.kids.count == 1 ? element.kids[0].text : "[ " + element.kids.map(\.text).joined(separator: " ") + " ]")
        if let alternateText = element.alternateText { body += " /Alt " + PDFCompletion.textString(alternateText) }
        if let actualText = element.actualText { body += " /ActualText " + PDFCompletion.textString(actualText) }
        update.write(number, body + " >>")
    }

    /// Writes the changed elements, the parent tree, and the page contents with their marked content rewritten.
    mutating func write(into update: inout PDFCompletion.Update, file: CairoFile) throws(RenderError) {
        var artifacts: [Int: [Int]] = [:]  // page object -> MCIDs
        var removed: Set<Int> = []
        for (index, element) in plan.enumerated() {
            let number = order[index]
            switch element.role {
            case .artifact:
                guard let entry = elements[number], let page = entry.page else { throw .cairo("an artifact has no page") }
                for kid in entry.kids {
                    guard case let .content(mcid) = kid else { throw .cairo("an artifact holds an element") }
                    artifacts[page, default: []].append(mcid)
                }
                removed.insert(number)
                if entry.parent == root {
                    rootKids.removeAll { $0 == number }
                    rootChanged = true
                } else {
                    elements[entry.parent]?.kids.removeAll { $0 == .element(number) }
                    changed.insert(entry.parent)
                }
            case .link:
                changed.insert(number)
            case .figure:
                elements[number]?.alternateText = element.alternateText
                changed.insert(number)
            default:
                break
            }
        }
        self.removed = removed
        if rootChanged {
            update.write(root, "<< /Type /StructTreeRoot /ParentTree \(parentTree) 0 R /K [ "
                         + rootKids.map { "\($0) 0 R" }.joined(separator: " ") + " ] >>")
        }
        // The parent tree's arrays (one per page, by MCID) lose the artifacts.
        for (_, value) in numbers {
            guard case let .reference(array) = value, elements[array] == nil, !removed.isEmpty else { continue }
            let body = try file.fields(of: array)
            guard body.first == UInt8(ascii: "[") else { continue }
            let items = try CairoFile.items(after: "", in: [0x20] + body) ?? []
            let kept = items.map { item -> CairoFile.Item in
                if case let .reference(n) = item, removed.contains(n) { return .null }
                return item
            }
            if kept != items { update.write(array, "[ " + kept.map(\.text).joined(separator: " ") + " ]") }
        }
        if numbersChanged {
            update.write(parentTree, "<< /Nums [ " + numbers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.text)" }
                .joined(separator: " ") + " ] >>")
        }
        for page in file.pages {
            let dictionary = try file.fields(of: page)
            guard let contents = CairoFile.reference(after: "/Contents", in: dictionary) else {
                throw .cairo("page object \(page) has no single /Contents stream")
            }
            var changes = MarkedContent.Changes()
            changes.artifacts = Set(artifacts[page] ?? [])
            var owners: [Int: Int] = [:]  // MCID -> element
            for (index, element) in plan.enumerated() where element.role != .artifact {
                guard let entry = elements[order[index]], entry.page == page else { continue }
                for case let .content(mcid) in entry.kids {
                    owners[mcid] = order[index]
                    if element.role == .link { changes.renamed[mcid] = element.role.writtenName }
                    if element.actualText != nil { changes.actualText.insert(mcid) }
                }
            }
            guard !changes.isEmpty else { continue }
            let (data, dropped) = try MarkedContent.rewrite(try file.streamData(of: contents), changes)
            for mcid in dropped {
                guard let number = owners[mcid], let index = orderIndex[number] else { continue }
                elements[number]?.actualText = plan[index].actualText
                changed.insert(number)
            }
            let compressed = try Flate.deflate(data)
            update.objects.append(PDFIncrementalUpdate.Object(
                number: contents,
                body: Array("<< /Length \(compressed.count) /Filter /FlateDecode >>\nstream\n".utf8) + compressed + Array("\nendstream".utf8)))
        }
        for number in changed.subtracting(removed).sorted() { writeElement(number, into: &update) }
    }
}
