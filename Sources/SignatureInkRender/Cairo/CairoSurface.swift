// SPDX-License-Identifier: Apache-2.0
import CCairo

/// Owns one Cairo surface: checks its status on creation and destroys it on release.
final class CairoSurface {
    let pointer: OpaquePointer

    /// Pixel layouts of image surfaces.
    enum Format {
        /// 32-bit premultiplied ARGB in native byte order.
        case argb32
        /// 8-bit alpha (coverage) only.
        case a8

        var cairo: cairo_format_t { self == .argb32 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_A8 }
    }

    /// Takes ownership of a surface returned by Cairo, failing with its status if it is in error.
    private init(taking pointer: OpaquePointer?) throws(RenderError) {
        guard let pointer else { throw .cairo("no surface") }
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(pointer)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        self.pointer = pointer
    }

    /// An image surface of `width` x `height` pixels, cleared to transparent.
    convenience init(image format: Format, width: Int, height: Int) throws(RenderError) {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw .invalidOption(option: "size", message: "image size \(width)x\(height) is outside 1...32767")
        }
        try self.init(taking: cairo_image_surface_create(format.cairo, Int32(width), Int32(height)))
    }

    /// An unbounded recording surface of coverage only, for building paths: nothing drawn or traced on it is
    /// clipped to a size.
    convenience init(unboundedRecording: ()) throws(RenderError) {
        try self.init(taking: cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil))
    }

    /// A PDF surface whose first page is `width` x `height` points, streaming its bytes to `sink`.
    ///
    /// The surface itself keeps `sink` alive (as Cairo user data released when the surface is destroyed), since
    /// Cairo writes the end of the document when its last reference goes, which may be a context's.
    convenience init(pdfTo sink: PDFSink, width: Double, height: Double) throws(RenderError) {
        let retained = Unmanaged.passRetained(sink)
        guard let pointer = cairo_pdf_surface_create_for_stream(
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let sink = Unmanaged<PDFSink>.fromOpaque(closure).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, retained.toOpaque(), width, height)
        else {
            retained.release()
            throw .cairo("cairo_pdf_surface_create_for_stream failed")
        }
        let status = cairo_surface_status(pointer) == CAIRO_STATUS_SUCCESS
            ? cairo_surface_set_user_data(pointer, CairoSurface.sinkKey, retained.toOpaque()) { data in
                if let data { Unmanaged<PDFSink>.fromOpaque(data).release() }
            }
            : cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(pointer)
            retained.release()
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        try self.init(taking: pointer)
    }

    /// The user data key under which a PDF surface holds its sink; only its address matters.
    nonisolated(unsafe) static let sinkKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

    deinit { cairo_surface_destroy(pointer) }

    var width: Int { Int(cairo_image_surface_get_width(pointer)) }
    var height: Int { Int(cairo_image_surface_get_height(pointer)) }
    var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }

    /// Sets PDF document metadata, such as the creation date, to fixed values.
    func setPDFMetadata(_ key: PDFMetadataKey, _ value: String) {
        cairo_pdf_surface_set_metadata(pointer, key.cairo, value)
    }

    /// Sets the size of the next PDF page in points; call before drawing on it.
    func setPDFPageSize(width: Double, height: Double) {
        cairo_pdf_surface_set_size(pointer, width, height)
    }

    /// Adds a PDF outline (bookmark) entry pointing at a place on a page and returns its id.
    /// - Parameters:
    ///   - parent: the id of the parent entry, or `nil` for a top-level entry.
    ///   - title: the entry's text.
    ///   - page: the page, from 1.
    ///   - y: the place on the page, in points from its top.
    func addPDFOutline(parent: Int32?, title: String, page: Int, y: Double) -> Int32 {
        cairo_pdf_surface_add_outline(pointer, parent ?? Int32(CAIRO_PDF_OUTLINE_ROOT), title, "page=\(page) pos=[0 \(y)]",
                                      CAIRO_PDF_OUTLINE_FLAG_OPEN)
    }

    /// PDF metadata entries.
    enum PDFMetadataKey {
        case title, subject, author, creator, createDate, modDate
        var cairo: cairo_pdf_metadata_t {
            switch self {
            case .title: CAIRO_PDF_METADATA_TITLE
            case .subject: CAIRO_PDF_METADATA_SUBJECT
            case .author: CAIRO_PDF_METADATA_AUTHOR
            case .creator: CAIRO_PDF_METADATA_CREATOR
            case .createDate: CAIRO_PDF_METADATA_CREATE_DATE
            case .modDate: CAIRO_PDF_METADATA_MOD_DATE
            }
        }
    }

    /// Flushes pending drawing and finishes the surface (for PDF, writes the document).
    func finish() throws(RenderError) {
        cairo_surface_flush(pointer)
        cairo_surface_finish(pointer)
        try check()
    }

    /// Throws the surface's error status, if any.
    func check() throws(RenderError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// Calls `body` with the pixel bytes of an image surface (rows of ``stride`` bytes) after flushing.
    func withPixels<R>(_ body: (UnsafeBufferPointer<UInt8>) throws(RenderError) -> R) throws(RenderError) -> R {
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { throw .cairo("image surface has no data") }
        return try body(UnsafeBufferPointer(start: data, count: stride * height))
    }

    /// Calls `body` with the pixel memory of an image surface (rows of ``stride`` bytes) after flushing, for it to
    /// change; Cairo is told afterwards that the pixels changed.
    func withMutablePixels<R>(_ body: (UnsafeMutableRawPointer) throws(RenderError) -> R) throws(RenderError) -> R {
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { throw .cairo("image surface has no data") }
        defer { cairo_surface_mark_dirty(pointer) }
        return try body(UnsafeMutableRawPointer(data))
    }
}

/// Collects the bytes Cairo writes to a stream, and the links and structure drawn on its pages (completed after
/// Cairo is done; see `PDFCompletion`).
final class PDFSink {
    var bytes: [UInt8] = []
    /// The links drawn so far.
    var links: [PDFLink] = []
    /// The structure elements opened so far, in order, and those still open, innermost last (indexes of
    /// `structure`).
    var structure: [PDFStructureElement] = []
    var openElements: [Int] = []
    /// The page being drawn, from 1, and its height in points.
    var page = 0
    var pageHeight = 0.0

    /// The sink of the PDF surface a context draws on, or `nil` when it draws on anything else.
    static func of(context: OpaquePointer) -> PDFSink? {
        guard let surface = cairo_get_target(context),
              let data = cairo_surface_get_user_data(surface, CairoSurface.sinkKey) else { return nil }
        return Unmanaged<PDFSink>.fromOpaque(data).takeUnretainedValue()
    }
}
