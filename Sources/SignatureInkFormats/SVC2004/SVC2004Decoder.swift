// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInk

/// Reads the text files of the First International Signature Verification Competition (SVC2004).
///
/// The first line is the number of samples; each following line one sample, `x y t button` (task 1) or
/// `x y t button azimuth altitude pressure` (task 2), separated by spaces or tabs. A blank line is ignored.
///
/// Mapping to the model:
/// - x and y are tablet units (the competition's Wacom Intuos, ``unitsPerInch`` = 2540, 100 per mm), with y
///   growing upwards. They are kept in tablet units, moved so the ink's top-left is at (0, 0) and flipped
///   so y grows downwards. The signature gets no canvas (a renderer fits it into its default box) and
///   ``InkMetadataKey/deviceUnitsPerInch`` = `2540`, from which a renderer can draw it at its natural size
///   (a 7,000-unit-wide signature is 2.76 inches, 265 CSS pixels).
/// - t is milliseconds on the tablet driver's clock; backwards timestamps are repaired (``InkAssembler``).
/// - button 0 is pen up: those hover samples are dropped, and each run of pen-down samples is a stroke.
/// - azimuth and altitude come from Wintab's orientation, in tenths of a degree (azimuth 0...3599, altitude
///   0...900); they become radians. A file whose values all fit degrees (altitude <= 90 and azimuth <= 360)
///   is read as degrees instead, and the assumption says which. All zero means the tablet sent none (nil).
/// - pressure is the Intuos's 10-bit level, 0...1023, divided by ``pressureLevels``; larger values are
///   clamped to 1.
/// - The format records no pen: `Signature.pens` is empty, and a renderer draws with its own.
struct SVC2004Decoder {
    /// Tablet units per inch: the Wacom Intuos used for SVC2004 reports 100 lines per millimetre.
    static let unitsPerInch = 2540.0
    /// The largest pressure level: the Intuos reports 1024 levels, 0...1023.
    static let pressureLevels = 1023.0

    let limits: DecodingLimits

    func decode(_ data: Data) throws(FormatError) -> (Signature, [String]) {
        try limits.checkSize(data.count)
        let bytes = [UInt8](data)
        var reader = LineReader(bytes: bytes)
        var ink = InkAssembler(limits: limits)

        guard let header = reader.nextLine() else {
            throw .syntax(line: 1, column: 1, message: "empty file: expected the number of samples")
        }
        guard header.fields.count == 1, let declared = Int(header.fields[0].text), declared >= 0 else {
            throw .syntax(line: header.number, column: header.fields.first?.column ?? 1,
                          message: "expected the number of samples on the first line")
        }
        // Every sample line takes at least 8 bytes ("1 2 3 1\n"): reserve no more than the file can hold.
        let plausible = bytes.count / 8
        try ink.reserve(declared, atMost: plausible)

        var columnCount: Int?
        var rows: [(line: Int, values: [Double])] = []
        rows.reserveCapacity(min(declared, plausible))
        while let line = reader.nextLine() {
            if rows.count >= declared {
                throw .syntax(line: line.number, column: 1,
                              message: "more samples than the \(declared) the first line declares")
            }
            let n = line.fields.count
            guard n == 4 || n == 7 else {
                throw .syntax(line: line.number, column: 1,
                              message: "expected 4 or 7 values (x y t button [azimuth altitude pressure]), found \(n)")
            }
            if let c = columnCount, c != n {
                throw .syntax(line: line.number, column: 1, message: "expected \(c) values like the lines before, found \(n)")
            }
            columnCount = n
            var values: [Double] = []
            values.reserveCapacity(n)
            for field in line.fields {
                guard let v = Double(field.text), v.isFinite else {
                    throw .syntax(line: line.number, column: field.column,
                                  message: "\"\(field.text.prefix(40))\" is not a finite number")
                }
                values.append(v)
            }
            rows.append((line.number, values))
        }
        if let bad = reader.error { throw bad }
        guard rows.count == declared else {
            throw .syntax(line: reader.lineNumber, column: 1,
                          message: "the first line declares \(declared) samples, the file has \(rows.count) (truncated?)")
        }

        let hasAngles = columnCount == 7 && rows.contains { $0.values[4] != 0 || $0.values[5] != 0 }
        let hasPressure = columnCount == 7
        let inTenths = hasAngles && rows.contains { $0.values[4] > 360 || $0.values[5] > 90 }
        let angleUnit = (inTenths ? 0.1 : 1) * Double.pi / 180
        var dropped = 0
        var penDown = false
        for row in rows {
            let v = row.values
            if v[3] == 0 {
                dropped += 1
                // The first pen-up sample after a pen-down one ends the stroke; more in a row end nothing.
                if penDown { try ink.endStroke() }
                penDown = false
                continue
            }
            penDown = true
            try ink.add(x: v[0], y: v[1], t: v[2],
                        pressure: hasPressure ? v[6] / Self.pressureLevels : nil,
                        altitude: hasAngles ? v[5] * angleUnit : nil,
                        azimuth: hasAngles ? v[4] * angleUnit : nil,
                        path: "line \(row.line)")
        }
        try ink.endStroke()

        // Tablet y grows upwards: flip it, and move the ink's top-left corner to the origin. Each coordinate was
        // within the limit; after the move, the ink's extent must be too.
        if let b = ink.bounds {
            for (axis, extent) in [("x", b.maxX - b.minX), ("y", b.maxY - b.minY)] where extent > limits.maxCoordinate {
                throw .field(path: axis, message: "the ink spans \(extent) tablet units, more than the coordinate limit \(limits.maxCoordinate)")
            }
            ink.transformPositions { s in
                s.x -= b.minX
                s.y = b.maxY - s.y
            }
        }
        ink.assumptions.append("x/y are tablet units at 2540 per inch (Wacom Intuos), y flipped to grow downwards")
        if hasPressure {
            ink.assumptions.append("pressure is a 10-bit level, 0...1023")
        }
        if columnCount == 7 {
            ink.assumptions.append(
                !hasAngles ? "azimuth and altitude are all 0: none recorded"
                    : inTenths ? "azimuth and altitude are tenths of a degree (Wintab orientation)"
                    : "azimuth and altitude are degrees (every value fits 0...360 and 0...90)")
        }
        if dropped > 0 {
            ink.assumptions.append("\(dropped) pen-up sample(s) (button 0) were dropped")
        }
        return try ink.finish(metadata: [InkMetadataKey.deviceUnitsPerInch: JSONText.number(Self.unitsPerInch)])
    }
}

/// Splits ASCII text into lines of space- or tab-separated fields, tracking line numbers and columns.
struct LineReader {
    struct Field {
        let text: String
        /// 1-based column of the field's first byte.
        let column: Int
    }

    struct Line {
        let number: Int
        let fields: [Field]
    }

    /// The longest field accepted, in bytes: no number needs more.
    static let maxFieldLength = 64

    let bytes: [UInt8]
    private var index = 0
    /// The 1-based number of the last line read.
    private(set) var lineNumber = 0
    /// Set when a line holds a byte that is no text, after which ``nextLine()`` returns `nil`.
    private(set) var error: FormatError?

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The next line that has at least one field, or `nil` at the end.
    mutating func nextLine() -> Line? {
        while index < bytes.count, error == nil {
            lineNumber += 1
            let start = index
            var fields: [Field] = []
            var fieldStart: Int?
            func close(_ end: Int) -> Bool {
                guard let s = fieldStart else { return true }
                fieldStart = nil
                guard end - s <= Self.maxFieldLength else {
                    error = .syntax(line: lineNumber, column: s - start + 1, message: "a value longer than \(Self.maxFieldLength) characters")
                    return false
                }
                fields.append(Field(text: String(decoding: bytes[s..<end], as: UTF8.self), column: s - start + 1))
                return true
            }
            while index < bytes.count, bytes[index] != 0x0A {
                let b = bytes[index]
                if b == 0x20 || b == 0x09 || b == 0x0D {
                    guard close(index) else { return nil }
                } else if b < 0x20 || b >= 0x7F {
                    error = .syntax(line: lineNumber, column: index - start + 1,
                                    message: "unexpected byte 0x\(String(b, radix: 16)) in a text file")
                    return nil
                } else if fieldStart == nil {
                    fieldStart = index
                }
                index += 1
            }
            guard close(index) else { return nil }
            index += 1
            if !fields.isEmpty { return Line(number: lineNumber, fields: fields) }
        }
        return nil
    }
}
