// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// A Cairo drawing context the engine draws into: a caller's own `cairo_t`, or a page of a ``PDFDocument``.
///
/// A form renderer that draws its page with Cairo passes its context as an `OpaquePointer`; the engine never
/// exposes Cairo's C types in the rest of its API. The context is borrowed: the engine holds a reference while
/// it draws, saves its state first and restores it after, so the caller's transform, source and path are as
/// they were.
public struct CairoTarget {
    /// The `cairo_t *` drawn into.
    public let unsafeContext: OpaquePointer

    /// Wraps a caller's Cairo context.
    /// - Parameter unsafeContext: a valid `cairo_t *` that outlives every draw call given this target. Its
    ///   current user space is the space of the rectangles passed to the draw calls.
    public init(unsafeContext: OpaquePointer) { self.unsafeContext = unsafeContext }

    init(context: CairoContext) { self.unsafeContext = context.pointer }
}

extension SignatureRenderer {
    /// Draws `signature` into a rectangle of a caller's Cairo context.
    ///
    /// The rectangle is the output box, in the target's user space units (points on a ``PDFDocument`` page):
    /// with ``Framing/fit`` (the default here) the ink plus ``RenderOptions/padding`` is scaled to fit it,
    /// keeping its aspect, centred. The background, when not transparent, fills the rectangle; the ink is
    /// drawn at ``RenderOptions/opacity`` as one group (view mode when below 1), and the decorations of
    /// ``RenderOptions/decorations`` are placed in the rectangle. ``RenderOptions/box`` and
    /// ``RenderOptions/scale`` are ignored: the rectangle and the target decide the size.
    /// - Parameters:
    ///   - signature: the signature to draw.
    ///   - rect: where to draw, in the target's user space; width and height > 0.
    ///   - target: the context to draw into; its state is saved and restored.
    ///   - framing: how the ink is placed in `rect`; default ``Framing/fit``. With ``Framing/canvas`` the
    ///     canvas origin goes to the rectangle's corner, one canvas unit per user space unit.
    ///   - opacity: the opacity of the whole signature for this call in `0...1`, replacing
    ///     ``RenderOptions/opacity``; ``RenderOptions/defaultViewOpacity`` (0.5) is the view mode; default `nil`
    ///     (the options' opacity).
    /// - Throws: ``RenderError/invalidOption(option:message:)`` for a bad option or rectangle,
    ///   ``RenderError/cairo(_:)`` when the context is or gets in an error state.
    public func draw(_ signature: Signature, in rect: Rect, on target: CairoTarget,
                     framing: Framing = .fit, opacity: Double? = nil) throws(RenderError) {
        guard rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite,
              rect.minX.isFinite, rect.minY.isFinite else {
            throw .invalidOption(option: "rect", message: "\(rect.width) x \(rect.height) is not a drawable size")
        }
        var o = options
        o.box = OutputSize(width: rect.width, height: rect.height)
        o.framing = framing
        o.scale = 1
        if let opacity { o.opacity = opacity }
        try o.validate(limits: limits)
        let scene = Scene(signature, options: o)
        let context = try CairoContext(borrowing: target.unsafeContext)
        context.save()
        context.translate(rect.minX, rect.minY)
        context.rectangle(Rect(x: 0, y: 0, width: rect.width, height: rect.height))
        context.clip()
        if o.background.alpha > 0 {
            context.fill(Rect(x: 0, y: 0, width: rect.width, height: rect.height), with: o.background)
        }
        try scene.draw(on: context)
        context.restore()
        try context.check()
    }
}
