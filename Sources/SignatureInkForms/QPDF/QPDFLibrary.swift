// SPDX-License-Identifier: Apache-2.0
import CQPDF
import SignatureInkRender

/// qpdf's functions, set up on first use.
///
/// qpdf brings the C++ runtime and GnuTLS, whose constructors read the system's crypto configuration: linked as a
/// shared library, it made every process about 3 ms slower to start (measured whole-process: a C program drawing one
/// line with Cairo and Pango, 3.4 ms; the same linked with qpdf too, 6.7 ms), although only signing a form uses it.
/// The first ``QPDFFile`` sets it up instead, once: the release build of `signature-ink` has qpdf's archive linked in
/// with its initializers deferred until then (Scripts/qpdf-static.c, ``QPDFDigest``); other builds open the shared
/// library. The functions' types come from qpdf's header (`CQPDF/shim.h`).
enum QPDFLibrary {
    /// The function table, or why qpdf could not be opened.
    static let loaded: Result<CFunctionTable<SIQPDF>, PDFFormError> = CFunctionTable.load(si_qpdf_load).mapError {
        .qpdf("the library could not be loaded (\($0.message)); Debian's libqpdf29 has it")
    }
}

/// qpdf's functions, for code that holds a ``QPDFFile`` (whose initializer opens them first).
var qpdf: SIQPDF {
    QPDFLibrary.loaded.openedFunctions(orStop: "qpdf is used before QPDFFile opened it")
}
