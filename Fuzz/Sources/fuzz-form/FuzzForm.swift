// SPDX-License-Identifier: Apache-2.0
import SignatureInk
import SignatureInkForms

/// A signature to sign with: two strokes.
let ink = Signature(strokes: [[InkSample(x: 0, y: 10, t: 0), InkSample(x: 40, y: 0, t: 20), InkSample(x: 80, y: 12, t: 40)],
                              [InkSample(x: 10, y: 20, t: 80), InkSample(x: 70, y: 22, t: 100)]])

/// libFuzzer entry point: reads the input as a PDF form (qpdf, no repair), walks its field tree, and signs its first
/// empty signature field both ways. Any failure must be a thrown `PDFFormError`, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count <= 1 << 20 else { return 0 }
    let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    guard let form = try? PDFForm(bytes: input, name: "fuzz.pdf") else { return 0 }
    if let field = form.emptySignatureFields.first {
        _ = try? form.sign(.field(field.name), ink: ink)
        _ = try? form.sign(.field(field.name), ink: ink, options: FormSigningOptions(incremental: true))
    }
    return 0
}
