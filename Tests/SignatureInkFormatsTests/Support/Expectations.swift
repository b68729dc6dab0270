// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignatureInk
import SignatureInkFormats

/// The error decoding `data` throws, or `nil` when it decodes.
func decodeError(_ data: Data, as format: InkFormat? = nil, limits: DecodingLimits = .default) -> FormatError? {
    do {
        _ = try InkDecoder(limits: limits).decode(data, as: format)
        return nil
    } catch {
        return error
    }
}

/// Whether decoding `json` as `format` fails with a syntax error on `line`, at `column` or the one after.
func isSyntaxError(_ json: String, as format: InkFormat, line: Int, column: Int) -> Bool {
    guard case let .syntax(l, c, _) = decodeError(Data(json.utf8), as: format) else { return false }
    return l == line && (column...column + 1).contains(c)
}

/// Whether an error says where the problem is: a line (syntax) or a field path, or is a limit.
func hasPosition(_ error: FormatError) -> Bool {
    switch error {
    case let .syntax(line, column, _): return line > 0 && column > 0
    case let .field(path, _): return !path.isEmpty
    case .limitExceeded: return true
    default: return false
    }
}

/// Whether time never goes backwards inside any stroke.
func timesAreMonotonic(_ s: Signature) -> Bool {
    s.strokes.allSatisfy { stroke in zip(stroke, stroke.dropFirst()).allSatisfy { $0.t <= $1.t } }
}

/// Whether every pressure is in 0...1.
func pressuresAreNormalised(_ s: Signature) -> Bool {
    s.samples.allSatisfy { $0.pressure.map { (0...1).contains($0) } ?? true }
}

extension Data {
    /// A copy with `text` put in place of the first occurrence of `target`; the copy is unchanged when
    /// `target` does not occur.
    func replacingFirst(_ target: String, with text: String) -> Data {
        guard let range = self.range(of: Data(target.utf8)) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: Data(text.utf8))
        return copy
    }
}

extension Signature {
    /// The signature without its recorded pens: what a format that gives every stroke a pen (signature_pad groups)
    /// round-trips exactly for a signature that records none.
    var withoutPens: Signature {
        var s = self
        s.pens = []
        return s
    }
}
