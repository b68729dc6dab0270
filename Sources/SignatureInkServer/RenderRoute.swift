// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkFormats
import SignatureInkRender

/// `POST /render`: a stroke file in, an image out.
enum RenderRoute {
    /// The query parameters `/render` reads; anything else is refused, so a misspelt option cannot pass unnoticed.
    static let parameters: Set<String> = ["format", "scale", "width", "height", "pen-color", "background", "padding",
                                          "view-mode", "input-format"]

    static func render(_ body: [UInt8], query: Parameters, contentType: String?,
                       configuration: ServerConfiguration) throws -> Response {
        for (key, _) in query where !parameters.contains(String(key)) {
            throw APIError(.badRequest, "unknown query parameter '\(String(key).prefix(40))'; expected one of \(parameters.sorted().joined(separator: ", "))")
        }
        func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
            guard let text = query.get(name) else { return nil }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw APIError(.badRequest, "\(name) must be a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        let format = query.get("format") ?? "png"
        guard ["png", "svg", "pdf"].contains(format) else { throw APIError(.badRequest, "format must be png, svg or pdf") }
        var options = RenderOptions()
        if let scale = try number("scale", in: 0.1...16) { options.scale = scale }
        if let padding = try number("padding", in: 0...1000) { options.padding = padding }
        let width = try number("width", in: 1...4096), height = try number("height", in: 1...4096)
        if let width, let height { options.box = OutputSize(width: width, height: height); options.framing = .fit }
        else if width != nil || height != nil { throw APIError(.badRequest, "width and height go together") }
        if let text = query.get("pen-color") {
            guard let color = Color(css: text) else { throw APIError(.badRequest, "pen-color is not a CSS colour") }
            options.penColor = color
            options.recordedPen.remove(.color)
        }
        if let text = query.get("background") {
            guard let color = text == "transparent" ? Color.clear : Color(css: text) else {
                throw APIError(.badRequest, "background is not transparent or a CSS colour")
            }
            options.background = color
        }
        if let mode = query.get("view-mode") {
            guard mode == "true" || mode == "false" else { throw APIError(.badRequest, "view-mode must be true or false") }
            if mode == "true" { options = options.viewMode() }
        }
        var input: InkFormat?
        if let name = query.get("input-format") {
            guard let known = InkFormat(rawValue: name) else {
                throw APIError(.badRequest, "input-format must be one of \(InkFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            input = known
        } else if contentType?.hasPrefix("application/inkml+xml") == true {
            input = .inkml
        }
        let decoded: DecodeResult
        do {
            decoded = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(body), as: input)
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let renderer = SignatureRenderer(options: options)
        do {
            try options.validate(limits: renderer.limits)
            var response: Response
            switch format {
            case "svg": response = .bytes(Array(try renderer.svg(decoded.signature).utf8), contentType: "image/svg+xml")
            case "pdf": response = .bytes(try renderer.pdf(decoded.signature), contentType: "application/pdf")
            default: response = .bytes(try renderer.png(decoded.signature), contentType: "image/png")
            }
            // What the query replaced of the file's own pen is said, never silent.
            if query.get("pen-color") != nil, decoded.signature.pens.contains(where: { $0.color != .black }),
               let name = HTTPFields.Element.Name("Signature-Ink-Note") {
                response.headers[name] = "pen-color replaces the pen colour the file records"
            }
            response.headers[.contentDisposition] = "inline; filename=\"signature.\(format)\""
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
        return try .json(Saved(digest: record.digest, savedAt: record.savedAt, strokes: signature.strokeCount,
                               samples: signature.samples.count, png: "data:image/png;base64," + Data(png).base64EncodedString()))
    }
}
