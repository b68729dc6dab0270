// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import Testing

/// A consent PDF is tagged: poppler reads its structure in reading order with every word once, every signature block
/// is a figure with alternate text, the header and footer are artifacts, and the catalog has the language, the title
/// shown as the window's title and XMP metadata. Read back with `pdfinfo -struct-text` and qpdf's JSON.
@Suite struct TaggedConsentPDFTests {
    /// The words printed on the pages as `pdftotext` reads them, without the running header and footer (the title
    /// and "Page n of N" on every page).
    static func contentWords(_ pdf: [UInt8], title: String, footer: String = "Page {n} of {N}") throws -> [String: Int] {
        var words = count(try PDFCheck.text(pdf).split(whereSeparator: \.isWhitespace).map(String.init))
        let pages = try PDFCheck.pages(pdf)
        for page in 1...pages {
            let running = title + " " + footer.replacing("{n}", with: String(page)).replacing("{N}", with: String(pages))
            for word in running.split(whereSeparator: \.isWhitespace) {
                words[String(word), default: 0] -= 1
                if words[String(word)] == 0 { words[String(word)] = nil }
            }
        }
        return words
    }

    static func count(_ words: [String]) -> [String: Int] { words.reduce(into: [:]) { $0[$1, default: 0] += 1 } }

    /// `pdfinfo -struct-text`: each element's type with its depth, and the text of each content element.
    static func structure(_ pdf: [UInt8]) throws -> (elements: [(depth: Int, type: String, text: String?)], words: [String: Int]) {
        let out = try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { try ExternalTool.run("pdfinfo", ["-struct-text", $0]) }
        var elements: [(depth: Int, type: String, text: String?)] = []
        var words: [String] = []
        for line in out.split(separator: "\n") {
            let depth = line.prefix { $0 == " " }.count / 2
            let body = line.drop { $0 == " " }
            if body.hasPrefix("\""), body.hasSuffix("\""), body.count >= 2 {
                let text = String(body.dropFirst().dropLast())
                words += text.split(whereSeparator: \.isWhitespace).map(String.init)
                if let last = elements.indices.last { elements[last].text = (elements[last].text ?? "") + text }
            } else {
                elements.append((depth, String(body.split(separator: " ").first ?? ""), nil))
            }
        }
        return (elements, count(words))
    }

    /// The headings' texts in the structure's order.
    static func headings(_ elements: [(depth: Int, type: String, text: String?)]) -> [String] {
        var result: [String] = []
        for (i, element) in elements.enumerated() where ["H1", "H2", "H3"].contains(element.type) {
            // A heading of several lines is a span per line.
            var text = element.text.map { [$0] } ?? []
            for kid in elements[(i + 1)...].prefix(while: { $0.depth > element.depth }) { if let t = kid.text { text.append(t) } }
            result.append(text.joined(separator: " "))
        }
        return result
    }

    @Test func theStructureHasEveryWordOnceInReadingOrder() throws {
        let document = try ConsentFixtures.signedSample()
        let pdf = try document.pdf()
        #expect(try PDFCheck.qpdfProblems(pdf) == nil)
        let info = try ExternalTool.withTemporaryFile(pdf, extension: "pdf") { try ExternalTool.run("pdfinfo", [$0]) }
        #expect(info.contains("Tagged:          yes"))
        let (elements, words) = try Self.structure(pdf)
        #expect(elements.first?.type == "Document")
        #expect(words == (try Self.contentWords(pdf, title: document.title)))
        #expect(Self.headings(elements) == [document.title] + document.sections.map(\.title) + [document.signaturePageTitle]
                + document.slots.map(\.title))
        #expect(elements.contains { $0.type == "L" } && elements.contains { $0.type == "Lbl" } && elements.contains { $0.type == "LBody" })
        #expect(elements.filter { $0.type == "Figure" }.count == document.slots.count)
        #expect(!elements.contains { ["Private", "Reference", "Artifact"].contains($0.type) })
    }

    @Test func figuresHaveAlternateTextRunningHeadsAreArtifactsAndLinksAreTagged() throws {
        let document = try ConsentFixtures.signedSample()
        let file = try QPDFJSON(try document.pdf())
        let catalog = try #require(file.object(file.trailer["/Root"]))
        #expect(catalog["/Lang"] as? String == "u:" + document.language)
        #expect((file.object(catalog["/ViewerPreferences"])?["/DisplayDocTitle"]) as? Bool == true)
        let metadata = String(decoding: try #require(file.streamData(catalog["/Metadata"])), as: UTF8.self)
        #expect(metadata.contains("<pdfuaid:part>1</pdfuaid:part>") && metadata.contains(document.title))
        let root = try #require(file.object(catalog["/StructTreeRoot"]))

        var figures: [String] = []
        var links: [String: String] = [:]  // annotation -> its Link element
        var types: Set<String> = []
        func walk(_ reference: Any?) {
            guard let ref = reference as? String, let element = file.object(ref), let type = element["/S"] as? String else { return }
            types.insert(type)
            if type == "/Figure" { figures.append((element["/Alt"] as? String) ?? "") }
            let kids = (element["/K"] as? [Any]) ?? [element["/K"] as Any]
            for kid in kids {
                if let objr = kid as? [String: Any], objr["/Type"] as? String == "/OBJR", let annotation = objr["/Obj"] as? String {
                    #expect(type == "/Link")
                    links[annotation] = ref
                } else {
                    walk(kid)
                }
            }
        }
        for kid in (root["/K"] as? [Any]) ?? [root["/K"] as Any] { walk(kid) }
        #expect(!types.contains("/Private") && !types.contains("/Reference"))

        // Each figure names the role, the signer and the date.
        #expect(figures.count == document.slots.count)
        for (slot, alt) in zip(document.slots, figures) {
            let signed = try #require(document.appliedSignature(for: slot.identifier))
            #expect(alt.hasPrefix("u:" + slot.title + ": " + signed.name), "\(alt)")
            #expect(alt.contains("2026"), "\(alt)")
        }

        // Every link annotation belongs to a Link element, through its key in the parent tree.
        let parentTree = try #require(file.object(root["/ParentTree"]))
        let numbers = try #require(parentTree["/Nums"] as? [Any])
        var byKey: [Int: String] = [:]
        for i in stride(from: 0, to: numbers.count - 1, by: 2) {
            if let key = numbers[i] as? Int, let value = numbers[i + 1] as? String { byKey[key] = value }
        }
        var annotations = 0
        for (index, page) in file.pages.enumerated() {
            let content = String(decoding: try #require(file.streamData(page["/Contents"])), as: UTF8.self)
            // The header and the footer of every page.
            #expect(content.ranges(of: "/Artifact << /Type /Pagination >> BDC").count == 2, "page \(index + 1)")
            #expect(!content.contains("/Private") && !content.contains("/Reference"), "page \(index + 1)")
            for case let ref as String in (page["/Annots"] as? [Any]) ?? [] {
                annotations += 1
                let annotation = try #require(file.object(ref))
                let key = try #require(annotation["/StructParent"] as? Int)
                #expect(byKey[key] == links[ref] && links[ref] != nil, "\(ref)")
                #expect(page["/Tabs"] as? String == "/S")
            }
        }
        #expect(annotations >= 2 && annotations == links.count)
    }

    /// The Arabic fixture, and the Arabic, Hebrew and Japanese documents of the words' tests.
    static func scripts() throws -> [ConsentDocument] {
        let url = TestData.repositoryRoot.appendingPathComponent("Tests/Fixtures/consent/consent-ar.json")
        let arabic = try ConsentDocument(json: Array(try Data(contentsOf: url)))
            .signing(ConsentSignature(slot: "participant", name: "ليلى", signature: try ConsentFixtures.ink(), date: ConsentFixtures.date))
        return [arabic] + (try (0..<ConsentWordsTests.languages.count).map { try ConsentWordsTests.document($0) })
    }

    @Test(arguments: 0..<4) func aConsentInAnotherScriptIsTaggedInItsLanguage(k: Int) throws {
        let document = try Self.scripts()[k]
        let pdf = try document.pdf()
        #expect(try PDFCheck.qpdfProblems(pdf) == nil)
        let file = try QPDFJSON(pdf)
        #expect(file.object(file.trailer["/Root"])?["/Lang"] as? String == "u:" + document.language)
        let structure = try Self.structure(pdf)
        let words = structure.words, elements = structure.elements
        // Every letter once: poppler may cut right-to-left text into words differently from pdftotext, which also
        // marks its direction (U+202A to U+202C) and spells a ligature by its letters where the structure's text has
        // the glyph's presentation form (U+FC86 for لى): compatible forms, the same after NFKC.
        func letters(_ words: [String: Int]) -> [Character: Int] {
            words.reduce(into: [:]) { result, entry in
                for c in entry.key.precomposedStringWithCompatibilityMapping where !c.isWhitespace && !("\u{202A}"..."\u{202E}").contains(c) {
                    result[c, default: 0] += entry.value
                }
            }
        }
        var printed = letters(Self.count(try PDFCheck.text(pdf).split(whereSeparator: \.isWhitespace).map(String.init)))
        let running = letters([document.title: 1, document.words.pageNumber.replacing("{n}", with: "1").replacing("{N}", with: "1"): 1])
        #expect(try PDFCheck.pages(pdf) == 1)
        for (c, n) in running { printed[c, default: 0] -= n }
        #expect(letters(words) == printed.filter { $0.value != 0 })
        #expect(elements.filter { $0.type == "Figure" }.count == document.slots.count)
    }

    @Test func aTypedSignatureGoesToASealedTaggedPDF() async throws {
        let signed = try ConsentTypedSignatureTests.submission().sign(now: ConsentSubmissionTests.now, seal: try ConsentSealTests.seal())
        #expect(try await ConsentSealTests.verify(signed.pdf).problems == [])
        let participant = try #require(signed.record.signers.first { $0.slot == "participant" })
        #expect(participant.kind == .typed && participant.typedSignature == "A. Lovelace")
        let info = try ExternalTool.withTemporaryFile(signed.pdf, extension: "pdf") { try ExternalTool.run("pdfinfo", [$0]) }
        #expect(info.contains("Tagged:          yes"))
        let (elements, _) = try Self.structure(signed.pdf)
        let figure = try #require(elements.firstIndex { $0.type == "Figure" })
        let inside = elements[(figure + 1)...].prefix { $0.depth > elements[figure].depth }.compactMap(\.text)
        #expect(inside.first == "A. Lovelace" && inside.dropFirst().first == "Ada Lovelace", "\(inside)")
        // The audit trail page is part of the same structure.
        #expect(Self.headings(elements).contains(signed.document.words.auditTrail))
    }
}

enum QPDFJSONError: Error { case noObjects }

/// A PDF's objects as qpdf's JSON (version 2) gives them, with stream data decoded.
struct QPDFJSON {
    let objects: [String: Any]
    let trailer: [String: Any]

    init(_ pdf: [UInt8]) throws {
        let text = try ExternalTool.withTemporaryFile(pdf, extension: "pdf") {
            try ExternalTool.run("qpdf", ["--json=2", "--json-key=qpdf", "--json-stream-data=inline", "--decode-level=generalized", $0])
        }
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let parts = json?["qpdf"] as? [Any]
        guard let objects = parts?.last as? [String: Any], let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any] else {
            throw QPDFJSONError.noObjects
        }
        self.objects = objects
        self.trailer = trailer
    }

    /// The dictionary a reference (`"12 0 R"`) points at, or a direct dictionary as it is.
    func object(_ reference: Any?) -> [String: Any]? {
        if let direct = reference as? [String: Any] { return direct }
        guard let ref = reference as? String, let entry = objects["obj:" + ref] as? [String: Any] else { return nil }
        return (entry["value"] as? [String: Any]) ?? ((entry["stream"] as? [String: Any])?["dict"] as? [String: Any])
    }

    /// The decoded data of the stream a reference points at.
    func streamData(_ reference: Any?) -> [UInt8]? {
        guard let ref = reference as? String, let stream = (objects["obj:" + ref] as? [String: Any])?["stream"] as? [String: Any],
              let data = stream["data"] as? String, let bytes = Data(base64Encoded: data) else { return nil }
        return Array(bytes)
    }

    /// The page dictionaries in order.
    var pages: [[String: Any]] {
        guard let root = object(trailer["/Root"]), let tree = object(root["/Pages"]) else { return [] }
        func leaves(_ node: [String: Any]) -> [[String: Any]] {
            guard let kids = node["/Kids"] as? [Any] else { return [node] }
            return kids.compactMap { object($0) }.flatMap(leaves)
        }
        return leaves(tree)
    }
}
