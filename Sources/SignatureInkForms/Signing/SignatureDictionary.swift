// SPDX-License-Identifier: Apache-2.0

/// A signature dictionary written with room for its CMS, and signed once the file around it is whole.
///
/// The file is written with `/ByteRange` and `/Contents` as placeholders of fixed width; then the byte range is
/// filled in (padded with spaces to the same width), the bytes outside `/Contents` are digested and signed, and
/// the CMS goes into `/Contents` as hexadecimal, padded with zeros. Nothing moves, so every offset stays right.
struct SignatureDictionary {
    let signature: PDFDigitalSignature
    /// Bytes reserved for the CMS.
    let room: Int

    /// The placeholder: ten digits for each of the three numbers a file of up to 9,999,999,999 bytes needs.
    static let byteRangePlaceholder = Array("/ByteRange [0 0000000000 0000000000 0000000000]".utf8)

    /// A dictionary for `signature`, reserving room for the largest CMS its identity makes.
    init(_ signature: PDFDigitalSignature) {
        self.signature = signature
        room = signature.identity.cmsRoom
    }

    /// The dictionary's PDF text, `/Contents` last.
    /// - Parameter certification: the DocMDP permission (1: no change, 2: form filling and signing, 3: also
    ///   annotations) for a certification signature, or `nil` for an approval signature.
    func body(certification: Int? = nil) -> [UInt8] {
        var text = "<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M (\(signature.pdfDate))"
        if let certification {
            text += " /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P \(certification) /V /1.2 >> >>]"
        }
        return Array(text.utf8) + [32] + Self.byteRangePlaceholder + Array(" /Contents <".utf8)
            + [UInt8](repeating: UInt8(ascii: "0"), count: 2 * room) + Array("> >>".utf8)
    }

    /// Signs `file`, whose signature dictionary (written by ``body(certification:)``) starts at or after `start`:
    /// fills its byte range and its `/Contents`.
    func seal(_ file: [UInt8], searchingFrom start: Int) throws(PDFFormError) -> [UInt8] {
        guard let found = ByteSearch.offset(of: Self.byteRangePlaceholder, in: file, from: start) else {
            throw .qpdf("the signature dictionary was not written")
        }
        let placeholder = found..<(found + Self.byteRangePlaceholder.count)
        let open = placeholder.upperBound + " /Contents ".utf8.count
        let close = open + 2 * room + 2
        guard close <= file.count, file[open] == UInt8(ascii: "<"), file[close - 1] == UInt8(ascii: ">") else {
            throw .qpdf("the signature dictionary's /Contents is not where it was written")
        }
        var out = file
        var range = Array("/ByteRange [0 \(open) \(close) \(file.count - close)]".utf8)
        range += [UInt8](repeating: 32, count: Self.byteRangePlaceholder.count - range.count)
        out.replaceSubrange(placeholder, with: range)
        let cms = try CMSSignedData.sign([out[..<open], out[close...]], by: signature.identity)
        guard cms.count <= room else { throw .qpdf("the signature (\(cms.count) bytes) is larger than the \(room) bytes reserved") }
        let digits = Array("0123456789ABCDEF".utf8)
        var at = open + 1
        for byte in cms {
            out[at] = digits[Int(byte >> 4)]
            out[at + 1] = digits[Int(byte & 15)]
            at += 2
        }
        return out
    }
}
