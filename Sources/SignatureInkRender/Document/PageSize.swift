// SPDX-License-Identifier: Apache-2.0

/// A paper size by name: the one list of papers the command line, the server, a consent layout and a consent record
/// share. Its JSON form is its name, `"a4"` or `"letter"`; ``setup`` is the paper with its margins.
public enum PageSize: String, Sendable, Hashable, Codable, CaseIterable {
    /// ISO A4, 210 x 297 mm, with 2 cm margins: ``PageSetup/a4``.
    case a4
    /// US Letter, 8.5 x 11 inches, with 3/4 inch margins: ``PageSetup/letter``.
    case letter

    /// The paper and its margins.
    public var setup: PageSetup {
        switch self {
        case .a4: .a4
        case .letter: .letter
        }
    }

    /// Reads a page size from its name, refusing any other text with the names it takes.
    /// - Throws: `DecodingError.dataCorrupted` saying which names are accepted.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let size = PageSize(rawValue: name) else {
            let names = Self.allCases.map(\.rawValue).joined(separator: " or ")
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(name)' is not a page size; expected \(names)"))
        }
        self = size
    }
}
