// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInkConsent
import SignatureInkRender

/// The consent walk-through page of one document: `consent.html` with the document's language and layout direction
/// on its `<html>` element, its title as the page's, and every word the page shows or announces (`ConsentWords.page`,
/// the document's or English) as a JSON data block, which `consent.js` reads. Made once, when the router is built.
///
/// The direction is the document's `layoutDirection`, the rule its PDF follows (for `auto`, from its language), so
/// that the page and the PDF never disagree and the page needs no rule of its own.
enum ConsentPage {
    /// The `<html>` element of the page's template.
    static let htmlElement = #"<html lang="en" dir="ltr">"#
    /// The template's empty data block of the words.
    static let wordsBlock = #"<script type="application/json" id="words">{}</script>"#
    /// The template's title.
    static let titleElement = "<title>Consent</title>"

    /// `template` made the page of `document`.
    /// - Throws: `APIError` 500 when the template lacks the element or the block (a broken build).
    static func html(_ template: [UInt8], document: ConsentDocument) throws -> [UInt8] {
        let page = String(decoding: template, as: UTF8.self)
        guard page.contains(htmlElement), page.contains(wordsBlock), page.contains(titleElement) else {
            throw APIError(.internalServerError, "the consent page's template has no \(htmlElement), \(titleElement) or words block")
        }
        let words = try wordsJSON(document.words)
        // A checked document's language is a BCP 47 tag; one built in code is kept to a tag's characters too, so that
        // nothing in the attribute needs escaping.
        let tag = document.language.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let language = tag.isEmpty ? "und" : tag
        let direction = document.layoutDirection == .rightToLeft ? "rtl" : "ltr"
        return Array(page.replacingOccurrences(of: htmlElement, with: #"<html lang="\#(language)" dir="\#(direction)">"#)
            .replacingOccurrences(of: wordsBlock, with: #"<script type="application/json" id="words">\#(words)</script>"#)
            .replacingOccurrences(of: titleElement, with: "<title>\(escaped(document.title))</title>").utf8)
    }

    /// A page with a form cell (`index.html`, the shared device's `device.html`) with the English words in its data
    /// block, which `form-cell.js` reads: the words have one home, ``ConsentWords/PageWord/english``.
    /// - Throws: `APIError` 500 when the template lacks the block (a broken build).
    static func formCellHTML(_ template: [UInt8]) throws -> [UInt8] {
        let page = String(decoding: template, as: UTF8.self)
        guard page.contains(wordsBlock) else { throw APIError(.internalServerError, "a form cell's page has no words block") }
        return Array(page.replacingOccurrences(of: wordsBlock, with: #"<script type="application/json" id="words">\#(try wordsJSON(.english))</script>"#).utf8)
    }

    /// Every page word of `words` as a JSON object, with every `<` escaped so that no word can end the block
    /// (`</script>`).
    static func wordsJSON(_ words: ConsentWords) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings only: encoding cannot fail.
        return String(decoding: try encoder.encode(words.page), as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// `text` as HTML text: `&`, `<`, `>` and `"` as character references.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
