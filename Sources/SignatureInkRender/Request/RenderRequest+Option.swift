// SPDX-License-Identifier: Apache-2.0
import SignatureInk

extension RenderRequest {
    /// A render option by its one name: the command line's flag is `--` and the name, the server's query parameter
    /// is the name.
    public enum Option: String, Sendable, Hashable, CaseIterable {
        /// `png`, `svg` or `pdf`: ``RenderRequest/format``.
        case format
        /// A number: ``RenderRequest/scale``.
        case scale
        /// A CSS colour: ``RenderRequest/penColor``.
        case penColor = "pen-color"
        /// `transparent` or a CSS colour: ``RenderRequest/background``.
        case background
        /// A number: ``RenderRequest/penWidth``.
        case penWidth = "pen-width"
        /// A number: ``RenderRequest/minWidth``.
        case minWidth = "min-width"
        /// A number: ``RenderRequest/maxWidth``.
        case maxWidth = "max-width"
        /// A number: the box's width (``RenderRequest/box``).
        case width
        /// A number: the box's height (``RenderRequest/box``).
        case height
        /// A switch: fit the ink into the box (``RenderRequest/frame(_:)``).
        case fit
        /// A switch: crop the output to the ink (``RenderRequest/frame(_:)``).
        case crop
        /// A number: ``RenderRequest/padding``.
        case padding
        /// A switch: ``RenderRequest/viewMode``.
        case viewMode = "view-mode"
        /// A number: ``RenderRequest/opacity``.
        case opacity
        /// A switch: the decorations' signature line.
        case signatureLine = "signature-line"
        /// A switch: the decorations' "X" mark.
        case xMark = "x-mark"
        /// Text: the decorations' watermark.
        case watermark
        /// A switch: the capture time in ISO 8601 under the line.
        case timestamp
        /// A timestamp pattern such as `dd.MM.yyyy HH:mm`: the capture time in it under the line.
        case timestampPattern = "timestamp-pattern"
        /// A number: ``RenderRequest/dpi``.
        case dpi
        /// A switch: ``RenderRequest/pathPerStroke``.
        case pathPerStroke = "path-per-stroke"

        /// The option's name: `pen-color`.
        public var name: String { rawValue }

        /// Whether the option is a switch, given without a value on the command line and as `true` or `false` in a
        /// query.
        public var isSwitch: Bool {
            switch self {
            case .fit, .crop, .viewMode, .signatureLine, .xMark, .timestamp, .pathPerStroke: return true
            default: return false
            }
        }
    }

    /// Sets `option` from its text, as a query parameter or a command-line flag gives it.
    ///
    /// Numbers are decimal (`2`, `0.5`, `1e3`); switches are `true`, empty (both on) or `false` (left as it is); colours are CSS
    /// colours (a name, `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `hsl()`). Ranges and contradictions between options
    /// are checked by ``validate()``, except fit against crop, which cannot both be kept and is refused here.
    /// - Parameters:
    ///   - option: the option.
    ///   - text: its value.
    /// - Throws: ``Invalid`` when the text is not of the option's kind, naming the option and never quoting the text.
    public mutating func set(_ option: Option, to text: String) throws(Invalid) {
        func number() throws(Invalid) -> Double {
            guard let value = Double(text), value.isFinite else { throw Invalid(option, .notANumber) }
            return value
        }
        func on() throws(Invalid) -> Bool {
            switch text {
            case "", "true": return true
            case "false": return false
            default: throw Invalid(option, .notASwitch)
            }
        }
        switch option {
        case .format:
            guard let format = Format(rawValue: text) else { throw Invalid(option, .notAFormat) }
            self.format = format
        case .scale: scale = try number()
        case .penColor:
            guard let color = Color(css: text) else { throw Invalid(option, .notAColor(transparentAllowed: false)) }
            penColor = color
        case .background:
            guard let color = text == "transparent" ? Color.clear : Color(css: text) else {
                throw Invalid(option, .notAColor(transparentAllowed: true))
            }
            background = color
        case .penWidth: penWidth = try number()
        case .minWidth: minWidth = try number()
        case .maxWidth: maxWidth = try number()
        case .width: box = Box(width: try number(), height: box.height)
        case .height: box = Box(width: box.width, height: try number())
        case .fit: if try on() { try frame(.fit) }
        case .crop: if try on() { try frame(.crop) }
        case .padding: padding = try number()
        case .viewMode: viewMode = try on() || viewMode
        case .opacity: opacity = try number()
        case .signatureLine: decorations.signatureLine = try on() || decorations.signatureLine
        case .xMark: decorations.xMark = try on() || decorations.xMark
        case .watermark: decorations.watermark = text
        case .timestamp:
            // A pattern given before stays: it implies the timestamp.
            if try on(), decorations.timestamp == nil { decorations.timestamp = .iso8601 }
        case .timestampPattern:
            do { decorations.timestamp = try TimestampFormat(pattern: text) } catch {
                guard case let .invalidOption(_, message) = error else { throw Invalid(option, .rejected("\(error)")) }
                throw Invalid(option, .rejected(message))
            }
        case .dpi: dpi = try number()
        case .pathPerStroke: pathPerStroke = try on() || pathPerStroke
        }
    }

    /// Sets each option from its text, in order, then checks the whole request.
    /// - Parameter values: options and their texts, as ``set(_:to:)`` reads them.
    /// - Throws: ``Invalid`` for the first value that is not of its option's kind, or what ``validate()`` throws.
    public init(values: some Sequence<(Option, String)>) throws(Invalid) {
        self.init()
        for (option, text) in values { try set(option, to: text) }
        try validate()
    }
}

extension RenderRequest {
    /// Why a request cannot be rendered: the option, and what it takes.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with an option's value.
        public enum Reason: Sendable, Hashable, CustomStringConvertible {
            /// Not a finite decimal number.
            case notANumber
            /// Not `true`, `false` or empty.
            case notASwitch
            /// Not `png`, `svg` or `pdf`.
            case notAFormat
            /// Not a CSS colour (nor `transparent`, where that is allowed).
            case notAColor(transparentAllowed: Bool)
            /// Outside the range, written as an interval: `(0, 16]`.
            case outside(String)
            /// Given together with an option it contradicts.
            case contradicts(Option)
            /// A width above the other option's width.
            case above(Option, Double)
            /// A box given with crop, which sizes the output to the ink.
            case takesNoBox
            /// Refused by a rule of its own, in words.
            case rejected(String)

            public var description: String { description(prefix: "") }

            /// The reason in words, with other options named after `prefix` (`--` on a command line).
            func description(prefix: String) -> String {
                switch self {
                case .notANumber: return "must be a number"
                case .notASwitch: return "must be true or false"
                case .notAFormat: return "must be png, svg or pdf"
                case let .notAColor(transparent):
                    return "is not \(transparent ? "transparent or " : "")a CSS colour (a name, #rgb, #rrggbb, #rrggbbaa, rgb(), hsl())"
                case let .outside(range): return "is outside \(range)"
                case let .contradicts(other): return "cannot be given with \(prefix)\(other.name); give one of them"
                case let .above(other, value): return "is larger than \(prefix)\(other.name) \(number(value))"
                case .takesNoBox:
                    return "sizes the output to the ink and takes no \(prefix)width or \(prefix)height; use \(prefix)fit to fit the ink into a box"
                case let .rejected(message): return message
                }
            }
        }

        /// The option at fault.
        public var option: Option
        /// What is wrong.
        public var reason: Reason
        /// The value, when it was read as a number: it is safe to show, unlike text a caller sent.
        public var value: Double?

        /// Creates the error.
        /// - Parameters:
        ///   - option: the option at fault.
        ///   - reason: what is wrong.
        ///   - value: the number given, when it is one.
        public init(_ option: Option, _ reason: Reason, _ value: Double? = nil) {
            self.option = option
            self.reason = reason
            self.value = value
        }

        /// The error as a query parameter's: `opacity 2 is outside [0, 1]`.
        public var description: String { description(prefix: "") }

        /// The error with every option named after `prefix`: `--opacity 2 is outside [0, 1]` for a command line.
        /// - Parameter prefix: what comes before an option's name, such as `--`.
        public func description(prefix: String) -> String {
            let subject = prefix + option.name + (value.map { " " + number($0) } ?? "")
            return subject + " " + reason.description(prefix: prefix)
        }
    }
}
