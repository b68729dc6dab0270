// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkFormats
import SignatureInkRender

/// `POST /render`: a stroke file in, an image out.
///
/// The query parameters mean what the command line's `render` flags of the same names mean: without `fit` or
/// `crop` the points land where they were drawn, in a box of `width` x `height` (one side alone takes the other
/// from the canvas), else the canvas; the file's pen (colour, widths, signature_pad's width model) is honoured,
/// and `pen-color`, `pen-width` or `min-width`/`max-width` replace it, said in a `Signature-Ink-Note` header.
enum RenderRoute {
    /// The query parameters `/render` reads; anything else is refused, so a misspelt option cannot pass unnoticed.
    static let parameters: Set<String> = [
        "format", "scale", "width", "height", "fit", "crop", "padding", "pen-color", "pen-width", "min-width",
        "max-width", "background", "view-mode", "opacity", "dpi", "input-format",
    ]

    /// A render request read from the query: the output format and the options, with the box still to complete
    /// from the signature's canvas when only one side was given.
    struct RenderRequest {
        var format = "png"
        var options = RenderOptions()
        var width: Double?
        var height: Double?
        var input: InkFormat?

        /// The options for `signature`: a box given by one side takes the other from the canvas, or, without a
        /// canvas, makes a 2:1 box (the usual signature pad shape), as the command line does.
        func options(for signature: Signature) -> RenderOptions {
            var options = options
            if options.box == nil, let given = width ?? height {
                let w = width ?? signature.canvas?.width ?? 2 * given
                options.box = OutputSize(width: w, height: height ?? signature.canvas?.height ?? w / 2)
            }
            return options
        }

        /// What the query's pen parameters replace of `signature`'s recorded pens, one note each; empty when
        /// they replace nothing the file says. Only colours the server writes itself appear, never query text.
        func notes(for signature: Signature, query: Parameters) -> [String] {
            guard !signature.pens.isEmpty else { return [] }
            var notes: [String] = []
            if query.get("pen-color") != nil {
                var replaced: [Color] = []
                for pen in signature.pens where pen.blend == .normal && pen.color != options.penColor && !replaced.contains(pen.color) {
                    replaced.append(pen.color)
                }
                if !replaced.isEmpty {
                    notes.append("pen-color replaces the pen colour\(replaced.count == 1 ? "" : "s") the file records: "
                                 + replaced.map(\.description).joined(separator: ", "))
                }
            }
            let widths = ["pen-width", "min-width", "max-width"].filter { query.get($0) != nil }
            if !widths.isEmpty, signature.pens.contains(where: { $0.minWidth != nil || $0.maxWidth != nil }) {
                notes.append(widths.joined(separator: " and ") + " replace\(widths.count == 1 ? "s" : "") the pen widths the file records")
            }
            return notes
        }
    }

    /// Reads and checks the query: every parameter known, every value in its range, no two that contradict.
    /// - Throws: `APIError` 400 naming the parameter and what it takes (never quoting a value).
    static func request(query: Parameters, contentType: String?) throws -> RenderRequest {
        for (key, _) in query where !parameters.contains(String(key)) {
            throw APIError(.badRequest, "unknown query parameter '\(String(key).prefix(40))'; expected one of \(parameters.sorted().joined(separator: ", "))")
        }
        func number(_ name: String, in range: ClosedRange<Double>, above lower: Bool = false) throws -> Double? {
            guard let text = query.get(name) else { return nil }
            guard let value = Double(text), value.isFinite, range.contains(value), !lower || value > range.lowerBound else {
                throw APIError(.badRequest, "\(name) must be a number in \(lower ? "(" : "[")\(range.lowerBound), \(range.upperBound)]")
            }
            return value
        }
        func flag(_ name: String) throws -> Bool {
            guard let text = query.get(name) else { return false }
            guard text == "true" || text == "false" || text.isEmpty else { throw APIError(.badRequest, "\(name) must be true or false") }
            return text != "false"
        }
        var request = RenderRequest()
        request.format = query.get("format") ?? "png"
        guard ["png", "svg", "pdf"].contains(request.format) else { throw APIError(.badRequest, "format must be png, svg or pdf") }
        var options = RenderOptions()
        if let scale = try number("scale", in: 0...16, above: true) { options.scale = scale }
        if let padding = try number("padding", in: 0...1000) { options.padding = padding }
        if let dpi = try number("dpi", in: 0...100_000, above: true) { options.dpi = dpi }
        request.width = try number("width", in: 1...4096)
        request.height = try number("height", in: 1...4096)
        if let width = request.width, let height = request.height { options.box = OutputSize(width: width, height: height) }
        let fit = try flag("fit"), crop = try flag("crop")
        if fit && crop { throw APIError(.badRequest, "give either fit or crop, not both") }
        if crop && (request.width != nil || request.height != nil) {
            throw APIError(.badRequest, "crop sizes the output to the ink; use fit to fit the ink into width x height")
        }
        options.framing = fit ? .fit : crop ? .crop : .canvas
        if let text = query.get("pen-color") {
            guard let color = Color(css: text) else { throw APIError(.badRequest, "pen-color is not a CSS colour") }
            options.penColor = color
            options.recordedPen.remove(.color)
        }
        let penWidth = try number("pen-width", in: 0...1000, above: true)
        let minWidth = try number("min-width", in: 0...1000, above: true)
        let maxWidth = try number("max-width", in: 0...1000, above: true)
        if let penWidth {
            guard minWidth == nil, maxWidth == nil else { throw APIError(.badRequest, "give either pen-width or min-width/max-width, not both") }
            options.penStyle = .constant(penWidth)
        }
        if let minWidth { options.penStyle.minWidth = minWidth }
        if let maxWidth { options.penStyle.maxWidth = maxWidth }
        guard options.penStyle.minWidth <= options.penStyle.maxWidth else {
            throw APIError(.badRequest, "min-width \(options.penStyle.minWidth) is larger than max-width \(options.penStyle.maxWidth)")
        }
        if penWidth != nil || minWidth != nil || maxWidth != nil { options.recordedPen.remove(.widths) }
        if let text = query.get("background") {
            guard let color = text == "transparent" ? Color.clear : Color(css: text) else {
                throw APIError(.badRequest, "background is not transparent or a CSS colour")
            }
            options.background = color
        }
        let viewMode = try flag("view-mode")
        options.opacity = try number("opacity", in: 0...1) ?? (viewMode ? RenderOptions.defaultViewOpacity : 1)
        if let name = query.get("input-format") {
            guard let known = InkFormat(rawValue: name) else {
                throw APIError(.badRequest, "input-format must be one of \(InkFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            request.input = known
        } else if contentType?.hasPrefix("application/inkml+xml") == true {
            request.input = .inkml
        }
        do {
            try options.validate()
        } catch {
            throw APIError(.badRequest, "\(error)")
        }
        request.options = options
        return request
    }

    static func render(_ body: [UInt8], query: Parameters, contentType: String?,
                       configuration: ServerConfiguration) throws -> Response {
        let request = try request(query: query, contentType: contentType)
        let decoded: DecodeResult
        do {
            decoded = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(body), as: request.input)
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let renderer = SignatureRenderer(options: request.options(for: decoded.signature))
        do {
            try renderer.options.validate(limits: renderer.limits)
            var response: Response
            switch request.format {
            case "svg": response = .bytes(Array(try renderer.svg(decoded.signature).utf8), contentType: "image/svg+xml")
            case "pdf": response = .bytes(try renderer.pdf(decoded.signature), contentType: "application/pdf")
            default: response = .bytes(try renderer.png(decoded.signature), contentType: "image/png")
            }
            // What the query replaced of the file's own pen is said, never silent.
            let notes = request.notes(for: decoded.signature, query: query)
            if !notes.isEmpty, let name = HTTPFields.Element.Name("Signature-Ink-Note") {
                response.headers[name] = notes.joined(separator: "; ")
            }
            response.headers[.contentDisposition] = "inline; filename=\"signature.\(request.format)\""
            return response
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
    }
}

/// `POST /signatures`: the form cell's Save.
enum SignatureRoute {
    struct Saved: Encodable {
        var format = "signature-ink"
        /// The stored signature: the native document, as the server keeps it (lossless; its digest is `digest`).
        var signature: String
        var digest: String
        var savedAt: Double
        var strokes: Int
        var samples: Int
        var png: String
    }

    static func save(_ body: [UInt8], configuration: ServerConfiguration) throws -> Response {
        let signature: Signature
        do {
            signature = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(body), as: .native).signature
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let record = SignatureRecord(signature: signature, savedAt: (Date().timeIntervalSince1970 * 1000).rounded())
        let png: [UInt8]
        do {
            png = try SignatureRenderer(options: RenderOptions(scale: 2).viewMode()).png(signature)
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let stored: String
        do {
            stored = try NativeEncoder().encode(signature)
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        return try .json(Saved(signature: stored, digest: record.digest, savedAt: record.savedAt, strokes: signature.strokeCount,
                               samples: signature.samples.count, png: "data:image/png;base64," + Data(png).base64EncodedString()))
    }
}
