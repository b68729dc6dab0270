// SPDX-License-Identifier: Apache-2.0
import CQPDF
public import SignatureInk
public import SignatureInkRender
import Synchronization

/// A field of a PDF form's AcroForm, as ``PDFForm/fields`` lists it.
public struct PDFFormField: Sendable, Hashable {
    /// The fully qualified name: the partial names of the field and its ancestors joined by dots
    /// (`signatures.customer`).
    public var name: String
    /// The field type, inherited from ancestors where the field has none: `/Sig`, `/Tx`, `/Btn`, `/Ch`, or `nil`.
    public var type: String?
    /// The page of its first widget, from 1, or `nil` when no page shows it.
    public var page: Int?
    /// Its first widget's rectangle in PDF points on that page (default user space: origin at the bottom left of
    /// the media box, y up), or `nil` without a widget.
    public var rect: Rect?
    /// Whether the field has a value. A signature field with a value carries a digital signature.
    public var hasValue: Bool
    /// Whether the field is read-only (its `/Ff` bit 1, inherited): a field signed with ink by this engine is.
    public var isReadOnly: Bool

    /// Whether it is a signature field.
    public var isSignature: Bool { type == "/Sig" }
}

/// An existing PDF form, read with qpdf: its fields, and signing a field (or any rectangle) with vector ink.
///
/// ```swift
/// let form = try PDFForm(bytes: bytes, name: "delivery-note.pdf")
/// let signed = try form.sign(.field("Signature1"), ink: signature, name: "Ada Lovelace", date: "2026-11-25")
/// ```
///
/// The ink is drawn by the engine's renderer into a one-page PDF of the field's size (vector paths, the name and
/// date as embedded subset fonts) whose page becomes a form XObject: the field's appearance, or page content when
/// flattened. Everything else in the file stays as it was. Each ``sign(_:ink:name:date:options:)`` works on a copy of
/// its own (the first on the one the form was read into, each later one on the bytes read again), so one form can be
/// signed many times.
public final class PDFForm: Sendable {
    /// The file's bytes as read.
    public let bytes: [UInt8]
    /// The name errors refer to the file by.
    public let fileName: String
    /// Every field with a widget or a value, in the order of the AcroForm's field tree.
    public let fields: [PDFFormField]
    /// The number of pages.
    public let pageCount: Int

    /// The file as ``init(bytes:name:)`` read it, for the first ``sign(_:ink:name:date:options:)`` to take rather than
    /// read the bytes again (2.0 M of the 15.2 M instructions of signing a ten-page form in a new process).
    private let firstRead: FirstRead

    /// Most fields read from one form, and the deepest field tree: past these the form is refused.
    public static let maxFields = 10_000
    static let maxDepth = 32

    /// Reads a form.
    /// - Parameters:
    ///   - bytes: the PDF file.
    ///   - name: how errors name the file; default `form.pdf`.
    /// - Throws: ``PDFFormError/unreadable(file:message:)`` for a file that is not a PDF or whose structure is
    ///   damaged (it is not repaired), ``PDFFormError/damaged(file:message:)`` for one qpdf reads only by mending
    ///   something, ``PDFFormError/encrypted(file:)``, or ``PDFFormError/qpdf(_:)``.
    public init(bytes: [UInt8], name: String = "form.pdf") throws(PDFFormError) {
        self.bytes = bytes
        fileName = name
        let file = try QPDFFile(bytes: bytes, name: name)
        let pages = try file.pages()
        pageCount = pages.count
        fields = try FieldTree(file: file, pages: pages).fields.map(\.info)
        try file.checkWarnings()
        firstRead = FirstRead(file: file, pages: pages)
    }

    /// A rectangle as `left,bottom,width,height` in PDF points, each rounded to a hundredth and written without
    /// trailing zeros (`72,500,216,72`, `10.5,20.25,100,50`): the one way the engine writes a rectangle, as
    /// `signature-ink sign --rect` reads it.
    public static func describe(_ rect: Rect) -> String {
        [rect.minX, rect.minY, rect.width, rect.height].map { PageContent.format($0, decimals: 2) }.joined(separator: ",")
    }

    /// The signature fields.
    public var signatureFields: [PDFFormField] { fields.filter(\.isSignature) }

    /// Signature fields without a value that are not read-only: those still to sign.
    public var emptySignatureFields: [PDFFormField] { signatureFields.filter { !$0.hasValue && !$0.isReadOnly } }

    /// Signature fields that carry a digital signature.
    public var digitallySignedFields: [PDFFormField] { signatureFields.filter(\.hasValue) }

    /// Signs the form and returns the new file.
    /// - Parameters:
    ///   - placement: an empty signature field, or a rectangle on a page.
    ///   - ink: the signature, drawn in its own pens' colours and widths.
    ///   - name: the printed name under the ink, or `nil`.
    ///   - date: the date text under the ink on the right, or `nil`.
    ///   - options: flatten, incremental update, a digital signature, and the renderer's options.
    /// - Returns: the signed PDF.
    /// - Throws: ``PDFFormError`` naming what is wrong: an unknown or unusable field, a page or rectangle off the
    ///   form, a digitally signed form without `incremental`, a digital signature without a field or with
    ///   `flatten`, a key that cannot sign, or a qpdf failure.
    public func sign(_ placement: SignaturePlacement, ink: Signature, name: String? = nil, date: String? = nil,
                     options: FormSigningOptions = FormSigningOptions()) throws(PDFFormError) -> [UInt8] {
        guard !ink.isEmpty else { throw .invalidOption("the signature has no ink") }
        let digital = try options.digitalSignature.map { signature throws(PDFFormError) in
            guard case .field = placement, !options.flatten else {
                throw PDFFormError.invalidOption("a digital signature goes into a signature field: give --field, without --flatten")
            }
            return SignatureDictionary(signature)
        }
        let incremental = options.incremental || digital != nil
        let signed = digitallySignedFields
        if !signed.isEmpty && !incremental { throw .digitallySigned(fields: signed.map(\.name)) }
        let file: QPDFFile, pages: [qpdf_oh]
        if let read = firstRead.take() {
            (file, pages) = read
        } else {
            file = try QPDFFile(bytes: bytes, name: fileName)
            pages = try file.pages()
        }
        let target = try FormTarget(placement, form: self, file: file, pages: pages)
        try file.checkWarnings()
        if incremental && (options.flatten || target.field == nil) {
            throw .invalidOption("an incremental update fills a signature field's appearance; give --field, without --flatten")
        }
        let appearance = try InkAppearance.make(ink: ink, name: name, date: date, size: target.uprightSize,
                                                 options: options.render, into: file)
        // qpdf reads the copied fonts from the appearance's file until the form is written.
        return try withExtendedLifetime(appearance) { () throws(PDFFormError) -> [UInt8] in
            if let field = target.field, !options.flatten {
                // A widget turns with its page: the appearance's /Matrix turns the ink back, and readers fit the
                // turned box into /Rect.
                let xobject = try appearance.xobject(rotation: target.rotation)
                try field.fill(with: xobject, in: file)
                var changed = field.changedObjects + (try NeedAppearances.settle(in: file, pages: pages))
                var written: [PDFIncrementalUpdate.Object] = []
                if let digital {
                    let attached = try field.attach(digital, in: file)
                    changed += attached.changed
                    written.append(attached.object)
                }
                if incremental {
                    let update = try IncrementalUpdate.append(changed: changed, new: appearance.newObjects(from: xobject),
                                                              written: written, of: file, original: bytes)
                    try file.checkWarnings()
                    return try digital?.seal(update, searchingFrom: bytes.count) ?? update
                }
            } else {
                // In page content the placing matrix turns the ink once; the XObject itself stays upright.
                let xobject = try appearance.xobject(rotation: 0)
                try PageContent.draw(xobject, into: target.rect, rotation: target.rotation, on: target.page, of: file)
                if let field = target.field { try field.remove(from: target.page, of: file) }
            }
            return try file.write()
        }
    }
}

/// The file a ``PDFForm`` was read from, handed to one signing: the first to ask takes it (a signing changes the
/// file), and every later one reads the bytes anew.
///
/// `@unchecked Sendable`: the file is written once, before the form is shared, and read and cleared after that only by
/// the one caller that won `taken`.
private final class FirstRead: @unchecked Sendable {
    private let taken = Atomic<Bool>(false)
    private nonisolated(unsafe) var read: (file: QPDFFile, pages: [qpdf_oh])?

    init(file: QPDFFile, pages: [qpdf_oh]) { read = (file, pages) }

    /// The file and its pages, to the first caller; `nil` to every other.
    func take() -> (file: QPDFFile, pages: [qpdf_oh])? {
        guard !taken.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        defer { read = nil }
        return read
    }
}

/// Where the ink goes.
public enum SignaturePlacement: Sendable, Hashable {
    /// An empty signature field, by its fully qualified name.
    case field(String)
    /// A rectangle on a page (from 1), in PDF points in the page's default user space (origin at the bottom left
    /// of the media box, y up, before the page's rotation), inside the page's crop box.
    case rect(page: Int, Rect)
}

/// How a form is signed.
public struct FormSigningOptions: Sendable {
    /// Draw the ink into the page's content and remove the field, rather than filling the field's appearance;
    /// default `false`.
    public var flatten: Bool
    /// Append the change as an incremental update, leaving every byte of the original file as it was (required
    /// for a digitally signed form); default `false`. Only a field's appearance can be filled this way.
    public var incremental: Bool
    /// The renderer's options: pen, opacity (view mode), padding; default a padding of 2 points.
    public var render: RenderOptions
    /// A digital signature to put into the signature field with the ink as its appearance, or `nil` (the default)
    /// for ink alone. It needs a field and no `flatten`, and is always appended as an incremental update, so that a
    /// second signer on another field keeps the first signature valid.
    public var digitalSignature: PDFDigitalSignature?

    /// Creates options.
    /// - Parameters:
    ///   - flatten: draw into the page and remove the field; default `false`.
    ///   - incremental: append an incremental update; default `false`.
    ///   - render: the renderer's options; default a padding of 2 points.
    ///   - digitalSignature: a digital signature for the field; default `nil`.
    public init(flatten: Bool = false, incremental: Bool = false, render: RenderOptions = RenderOptions(padding: 2),
                digitalSignature: PDFDigitalSignature? = nil) {
        self.flatten = flatten
        self.incremental = incremental
        self.render = render
        self.digitalSignature = digitalSignature
    }
}
