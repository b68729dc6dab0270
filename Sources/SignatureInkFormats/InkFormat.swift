// SPDX-License-Identifier: Apache-2.0
public import FoundationEssentials

/// A stroke file format this package reads, and for some, writes.
///
/// The raw value is the name a user types, such as `signature-pad` for `--input-format`.
public enum InkFormat: String, CaseIterable, Sendable, Hashable {
    /// The native `signature-ink` JSON format, version 1 (see ``NativeDecoder``). Read and written.
    case native
    /// W3C Ink Markup Language (InkML) XML. Read and written.
    case inkml
    /// The JSON that signature_pad's `toData()` returns: point groups with pen settings. Read and written.
    case signaturePad = "signature-pad"
    /// SVC2004 signature verification competition text: a point count, then one sample per line. Read only.
    case svc2004
    /// Wacom Universal Ink Model 3.0 JSON export (delta-coded sensor channels). Read only.
    case uim
    /// A JSON list of strokes, each a list of `{x, y, time[, pressure]}` objects. Read and written.
    case strokeList = "stroke-list"

    /// Whether ``InkEncoder`` can write this format.
    public var canEncode: Bool {
        switch self {
        case .native, .inkml, .signaturePad, .strokeList: return true
        case .svc2004, .uim: return false
        }
    }

    /// A short human-readable name, such as "signature_pad JSON".
    public var displayName: String {
        switch self {
        case .native: return "signature-ink JSON"
        case .inkml: return "InkML"
        case .signaturePad: return "signature_pad JSON"
        case .svc2004: return "SVC2004 text"
        case .uim: return "Universal Ink Model 3.0 JSON"
        case .strokeList: return "JSON stroke list"
        }
    }

    /// Guesses the format from the first bytes of the content, or returns `nil` when nothing fits.
    ///
    /// The guess looks only at the shape of the content: a UTF-8 byte-order mark and leading white space
    /// are skipped; `<` means InkML (when an `ink` element appears), `{` means the native format (when it
    /// names `"signature-ink"`) or UIM (when it has `"inputData"` or `"sensorData"`), `[` then `{` means
    /// signature_pad, `[` then `[` a stroke list, and a line holding one integer followed by a line of 4 or
    /// 7 numbers means SVC2004. A match says nothing about whether decoding will succeed.
    /// - Parameter data: the file's bytes; only the first 64 KiB are examined.
    /// - Returns: the format, or `nil` when the content matches none.
    public static func detect(_ data: Data) -> InkFormat? {
        let head = [UInt8](data.prefix(detectionWindow))
        var i = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func skipSpace() { while i < head.count, isJSONSpace(head[i]) { i += 1 } }
        skipSpace()
        guard i < head.count else { return nil }
        switch head[i] {
        case UInt8(ascii: "<"):
            let text = head[i...]
            return contains(text, "<ink") || contains(text, ":ink") ? .inkml : nil
        case UInt8(ascii: "{"):
            let text = head[i...]
            if contains(text, "\"signature-ink\"") { return .native }
            if contains(text, "\"inputData\"") || contains(text, "\"sensorData\"") { return .uim }
            return nil
        case UInt8(ascii: "["):
            i += 1
            skipSpace()
            guard i < head.count else { return nil }
            switch head[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "]"): return .signaturePad
            case UInt8(ascii: "["): return .strokeList
            default: return nil
            }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return looksLikeSVC2004(head[i...]) ? .svc2004 : nil
        default:
            return nil
        }
    }

    /// Whether `bytes` hold the ASCII text `needle`. (Bytes rather than a decoded `String`: string search made the
    /// first detection in a new process build a searcher's generic tables, a tenth of a millisecond.)
    private static func contains(_ bytes: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var start = bytes.startIndex
        let last = bytes.endIndex - pattern.count
        while start <= last {
            guard let hit = bytes[start...last].firstIndex(of: first) else { return false }
            if bytes[hit..<hit + pattern.count].elementsEqual(pattern) { return true }
            start = hit + 1
        }
        return false
    }

    /// How many leading bytes ``detect(_:)`` examines: enough for any header, small enough to be instant.
    static let detectionWindow = 64 << 10

    /// A message for content that matches no format, with a hint when it is a known format this build
    /// does not read.
    static func unknownMessage(_ data: Data) -> String {
        let names = allCases.map(\.rawValue).joined(separator: ", ")
        if data.starts(with: Array("RIFF".utf8)) {
            return "this looks like a binary Universal Ink Model (RIFF) file, which is not read; "
                + "export it as UIM 3.0 JSON, or name one of: \(names)"
        }
        if data.isEmpty { return "the input is empty; expected one of: \(names)" }
        return "the content matches no known stroke format; name one of: \(names)"
    }

    private static func isJSONSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// A first line of one integer, then a line of 4 or 7 numbers.
    private static func looksLikeSVC2004(_ bytes: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        guard lines.count >= 2 else { return lines.count == 1 && Int(trimmed(lines[0])) == 0 }
        guard Int(trimmed(lines[0])) != nil else { return false }
        let fields = lines[1].split { $0 == " " || $0 == "\t" }
        return (fields.count == 4 || fields.count == 7) && fields.allSatisfy { Double($0) != nil }
    }

    /// `line` without the spaces and tabs at either end.
    private static func trimmed(_ line: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = line.firstIndex(where: { !blank($0) }), let last = line.lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return line[first...last]
    }
}
