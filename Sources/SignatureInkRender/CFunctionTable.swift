// SPDX-License-Identifier: Apache-2.0

/// The functions of a C library that is opened on first use rather than linked (Pango here, qpdf in the forms
/// target): a C struct of function pointers that a loader in the library's shim header fills with `dlopen` and
/// `dlsym` (see `CPango/shim.h`).
package struct CFunctionTable<Functions>: @unchecked Sendable {
    /// The functions: plain C addresses that never change once filled.
    package let functions: Functions

    /// Why a library could not be opened: the loader's message, or the name of a function it lacks.
    package struct LoadFailure: Error {
        package let message: String
    }

    /// Fills a table with `load`, which returns `nil` when every function was found, else what went wrong.
    package static func load(_ load: (UnsafeMutablePointer<Functions>) -> UnsafePointer<CChar>?)
        -> Result<Self, LoadFailure> {
        let table = UnsafeMutablePointer<Functions>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let failure = load(table) { return .failure(LoadFailure(message: String(cString: failure))) }
        return .success(Self(functions: table.pointee))
    }
}

extension Result {
    /// The functions of a table that was opened, for code that runs only after checking that it was; a stop with
    /// `message` otherwise.
    package func openedFunctions<Functions>(orStop message: @autoclosure () -> String) -> Functions
    where Success == CFunctionTable<Functions> {
        guard case let .success(table) = self else { preconditionFailure(message()) }
        return table.functions
    }
}
