// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInk

/// Reads the JSON that signature_pad's `toData()` returns.
///
/// ```json
/// [{"penColor": "black", "dotSize": 0, "minWidth": 0.5, "maxWidth": 2.5, "velocityFilterWeight": 0.7,
///   "compositeOperation": "source-over",
///   "points": [{"x": 125, "y": 54, "time": 1523730547109, "pressure": 0}]}]
/// ```
/// Each group is one stroke; x and y are CSS pixels (y down), `time` epoch milliseconds. When every pressure
/// is 0 (a mouse or a touch screen) or missing, the signature has no pressure.
///
/// A group's pen settings are its stroke's `Pen` (`Signature.pens`), and nowhere else: the parsed `penColor`
/// (any CSS colour form, see `Color.init(css:)`), the widths (signature_pad's radii, doubled into line widths),
/// `dotSize` (0 means none), signature_pad's velocity model with the group's `velocityFilterWeight`, and
/// `destination-out` as an eraser. A missing setting means signature_pad's default (``SignaturePadSetting``). A
/// `penColor` that is not a CSS colour is an error naming the group; another `compositeOperation` than
/// `source-over` or `destination-out` is kept in `Pen.compositeOperation` and drawn as `source-over`, which is
/// said.
struct SignaturePadDecoder {
    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        let limits = self.limits
        return try JSONInput.read(data, limits: limits) { (reader: inout JSONReader) throws(JSONReader.Stop) in
            var document = SignaturePadReader(ink: InkAssembler(limits: limits))
            return try document.read(&reader)
        }
    }
}

/// Reads signature_pad's point groups in one pass over the bytes.
///
/// Errors come in the order Foundation's decoder met them: a syntax error anywhere first, then group by
/// group: the settings (in ``SignaturePadSetting`` order, wherever they stand in the group), then `points`,
/// point by point (`x`, `y`, `time`, `pressure`, then the sample's own checks). `points` is read where it
/// stands; an error in it waits until the group's settings are checked.
private struct SignaturePadReader {
    typealias Stop = JSONReader.Stop

    var ink: InkAssembler
    var allPressureZero = true
    var anyPressure = false
    var pens: [Pen] = []
    /// The last pen colour read and its colour: the groups of a page mostly share one pen, whose colour is then
    /// parsed once.
    var lastColor: (text: String, color: Color)?

    mutating func read(_ r: inout JSONReader) throws(Stop) -> (Signature, [String]) {
        try r.expectKind(.array, path: "")
        var g = 0
        if try r.enterArray() {
            repeat {
                try group(&r, g)
                g += 1
            } while try r.nextInArray()
        }
        try r.expectEnd()
        if anyPressure && allPressureZero {
            ink.removePressure()
            ink.assumptions.append("every pressure is 0 (a mouse or touch screen): read as no pressure")
        }
        var (signature, notes) = try JSONReader.checking { () throws(FormatError) in try ink.finish() }
        signature.pens = pens
        return (signature, notes)
    }

    /// A group's settings, signature_pad's defaults where the group leaves one out.
    private struct Settings {
        var penColor = SignaturePadSetting.penColor.defaultValue
        var compositeOperation = SignaturePadSetting.compositeOperation.defaultValue
        var dotSize = Self.defaultNumber(.dotSize)
        var minWidth = Self.defaultNumber(.minWidth)
        var maxWidth = Self.defaultNumber(.maxWidth)
        var velocityFilterWeight = Self.defaultNumber(.velocityFilterWeight)

        static func defaultNumber(_ setting: SignaturePadSetting) -> Double { Double(setting.defaultValue) ?? 0 }
    }

    private mutating func group(_ r: inout JSONReader, _ g: Int) throws(Stop) {
        try r.expectKind(.object, path: "[\(g)]")
        // Where each setting's value starts (the first time its key appears, as in Foundation's decoder).
        var found = [JSONReader?](repeating: nil, count: SignaturePadSetting.allCases.count)
        var pointsFound = false
        var pointsError: FormatError?
        if try r.enterObject() {
            repeat {
                let key = try r.key()
                _ = r.peek()
                if !pointsFound && r.matches(key, "points") {
                    pointsFound = true
                    let start = r
                    do {
                        try points(&r, g)
                    } catch {
                        guard case let .field(error) = error else { throw error }
                        pointsError = error
                        r = start
                        try r.skipValue()
                    }
                    continue
                }
                if let k = SignaturePadSetting.allCases.firstIndex(where: { r.matches(key, $0.key) }), found[k] == nil {
                    found[k] = r
                }
                try r.skipValue()
            } while try r.nextInObject()
        }
        var settings = Settings()
        for (k, setting) in SignaturePadSetting.allCases.enumerated() {
            guard var c = found[k], !c.consumeNull() else { continue }
            if setting.isText {
                let text = try c.string(path: "[\(g)].\(setting.field)")
                if setting == .penColor { settings.penColor = text } else { settings.compositeOperation = text }
                continue
            }
            let value = try c.double(path: "[\(g)].\(setting.field)")
            switch setting {
            case .dotSize: settings.dotSize = value
            case .minWidth: settings.minWidth = value
            case .maxWidth: settings.maxWidth = value
            default: settings.velocityFilterWeight = value
            }
        }
        guard pointsFound else { throw .field(.field(path: "[\(g)].points", message: "missing")) }
        if let pointsError { throw .field(pointsError) }
        let pen = try self.pen(settings, g)

        let before = ink.strokeCount
        try JSONReader.checking { () throws(FormatError) in try ink.endStroke() }
        guard ink.strokeCount > before else { return }
        pens.append(pen)
    }

    /// The pen of group `g` from its settings.
    private mutating func pen(_ settings: Settings, _ g: Int) throws(Stop) -> Pen {
        let colorText = settings.penColor
        let color: Color
        if let last = lastColor, last.text == colorText {
            color = last.color
        } else if let parsed = Color(css: colorText) {
            color = parsed
            lastColor = (colorText, parsed)
        } else {
            throw .field(.field(path: "[\(g)].\(SignaturePadSetting.penColor.field)", message:
                "\"\(colorText.prefix(60))\" is not a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl() or hsla())"))
        }
        let operation = settings.compositeOperation
        if operation != "source-over" && operation != "destination-out" {
            let note = "compositeOperation \"\(operation.prefix(40))\" is drawn as source-over"
            if !ink.assumptions.contains(note) { ink.assumptions.append(note) }
        }
        var pen = Pen.signaturePad(color: color, minWidth: settings.minWidth, maxWidth: settings.maxWidth,
                                   dotSize: settings.dotSize, velocityFilterWeight: settings.velocityFilterWeight,
                                   erases: operation == "destination-out")
        if !operation.isEmpty && operation != "source-over" && operation != "destination-out" { pen.compositeOperation = operation }
        return pen
    }

    private mutating func points(_ r: inout JSONReader, _ g: Int) throws(Stop) {
        try r.expectKind(.array, path: "[\(g)].points")
        guard try r.enterArray() else { return }
        var i = 0
        repeat {
            let point = try JSONPoint(&r, path: "[\(g)].points[\(i)]")
            let xv = try r.double(point.x, path: "[\(g)].points[\(i)].x")
            let yv = try r.double(point.y, path: "[\(g)].points[\(i)].y")
            let t = try r.double(point.time, path: "[\(g)].points[\(i)].time")
            let p = try r.optionalDouble(point.pressure, path: "[\(g)].points[\(i)].pressure")
            if let p {
                anyPressure = true
                if p != 0 { allPressureZero = false }
            }
            try JSONReader.checking { () throws(FormatError) in
                try ink.add(x: xv, y: yv, t: t, pressure: p, path: "[\(g)].points[\(i)]")
            }
            i += 1
        } while try r.nextInArray()
    }
}
