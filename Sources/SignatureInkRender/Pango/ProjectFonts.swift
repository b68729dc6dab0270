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
/// which lends the caller a font map and context that no other thread holds, and makes one more when every one is
/// lent: texts on several threads are laid out at once, and there are never more font maps than threads that set
/// text at the same moment. With one font map behind one lock, two workers signing consents took turns at their
/// text (a quarter of a signing: HarfBuzz, Pango and GLib in perf) and spun waiting for it (5 % of the server's
/// time, BENCHMARKS.md). Every font map is made from the same configuration, so a text gives the same glyphs and the
/// same bytes whichever one lays it out.
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

    /// A context and, through the reference it holds, its font map, used by one thread at a time (it is lent by
    /// ``withContext(_:)``).
    private struct State: @unchecked Sendable {
        var context: OpaquePointer
    }

    /// The states not lent now, and why the fonts could not be loaded, once that is known.
    private struct Pool {
        var idle: [State] = []
        var failure: RenderError?
    }

    private static let pool = Mutex(Pool())

    /// Runs `body` with a Pango context that no other thread uses while `body` runs.
    /// - Throws: ``RenderError/text(_:)`` when none of the project's fonts is installed, or what `body` throws.
    static func withContext<R>(_ body: (OpaquePointer) throws(RenderError) -> R) throws(RenderError) -> R {
        let state = try borrow()
        defer { pool.withLock { $0.idle.append(state) } }
        return try body(state.context)
    }

    /// A state no thread holds: an idle one, or a new one, made outside the lock so that other threads go on.
    private static func borrow() throws(RenderError) -> State {
        let idle: Result<State?, RenderError> = pool.withLock { pool in
            if let failure = pool.failure { return .failure(failure) }
            return .success(pool.idle.popLast())
        }
        if let state = try idle.get() { return state }
        switch load() {
        case let .success(state): return state
        case let .failure(error):
            pool.withLock { $0.failure = error }
            throw error
        }
    }

    /// Builds the fontconfig configuration, a font map that uses it and a context; once for each state.
    private static func load() -> Result<State, RenderError> {
        if case let .failure(error) = PangoLibrary.loaded { return .failure(error) }
        guard let config = FcConfigCreate() else { return .failure(.text("fontconfig could not be started")) }
        defer { FcConfigDestroy(config) }
        let text = Array(configuration.utf8) + [0]  // fontconfig reads a NUL-terminated buffer
        let parsed = text.withUnsafeBufferPointer { FcConfigParseAndLoadFromMemory(config, $0.baseAddress, 1) }
        guard parsed != 0, FcConfigBuildFonts(config) != 0 else {
            return .failure(.text("the font configuration could not be loaded"))
        }
        guard let fonts = FcConfigGetFonts(config, FcSetSystem), fonts.pointee.nfont > 0 else {
            return .failure(.text("none of the fonts is installed (\(files.joined(separator: ", ")) in "
                                  + "\(directories.joined(separator: " or ")); Debian's fonts-noto-core and fonts-noto-cjk have them)"))
        }
        guard let map = pango.pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
            return .failure(.text("Pango has no FreeType font map"))
        }
        pango.pango_fc_font_map_set_config(OpaquePointer(map), config)
        guard let context = pango.pango_font_map_create_context(map) else {
            return .failure(.text("Pango could not make a context"))
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
        return .success(State(context: context))
    }
}
