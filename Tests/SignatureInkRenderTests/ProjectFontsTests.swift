// SPDX-License-Identifier: Apache-2.0
import CPango
@testable import SignatureInkRender
import Testing

@Suite struct ProjectFontsTests {
    /// The family names of the faces the project's configuration loads, one per face.
    static func families() throws -> [String] {
        let (config, fonts) = try ProjectFonts.makeConfiguration().get()
        defer { FcConfigDestroy(config) }
        return (0..<Int(fonts.pointee.nfont)).compactMap { i in
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(fonts.pointee.fonts[i], FC_FAMILY, 0, &value) == FcResultMatch, let value else {
                return nil
            }
            return String(cString: value)
        }
    }

    /// The monospaced CJK faces share their files with the proportional ones and cover the same characters; the text
    /// never asks for them, and each of them made every font sort of Pango's compare one more large character set.
    @Test func everyFaceButTheMonospacedCJKOnesIsLoaded() throws {
        let families = try Self.families()
        #expect(!families.contains { $0.hasPrefix("Noto Sans Mono CJK") }, "\(families)")
        for region in ["JP", "KR", "SC", "TC", "HK"] {
            #expect(families.filter { $0 == "Noto Sans CJK \(region)" }.count == 2, "regular and bold: \(families)")
        }
        #expect(families.filter { $0 == "Noto Sans" }.count == 4)
        #expect(families.count == 4 + 2 + 2 + 2 + 10 + 1, "\(families)")
    }
}
