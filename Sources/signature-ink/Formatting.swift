// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// `printf`-style formatting of numbers through C's `vsnprintf`, as in `formatted("%.2f", seconds)`.
///
/// The tool imports FoundationEssentials only (Foundation's `String(format:)` would link its internationalisation
/// layer and ICU, which made every new process slower to start); the numbers it prints need nothing more than C's
/// formatting, which uses the C locale here as Foundation's did.
func formatted(_ format: String, _ arguments: any CVarArg...) -> String {
    var capacity = 64
    while true {
        var buffer = [CChar](repeating: 0, count: capacity)
        let length = withVaList(arguments) { vsnprintf(&buffer, capacity, format, $0) }
        guard length >= 0 else { return "" }
        if Int(length) < capacity {
            return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        capacity = Int(length) + 1
    }
}
