// SPDX-License-Identifier: Apache-2.0
import SignatureInk

/// A `Pen` as the native format's JSON object, an element of its `pens` (see ``NativeDecoder``); InkML carries the
/// same object in a brush it cannot otherwise describe.
///
/// ```json
/// {"color": "#0d1a66", "minWidth": 1.4, "maxWidth": 5.6, "dotWidth": 3, "model": "signaturePad",
///  "velocityFilterWeight": 0.7, "blend": "erase", "tip": "rectangle", "compositeOperation": "multiply"}
/// ```
/// Every member but `color` is written only when it differs from its default, so a pen that uses none of the
/// later members (`tip`, `compositeOperation`) is written as it always was.
enum NativePen {
    /// The members of a pen object, in the order they are written.
    static let members = ["color", "minWidth", "maxWidth", "dotWidth", "model", "velocityFilterWeight", "blend", "tip",
                          "compositeOperation"]

    /// A pen as a JSON object, its colour as `#rrggbb` or `#rrggbbaa`.
    /// - Throws: ``FormatError/unencodable(_:)`` for a width that is not a finite number `> 0`, or a velocity filter
    ///   weight that is not finite.
    static func json(_ pen: Pen) throws(FormatError) -> String {
        var out = "{\"color\":\"\(pen.color)\""
        for (name, v) in [("minWidth", pen.minWidth), ("maxWidth", pen.maxWidth), ("dotWidth", pen.dotWidth)] {
            guard let v else { continue }
            guard v.isFinite, v > 0 else { throw .unencodable("pen \(name) \(v) is not a finite number > 0") }
            out += ",\"\(name)\":\(JSONText.number(v))"
        }
        switch pen.widthModel {
        case .pressureOrSpeed:
            break
        case let .signaturePad(weight):
            guard weight.isFinite else { throw .unencodable("pen velocityFilterWeight \(weight) is not finite") }
            out += ",\"model\":\"signaturePad\",\"velocityFilterWeight\":\(JSONText.number(weight))"
        }
        if pen.blend != .normal { out += ",\"blend\":\"\(pen.blend.rawValue)\"" }
        if pen.tip != .ellipse { out += ",\"tip\":\"\(pen.tip.rawValue)\"" }
        if let operation = pen.compositeOperation { out += ",\"compositeOperation\":" + JSONText.string(operation) }
        return out + "}"
    }

    /// Reads one pen object at `r`.
    /// - Parameter path: where the object stands, for errors, such as `pens[2]`.
    /// - Throws: a field error naming the member for a colour that is not CSS, a width outside `(0, 1000]`, a
    ///   minimum width above the maximum, an unknown `model`, `blend` or `tip`, a weight outside `0...1`, or an
    ///   empty `compositeOperation`.
    static func read(_ r: inout JSONReader, path: String) throws(JSONReader.Stop) -> Pen {
        try r.expectKind(.object, path: path)
        let names = members
        var found = [JSONReader?](repeating: nil, count: names.count)
        if try r.enterObject() {
            repeat {
                let key = try r.key()
                _ = r.peek()
                if let k = names.firstIndex(where: { r.matches(key, name: $0) }), found[k] == nil { found[k] = r }
                try r.skipValue()
            } while try r.nextInObject()
        }
        var pen = Pen()
        if var c = found[0], !c.consumeNull() {
            let text = try c.string(path: "\(path).color")
            guard let color = Color(css: text) else {
                throw .field(.field(path: "\(path).color", message: "\"\(text.prefix(60))\" is not a CSS colour"))
            }
            pen.color = color
        }
        func width(_ k: Int) throws(JSONReader.Stop) -> Double? {
            guard var c = found[k], !c.consumeNull() else { return nil }
            let v = try c.double(path: "\(path).\(names[k])")
            guard v.isFinite, v > 0, v <= 1000 else {
                throw .field(.field(path: "\(path).\(names[k])", message: "\(v) is outside (0, 1000]"))
            }
            return v
        }
        pen.minWidth = try width(1)
        pen.maxWidth = try width(2)
        pen.dotWidth = try width(3)
        if let lo = pen.minWidth, let hi = pen.maxWidth, lo > hi {
            throw .field(.field(path: "\(path).minWidth", message: "\(lo) is above maxWidth \(hi)"))
        }
        var model = "pressureOrSpeed"
        if var c = found[4], !c.consumeNull() { model = try c.string(path: "\(path).model") }
        switch model {
        case "pressureOrSpeed":
            pen.widthModel = .pressureOrSpeed
        case "signaturePad":
            var weight = 0.7
            if var c = found[5], !c.consumeNull() { weight = try c.double(path: "\(path).velocityFilterWeight") }
            guard weight.isFinite, (0...1).contains(weight) else {
                throw .field(.field(path: "\(path).velocityFilterWeight", message: "\(weight) is outside 0...1"))
            }
            pen.widthModel = .signaturePad(velocityFilterWeight: weight)
        default:
            throw .field(.field(path: "\(path).model", message: "expected \"pressureOrSpeed\" or \"signaturePad\", found \"\(model.prefix(40))\""))
        }
        if var c = found[6], !c.consumeNull() {
            let text = try c.string(path: "\(path).blend")
            guard let blend = Pen.Blend(rawValue: text) else {
                throw .field(.field(path: "\(path).blend", message: "expected \"normal\" or \"erase\", found \"\(text.prefix(40))\""))
            }
            pen.blend = blend
        }
        if var c = found[7], !c.consumeNull() {
            let text = try c.string(path: "\(path).tip")
            guard let tip = Pen.Tip(rawValue: text) else {
                throw .field(.field(path: "\(path).tip", message: "expected \"ellipse\" or \"rectangle\", found \"\(text.prefix(40))\""))
            }
            pen.tip = tip
        }
        if var c = found[8], !c.consumeNull() {
            let text = try c.string(path: "\(path).compositeOperation")
            guard !text.isEmpty else {
                throw .field(.field(path: "\(path).compositeOperation", message: "is empty; leave it out for the blend's own"))
            }
            pen.compositeOperation = text
        }
        return pen
    }
}
