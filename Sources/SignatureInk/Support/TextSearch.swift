// SPDX-License-Identifier: Apache-2.0

extension StringProtocol {
    /// The first range of the text equal to `needle`, as the standard library's `firstRange(of:)` finds it, compared
    /// byte for byte when both texts are ASCII without a carriage return: there every character is one byte, so the
    /// two searches agree. Any other text is searched by the standard library.
    ///
    /// The standard library's search compares characters, and took 36,000 to 57,000 instructions for each of the
    /// 25 short texts a consent looks into (a PDF object's dictionary, a page word, an address): 1.15 M of the
    /// 84 M of `signature-ink consent` (callgrind).
    package func firstTextRange(of needle: String) -> Range<Index>? {
        let start: Int?? = utf8.withContiguousStorageIfAvailable { text in
            var needle = needle
            return needle.withUTF8 { pin -> Int?? in
                guard let first = pin.first, pin.count <= text.count, Self.isPlainASCII(pin), Self.isPlainASCII(text)
                else { return nil }
                var i = 0
                let last = text.count - pin.count
                while i <= last {
                    if text[i] == first, memoryEqual(text, from: i, pin) { return .some(i) }
                    i += 1
                }
                return .some(nil)
            }
        } ?? nil
        guard let start else { return firstRange(of: needle) }
        guard let start else { return nil }
        let lower = utf8.index(startIndex, offsetBy: start)
        return lower..<utf8.index(lower, offsetBy: needle.utf8.count)
    }

    /// Whether the text has `needle` in it (see ``firstTextRange(of:)``).
    package func containsText(_ needle: String) -> Bool { firstTextRange(of: needle) != nil }

    private static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }
}

/// Whether `text` has the bytes of `pin` at `offset`; the caller keeps `offset + pin.count` within `text`.
private func memoryEqual(_ text: UnsafeBufferPointer<UInt8>, from offset: Int, _ pin: UnsafeBufferPointer<UInt8>) -> Bool {
    for k in 1..<pin.count where text[offset + k] != pin[k] { return false }
    return true
}
