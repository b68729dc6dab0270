// SPDX-License-Identifier: Apache-2.0
public import SignatureInkRender

extension ConsentDocument {
    /// The direction the document is laid out in: its paragraphs, list markers, links, signature blocks and running
    /// header alike.
    ///
    /// ``direction`` when it is left to right or right to left. For `auto`, the direction of ``language``: right to
    /// left for a language or script written so (Arabic, Hebrew, Persian, Urdu, Pashto, Sindhi, Uyghur, Kurdish in
    /// Arabic script, Dhivehi, Syriac, N'Ko, Yiddish, or a tag such as `az-Arab`), left to right for any other
    /// language; and when the language is undetermined (`und`, empty), the direction of the first strong character
    /// of the title and the texts (Unicode's rule P2), else left to right.
    public var layoutDirection: TextDirection {
        if direction != .auto { return direction }
        let subtags = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        if let script = subtags.dropFirst().first(where: { $0.count == 4 }) {
            return Self.rightToLeftScripts.contains(script) ? .rightToLeft : .leftToRight
        }
        guard let primary = subtags.first, primary != "und" else {
            let texts = [title] + sections.flatMap { [$0.title, $0.content] } + [reviewContent ?? "", signaturePageContent]
            for text in texts {
                if let strong = Self.strongDirection(of: text) { return strong }
            }
            return .leftToRight
        }
        return Self.rightToLeftLanguages.contains(primary) ? .rightToLeft : .leftToRight
    }

    /// Languages written right to left by default (ISO 639 codes of BCP 47's primary subtag).
    static let rightToLeftLanguages: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "nqo", "ps", "sd", "syr",
                                                    "ug", "ur", "yi"]
    /// Scripts written right to left (ISO 15924 codes of BCP 47's script subtag, lower case).
    static let rightToLeftScripts: Set<String> = ["arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "mand", "samr"]

    /// The direction of the first strong character of `text`: right to left for Hebrew, Arabic, Syriac, Thaana, N'Ko
    /// and the other right-to-left blocks (bidirectional classes R and AL), left to right for any other letter;
    /// `nil` for text without a letter (digits, punctuation and spaces are weak or neutral).
    static func strongDirection(of text: String) -> TextDirection? {
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return .rightToLeft
            default: return .leftToRight
            }
        }
        return nil
    }
}
