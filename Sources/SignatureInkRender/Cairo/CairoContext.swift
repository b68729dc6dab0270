// SPDX-License-Identifier: Apache-2.0
import CCairo
import SignatureInk

/// Owns (or borrows) one Cairo drawing context and draws the engine's shapes with it.
final class CairoContext {
    let pointer: OpaquePointer
    private let owned: Bool

    /// A new context drawing on `surface`.
    init(surface: CairoSurface) throws(RenderError) {
        guard let pointer = cairo_create(surface.pointer) else { throw .cairo("cairo_create failed") }
        self.pointer = pointer
        self.owned = true
        try check()
    }

    /// Borrows a caller's context: takes a reference for its lifetime, and leaves the caller's state as found.
    init(borrowing pointer: OpaquePointer) throws(RenderError) {
        self.pointer = cairo_reference(pointer)
        self.owned = false
        try check()
    }

    deinit { cairo_destroy(pointer) }

    /// Throws the context's error status, if any.
    func check() throws(RenderError) {
        let status = cairo_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// Whether the context draws into pixels (an image surface), where the number of path commands does not
    /// change the output; a vector surface (PDF, SVG, a recording) writes every command.
    var drawsPixels: Bool { cairo_surface_get_type(cairo_get_target(pointer)) == CAIRO_SURFACE_TYPE_IMAGE }

    func save() { cairo_save(pointer) }
    func restore() { cairo_restore(pointer) }
    func translate(_ x: Double, _ y: Double) { cairo_translate(pointer, x, y) }
    func scale(_ sx: Double, _ sy: Double) { cairo_scale(pointer, sx, sy) }

    func setSource(_ c: Color) {
        cairo_set_source_rgba(pointer, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255,
                              Double(c.alpha) / 255)
    }

    /// Replaces every pixel with `c` (including alpha), ignoring the current path and clip-free.
    func clear(to c: Color) {
        save()
        cairo_set_operator(pointer, CAIRO_OPERATOR_SOURCE)
        setSource(c)
        cairo_paint(pointer)
        restore()
    }

    /// Adds `path` to the current Cairo path.
    func append(_ path: Path) { append(path.elements[...]) }

    /// Adds the elements of a path to the current Cairo path, each point `p` placed at `p * scale + offset`: user
    /// units by default, or device pixels on a context whose matrix is the identity.
    ///
    /// The same points as ``scale(_:_:)`` and ``translate(_:_:)`` would give (Cairo computes `x * scale + offset`
    /// in doubles too), without Cairo transforming every point through its matrix and the surface's: 2 % of a
    /// PNG batch.
    func append(_ elements: ArraySlice<Path.Element>, scale: Double = 1, offset: Point = .zero) {
        @inline(__always) func place(_ p: Point) -> (Double, Double) {
            (p.x * scale + offset.x, p.y * scale + offset.y)
        }
        for e in elements {
            switch e {
            case let .move(p):
                let (x, y) = place(p)
                cairo_move_to(pointer, x, y)
            case let .line(p):
                let (x, y) = place(p)
                cairo_line_to(pointer, x, y)
            case let .cubic(a, b, c):
                let (ax, ay) = place(a), (bx, by) = place(b), (cx, cy) = place(c)
                cairo_curve_to(pointer, ax, ay, bx, by, cx, cy)
            case .close: cairo_close_path(pointer)
            }
        }
    }

    /// Sets how the next fills combine with what is drawn: painted over (Cairo `OVER`), or removing it in
    /// proportion to their coverage and opacity (Cairo `DEST_OUT`, canvas `destination-out`).
    func setErasing(_ erasing: Bool) {
        cairo_set_operator(pointer, erasing ? CAIRO_OPERATOR_DEST_OUT : CAIRO_OPERATOR_OVER)
    }

    /// Sets how far Cairo's flattening of curves into lines may fall inside them, in device pixels (Cairo's
    /// default is 0.1).
    func setTolerance(_ pixels: Double) { cairo_set_tolerance(pointer, pixels) }

    /// Paints the current source through `mask`, an A8 coverage image whose top left corner lands on device pixel
    /// (`x`, `y`), whatever the context's matrix; the current path is left as it is.
    func mask(_ mask: CairoSurface, atPixelX x: Int, y: Int) {
        cairo_save(pointer)
        cairo_identity_matrix(pointer)
        cairo_mask_surface(pointer, mask.pointer, Double(x), Double(y))
        cairo_restore(pointer)
    }

    /// Fills the current path with the non-zero rule and clears it.
    func fillNonZero() {
        cairo_set_fill_rule(pointer, CAIRO_FILL_RULE_WINDING)
        cairo_fill(pointer)
    }

    /// Strokes the current path with round caps and joins and clears it.
    func strokeRound(width: Double) {
        cairo_set_line_width(pointer, width)
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(pointer)
    }

    /// Strokes the current path with butt caps and clears it.
    func strokeButt(width: Double) {
        cairo_set_line_width(pointer, width)
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_MITER)
        cairo_stroke(pointer)
    }

    func rectangle(_ r: Rect) { cairo_rectangle(pointer, r.minX, r.minY, r.width, r.height) }
    func clip() { cairo_clip(pointer) }
    func moveTo(_ p: Point) { cairo_move_to(pointer, p.x, p.y) }
    func lineTo(_ p: Point) { cairo_line_to(pointer, p.x, p.y) }

    /// Starts drawing into an offscreen group; ``popGroupAndPaint(alpha:)`` composites it at once.
    func pushGroup() { cairo_push_group(pointer) }

    /// Ends the group started by ``pushGroup()`` and paints it with a uniform opacity.
    func popGroupAndPaint(alpha: Double) {
        cairo_pop_group_to_source(pointer)
        cairo_paint_with_alpha(pointer, alpha)
    }

    /// Fills the rectangle `r` with `c`, leaving the current path empty.
    func fill(_ r: Rect, with c: Color) {
        setSource(c)
        rectangle(r)
        cairo_fill(pointer)
    }

    /// Makes `rect` (user space) a link to `target` on a PDF page of a ``PDFDocument``; nothing elsewhere.
    ///
    /// The link is kept by the document and written as an annotation when it finishes: Cairo 1.16's own link
    /// tags make broken files (see `PDFLinkAnnotations`), so none are drawn, and a PDF surface a caller made
    /// gets no link. In a tagged document the link belongs to the innermost open element that is not a ``PDFStructureRole/span``.
    func link(to target: String, over rect: Rect) {
        guard let sink = PDFSink.of(context: pointer), sink.page > 0 else { return }
        var xs: [Double] = [], ys: [Double] = []
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            var dx = x, dy = y
            cairo_user_to_device(pointer, &dx, &dy)
            xs.append(dx)
            ys.append(dy)
        }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(), x1 > x0, y1 > y0 else { return }
        // Device space is points from the top left; PDF page space counts up from the bottom.
        let element = sink.openElements.last { sink.structure[$0].role != .span }
        sink.links.append(PDFLink(page: sink.page, rect: (x0, sink.pageHeight - y1, x1, sink.pageHeight - y0), uri: target,
                                  element: element))
    }

    /// Opens a structure element of a tagged PDF around what is drawn until ``endStructure()``, on a page of a
    /// ``PDFDocument``; nothing on any other target. Content is marked only when drawn inside an element that
    /// holds no other: Cairo 1.16 marks an element's content from its opening to the next opening or closing.
    /// - Parameters:
    ///   - role: what the element is.
    ///   - alternateText: a figure's description; default `nil`.
    ///   - actualText: the text drawn in the element, when it is all text; default `nil`.
    func beginStructure(_ role: PDFStructureRole, alternateText: String? = nil, actualText: String? = nil) {
        guard let sink = PDFSink.of(context: pointer), sink.page > 0 else { return }
        sink.openElements.append(sink.structure.count)
        sink.structure.append(PDFStructureElement(role: role, alternateText: alternateText, actualText: actualText))
        cairo_tag_begin(pointer, role.cairoName, "")
    }

    /// Whether a structure element is open: the drawing is part of a tagged document's structure.
    var isInsideStructure: Bool { PDFSink.of(context: pointer).map { !$0.openElements.isEmpty } ?? false }

    /// Closes the element ``beginStructure(_:alternateText:actualText:)`` opened last.
    func endStructure() {
        guard let sink = PDFSink.of(context: pointer), let index = sink.openElements.popLast() else { return }
        cairo_tag_end(pointer, sink.structure[index].role.cairoName)
    }

    /// Empties the current path.
    func newPath() { cairo_new_path(pointer) }

    /// The current path as a `Path` (curves kept as cubics), leaving the context's path empty.
    func takePath() throws(RenderError) -> Path {
        guard let copy = cairo_copy_path(pointer) else { throw .cairo("cairo_copy_path failed") }
        defer { cairo_path_destroy(copy) }
        guard copy.pointee.status == CAIRO_STATUS_SUCCESS else {
            throw .cairo(String(cString: cairo_status_to_string(copy.pointee.status)))
        }
        var path = Path()
        var i = 0
        let data = copy.pointee.data, count = Int(copy.pointee.num_data)
        func point(_ k: Int) -> Point { Point(data![i + k].point.x, data![i + k].point.y) }
        while i < count, let data {
            let header = data[i].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO: path.move(to: point(1))
            case CAIRO_PATH_LINE_TO: path.line(to: point(1))
            case CAIRO_PATH_CURVE_TO: path.curve(to: point(3), control1: point(1), control2: point(2))
            case CAIRO_PATH_CLOSE_PATH: path.close()
            default: break
            }
            i += Int(header.length)
        }
        cairo_new_path(pointer)
        return path
    }

    /// Ends the current page of a paginated (PDF) surface; drawing goes on on a new page.
    func showPage() { cairo_show_page(pointer) }
}
