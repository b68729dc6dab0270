// SPDX-License-Identifier: Apache-2.0

/// The per-group pen settings of signature_pad's `toData()` and their defaults; a group's settings are its stroke's
/// `Pen` (see ``SignaturePadDecoder``).
enum SignaturePadSetting: CaseIterable {
    case penColor, dotSize, minWidth, maxWidth, velocityFilterWeight, compositeOperation

    /// The JSON field name.
    var field: String { key.description }

    /// The JSON field name, for matching a key's bytes.
    var key: StaticString {
        switch self {
        case .penColor: return "penColor"
        case .dotSize: return "dotSize"
        case .minWidth: return "minWidth"
        case .maxWidth: return "maxWidth"
        case .velocityFilterWeight: return "velocityFilterWeight"
        case .compositeOperation: return "compositeOperation"
        }
    }

    /// Whether the JSON value is a string (else a number).
    var isText: Bool { self == .penColor || self == .compositeOperation }

    /// signature_pad's default (its `SignaturePad` constructor, version 4 and 5), as JSON text.
    var defaultValue: String {
        switch self {
        case .penColor: return "black"
        case .dotSize: return "0"
        case .minWidth: return "0.5"
        case .maxWidth: return "2.5"
        case .velocityFilterWeight: return "0.7"
        case .compositeOperation: return "source-over"
        }
    }
}
