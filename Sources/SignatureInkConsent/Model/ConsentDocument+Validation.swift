// SPDX-License-Identifier: Apache-2.0
import SignatureInk
import SignatureInkRender

extension ConsentDocument {
    /// Checks the whole document: required text present, identifiers well formed and unique, forms naming sections
    /// that exist, date patterns that print the right year, link addresses with an allowed scheme, no control
    /// characters, and every size within `limits`.
    /// - Parameter limits: the largest document accepted; default ``ConsentLimits/default``.
    /// - Throws: ``ConsentError/invalidDocument(field:message:)`` or ``ConsentError/limitExceeded(field:limit:actual:)``
    ///   naming the first field at fault.
    public func validate(limits: ConsentLimits = .default) throws(ConsentError) {
        var total = 0
        func text(_ value: String, _ field: String, required: Bool = false, multiline: Bool = false) throws(ConsentError) {
            let count = value.unicodeScalars.count
            guard count <= limits.maxFieldLength else { throw .limitExceeded(field: field, limit: limits.maxFieldLength, actual: count) }
            total += count
            guard total <= limits.maxTotalText else {
                throw .limitExceeded(field: "text of the whole document (at \(field))", limit: limits.maxTotalText, actual: total)
            }
            if required && value.trimmingWhitespace().isEmpty { throw .invalidDocument(field: field, message: "must not be empty") }
            for (offset, scalar) in value.unicodeScalars.enumerated() where scalar.isControl {
                if multiline && (scalar == "\n" || scalar == "\t") { continue }
                throw .invalidDocument(field: field, message: "control character U+\(String(scalar.value, radix: 16, uppercase: true)) at character \(offset)")
            }
        }
        func identifier(_ value: String, _ field: String, seen: inout Set<String>) throws(ConsentError) {
            guard (1...64).contains(value.utf8.count),
                  value.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || $0 == 45 || $0 == 95 || $0 == 46 }) else {
                throw .invalidDocument(field: field, message: "'\(value.prefix(64))' must be 1 to 64 letters, digits, '-', '_' or '.'")
            }
            guard seen.insert(value).inserted else { throw .invalidDocument(field: field, message: "'\(value)' is used twice") }
        }
        func address(_ value: String, _ field: String) throws(ConsentError) {
            try text(value, field)
            guard ConsentMarkup.linkSchemes.contains(where: { value.lowercased().hasPrefix($0) && value.count > $0.count }),
                  !value.containsText(" ") else {
                throw .invalidDocument(field: field, message: "must be an https:, http: or mailto: address")
            }
        }

        try text(title, "title", required: true)
        guard Self.isLanguageTag(language) else {
            throw .invalidDocument(field: "language", message: "'\(language.prefix(40))' is not a BCP 47 language tag such as 'en' or 'zh-Hant'")
        }
        guard sections.count <= limits.maxSections else {
            throw .limitExceeded(field: "sections", limit: limits.maxSections, actual: sections.count)
        }
        guard !sections.isEmpty || reviewContent != nil else {
            throw .invalidDocument(field: "sections", message: "a document needs at least one section, or reviewContent")
        }
        var sectionIDs = Set<String>()
        for (i, section) in sections.enumerated() {
            let field = "sections[\(i)]"
            try identifier(section.identifier, field + ".identifier", seen: &sectionIDs)
            if section.title.isEmpty && section.kind.defaultTitle == nil {
                throw .invalidDocument(field: field + ".title", message: "a \(section.kind.rawValue) section needs a title")
            }
            try text(section.title, field + ".title", required: true)
            try text(section.summary, field + ".summary")
            try text(section.content, field + ".content", multiline: true)
            if let link = section.learnMore { try address(link, field + ".learnMore") }
        }
        if let reviewContent { try text(reviewContent, "reviewContent", required: true, multiline: true) }
        try text(signaturePageTitle, "signaturePageTitle", required: true)
        try text(signaturePageContent, "signaturePageContent", multiline: true)
        try text(reasonForConsent, "reasonForConsent", required: true, multiline: true)

        guard !slots.isEmpty else { throw .invalidDocument(field: "slots", message: "a consent document needs at least one signature slot") }
        guard slots.count <= limits.maxSlots else { throw .limitExceeded(field: "slots", limit: limits.maxSlots, actual: slots.count) }
        var slotIDs = Set<String>()
        var collectorSlot: Int?
        for (i, slot) in slots.enumerated() {
            let field = "slots[\(i)]"
            try identifier(slot.identifier, field + ".identifier", seen: &slotIDs)
            try text(slot.title, field + ".title", required: true)
            if slot.signedByCollector {
                if let first = collectorSlot {
                    throw .invalidDocument(field: field + ".signedByCollector",
                                           message: "only one slot may be signed by the collector; slots[\(first)] is already")
                }
                collectorSlot = i
            }
            if slot.requiresDrawnSignature && !slot.requiresSignature {
                throw .invalidDocument(field: field + ".requiresDrawnSignature", message: "a slot that takes no signature cannot require a drawn one")
            }
            do {
                _ = try TimestampFormat(pattern: slot.dateFormat)
            } catch {
                throw .invalidDocument(field: field + ".dateFormat", message: "\(error)")
            }
        }

        guard forms.count <= limits.maxForms else { throw .limitExceeded(field: "forms", limit: limits.maxForms, actual: forms.count) }
        var formIDs = Set<String>()
        for (i, form) in forms.enumerated() {
            let field = "forms[\(i)]"
            try identifier(form.identifier, field + ".identifier", seen: &formIDs)
            try text(form.title, field + ".title", required: true)
            guard !form.sections.isEmpty else { throw .invalidDocument(field: field + ".sections", message: "a form needs at least one page") }
            guard form.sections.count <= limits.maxSections else {
                throw .limitExceeded(field: field + ".sections", limit: limits.maxSections, actual: form.sections.count)
            }
            for (k, id) in form.sections.enumerated() where !sectionIDs.contains(id) {
                throw .invalidDocument(field: "\(field).sections[\(k)]", message: "no section is named '\(id.prefix(64))'")
            }
        }
        if sections.isEmpty == false, walkThroughForms.isEmpty {
            throw .invalidDocument(field: "sections", message: "every section is onlyInDocument, so the walk-through has no page; name the forms")
        }
        if let sharing {
            try text(sharing.investigator, "sharing.investigator", required: true)
            try text(sharing.learnMore, "sharing.learnMore", multiline: true)
        }
        for word in words.named {
            try text(word.text, "words." + word.field, required: true)
            guard word.text.unicodeScalars.count <= word.limit else {
                throw .limitExceeded(field: "words." + word.field, limit: word.limit, actual: word.text.unicodeScalars.count)
            }
        }
        for word in ConsentWords.PageWord.allCases {
            if let missing = word.placeholders.first(where: { !words[word].containsText($0) }) {
                throw .invalidDocument(field: "words." + word.stringValue, message: "must contain \(missing), as \"\(word.english)\" does")
            }
        }
        guard words.pageNumber.containsText("{n}") else {
            throw .invalidDocument(field: "words.pageNumber", message: "must contain {n}, where the page's number goes ({N} is the number of pages)")
        }
    }

    /// Whether `tag` has the shape of a BCP 47 tag: a 2-3 letter (or 4-8 letter registered) language, then subtags
    /// of 1-8 letters or digits separated by `-`.
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is a control character: Unicode's general category Cc, which is U+0000 to U+001F and U+007F
    /// to U+009F and never changes (Unicode's stability policy). Compared directly rather than through
    /// `properties.generalCategory`, whose table lookup for every character of a document was 2 % of laying it out.
    package var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
