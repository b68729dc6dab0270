// SPDX-License-Identifier: Apache-2.0
import CQPDF
import SignatureInkRender

extension FilledField {
    /// AcroForm `/SigFlags`: SignaturesExist (1) and AppendOnly (2), which tell a viewer to save changes to the file
    /// as incremental updates so that the signature stays valid.
    static let signatureFlags = 3

    /// Makes `dictionary` the field's value (`/V`), as a new object whose bytes the caller writes, and sets the
    /// AcroForm's `/SigFlags` when it does not have them yet.
    /// - Returns: the new object (its number and its bytes with room for the signature) and the existing objects
    ///   changed besides the field and its widget: the AcroForm's holder, when its flags changed.
    func attach(_ dictionary: SignatureDictionary, in file: QPDFFile) throws(PDFFormError)
        -> (object: PDFIncrementalUpdate.Object, changed: [qpdf_oh]) {
        let value = qpdf.qpdf_make_indirect_object(file.pdf, try file.parse("<< >>"))
        try file.check("making the signature dictionary")
        guard let id = file.identity(value) else { throw .qpdf("the signature dictionary has no object number") }
        try file.set(field, "/V", value)
        var changed: [qpdf_oh] = []
        if let form = file.get(file.root, "/AcroForm") {
            let flags = file.integer(file.get(form, "/SigFlags")) ?? 0
            if flags & Self.signatureFlags != Self.signatureFlags {
                try file.set(form, "/SigFlags", qpdf.qpdf_oh_new_integer(file.pdf, Int64(flags | Self.signatureFlags)))
                changed.append(file.identity(form) == nil ? file.root : form)
            }
        }
        return (PDFIncrementalUpdate.Object(number: id.number, generation: id.generation, body: dictionary.body()), changed)
    }
}
