// SPDX-License-Identifier: Apache-2.0
// Signs the ten-page form Tests/Fixtures/forms/ten-pages.pdf (its field on page 10) with a real signature, as
// `signature-ink sign` does: reads the form with qpdf, draws the ink into a one-page PDF, copies it in as the field's
// appearance and writes the whole file.
//
// Usage: form-timing OUT.pdf            one signed form, for timing a new process from outside
//        form-timing --rounds N        N forms in one process; prints the median per form
// Benchmarks/forms/compare.py times both beside pikepdf and qpdf overlaying a one-page PDF on the same form.
import Foundation
import SignatureInk
import SignatureInkFormats
import SignatureInkForms
import SignatureSet

let repository = SignatureSet.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let formBytes = Array(try Data(contentsOf: repository.appendingPathComponent("Tests/Fixtures/forms/ten-pages.pdf")))
let inkData = try Data(contentsOf: SignatureSet.folder.appendingPathComponent("uim-hello-world-000.json"))

func sign() throws -> [UInt8] {
    let ink = try InkDecoder().decode(inkData).signature
    return try PDFForm(bytes: formBytes, name: "ten-pages.pdf").sign(.field("CustomerSignature"), ink: ink, name: "Ada Lovelace",
                                                                     date: "2026-11-25")
}

try WholeRuns.main("form-timing", make: sign)
