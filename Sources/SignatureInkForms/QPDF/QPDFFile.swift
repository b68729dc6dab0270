// SPDX-License-Identifier: Apache-2.0
import CQPDF
import Glibc
import SignatureInk

/// One PDF opened by qpdf's C API, with typed access to its objects.
///
/// qpdf keeps reading from the buffer it was given, so the bytes are copied into memory this object owns. qpdf's
/// errors are silenced and checked after each call that can fail; the first one becomes a ``PDFFormError``.
/// Object handles stay valid until the file is released. Not thread-safe: one file, one task.
final class QPDFFile {
    let pdf: qpdf_data
    let name: String
    private let buffer: UnsafeMutableBufferPointer<CChar>

    /// Opens `bytes` without repairing them: a damaged file is refused rather than guessed at.
    init(bytes: [UInt8], name: String) throws(PDFFormError) {
        if case let .failure(error) = QPDFLibrary.loaded { throw error }
        guard let pdf = qpdf.qpdf_init() else { throw .qpdf("qpdf_init failed") }
        self.pdf = pdf
        self.name = name
        buffer = .allocate(capacity: Swift.max(bytes.count, 1))
        _ = buffer.initialize(from: bytes.lazy.map { CChar(bitPattern: $0) })
        qpdf.qpdf_silence_errors(pdf)
        qpdf.qpdf_set_suppress_warnings(pdf, QPDF_TRUE)
        qpdf.qpdf_set_attempt_recovery(pdf, QPDF_FALSE)
        let status = qpdf.qpdf_read_memory(pdf, name, buffer.baseAddress, UInt64(bytes.count), nil)
        if status & QPDF_ERRORS != 0 {
            let error = qpdf.qpdf_has_error(pdf) != 0 ? qpdf.qpdf_get_error(pdf) : nil
            if let error, qpdf.qpdf_get_error_code(pdf, error) == qpdf_e_password { throw .encrypted(file: name) }
            throw .unreadable(file: name, message: error.map { describe($0) } ?? "qpdf could not read it")
        }
        if qpdf.qpdf_is_encrypted(pdf) != 0 { throw .encrypted(file: name) }
    }

    deinit {
        var pdf: qpdf_data? = self.pdf
        qpdf.qpdf_cleanup(&pdf)
        buffer.deallocate()
    }

    /// qpdf's last error as text, or `nil` when there is none; the error is then cleared.
    func lastError() -> String? {
        guard qpdf.qpdf_has_error(pdf) != 0, let error = qpdf.qpdf_get_error(pdf) else { return nil }
        return describe(error)
    }

    /// An error's detail, with the object and the byte offset where qpdf found the problem when it names them:
    /// `a stream's /Length does not reach its endstream (object 8 0, at byte 1009)`.
    private func describe(_ error: qpdf_error) -> String {
        let said = qpdf.qpdf_get_error_message_detail(pdf, error).map { String(cString: $0) } ?? ""
        let detail = Self.inPDFTerms[said] ?? said
        var place: [String] = []
        // The object is only in the full text: "name (object 8 0, offset 899): detail".
        let full = qpdf.qpdf_get_error_full_text(pdf, error).map { String(cString: $0) } ?? ""
        if let start = full.dropFirst(name.count).firstTextRange(of: "(object ")?.upperBound,
           let end = full[start...].firstIndex(where: { $0 == "," || $0 == ")" }) {
            place.append("object " + full[start..<end])
        }
        let offset = qpdf.qpdf_get_error_file_position(pdf, error)
        if offset > 0 { place.append("at byte \(offset)") }
        return place.isEmpty ? detail : "\(detail) (\(place.joined(separator: ", ")))"
    }

    /// Throws ``PDFFormError/damaged(file:message:)`` when qpdf has warned since the last call: it read past
    /// something wrong in the file (a stream that does not decode, a page tree it had to mend), and what it made of
    /// it may not be what the file's author wrote. The first warning is named; the rest are counted.
    func checkWarnings() throws(PDFFormError) {
        var found: [String] = []
        while qpdf.qpdf_more_warnings(pdf) != 0, let warning = qpdf.qpdf_next_warning(pdf) { found.append(describe(warning)) }
        guard let first = found.first else { return }
        let more = found.count > 1 ? " (and \(found.count - 1) more problem\(found.count == 2 ? "" : "s"))" : ""
        throw .damaged(file: name, message: first + more)
    }

    /// qpdf's words for the damage real files most often carry, said as the PDF format would.
    static let inPDFTerms = [
        "expected n n obj": "the cross-reference table points where no object starts",
        "expected endstream": "a stream's /Length does not reach its endstream",
        "attempting to recover stream length": "a stream's /Length does not reach its endstream",
    ]

    /// Throws the pending qpdf error, if any.
    func check(_ what: @autoclosure () -> String) throws(PDFFormError) {
        if let message = lastError() { throw .qpdf("\(what()): \(message)") }
    }

    // MARK: Objects

    var root: qpdf_oh { qpdf.qpdf_get_root(pdf) }
    var trailer: qpdf_oh { qpdf.qpdf_get_trailer(pdf) }

    /// The value of `key` in a dictionary (or a stream's dictionary), or `nil` when absent or null.
    func get(_ object: qpdf_oh, _ key: String) -> qpdf_oh? {
        guard qpdf.qpdf_oh_is_dictionary(pdf, object) != 0 || qpdf.qpdf_oh_is_stream(pdf, object) != 0,
              qpdf.qpdf_oh_has_key(pdf, object, key) != 0 else { return nil }
        let value = qpdf.qpdf_oh_get_key(pdf, object, key)
        return qpdf.qpdf_oh_is_null(pdf, value) != 0 ? nil : value
    }

    func isDictionary(_ object: qpdf_oh) -> Bool { qpdf.qpdf_oh_is_dictionary(pdf, object) != 0 }
    func isArray(_ object: qpdf_oh) -> Bool { qpdf.qpdf_oh_is_array(pdf, object) != 0 }
    func isStream(_ object: qpdf_oh) -> Bool { qpdf.qpdf_oh_is_stream(pdf, object) != 0 }

    /// A name's text with its slash (`/Sig`), or `nil` for anything else.
    func name(_ object: qpdf_oh?) -> String? {
        guard let object, qpdf.qpdf_oh_is_name(pdf, object) != 0 else { return nil }
        return qpdf.qpdf_oh_get_name(pdf, object).map { String(cString: $0) }
    }

    /// A text string as UTF-8 (PDFDocEncoding and UTF-16 both decoded), or `nil` for anything else.
    func text(_ object: qpdf_oh?) -> String? {
        guard let object, qpdf.qpdf_oh_is_string(pdf, object) != 0 else { return nil }
        return qpdf.qpdf_oh_get_utf8_value(pdf, object).map { String(cString: $0) }
    }

    /// A number that is a whole number of at most 2^53 in size, as an `Int`; `nil` for anything else (a damaged
    /// file's `1e300` must not trap a conversion).
    func integer(_ object: qpdf_oh?) -> Int? {
        guard let value = number(object), value.isFinite, abs(value) <= 9_007_199_254_740_992 else { return nil }
        return Int(exactly: value.rounded(.towardZero))
    }

    func number(_ object: qpdf_oh?) -> Double? {
        guard let object, qpdf.qpdf_oh_is_number(pdf, object) != 0 else { return nil }
        return qpdf.qpdf_oh_get_numeric_value(pdf, object)
    }

    func items(_ object: qpdf_oh?) -> [qpdf_oh] {
        guard let object, isArray(object) else { return [] }
        return (0..<qpdf.qpdf_oh_get_array_n_items(pdf, object)).map { qpdf.qpdf_oh_get_array_item(pdf, object, $0) }
    }

    /// A rectangle array as (left, bottom, right, top), normalised, or `nil` unless it is four finite numbers.
    func rectangle(_ object: qpdf_oh?) -> (Double, Double, Double, Double)? {
        let values = items(object).compactMap { number($0) }
        guard values.count == 4, values.allSatisfy(\.isFinite) else { return nil }
        return (Swift.min(values[0], values[2]), Swift.min(values[1], values[3]),
                Swift.max(values[0], values[2]), Swift.max(values[1], values[3]))
    }

    /// The object number and generation of an indirect object, or `nil` for a direct one.
    func identity(_ object: qpdf_oh) -> (number: Int, generation: Int)? {
        guard qpdf.qpdf_oh_is_indirect(pdf, object) != 0 else { return nil }
        return (Int(qpdf.qpdf_oh_get_object_id(pdf, object)), Int(qpdf.qpdf_oh_get_generation(pdf, object)))
    }

    /// The keys of a dictionary.
    func keys(_ object: qpdf_oh) -> [String] {
        guard isDictionary(object) else { return [] }
        var keys: [String] = []
        qpdf.qpdf_oh_begin_dict_key_iter(pdf, object)
        while qpdf.qpdf_oh_dict_more_keys(pdf) != 0 {
            if let key = qpdf.qpdf_oh_dict_next_key(pdf) { keys.append(String(cString: key)) }
        }
        return keys
    }

    /// Parses PDF object syntax (`<< /Type /XObject >>`, `[0 0 10 10]`) into a new direct object.
    func parse(_ syntax: String) throws(PDFFormError) -> qpdf_oh {
        let object = qpdf.qpdf_oh_parse(pdf, syntax)
        try check("parsing \(syntax)")
        return object
    }

    func set(_ object: qpdf_oh, _ key: String, _ value: qpdf_oh) throws(PDFFormError) {
        qpdf.qpdf_oh_replace_key(pdf, object, key, value)
        try check("setting \(key)")
    }

    /// The page objects, in order.
    func pages() throws(PDFFormError) -> [qpdf_oh] {
        let count = qpdf.qpdf_get_num_pages(pdf)
        try check("reading the page tree")
        guard count >= 0 else { throw .qpdf("the page tree cannot be read") }
        return (0..<Int(count)).map { qpdf.qpdf_get_page_n(pdf, $0) }
    }

    /// A page attribute that may be inherited from the page tree (`/Rotate`, `/CropBox`, `/MediaBox`, `/Resources`).
    func inherited(_ page: qpdf_oh, _ key: String) -> qpdf_oh? {
        var node = page
        for _ in 0..<64 {
            if let value = get(node, key) { return value }
            guard let parent = get(node, "/Parent") else { return nil }
            node = parent
        }
        return nil
    }

    /// A stream's data as stored (`decoded: false`) or with its filters undone.
    func streamData(_ stream: qpdf_oh, decoded: Bool) throws(PDFFormError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        var filtered: QPDF_BOOL = 0
        let status = qpdf.qpdf_oh_get_stream_data(pdf, stream, decoded ? qpdf_dl_generalized : qpdf_dl_none, &filtered, &buffer, &length)
        defer { free(buffer) }
        guard status & QPDF_ERRORS == 0, let buffer else { throw .qpdf(lastError() ?? "cannot read a stream") }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    /// A new stream holding `data` as it is (no filter), with the given dictionary entries.
    func newStream(_ data: [UInt8], dictionary: [(String, qpdf_oh)]) throws(PDFFormError) -> qpdf_oh {
        let stream = qpdf.qpdf_oh_new_stream(pdf)
        data.withUnsafeBufferPointer { qpdf.qpdf_oh_replace_stream_data(pdf, stream, $0.baseAddress, $0.count, qpdf.qpdf_oh_new_null(pdf), qpdf.qpdf_oh_new_null(pdf)) }
        try check("making a stream")
        let dict = qpdf.qpdf_oh_get_dict(pdf, stream)
        for (key, value) in dictionary { try set(dict, key, value) }
        return stream
    }

    /// The object syntax of `object` itself (an indirect object's content, not a reference to it); objects it
    /// refers to stay references.
    func unparseResolved(_ object: qpdf_oh) -> [UInt8] {
        guard let text = qpdf.qpdf_oh_unparse_resolved(pdf, object) else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: qpdf.qpdf_get_last_string_length(pdf)))
    }

    /// The object syntax of `object` as it would be referred to: `12 0 R` for an indirect object.
    func unparse(_ object: qpdf_oh) -> String { qpdf.qpdf_oh_unparse(pdf, object).map { String(cString: $0) } ?? "" }

    /// Writes the whole file anew: object streams as they were, a deterministic /ID, and every stream's data copied
    /// as it is stored, never decoded and encoded again (so a stream that does not decode, such as a content stream
    /// cut short, reaches the new file byte for byte rather than as the part qpdf could read); streams stored without
    /// a filter are compressed. A warning while writing refuses the file (``checkWarnings()``).
    func write() throws(PDFFormError) -> [UInt8] {
        try checkWarnings()
        guard qpdf.qpdf_init_write_memory(pdf) & QPDF_ERRORS == 0 else { throw .qpdf(lastError() ?? "cannot start writing") }
        qpdf.qpdf_set_object_stream_mode(pdf, qpdf_o_preserve)
        qpdf.qpdf_set_decode_level(pdf, qpdf_dl_none)
        qpdf.qpdf_set_compress_streams(pdf, QPDF_TRUE)
        qpdf.qpdf_set_deterministic_ID(pdf, QPDF_TRUE)
        guard qpdf.qpdf_write(pdf) & QPDF_ERRORS == 0 else { throw .qpdf(lastError() ?? "writing failed") }
        try checkWarnings()
        guard let data = qpdf.qpdf_get_buffer(pdf) else { throw .qpdf("qpdf wrote nothing") }
        return Array(UnsafeBufferPointer(start: data, count: qpdf.qpdf_get_buffer_length(pdf)))
    }
}
