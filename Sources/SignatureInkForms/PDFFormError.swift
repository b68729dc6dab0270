// SPDX-License-Identifier: Apache-2.0

/// What went wrong reading or signing a PDF form, naming the file and what is wrong.
public enum PDFFormError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not a PDF, or qpdf found it damaged (`message` is qpdf's, with the byte offset where it has one).
    case unreadable(file: String, message: String)
    /// qpdf read the file but found something wrong in it (`message` names what and where): a stream whose data
    /// does not decode, a page tree it had to mend. It is not signed, since what a signed copy would hold may not be
    /// what the file's author wrote.
    case damaged(file: String, message: String)
    /// The file is encrypted; the engine signs only unencrypted forms.
    case encrypted(file: String)
    /// The form has no field of that name; `signatureFields` lists the signature fields it has.
    case unknownField(String, signatureFields: [String])
    /// The field exists but cannot take a signature: `message` says why (not a signature field, no widget, ...).
    case unusableField(String, message: String)
    /// The form carries a digital signature that a rewrite would break; sign it with an incremental update.
    case digitallySigned(fields: [String])
    /// The page does not exist.
    case noSuchPage(Int, pageCount: Int)
    /// The rectangle is empty or outside the page's visible area (its crop box).
    case rectangleOffPage(page: Int, message: String)
    /// An option cannot be used: `message` says why.
    case invalidOption(String)
    /// The ink could not be drawn.
    case rendering(String)
    /// qpdf failed while changing or writing the file.
    case qpdf(String)
    /// The key or certificates of a digital signature cannot be used: `message` says which and why.
    case signingIdentity(String)

    public var description: String {
        switch self {
        case let .unreadable(file, message): return "\(file): not a readable PDF: \(message)"
        case let .damaged(file, message):
            return "\(file): the PDF is damaged: \(message); it was not signed, so nothing in it was lost or changed"
        case let .encrypted(file): return "\(file): the PDF is encrypted; decrypt it first (qpdf --decrypt)"
        case let .unknownField(name, fields):
            let list = fields.isEmpty ? "the form has no signature field" : "its signature fields are " + fields.map { "'\($0)'" }.joined(separator: ", ")
            return "no field is named '\(name)'; \(list)"
        case let .unusableField(name, message): return "field '\(name)': \(message)"
        case let .digitallySigned(fields):
            return "the form is digitally signed (\(fields.map { "'\($0)'" }.joined(separator: ", "))): rewriting it would break that "
                + "signature; sign it as an incremental update (--incremental), which leaves the signed bytes as they are"
        case let .noSuchPage(page, count): return "page \(page) does not exist; the form has \(count) page\(count == 1 ? "" : "s")"
        case let .rectangleOffPage(page, message): return "page \(page): \(message)"
        case let .invalidOption(message): return message
        case let .rendering(message): return "drawing the signature: \(message)"
        case let .qpdf(message): return "qpdf: \(message)"
        case let .signingIdentity(message): return "digital signature: \(message)"
        }
    }
}
