// SPDX-License-Identifier: Apache-2.0
import CQPDF

/// qpdf's functions, opened on first use rather than linked.
///
/// qpdf brings the C++ runtime and GnuTLS, whose constructors read the system's crypto configuration: linked, it
/// made every process about 3 ms slower to start (measured whole-process: a C program drawing one line with Cairo
/// and Pango, 3.4 ms; the same linked with qpdf too, 6.7 ms), although only signing a form uses it. The first
/// ``QPDFFile`` opens it instead, once. The functions' types come from qpdf's header (`CQPDF/shim.h`).
enum QPDFLibrary {
    /// The function table, or why qpdf could not be opened.
    static let loaded: Result<Table, PDFFormError> = {
        let table = UnsafeMutablePointer<SIQPDF>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let failure = si_qpdf_load(table) {
            return .failure(.qpdf("the library could not be loaded (\(String(cString: failure))); Debian's libqpdf29 "
                                  + "has it"))
        }
        return .success(Table(functions: table.pointee))
    }()

    /// The table, which holds plain C function addresses and never changes once filled.
    struct Table: @unchecked Sendable {
        let functions: SIQPDF
    }
}

/// qpdf's functions, for code that holds a ``QPDFFile`` (whose initializer opens them first).
var qpdf: SIQPDF {
    guard case let .success(table) = QPDFLibrary.loaded else {
        preconditionFailure("qpdf is used before QPDFFile opened it")
    }
    return table.functions
}
