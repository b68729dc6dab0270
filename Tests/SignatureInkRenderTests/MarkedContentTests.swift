// SPDX-License-Identifier: Apache-2.0
@testable import SignatureInkRender
import Testing

/// The rewrite of a page's marked content reads operators, not bytes: a string that spells `BDC` or `EMC` is text.
@Suite struct MarkedContentTests {
    static func rewrite(_ content: String, _ changes: MarkedContent.Changes) throws -> (String, Set<Int>) {
        let (data, dropped) = try MarkedContent.rewrite(Array(content.utf8), changes)
        return (String(decoding: data, as: UTF8.self), dropped)
    }

    @Test func artifactsLinksAndNestedSpansAreRewrittenAndStringsAreLeftAlone() throws {
        let page = """
            /Private << /MCID 0 >> BDC BT (Page \\) BDC 1) Tj ET EMC
            /Reference << /MCID 1 >> BDC BT (EMC \\(Learn\\) more) Tj ET EMC
            /P << /MCID 2 >> BDC BT <0001> Tj /Span << /ActualText <feff06440649> >> BDC <0002> Tj EMC (rest) Tj ET EMC
            /P << /MCID 3 >> BDC BT /Span << /ActualText <feff0020> >> BDC EMC ET EMC
            """
        var changes = MarkedContent.Changes()
        changes.artifacts = [0]
        changes.renamed = [1: "Link"]
        changes.actualText = [2]
        let (out, dropped) = try Self.rewrite(page, changes)
        #expect(dropped == [2])
        #expect(out.contains("/Artifact << /Type /Pagination >> BDC BT (Page \\) BDC 1) Tj ET EMC"))
        #expect(out.contains("/Link << /MCID 1 >> BDC BT (EMC \\(Learn\\) more) Tj ET EMC"))
        #expect(out.contains("/P << /MCID 2 >> BDC BT <0001> Tj  <0002> Tj  (rest) Tj ET EMC"), "\(out)")
        // MCID 3's element has no text of its own to stand for it: its span stays.
        #expect(out.contains("/P << /MCID 3 >> BDC BT /Span << /ActualText <feff0020> >> BDC EMC ET EMC"))
    }

    @Test func unbalancedOrMissingMarkedContentIsRefused() throws {
        var changes = MarkedContent.Changes()
        #expect(throws: RenderError.self) { try Self.rewrite("/P << /MCID 0 >> BDC", changes) }
        #expect(throws: RenderError.self) { try Self.rewrite("EMC", changes) }
        changes.artifacts = [4]
        #expect(throws: RenderError.self) { try Self.rewrite("/P << /MCID 0 >> BDC EMC", changes) }
        #expect(try Self.rewrite("/P << /MCID 0 >> BDC (BDC) Tj EMC", MarkedContent.Changes()).0 == "/P << /MCID 0 >> BDC (BDC) Tj EMC")
    }

    @Test func textStringsAreLiteralInASCIIAndUTF16Otherwise() {
        #expect(PDFCompletion.textString(#"a(b)\c"#) == #"(a\(b\)\\c)"#)
        #expect(PDFCompletion.textString("لى") == "<FEFF06440649>")
        #expect(PDFCompletion.textString("é😀") == "<FEFF00E9D83DDE00>")
    }
}
