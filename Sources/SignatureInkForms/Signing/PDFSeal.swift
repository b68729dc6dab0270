// SPDX-License-Identifier: Apache-2.0
import CQPDF
import SignatureInkRender

/// A file carried inside a PDF as an associated file (ISO 32000-2, 14.13): listed in the catalog's `/AF` and in
/// `/EmbeddedFiles`, with its MIME type and its relationship to the document.
public struct PDFAttachment: Sendable, Hashable {
    /// The file's name, as readers list it (`consent-record.json`).
    public var fileName: String
    /// Its MIME type (`application/json`).
    public var mimeType: String
    /// A short description, shown by readers.
    public var description: String
    /// How it relates to the document: `Data` (the data the document shows), `Source`, `Alternative`,
    /// `Supplement` or `Unspecified`.
    public var relationship: String
    /// The file's bytes.
    public var data: [UInt8]

    /// An attachment.
    /// - Parameters:
    ///   - fileName: the file's name.
    ///   - mimeType: its MIME type.
    ///   - description: a short description.
    ///   - relationship: its relationship to the document; default `Data`.
    ///   - data: its bytes.
    public init(fileName: String, mimeType: String, description: String, relationship: String = "Data", data: [UInt8]) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.description = description
        self.relationship = relationship
        self.data = data
    }
}

/// Seals a finished PDF: attaches files and certifies the whole file with a PAdES signature (a certification
/// signature: DocMDP, ISO 32000-2, 12.8.2.2), as an incremental update after the file's bytes.
///
/// The update adds the attachments, an invisible signature field `Seal` on the first page, and the catalog's
/// `/Perms /DocMDP` entry pointing at the signature; its permission lets a reader fill in forms and sign further
/// and reports anything else changed afterwards. The original file is the update's first bytes, unchanged.
public enum PDFSeal {
    /// The seal's signature field.
    public static let fieldName = "Seal"

    /// The sealed file.
    /// - Parameters:
    ///   - pdf: the finished PDF.
    ///   - name: how errors name it; default `document.pdf`.
    ///   - attachments: the files to carry inside it, in order.
    ///   - signature: who seals and when.
    /// - Returns: `pdf` followed by the update that attaches and certifies.
    /// - Throws: ``PDFFormError`` for a file qpdf cannot read, a file that is already signed, or a key that cannot sign.
    public static func certify(_ pdf: [UInt8], name: String = "document.pdf", attachments: [PDFAttachment],
                               signature: PDFDigitalSignature) throws(PDFFormError) -> [UInt8] {
        let dictionary = SignatureDictionary(signature)
        let file = try QPDFFile(bytes: pdf, name: name)
        let pages = try file.pages()
        try file.checkWarnings()
        guard let first = pages.first else { throw .unreadable(file: name, message: "it has no page") }
        let root = file.root
        let signed = try FieldTree(file: file, pages: pages).fields.map(\.info).filter { $0.isSignature && $0.hasValue }
        if !signed.isEmpty {
            throw .invalidOption("\(name) is already digitally signed (\(signed.map { "'\($0.name)'" }.joined(separator: ", "))); "
                                 + "a seal certifies a file before any other signature")
        }
        var changed = [root]
        // The new objects are numbered and written here, after the file's highest number: qpdf numbers an object
        // only after reading every object of the file (to find the highest number in use), which was half the seal's
        // time on a consent PDF.
        let numbers = try NewObjects(file: file)
        var written: [PDFIncrementalUpdate.Object] = []

        var associated: [qpdf_oh] = []
        var names: [qpdf_oh] = []
        for attachment in attachments {
            let embedded = try numbers.next()
            written.append(.init(number: embedded, generation: 0, body: Array("""
                << /Type /EmbeddedFile /Subtype \(PDFSyntax.name(attachment.mimeType)) /Params << /Size \(attachment.data.count) >> \
                /Length \(attachment.data.count) >>\nstream\n
                """.utf8) + attachment.data + Array("\nendstream".utf8)))
            let spec = try numbers.next()
            written.append(.init(number: spec, generation: 0, body: Array("""
                << /Type /Filespec /F \(PDFSyntax.text(attachment.fileName)) /UF \(PDFSyntax.text(attachment.fileName)) \
                /Desc \(PDFSyntax.text(attachment.description)) /AFRelationship \(PDFSyntax.name(attachment.relationship)) \
                /EF << /F \(embedded) 0 R /UF \(embedded) 0 R >> >>
                """.utf8)))
            associated.append(numbers.reference(spec))
            names += [try file.parse(PDFSyntax.text(attachment.fileName)), numbers.reference(spec)]
        }
        if !attachments.isEmpty {
            try file.set(root, "/AF", try array(associated, in: file))
            let tree = try file.parse("<< >>")
            try file.set(tree, "/Names", try array(names, in: file))
            let existing = file.get(root, "/Names")
            let catalogNames: qpdf_oh
            if let existing { catalogNames = existing } else { catalogNames = try file.parse("<< >>") }
            if file.get(catalogNames, "/EmbeddedFiles") != nil {
                throw .invalidOption("\(name) already carries embedded files; the seal adds its own to a file without any")
            }
            try file.set(catalogNames, "/EmbeddedFiles", tree)
            if existing == nil {
                try file.set(root, "/Names", catalogNames)
            } else if file.identity(catalogNames) != nil {
                changed.append(catalogNames)
            }
        }

        guard let page = file.identity(first) else { throw .unreadable(file: name, message: "its first page is not an indirect object") }
        let valueNumber = try numbers.next(), widgetNumber = try numbers.next()
        let value = numbers.reference(valueNumber), widget = numbers.reference(widgetNumber)
        written.append(.init(number: widgetNumber, generation: 0, body: Array("""
            << /Type /Annot /Subtype /Widget /FT /Sig /T \(PDFSyntax.text(fieldName)) /Rect [0 0 0 0] \
            /F \(FilledField.widgetFlags) /P \(page.number) \(page.generation) R /V \(valueNumber) 0 R >>
            """.utf8)))
        if let annotations = file.get(first, "/Annots") {
            qpdf.qpdf_oh_append_item(file.pdf, annotations, widget)
            changed.append(file.identity(annotations) == nil ? first : annotations)
        } else {
            try file.set(first, "/Annots", try array([widget], in: file))
            changed.append(first)
        }
        if let form = file.get(root, "/AcroForm") {
            if let fields = file.get(form, "/Fields") {
                qpdf.qpdf_oh_append_item(file.pdf, fields, widget)
                if file.identity(fields) != nil { changed.append(fields) }
            } else {
                try file.set(form, "/Fields", try array([widget], in: file))
            }
            try file.set(form, "/SigFlags", qpdf.qpdf_oh_new_integer(file.pdf, Int64(FilledField.signatureFlags)))
            if file.identity(form) != nil { changed.append(form) }
        } else {
            let form = try file.parse("<< /SigFlags \(FilledField.signatureFlags) >>")
            try file.set(form, "/Fields", try array([widget], in: file))
            try file.set(root, "/AcroForm", form)
        }
        let permissions = try file.parse("<< >>")
        try file.set(permissions, "/DocMDP", value)
        try file.set(root, "/Perms", permissions)
        try file.check("adding the seal")

        written.append(.init(number: valueNumber, generation: 0, body: dictionary.body(certification: formFillingPermission)))
        let update = try IncrementalUpdate.append(changed: changed, new: [], written: written, of: file, original: pdf)
        return try dictionary.seal(update, searchingFrom: pdf.count)
    }

    /// Numbers for new objects, from the trailer's `/Size` up, each checked to be free in the file and made known to
    /// qpdf (as an empty dictionary: the caller writes the object's bytes), since qpdf leaves out a dictionary entry
    /// that refers to an object it does not know.
    private final class NewObjects {
        let file: QPDFFile
        var number: Int

        init(file: QPDFFile) throws(PDFFormError) {
            guard let size = file.integer(file.get(file.trailer, "/Size")), size > 0 else {
                throw .unreadable(file: file.name, message: "the trailer has no /Size")
            }
            self.file = file
            number = size
        }

        /// The next free number. One at or above `/Size` that the file uses all the same (a file whose `/Size` is too
        /// small) is passed over.
        func next() throws(PDFFormError) -> Int {
            while qpdf.qpdf_oh_is_null(file.pdf, reference(number)) == 0 { number += 1 }
            // ISO 32000-2, annex C: the largest object number.
            guard number <= 8_388_607 else { throw .unreadable(file: file.name, message: "it has no free object number left") }
            qpdf.qpdf_replace_object(file.pdf, Int32(number), 0, try file.parse("<< >>"))
            try file.check("numbering a new object")
            defer { number += 1 }
            return number
        }

        /// A reference to object `number`, to put into the file's objects.
        func reference(_ number: Int) -> qpdf_oh { qpdf.qpdf_get_object_by_id(file.pdf, Int32(clamping: number), 0) }
    }

    /// DocMDP permission 2: filling in forms, instantiating page templates and signing are allowed after the seal.
    static let formFillingPermission = 2

    /// A new direct array of `items`.
    private static func array(_ items: [qpdf_oh], in file: QPDFFile) throws(PDFFormError) -> qpdf_oh {
        let array = qpdf.qpdf_oh_new_array(file.pdf)
        for item in items { qpdf.qpdf_oh_append_item(file.pdf, array, item) }
        try file.check("making an array")
        return array
    }
}

/// PDF object syntax for text and names the caller gives.
enum PDFSyntax {
    /// A text string (ISO 32000-2, 7.9.2.2): UTF-16BE with its byte order mark, written in hexadecimal, so that
    /// any text is safe in it.
    static func text(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = "<FEFF"
        for unit in value.utf16 {
            for shift in [12, 8, 4, 0] { out.append(hex[Int(unit >> UInt16(shift)) & 15]) }
        }
        return out + ">"
    }

    /// A name object (ISO 32000-2, 7.3.5): every byte outside `!`...`~` and the delimiters written as `#xx`.
    static func name(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = "/"
        for byte in value.utf8 {
            if byte > 32 && byte < 127 && !Array("#()<>[]{}/%".utf8).contains(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += "#" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
