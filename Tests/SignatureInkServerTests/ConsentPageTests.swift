// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import InkTestSupport
import SignatureInkConsent
import SignatureInkRender
import SignatureInkServer
import Testing

/// `GET /consent`: the walk-through page in the document's language and direction, with every word it shows.
@Suite struct ConsentPageTests {
    /// The page served for `document` (the sample study consent when `nil`).
    static func page(_ document: ConsentDocument? = nil) async throws -> String {
        let app = Application(router: try SignatureInkServer.router(consentDocument: document))
        return try await app.withRouterClient { client in
            try await client.execute(uri: "/consent", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                return String(buffer: response.body)
            }
        }
    }

    /// The page's words block, read as JSON.
    static func words(_ page: String) throws -> [String: String] {
        let start = try #require(page.range(of: #"<script type="application/json" id="words">"#))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return try #require(try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: String])
    }

    static func arabic() throws -> ConsentDocument {
        try ConsentDocument(json: Array(try Data(contentsOf: TestData.repositoryRoot.appendingPathComponent("Tests/Fixtures/consent/consent-ar.json"))))
    }

    @Test func anArabicDocumentsPageIsArabicRightToLeftWithItsWords() async throws {
        let document = try Self.arabic()
        let page = try await Self.page(document)
        #expect(page.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(page.contains("<title>\(document.title)</title>"))
        let words = try Self.words(page)
        #expect(words == document.words.page)
        #expect(words["next"] == "التالي" && words["learnMore"] == "اعرف المزيد")
    }

    /// The form cell's own page carries the English page words, the cell's one source of them.
    @Test func theFormCellsPageHasTheEnglishWords() async throws {
        let app = Application(router: try SignatureInkServer.router(consentDocument: nil))
        let page = try await app.withRouterClient { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
        }
        let words = try Self.words(page)
        #expect(words == ConsentWords.english.page)
        #expect(words["typeInstead"] == "Or type your name instead of drawing" && words["savedTyped"]?.contains("{digest}") == true)
    }

    @Test func theSampleDocumentsPageIsEnglishLeftToRight() async throws {
        let page = try await Self.page()
        #expect(page.contains(#"<html lang="en" dir="ltr">"#))
        let words = try Self.words(page)
        #expect(words.count == ConsentWords.PageWord.allCases.count + 1)
        #expect(words["next"] == "Next" && words["signingFailed"] == "The consent could not be signed")
    }

    /// `auto` takes the direction from the language, as the PDF does; a word cannot end the block, nor the title
    /// the element.
    @Test func autoFollowsTheLanguageAndNothingEscapesItsPlace() async throws {
        var document = try Self.arabic()
        document.language = "he"
        document.direction = .auto
        document.title = "</title><script>x</script>"
        document.words[.next] = "</script><script>alert(1)</script>"
        let page = try await Self.page(document)
        #expect(page.contains(#"<html lang="he" dir="rtl">"#))
        #expect(page.contains("<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>"))
        #expect(try Self.words(page)["next"] == "</script><script>alert(1)</script>")
        #expect(page.components(separatedBy: "<script").count == 4, "the words block and the two scripts, no other")
    }
}
