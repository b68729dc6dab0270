// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

extension RenderRequest {
    /// What a pen option replaces of the pens a file records.
    public enum PenOverride: Sendable, Hashable {
        /// ``RenderRequest/penColor`` replaces these recorded colours, in the order the file first uses them.
        case color(replaced: [Color])
        /// These width options replace the recorded widths.
        case widths([Option])

        /// The override in words, with each option named by `name`: `pen-color replaces the pen colour the file
        /// records: #c0392b80`.
        /// - Parameter name: how to name an option (a flag with its value on a command line, the bare name in a
        ///   query answer, which never repeats what a caller sent).
        public func sentence(naming name: (Option) -> String) -> String {
            switch self {
            case let .color(replaced):
                return "\(name(.penColor)) replaces the pen colour\(replaced.count == 1 ? "" : "s") the file records: "
                    + replaced.map(\.description).joined(separator: ", ")
            case let .widths(options):
                return options.map(name).joined(separator: " and ")
                    + " replace\(options.count == 1 ? "s" : "") the pen widths the file records"
            }
        }
    }

    /// What the pen options replace of `signature`'s recorded pens; empty when they replace nothing the file says
    /// (no pen option, no recorded pen, or the same colour).
    /// - Parameter signature: the signature to be drawn.
    public func overrides(of signature: Signature) -> [PenOverride] {
        guard !signature.pens.isEmpty else { return [] }
        var overrides: [PenOverride] = []
        if let penColor {
            var replaced: [Color] = []
            for pen in signature.pens where pen.blend == .normal && pen.color != penColor && !replaced.contains(pen.color) {
                replaced.append(pen.color)
            }
            if !replaced.isEmpty { overrides.append(.color(replaced: replaced)) }
        }
        let widths = [(Option.penWidth, penWidth), (.minWidth, minWidth), (.maxWidth, maxWidth)].filter { $0.1 != nil }.map(\.0)
        if !widths.isEmpty, signature.pens.contains(where: { $0.minWidth != nil || $0.maxWidth != nil }) {
            overrides.append(.widths(widths))
        }
        return overrides
    }
}
