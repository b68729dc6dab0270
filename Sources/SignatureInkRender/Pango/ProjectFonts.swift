// SPDX-License-Identifier: Apache-2.0
import CCairo
import CPango
import Synchronization

/// The fonts all text is set in, and the one Pango font map that uses them.
///
/// The set is fixed: Noto Sans for Latin, Greek and Cyrillic, Noto Sans Arabic, Hebrew and Devanagari, and Noto Sans
/// CJK for Chinese, Japanese and Korean, from Debian's `fonts-noto-core` and `fonts-noto-cjk` (which `make`
/// installs). The fontconfig configuration is built here, in memory, and names only those files, so a host's other
/// fonts and its own fontconfig files never change what is drawn: the same text gives the same glyphs and the same
/// bytes wherever the packages are installed.
///
/// A Pango font map is not safe to use from several threads at once, so every use goes through ``withContext(_:)``,
/// which holds one lock. Text is a small part of a render (a caption, a name), so the lock costs little.
enum ProjectFonts {
    /// Folders that hold the fonts, as Debian installs them.
    static let directories = ["/usr/share/fonts/truetype/noto", "/usr/share/fonts/opentype/noto"]

    /// The font files used, by name; every other file in ``directories`` is left out.
    static let files = [
        "NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf", "NotoSans-BoldItalic.ttf",
        "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf",
        "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf",
        "NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf",
        "NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc",
    ]

    /// The families in the order Pango tries them for each character, ending with the CJK family that suits
    /// `language` (Japanese, Korean and traditional Chinese forms differ from simplified Chinese ones).
    static func families(language: String) -> String {
        let tag = language.lowercased()
        let cjk = tag.hasPrefix("ja") ? "JP" : tag.hasPrefix("ko") ? "KR"
            : (tag.hasPrefix("zh-hant") || tag.hasPrefix("zh-tw") || tag.hasPrefix("zh-hk")) ? "TC" : "SC"
        return "Noto Sans,Noto Sans Arabic,Noto Sans Hebrew,Noto Sans Devanagari,Noto Sans CJK \(cjk)"
    }

    /// The fontconfig configuration: the folders, the system's and the user's font caches (so that no font is
    /// scanned again when the packages' caches are current), and a selection that accepts only ``files``.
    static var configuration: String {
        let dirs = directories.map { "<dir>\($0)</dir>" }.joined()
        let accepted = files.map { "<glob>*/\($0)</glob>" }.joined()
        return """
            <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig>\(dirs)<cachedir>/var/cache/fontconfig</cachedir>\
            <cachedir prefix="xdg">fontconfig</cachedir>\
            <selectfont><rejectfont><glob>*</glob></rejectfont><acceptfont>\(accepted)</acceptfont></selectfont>\
            </fontconfig>
            """
    }

    /// The Pango state shared by every text, made on first use. Its pointers are used only under the lock.
    private enum Loaded: @unchecked Sendable {
        /// The font map and one context made from it.
        case ready(fontMap: UnsafeMutablePointer<PangoFontMap>, context: OpaquePointer)
        /// Why the fonts could not be loaded.
        case failed(RenderError)
    }

    private static let shared = Mutex<Loaded?>(nil)

    /// Runs `body` with the shared Pango context, holding the lock that every use of Pango takes.
    /// - Throws: ``RenderError/text(_:)`` when none of the project's fonts is installed, or what `body` throws.
    static func withContext<R>(_ body: (OpaquePointer) throws(RenderError) -> R) throws(RenderError) -> R {
        let result: Result<R, RenderError> = shared.withLock { loaded in
            if loaded == nil { loaded = load() }
            switch loaded {
            case let .ready(_, context):
                do throws(RenderError) { return .success(try body(context)) } catch { return .failure(error) }
            case let .failed(error): return .failure(error)
            case nil: return .failure(.text("the fonts could not be loaded"))
            }
        }
        return try result.get()
    }

    /// Builds the fontconfig configuration and the font map; called once, under the lock.
    private static func load() -> Loaded {
        if case let .failure(error) = PangoLibrary.loaded { return .failed(error) }
        guard let config = FcConfigCreate() else { return .failed(.text("fontconfig could not be started")) }
        defer { FcConfigDestroy(config) }
        let text = Array(configuration.utf8) + [0]  // fontconfig reads a NUL-terminated buffer
        let parsed = text.withUnsafeBufferPointer { FcConfigParseAndLoadFromMemory(config, $0.baseAddress, 1) }
        guard parsed != 0, FcConfigBuildFonts(config) != 0 else {
            return .failed(.text("the font configuration could not be loaded"))
        }
        guard let fonts = FcConfigGetFonts(config, FcSetSystem), fonts.pointee.nfont > 0 else {
            return .failed(.text("none of the fonts is installed (\(files.joined(separator: ", ")) in "
                                  + "\(directories.joined(separator: " or ")); Debian's fonts-noto-core and fonts-noto-cjk have them)"))
        }
        guard let map = pango.pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
            return .failed(.text("Pango has no FreeType font map"))
        }
        let fontMap = map
        pango.pango_fc_font_map_set_config(OpaquePointer(map), config)
        guard let context = pango.pango_font_map_create_context(fontMap) else {
            return .failed(.text("Pango could not make a context"))
        }
        // Outlines at their design positions: no hinting and no rounding, so a text measures the same at every
        // scale and in every format.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango.pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango.pango_context_set_round_glyph_positions(context, 0)
        return .ready(fontMap: fontMap, context: context)
    }
}
