// SPDX-License-Identifier: Apache-2.0

/// A forward-only reader over UTF-8 JSON text (RFC 8259) for the decoders' hot paths.
///
/// It reads values where they stand, without building a tree: numbers straight from their bytes (see
/// ``JSONReader/Number``), strings as byte ranges that are decoded only when asked for. It is strict where
/// Foundation's parser is strict: no comments, no trailing commas, no leading zeros, no `NaN`, control
/// characters and invalid UTF-8 refused inside strings, nesting bounded by ``maxDepth``.
///
/// A syntax error stops it with the byte offset where it was found; ``JSONInput`` turns that into a line,
/// column and message. It reads memory it does not own: use it only inside `withUnsafeBytes`.
struct JSONReader {
    /// Why reading stopped.
    enum Stop: Error {
        /// The bytes are not JSON, at this byte offset.
        case syntax(offset: Int)
        /// The JSON is well formed, but a value is wrong for the format.
        case field(FormatError)
    }

    /// The JSON types, as ``peekKind()`` sees them from a value's first byte.
    enum Kind {
        case object, array, string, number, bool, null

        /// The type's name in an error message, such as "an array".
        var phrase: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .number: return "a number"
            case .bool: return "true or false"
            case .null: return "null"
            }
        }
    }

    /// The bytes between a string's quotes, undecoded.
    struct StringRange {
        var start: Int
        var end: Int
        /// Whether the string holds a backslash escape, so its bytes are not its text.
        var escaped: Bool
    }

    /// A number's text, validated, with its decimal digits gathered for the fast conversions.
    ///
    /// The value is `mantissa * 10^exponent`, negated when `negative`, whenever `exact` is true (at most
    /// 19 significant digits). ``double`` and ``float`` use one correctly rounded multiplication or division
    /// when the mantissa and the power of ten are both exact in the target type (Clinger's fast path), and
    /// otherwise the standard library's correctly rounded parser on the text.
    struct Number {
        var start: Int
        var end: Int
        var mantissa: UInt64
        var exponent: Int
        var negative: Bool
        var exact: Bool
        /// Whether the text has no fraction and no exponent.
        var isInteger: Bool
    }

    /// Deepest nesting of arrays and objects accepted, as in Foundation's parser.
    static let maxDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var position: Int
    /// Arrays and objects open around the position.
    private(set) var depth = 0

    /// Starts reading at the first byte, after a UTF-8 byte-order mark if there is one.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes.bindMemory(to: UInt8.self)
        position = self.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    // MARK: Structure

    /// Skips white space and returns the next byte without consuming it, or `nil` at the end.
    ///
    /// Inlined where it is called, as are ``peekKind()`` and ``expect(_:)``: called for every key and value, the three
    /// were 13 M of the 508 M instructions of rendering the benchmark set as signature_pad files (call, and the
    /// reader's position stored and read back), and inlined the batch takes 1.8 % fewer (decoding 10 % fewer).
    @inline(__always)
    mutating func peek() -> UInt8? {
        while position < bytes.count {
            let b = bytes[position]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return b }
            position += 1
        }
        return nil
    }

    /// The type of the next value.
    /// - Throws: a syntax error when no value starts here.
    @inline(__always)
    mutating func peekKind() throws(Stop) -> Kind {
        guard let b = peek() else { throw .syntax(offset: position) }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw .syntax(offset: position)
        }
    }

    /// Consumes `byte` (after white space) or stops with a syntax error.
    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(Stop) {
        guard peek() == byte else { throw .syntax(offset: position) }
        position += 1
    }

    /// Consumes `[`; returns whether the array has an element (`false` when `]` follows, consumed too).
    mutating func enterArray() throws(Stop) -> Bool {
        try open(UInt8(ascii: "["), closer: UInt8(ascii: "]"))
    }

    /// After an element: consumes `,` and returns `true`, or consumes `]` and returns `false`.
    mutating func nextInArray() throws(Stop) -> Bool {
        try next(closer: UInt8(ascii: "]"))
    }

    /// Consumes `{`; returns whether the object has a member (`false` when `}` follows, consumed too).
    mutating func enterObject() throws(Stop) -> Bool {
        try open(UInt8(ascii: "{"), closer: UInt8(ascii: "}"))
    }

    /// After a member's value: consumes `,` and returns `true`, or consumes `}` and returns `false`.
    mutating func nextInObject() throws(Stop) -> Bool {
        try next(closer: UInt8(ascii: "}"))
    }

    /// Reads a member's key and the colon after it.
    mutating func key() throws(Stop) -> StringRange {
        guard peek() == UInt8(ascii: "\"") else { throw .syntax(offset: position) }
        let key = try stringRange()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Stops with a syntax error unless only white space is left.
    mutating func expectEnd() throws(Stop) {
        if peek() != nil { throw .syntax(offset: position) }
    }

    private mutating func open(_ opener: UInt8, closer: UInt8) throws(Stop) -> Bool {
        try expect(opener)
        depth += 1
        if depth > JSONReader.maxDepth { throw .syntax(offset: position - 1) }
        if peek() == closer {
            position += 1
            depth -= 1
            return false
        }
        return true
    }

    private mutating func next(closer: UInt8) throws(Stop) -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            position += 1
            return true
        case closer:
            position += 1
            depth -= 1
            return false
        default:
            throw .syntax(offset: position)
        }
    }

    // MARK: Values

    /// Skips one value of any type, checking its syntax.
    mutating func skipValue() throws(Stop) {
        // The containers opened here, innermost last: `true` for an object. Empty (no allocation) for a scalar.
        var open: [Bool] = []
        while true {
            switch try peekKind() {
            case .object:
                if try enterObject() {
                    open.append(true)
                    _ = try key()
                    continue
                }
            case .array:
                if try enterArray() {
                    open.append(false)
                    continue
                }
            case .string: _ = try stringRange()
            case .number: _ = try number()
            case .bool, .null: _ = try literal()
            }
            // A value ended: close the containers it ends, then go on to the next member or element.
            while let isObject = open.last {
                if isObject {
                    if try nextInObject() {
                        _ = try key()
                        break
                    }
                } else if try nextInArray() {
                    break
                }
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// Reads `true`, `false` or `null`; returns `nil` for `null`.
    mutating func literal() throws(Stop) -> Bool? {
        if consumeNull() { return nil }
        if matchesWord("true") {
            position += 4
            return true
        }
        if matchesWord("false") {
            position += 5
            return false
        }
        throw .syntax(offset: position)
    }

    /// Consumes `null` when it is next; returns whether it was.
    mutating func consumeNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), matchesWord("null") else { return false }
        position += 4
        return true
    }

    private func matchesWord(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard position + n <= bytes.count else { return false }
        for k in 0..<n where bytes[position + k] != word.utf8Start[k] { return false }
        return true
    }

    /// Reads a string, validating its escapes and UTF-8, and returns its undecoded bytes.
    mutating func stringRange() throws(Stop) -> StringRange {
        try expect(UInt8(ascii: "\""))
        let start = position
        var escaped = false
        while position < bytes.count {
            // Eight bytes at a time while none needs a look (a long string, such as a whole file's text, is mostly
            // such bytes): a third of the instructions of the byte loop below.
            if let base = bytes.baseAddress {
                let end = bytes.count &- 8
                while position <= end, JSONReader.isPlainText(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: position, as: UInt64.self)) {
                    position &+= 8
                }
            }
            guard position < bytes.count else { break }
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                position += 1
                return StringRange(start: start, end: position - 1, escaped: escaped)
            }
            if b == UInt8(ascii: "\\") {
                escaped = true
                try skipEscape()
            } else if b < 0x20 {
                throw .syntax(offset: position)
            } else if b < 0x80 {
                position += 1
            } else {
                try skipMultibyteCharacter()
            }
        }
        throw .syntax(offset: position)
    }

    /// Reads a string and decodes it.
    mutating func string() throws(Stop) -> String {
        text(of: try stringRange())
    }

    /// The text of a string read by ``stringRange()``.
    func text(of s: StringRange) -> String {
        guard s.escaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[s.start..<s.end]), as: UTF8.self) }
        return String(decoding: unescapedBytes(of: s), as: UTF8.self)
    }

    /// The UTF-8 bytes of the text of a string read by ``stringRange()``, its escapes replaced by what they stand for.
    func unescapedBytes(of s: StringRange) -> [UInt8] {
        let raw = UnsafeBufferPointer(rebasing: bytes[s.start..<s.end])
        guard s.escaped else { return Array(raw) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = s.start
        while i < s.end {
            // The bytes up to the next escape, copied as one run; sixteen at a time while they hold no backslash (nor
            // a quote, which a string read by `stringRange()` holds only escaped).
            var run = i
            if let base = bytes.baseAddress {
                while run &+ 16 <= s.end, JSONReader.hasNoQuoteOrBackslash(
                    UnsafeRawPointer(base).loadUnaligned(fromByteOffset: run, as: UInt64.self),
                    UnsafeRawPointer(base).loadUnaligned(fromByteOffset: run &+ 8, as: UInt64.self)) {
                    run &+= 16
                }
            }
            while run < s.end, bytes[run] != UInt8(ascii: "\\") { run += 1 }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<run]))
            i = run
            guard i < s.end else { break }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(at: i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    // The pair was checked by `skipEscape`.
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(at: i + 2) - 0xDC00)
                    i += 6
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default: out.append(e)
            }
        }
        return out
    }

    /// Whether none of a word's eight bytes is a quote, a backslash, a control character (below 0x20) or outside
    /// ASCII: the bytes a string's reader can step over without a look. Each test is exact for the whole word (the
    /// tricks of Hacker's Delight 6-1 for a zero byte and for a byte below a bound up to 0x80).
    @inline(__always)
    static func isPlainText(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* UInt64(UInt8(ascii: "\""))), backslash = w ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let below0x20 = (w &- ones &* 0x20) & ~w
        let zeroQuote = (quote &- ones) & ~quote, zeroBackslash = (backslash &- ones) & ~backslash
        return (w | below0x20 | zeroQuote | zeroBackslash) & highs == 0
    }

    /// Whether none of the sixteen bytes of two words is a quote or a backslash (exact, as ``isPlainText(_:)``).
    @inline(__always)
    static func hasNoQuoteOrBackslash(_ a: UInt64, _ b: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = ones &* UInt64(UInt8(ascii: "\"")), backslashes = ones &* UInt64(UInt8(ascii: "\\"))
        let quoteA = a ^ quotes, backslashA = a ^ backslashes, quoteB = b ^ quotes, backslashB = b ^ backslashes
        let zeroA = (quoteA &- ones) & ~quoteA | (backslashA &- ones) & ~backslashA
        let zeroB = (quoteB &- ones) & ~quoteB | (backslashB &- ones) & ~backslashB
        return (zeroA | zeroB) & highs == 0
    }

    /// Whether a string read by ``stringRange()`` is exactly `word` (ASCII).
    func matches(_ s: StringRange, _ word: StaticString) -> Bool {
        if s.escaped { return text(of: s) == word.description }
        let count = word.utf8CodeUnitCount
        guard s.end - s.start == count else { return false }
        // Byte by byte: keys are short, and the sequence comparison cost more than the bytes (135 instructions a key).
        let w = word.utf8Start
        var i = 0
        while i < count {
            if bytes[s.start + i] != w[i] { return false }
            i += 1
        }
        return true
    }

    private mutating func skipEscape() throws(Stop) {
        let at = position
        guard position + 1 < bytes.count else { throw .syntax(offset: at) }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            guard let unit = readHex4(at: position + 2) else { throw .syntax(offset: at) }
            position += 6
            if (0xDC00..<0xE000).contains(unit) { throw .syntax(offset: at) }
            if (0xD800..<0xDC00).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                      bytes[position + 1] == UInt8(ascii: "u"), let low = readHex4(at: position + 2),
                      (0xDC00..<0xE000).contains(low) else { throw .syntax(offset: at) }
                position += 6
            }
        default:
            throw .syntax(offset: at)
        }
    }

    private func readHex4(at i: Int) -> UInt32? {
        guard i + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for k in i..<(i + 4) {
            let b = bytes[k]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    private func hex4(at i: Int) -> UInt32 { readHex4(at: i) ?? 0xFFFD }

    /// Steps over one well-formed UTF-8 sequence of 2 to 4 bytes (no overlong forms, no surrogates, nothing
    /// above U+10FFFF).
    private mutating func skipMultibyteCharacter() throws(Stop) {
        let b0 = bytes[position]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw .syntax(offset: position)
        }
        guard position + length <= bytes.count else { throw .syntax(offset: position) }
        let b1 = bytes[position + 1]
        guard b1 >= low, b1 <= high else { throw .syntax(offset: position) }
        for k in 2..<length where bytes[position + k] & 0xC0 != 0x80 { throw .syntax(offset: position) }
        position += length
    }

    // MARK: Numbers

    /// Reads a number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// Inlined where it is called: returned through memory, a number's fields were read back (16 bytes at a
    /// time) just after being stored 8 bytes at a time, a store-forwarding stall per number.
    @inline(__always)
    mutating func number() throws(Stop) -> Number {
        _ = peek()
        let start = position
        var n = Number(start: start, end: start, mantissa: 0, exponent: 0, negative: false, exact: true,
                       isInteger: true)
        let count = bytes.count
        var i = position
        if i < count, bytes[i] == UInt8(ascii: "-") {
            n.negative = true
            i += 1
        }
        guard i < count, isDigit(bytes[i]) else { throw .syntax(offset: start) }
        var significant = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            i = digits(from: i, into: &n, significant: &significant)
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            n.isInteger = false
            guard i < count, isDigit(bytes[i]) else { throw .syntax(offset: start) }
            let first = i
            i = digits(from: i, into: &n, significant: &significant)
            n.exponent -= i - first
        }
        if i < count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            n.isInteger = false
            var negative = false
            if i < count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                negative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < count, isDigit(bytes[i]) else { throw .syntax(offset: start) }
            var e = 0
            while i < count, isDigit(bytes[i]) {
                // Beyond a million the value is 0 or infinite whatever the digits; the text decides it.
                if e < 1_000_000 { e = e * 10 + Int(bytes[i] - UInt8(ascii: "0")) } else { n.exact = false }
                i += 1
            }
            n.exponent += negative ? -e : e
        }
        n.end = i
        position = i
        return n
    }

    /// Adds the run of decimal digits at `start` to `n`'s mantissa and returns the offset after it: eight bytes at a
    /// time while eight are left (a browser's coordinate, `0.6499999761581421`, is 16 digits, and a time 13), then
    /// one at a time. Byte by byte the digits cost 17 instructions each.
    @inline(__always)
    private func digits(from start: Int, into n: inout Number, significant: inout Int) -> Int {
        var i = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            while i &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let values = word ^ 0x3030_3030_3030_3030
                let run = JSONReader.leadingDigits(values)
                if run > 0 { n.add(digits: values, count: run, significant: &significant) }
                i &+= run
                if run < 8 { return i }
            }
        }
        while i < count, isDigit(bytes[i]) {
            n.add(bytes[i] - UInt8(ascii: "0"), significant: &significant)
            i += 1
        }
        return i
    }

    /// How many of a word's bytes, from its first (lowest) on, are decimal digits, given the word XOR `0x30` in
    /// every byte (a digit is then its value, 0 ... 9): a byte is no digit when its high bit is set, or when its
    /// low seven bits plus 0x76 reach 0x80 (at most 0xF5, so no byte carries into the next).
    @inline(__always)
    static func leadingDigits(_ values: UInt64) -> Int {
        let notDigit = (values | ((values & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080
        return notDigit.trailingZeroBitCount &>> 3
    }

    /// Reads a number as a `Double` (correctly rounded; infinite when beyond `Double`'s range).
    mutating func double() throws(Stop) -> Double { double(of: try number()) }

    /// The `Double` nearest a number read by ``number()``.
    func double(of n: Number) -> Double {
        if let v = JSONReader.fastPath(n, largestMantissa: 1 << 53, powers: JSONReader.doublePowers) { return v }
        #if arch(x86_64) && !os(Windows) && !os(Android)
        if let v = JSONReader.extendedPath(n) { return v }
        #endif
        return Double(text(of: n)) ?? .nan
    }

    #if arch(x86_64) && !os(Windows) && !os(Android)
    /// The 17 to 19 significant digits a browser writes for a `float` coordinate or pressure (`33.47999999999999`,
    /// `0.6499999761581421`), which Clinger's fast path leaves out, read without the C library: in an 80-bit float
    /// the mantissa (below 2^64) and 10^0 ... 10^27 are exact, so their product or quotient is rounded once, to 64
    /// bits. Rounding that again to a `Double` gives the correctly rounded value unless the 11 bits it drops are at
    /// half a unit, where the first rounding may have landed on the tie: then, and only then, `nil` (the text is read
    /// by `Double(_:)`). 98 of the 684 numbers of a 171-point signature_pad recording took that slow path, at 1,700
    /// instructions each.
    private static func extendedPath(_ n: Number) -> Double? {
        guard n.exact, n.exponent.magnitude < extendedPowers.count else { return nil }
        let m = Float80(n.mantissa)
        let v = n.exponent >= 0 ? m * extendedPowers[n.exponent] : m / extendedPowers[-n.exponent]
        let dropped = v.significandBitPattern & 0x7ff
        guard dropped < 0x3ff || dropped > 0x401 else { return nil }
        let d = Double(v)
        return n.negative ? -d : d
    }

    /// 10^0 ... 10^27, every one exact in a `Float80` (5^27 < 2^64).
    private static let extendedPowers: [Float80] = (0...27).map { k in (0..<k).reduce(Float80(1)) { p, _ in p * 10 } }
    #endif

    /// The `Float` nearest a number read by ``number()`` (not via `Double`, which could round twice).
    func float(of n: Number) -> Float {
        JSONReader.fastPath(n, largestMantissa: 1 << 24, powers: JSONReader.floatPowers) ?? Float(text(of: n)) ?? .nan
    }

    /// Clinger's fast path: the value in one correctly rounded operation when the mantissa and the power of
    /// ten are both exact in `F`; `nil` otherwise.
    @inline(__always)
    private static func fastPath<F: BinaryFloatingPoint>(_ n: Number, largestMantissa: UInt64, powers: [F]) -> F? {
        guard n.exact, n.mantissa <= largestMantissa, n.exponent.magnitude < powers.count else { return nil }
        let m = F(n.mantissa)
        let v = n.exponent >= 0 ? m * powers[n.exponent] : m / powers[-n.exponent]
        return n.negative ? -v : v
    }

    /// A number's text, as written.
    func text(of n: Number) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[n.start..<n.end]), as: UTF8.self)
    }

    private func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    /// 10^0 ... 10^22, every one exact in a `Double`.
    private static let doublePowers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { p, _ in p * 10 } }
    /// 10^0 ... 10^10, every one exact in a `Float`.
    private static let floatPowers: [Float] = (0...10).map { k in (0..<k).reduce(Float(1)) { p, _ in p * 10 } }
}

extension JSONReader.Number {
    /// Appends a decimal digit to the mantissa; past 19 significant digits the number is no longer exact.
    fileprivate mutating func add(_ digit: UInt8, significant: inout Int) {
        guard exact else { return }
        if mantissa == 0 && digit == 0 { return }
        significant += 1
        if significant > 19 {
            exact = false
            return
        }
        mantissa = mantissa &* 10 &+ UInt64(digit)
    }

    /// Appends the `count` (1 ... 8) digits in the low bytes of `values`, the first in the lowest, each byte a digit's
    /// value: what ``add(_:significant:)`` would make of them one by one, with one multiplication for all of them
    /// where they keep the mantissa within 19 significant digits.
    fileprivate mutating func add(digits values: UInt64, count: Int, significant: inout Int) {
        guard exact else { return }
        // Zeros before the first significant digit are not counted, as one by one. The byte after the digits is no
        // digit, so no zero: the count of zero bytes from the first stops within the digits.
        let counted = mantissa == 0 ? count - Swift.min(count, values.trailingZeroBitCount &>> 3) : count
        guard significant + counted <= 19 else {
            for k in 0..<count { add(UInt8(truncatingIfNeeded: values &>> (8 &* UInt64(k))), significant: &significant) }
            return
        }
        significant += counted
        // The digits moved to the word's top bytes, the bytes after them shifted out: zeros before them.
        let value = Self.value(values &<< (8 &* UInt64(8 - count)))
        mantissa = mantissa == 0 ? value : mantissa &* Self.power(count) &+ value
    }

    /// The eight-digit number whose digits' values are the bytes of `d`, the first in the lowest byte: pairs of
    /// digits, then fours, then all eight, each step a multiplication and a shift (eight digits in one word, as Daniel
    /// Lemire parses them, 2018).
    @inline(__always)
    private static func value(_ d: UInt64) -> UInt64 {
        let pairs = (d &* 10 &+ d >> 8) & 0x00FF_00FF_00FF_00FF
        let fours = (pairs &* 100 &+ pairs >> 16) & 0x0000_FFFF_0000_FFFF
        return (fours &* 10_000 &+ fours >> 32) & 0xFFFF_FFFF
    }

    /// 10^`k`, for `k` in 1 ... 8.
    @inline(__always)
    private static func power(_ k: Int) -> UInt64 {
        switch k {
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        default: return 100_000_000
        }
    }
}
