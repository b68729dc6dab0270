// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

extension SignatureRecord {
    /// Options that draw the record as it was captured: its pen and ink colour, over `base`'s other settings.
    /// - Parameters:
    ///   - viewMode: whether to draw the saved look, read-only and semi-transparent (opacity
    ///     ``RenderOptions/defaultViewOpacity``); default `true`, as the design guides show a saved signature.
    ///   - base: size, framing, background and decorations; default ``RenderOptions/init(scale:penColor:background:penStyle:penWidth:padding:box:framing:opacity:decorations:dpi:)``.
    /// - Returns: the options for ``SignatureRenderer``.
    public func renderOptions(viewMode: Bool = true, base: RenderOptions = RenderOptions()) -> RenderOptions {
        var options = base
        options.penStyle = style
        options.penColor = penColor
        return viewMode ? options.viewMode() : options
    }
}

extension SignatureBlock {
    /// A consent block for a saved record, as ResearchKit's consent document has one: the record's ink over the
    /// line, the signer's name, and the day it was saved (UTC, `yyyy-MM-dd`) under it. The ink stays vector in PDF.
    /// - Parameters:
    ///   - record: the saved signature.
    ///   - signerName: the name printed under the line.
    ///   - viewMode: whether to draw the ink semi-transparent; default `false`, as a signed document shows it.
    public init(record: SignatureRecord, signerName: String, viewMode: Bool = false) {
        self.init(signature: record.signature, signerName: signerName,
                  date: SignatureBlock.defaultDateFormat.string(millisecondsSince1970: record.savedAt),
                  options: record.renderOptions(viewMode: viewMode, base: RenderOptions(padding: 4)))
    }
}
