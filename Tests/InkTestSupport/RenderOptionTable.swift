// SPDX-License-Identifier: Apache-2.0

/// Every render option once: its name in the library (`RenderRequest.Option`), its command-line flag, its query
/// parameter, and a value that changes the output. The render request, the command line's and the server's tests
/// read this one table, so a front end that drops, renames or reads an option differently fails them.
public enum RenderOptionTable {
    public struct Row: Sendable, CustomStringConvertible {
        /// The option's name in the library.
        public var option: String
        /// The command-line flag.
        public var flag: String
        /// The `/render` query parameter.
        public var query: String
        /// A value, or `nil` for a switch (a bare flag, `true` in a query).
        public var value: String?

        /// The arguments of the command line: the flag and its value.
        public var arguments: [String] { [flag] + (value.map { [$0] } ?? []) }
        /// The query's `name=value`, percent-encoded.
        public var queryItem: String {
            query + "=" + (value ?? "true").utf8.map { byte -> String in
                let c = Character(Unicode.Scalar(byte))
                return c.isLetter || c.isNumber || "-._".contains(c) ? String(c) : "%" + String(byte, radix: 16, uppercase: true)
            }.joined()
        }
        public var description: String { flag }
    }

    public static let rows: [Row] = [
        Row(option: "format", flag: "--format", query: "format", value: "svg"),
        Row(option: "scale", flag: "--scale", query: "scale", value: "2"),
        Row(option: "pen-color", flag: "--pen-color", query: "pen-color", value: "#1a237e"),
        Row(option: "background", flag: "--background", query: "background", value: "#fffbe6"),
        Row(option: "pen-width", flag: "--pen-width", query: "pen-width", value: "4"),
        Row(option: "min-width", flag: "--min-width", query: "min-width", value: "0.5"),
        Row(option: "max-width", flag: "--max-width", query: "max-width", value: "6"),
        Row(option: "width", flag: "--width", query: "width", value: "400"),
        Row(option: "height", flag: "--height", query: "height", value: "150"),
        Row(option: "fit", flag: "--fit", query: "fit", value: nil),
        Row(option: "crop", flag: "--crop", query: "crop", value: nil),
        Row(option: "padding", flag: "--padding", query: "padding", value: "40"),
        Row(option: "view-mode", flag: "--view-mode", query: "view-mode", value: nil),
        Row(option: "opacity", flag: "--opacity", query: "opacity", value: "0.7"),
        Row(option: "signature-line", flag: "--signature-line", query: "signature-line", value: nil),
        Row(option: "x-mark", flag: "--x-mark", query: "x-mark", value: nil),
        Row(option: "watermark", flag: "--watermark", query: "watermark", value: "COPY"),
        Row(option: "timestamp", flag: "--timestamp", query: "timestamp", value: nil),
        Row(option: "timestamp-pattern", flag: "--timestamp-pattern", query: "timestamp-pattern", value: "dd.MM.yyyy HH:mm"),
        Row(option: "dpi", flag: "--dpi", query: "dpi", value: "150"),
        Row(option: "path-per-stroke", flag: "--path-per-stroke", query: "path-per-stroke", value: nil),
    ]

    /// Options that only matter beside another: each row's arguments with the format or framing that shows them.
    public static func showing(_ row: Row) -> [Row] {
        switch row.option {
        case "path-per-stroke": return [rows[0], row]
        case "padding": return [rows.first { $0.option == "crop" }!, row]
        default: return [row]
        }
    }
}
