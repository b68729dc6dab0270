// SPDX-License-Identifier: Apache-2.0
import CCairo
import CPango
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fonts all text is set in, and the Pango font maps that use them.
///
/// The set is fixed: Noto Sans for Latin, Greek and Cyrillic, Noto Sans Arabic, Hebrew and Devanagari, and Noto Sans
/// CJK for Chinese, Japanese and Korean, from Debian's `fonts-noto-core` and `fonts-noto-cjk` (which `make`
/// installs). The fontconfig configuration is built here, in memory, and names only those files, so a host's other
/// fonts and its own fontconfig files never change what is drawn: the same text gives the same glyphs and the same
/// bytes wherever the packages are installed. A text that the CJK collections are not needed for is set with a
/// font map that does not load them (``FontSet``), with the same glyphs.
///
/// A Pango font map is not safe to use from several threads at once, so every use goes through
/// ``withContext(language:direction:for:fonts:_:)``, which lends the caller font maps and a context that no other
/// thread holds, and makes more when every one is lent: texts on several threads are laid out at once, and there are
/// never more font maps of a font set than threads that set text at the same moment. With one font map behind one lock,
/// two workers signing consents took turns at their text (a quarter of a signing: HarfBuzz, Pango and GLib in perf) and
/// spun waiting for it (5 % of the server's time, BENCHMARKS.md). Every font map of a font set is made from the same
/// configuration, so a text gives the same glyphs and the same bytes whichever one lays it out.
///
/// Cairo 1.16, however, opens and closes the FreeType faces of all font maps itself, with one FreeType library, and
/// calls `FT_New_Face` outside its own lock; it keeps at most ten faces open and closes one that no thread is using
/// when an eleventh is needed. Texts in more than ten faces (Latin, Arabic, Hebrew, Devanagari and CJK, regular and
/// bold) set on several threads at once therefore opened and closed faces at the same moment, which corrupts
/// FreeType's list of faces: eight threads signing consents in eight scripts crashed the process, or failed with
/// "error occurred in libfreetype". So by default only one thread sets text at a time
/// (``withContext(language:direction:for:fonts:_:)`` takes a process-wide lock). A process that sets text on several
/// threads (the server) calls ``openEveryFace()`` once: every face of the project's fonts is then opened and never
/// closed, Cairo never opens or closes one again nor adds or frees a font face (``openEveryFace()`` says why that
/// matters), and threads set text at once without the lock. Each font map keeps the paragraph layouts it made
/// (``layout(_:_:)``), so that a document is laid out once from pagination to drawing, and text that the next document
/// sets again (a consent document's own text, in a batch of consents to it) is not laid out again.
package enum ProjectFonts {
    /// Where Debian's packages install the fonts: `fonts-noto-core`, `fonts-noto-cjk` and `fonts-ecolier-court`.
    static let notoFolder = "/usr/share/fonts/truetype/noto", cjkFolder = "/usr/share/fonts/opentype/noto",
               handwritingFolder = "/usr/share/fonts/truetype/ecolier-court"

    /// Folders that hold the fonts.
    static let directories = [notoFolder, cjkFolder, handwritingFolder]

    /// The font files used, by name; every other file in ``directories`` is left out.
    static let files = FontSet.all.paths.map { String($0.split(separator: "/").last ?? "") }

    /// The cursive face of typed signatures (`handwriting`): the first family only when asked for.
    static let handwritingFile = "Ecolier-court.ttf"

    /// Which of the project's fonts a configuration, and the font map made from it, loads.
    ///
    /// Pango sorts every face of its configuration for each new font description (each size, weight and language),
    /// and the sort merges the character set of every face it keeps. The CJK collections' twenty faces have the
    /// largest sets by far, so a text that none of their characters is in is set with a font map that does not load
    /// them (``common``). That text gives the same glyphs and the same bytes either way: every family but the CJK
    /// ones comes before them in ``families(language:handwriting:)``, so the first face that has a character of it
    /// is the same face in both. Counted with callgrind, in a new process: the study consent with two signers went
    /// from 111.5 M to 99.5 M instructions, a render with a timestamp and a watermark from 38.3 M to 30.6 M, with
    /// the same bytes out.
    enum FontSet: Hashable, Sendable {
        /// Latin, Greek, Cyrillic, Arabic, Hebrew and Devanagari, and the cursive face of typed signatures.
        case common
        /// Every font: ``common`` and the CJK collections.
        case all

        /// The font files, where Debian's packages install them (in ``directories``).
        var paths: [String] {
            let noto = [
                "NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf", "NotoSans-BoldItalic.ttf",
                "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf",
                "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf",
                "NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf",
            ].map { "\(notoFolder)/\($0)" }
            let common = noto + ["\(handwritingFolder)/\(handwritingFile)"]
            return switch self {
            case .common: common
            case .all: common + ["NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc"].map { "\(cjkFolder)/\($0)" }
            }
        }
    }

    /// The families in the order Pango tries them for each character, ending with the CJK family that suits
    /// `language` (Japanese, Korean and traditional Chinese forms differ from simplified Chinese ones); with
    /// `handwriting`, the Ecolier cursive first (a typed signature).
    static func families(language: String, handwriting: Bool = false) -> String {
        let tag = language.lowercased()
        let cjk = tag.hasPrefix("ja") ? "JP" : tag.hasPrefix("ko") ? "KR"
            : (tag.hasPrefix("zh-hant") || tag.hasPrefix("zh-tw") || tag.hasPrefix("zh-hk")) ? "TC" : "SC"
        return (handwriting ? "Ecolier_court," : "") + "Noto Sans,Noto Sans Arabic,Noto Sans Hebrew,Noto Sans Devanagari,Noto Sans CJK \(cjk)"
    }

    /// The fontconfig configuration of `set`: the folders, the system's and the user's font caches (so that no font
    /// is scanned again when the packages' caches are current), a selection that accepts only its files and, of the
    /// CJK collections, only the proportional faces, and Noto Sans without its optional ligatures.
    ///
    /// A file is accepted by its whole path, a glob without a wildcard: fontconfig compares it with each of the 278
    /// faces in the folders until the first character that differs. A glob `*/NAME` was tried at every place of each
    /// path: 2.6 M instructions of every configuration loaded.
    ///
    /// The monospaced CJK faces ("Noto Sans Mono CJK JP" and the rest) share the collections' files and cover the
    /// same characters, and no text asks for them. Loaded, they were 10 of the 31 faces, and Pango's font thread
    /// sorts every face for each new font description (16 sorts for the study consent), comparing each face's
    /// character set with those before it: 19.8 M of the 119.5 M instructions of `signature-ink consent`, now 12.4 M
    /// of 111.5 M, with the same PDF.
    ///
    /// A ligature glyph (Noto Sans' "fi", "fl") has no character of its own in the WinAnsi encoding, so Cairo's PDF
    /// surface, which puts every glyph it can into a simple TrueType font, embeds the same face a second time as a
    /// CID font for that one glyph: a consent PDF carried Noto Sans Regular twice. Without them Latin text is
    /// embedded once per face, and its words read back letter by letter. Required ligatures (`rlig`: Arabic's
    /// lam-alef) and the other scripts' families are left as they are.
    static func configuration(_ set: FontSet = .all) -> String {
        let dirs = directories.map { "<dir>\($0)</dir>" }.joined()
        let accepted = set.paths.map { "<glob>\($0)</glob>" }.joined()
        let monospaced = ["JP", "KR", "SC", "TC", "HK"]
            .map { "<pattern><patelt name=\"family\"><string>Noto Sans Mono CJK \($0)</string></patelt></pattern>" }.joined()
        return """
            <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig>\(dirs)<cachedir>/var/cache/fontconfig</cachedir>\
            <cachedir prefix="xdg">fontconfig</cachedir>\
            <selectfont><rejectfont><glob>*</glob></rejectfont><acceptfont>\(accepted)</acceptfont></selectfont>\
            <selectfont><rejectfont>\(monospaced)</rejectfont></selectfont>\
            <match target="font"><test name="family"><string>Noto Sans</string></test>\
            <edit name="fontfeatures" mode="append"><string>liga=0</string><string>clig=0</string></edit></match>\
            </fontconfig>
            """
    }

    /// The font maps of the font sets and the contexts made from them, used by one thread at a time (they are lent
    /// by ``withContext(language:direction:for:fonts:_:)``).
    ///
    /// A context is made once for each language, base direction and font set and never changed afterwards: a Pango
    /// layout checks its context's serial before each use and lays itself out again when the context has changed, so a
    /// context that one text set to Arabic and another set back would have every kept layout (a document keeps its
    /// paragraphs' layouts from pagination to drawing) laid out twice, the second time with the other settings.
    ///
    /// Pango and fontconfig are loaded when a text first needs them (``fontSet(for:)``, ``context(_:)``): text that
    /// HarfBuzz sets alone (``HarfBuzzLine``, ``HarfBuzzParagraph``) holds a state, for its layouts and its lock,
    /// without them. The study consent, all of whose text is such, so opens neither Pango's eighteen shared objects
    /// nor the fonts' configuration.
    private final class State: @unchecked Sendable {
        /// The font map of each font set, made when a text first needs it.
        private var fontMaps: [FontSet: UnsafeMutablePointer<PangoFontMap>] = [:]
        var contexts: [ContextKey: OpaquePointer] = [:]

        /// Contexts made past ``maxContexts``, released when the lending ends.
        var unkept: [OpaquePointer] = []

        /// The characters of the ``FontSet/common`` families other than the cursive one, or `nil` when every text
        /// is set with ``FontSet/all``.
        private var commonCharacters: CharacterCoverage?
        /// Whether Pango and the first font map are loaded.
        private var loaded = false

        /// Loads Pango and the ``FontSet/common`` font map (or the ``FontSet/all`` one when no common font is
        /// installed), once; a failure is kept, so that later texts fail at once.
        private func loadIfNeeded() throws(RenderError) {
            guard !loaded else { return }
            if let failure = ProjectFonts.pool.withLock({ $0.failure }) { throw failure }
            switch ProjectFonts.loadFontMaps() {
            case let .success((maps, characters)):
                fontMaps = maps
                commonCharacters = characters
                loaded = true
            case let .failure(error):
                ProjectFonts.pool.withLock { $0.failure = error }
                throw error
            }
        }

        /// The font set `text` is set with: ``FontSet/common`` when its families have every character of it.
        func fontSet(for text: String) throws(RenderError) -> FontSet {
            try loadIfNeeded()
            guard let commonCharacters, commonCharacters.covers(text) else { return .all }
            return .common
        }

        /// The font map of `set`, made on first use.
        private func fontMap(_ set: FontSet) throws(RenderError) -> UnsafeMutablePointer<PangoFontMap> {
            try loadIfNeeded()
            if let map = fontMaps[set] { return map }
            let map = try ProjectFonts.makeFontMap(set).get()
            fontMaps[set] = map
            return map
        }

        /// The context for `key`, made on first use; past ``maxContexts`` a new one each time, which the caller's
        /// layouts keep alive as long as they need it.
        func context(_ key: ContextKey) throws(RenderError) -> OpaquePointer {
            if let context = contexts[key] { return context }
            guard let context = pango.pango_font_map_create_context(try fontMap(key.fonts)) else {
                throw .text("Pango could not make a context")
            }
            let options = ProjectFonts.makeFontOptions()
            pango.pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
            pango.pango_context_set_round_glyph_positions(context, 0)
            pango.pango_context_set_language(context, pango.pango_language_from_string(key.language))
            pango.pango_context_set_base_dir(context, key.direction)
            if contexts.count < ProjectFonts.maxContexts { contexts[key] = context } else {
                // Not kept: released when the lending ends; a layout made from it holds a reference of its own.
                unkept.append(context)
            }
            return context
        }

        /// Paragraph layouts made with this font map.
        var paragraphs = KeptLayouts<Paragraph.LayoutKey, Paragraph.Layout>(maxCount: ProjectFonts.maxLayouts,
                                                                            maxText: ProjectFonts.maxLayoutText)
        /// Line layouts (``TextLine``) made with this font map.
        var lines = KeptLayouts<TextLine, TextLine.Layout>(maxCount: ProjectFonts.maxLayouts,
                                                           maxText: ProjectFonts.maxLineText)

        /// Releases the contexts made past ``maxContexts``.
        func releaseUnkept() {
            for context in unkept { pango.g_object_unref(UnsafeMutableRawPointer(context)) }
            unkept.removeAll()
        }
    }

    /// Layouts kept for texts set again, in two generations: a lookup looks in the current one, then in the previous
    /// one (and brings what it finds forward); when the current one is full (`maxCount` layouts, or `maxText` bytes of
    /// their text) it becomes the previous one, and the old previous one is released. What was used lately stays. A
    /// text longer than an eighth of `maxText` is not kept.
    struct KeptLayouts<Key: Hashable, Layout> {
        let maxCount: Int
        let maxText: Int
        private var current: [Key: Layout] = [:]
        private var previous: [Key: Layout] = [:]
        /// The bytes of text of the current generation's layouts.
        private var currentText = 0

        init(maxCount: Int, maxText: Int) {
            self.maxCount = maxCount
            self.maxText = maxText
        }

        /// The layout kept for `key`, or a new one from `make`, kept; `text` is the bytes of its text.
        mutating func layout(_ key: Key, text: Int, _ make: () throws(RenderError) -> Layout) throws(RenderError) -> Layout {
            guard text <= maxText / 8 else { return try make() }  // too long to keep
            if let layout = current[key] { return layout }
            let layout: Layout
            if let kept = previous.removeValue(forKey: key) { layout = kept } else { layout = try make() }
            if current.count >= maxCount || currentText + text > maxText {
                previous = current
                current = [:]
                currentText = 0
            }
            current[key] = layout
            currentText += text
            return layout
        }
    }

    /// A context's language, base direction and font set.
    struct ContextKey: Hashable {
        var language: String
        var direction: PangoDirection
        var fonts: FontSet
    }

    /// The characters some fonts have, as a fontconfig character set, with the ASCII ones as bits: most text is
    /// ASCII, and a bit test is quicker than a search of the set's pages (the study consent, 94.3 M instructions
    /// with `FcCharSetHasChar` for every character, 94.1 M with the bits).
    private final class CharacterCoverage: @unchecked Sendable {
        private let characters: OpaquePointer
        private let ascii: (low: UInt64, high: UInt64)

        /// The union of the character sets of `fonts`; `nil` when none of them has one.
        init?(fonts: [OpaquePointer]) {
            guard let union = FcCharSetCreate() else { return nil }
            var any = false
            for font in fonts {
                var set: OpaquePointer?
                guard FcPatternGetCharSet(font, FC_CHARSET, 0, &set) == FcResultMatch, let set else { continue }
                guard FcCharSetMerge(union, set, nil) != 0 else { FcCharSetDestroy(union); return nil }
                any = true
            }
            guard any else { FcCharSetDestroy(union); return nil }
            characters = union
            var low: UInt64 = 0, high: UInt64 = 0
            for c in UInt32(0)..<128 where FcCharSetHasChar(union, c) != 0 {
                if c < 64 { low |= 1 << UInt64(c) } else { high |= 1 << UInt64(c - 64) }
            }
            ascii = (low, high)
        }

        deinit { FcCharSetDestroy(characters) }

        /// Whether every character of `text` is in the set.
        func covers(_ text: String) -> Bool {
            for scalar in text.unicodeScalars {
                let c = scalar.value
                if c < 64 {
                    if ascii.low & (1 << UInt64(c)) == 0 { return false }
                } else if c < 128 {
                    if ascii.high & (1 << UInt64(c - 64)) == 0 { return false }
                } else if FcCharSetHasChar(characters, c) == 0 {
                    return false
                }
            }
            return true
        }
    }

    /// Most contexts a font map keeps (languages times directions); more are made and dropped as needed.
    static let maxContexts = 32

    /// How many paragraph layouts, and how many line layouts, a font map keeps for texts set again, in each of its
    /// two generations (see ``layout(_:_:)`` and ``lineLayout(_:_:)``).
    static let maxLayouts = 1024

    /// How many bytes of text the paragraph layouts a font map keeps may hold, in each generation; a paragraph longer
    /// than an eighth of it is not kept. A layout takes about 53 bytes for each character (its glyphs, their
    /// positions and clusters, the break opportunities; measured: a thousand paragraphs of 200 characters kept
    /// added 10.9 MB to the process), so a font map keeps at most about 28 MB of layouts in its two generations, and
    /// a consent document of tens of kilobytes of text is kept whole.
    static let maxLayoutText = 256 << 10

    /// How many bytes of text the line layouts a font map keeps may hold, in each generation (a line longer than
    /// 4 KB is not kept): at most about 3.5 MB of layouts in the two (53 bytes a character, as paragraphs).
    static let maxLineText = 32 << 10

    /// The layout of `line` that this thread's font map made before, or a new one from `make`, kept for the next
    /// use: a page's footer, a list's markers, a signature block's caption are the same lines in every document of a
    /// batch. Inside ``withContext(language:direction:for:fonts:_:)`` only; outside, `make` is called.
    static func lineLayout(_ line: TextLine, _ make: () throws(RenderError) -> TextLine.Layout) throws(RenderError)
        -> TextLine.Layout {
        guard let state = heldState else { return try make() }
        return try state.lines.layout(line, text: line.text.utf8.count, make)
    }

    /// The paragraph layout for `key` that this thread's font map made before, or a new one from `make`, kept for the
    /// next document that sets the same paragraph in the same width: a batch of consents to one document lays out its
    /// text once. Inside ``withContext(language:direction:for:fonts:_:)`` only; outside, `make` is called.
    static func layout(_ key: Paragraph.LayoutKey, _ make: () throws(RenderError) -> Paragraph.Layout) throws(RenderError)
        -> Paragraph.Layout {
        guard let state = heldState else { return try make() }
        return try state.paragraphs.layout(key, text: key.paragraph.runs.reduce(0) { $0 + $1.text.utf8.count }, make)
    }

    /// Makes the project's configuration fontconfig's current one for the whole process when the fonts are first
    /// loaded. For a program that owns its process (the command line) and sets no text of its own
    /// through fontconfig; a library must not call it, since it changes which fonts the host's own text finds.
    ///
    /// Pango starts a thread that loads the system's default fontconfig configuration (`FcInit`: every file of
    /// `/etc/fonts/conf.d` and the caches of every font folder) and waits for it before its first font, although
    /// its font maps use only the project's configuration: 25 M instructions of a consent signed in a new process
    /// (callgrind), 3 ms of its 35 ms. With a current configuration already set, `FcInit` returns at once.
    package static func becomeProcessDefault() {
        processDefault.store(true, ordering: .relaxed)
    }

    /// Whether the next configuration loaded becomes the process's current one (``becomeProcessDefault()``).
    private static let processDefault = Atomic(false)

    /// Held by the thread that sets text, until ``openEveryFace()`` has opened every face.
    private static let textLock = TextLock()

    /// Whether every face is open for good (``openEveryFace()``), so that threads set text at once.
    private static let everyFaceOpen = Atomic(false)

    /// The Cairo font faces of every face of the project's fonts, once ``openEveryFace()`` has opened them: held for
    /// the rest of the process, so that Cairo never closes their FreeType faces and never frees or adds a font face.
    private static let openFaces = Mutex<OpenFaces?>(nil)

    /// Cairo font faces kept alive.
    private final class OpenFaces: @unchecked Sendable {
        let faces: [OpaquePointer]
        init(_ faces: [OpaquePointer]) { self.faces = faces }
    }

    /// The Cairo font faces ``openEveryFace()`` keeps, or none before it has run.
    static var keptFaces: [OpaquePointer] { openFaces.withLock { $0?.faces ?? [] } }

    /// A process-wide mutex, locked and unlocked in separate calls.
    private final class TextLock: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        init() {
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }
        func lock() { pthread_mutex_lock(mutex) }
        func unlock() { pthread_mutex_unlock(mutex) }
    }

    /// Measures each of `texts` in the regular face, as a line of that size would be set, and forgets the result:
    /// the first line of a process opens HarfBuzz (or Pango) and the face, and makes HarfBuzz's shaping plan for the
    /// script, which a caller can have done on another thread while it does other work. Safe beside other text
    /// (the faces are opened under the text lock), but the caller waits for it before it draws text itself.
    package static func prepareLines(_ texts: [String], size: Double) {
        for text in texts where !text.isEmpty { _ = try? TextLine(text: text, font: TextFont(size: size)).metrics() }
    }

    /// Opens every face of the project's fonts (all the faces of each file) in Cairo, and keeps them open for the rest
    /// of the process, so that texts are set on several threads at once: Cairo then never opens or closes a FreeType
    /// face again (see the type's discussion). For a process that sets text on several threads, called at its start
    /// and never from inside a text call (the lock it takes is the one such a call holds); 23 to 26 ms once, most of it
    /// FreeType reading the twenty faces of the two CJK collections. Calling it again does nothing.
    ///
    /// Each face is kept as the Cairo font face Pango draws it with: its pattern with the options of every context
    /// (``makeFontOptions()``) in it, as Pango puts them in the patterns of its fonts. Cairo 1.16 keeps the font faces
    /// of each font file in a list, one face for each set of options, which it searches, adds to and removes from
    /// without a lock: each time a font map makes a font, and each time the last font of a face is freed. With the
    /// faces Pango uses made here and never freed, threads that make fonts at once only search that list. Kept without
    /// the contexts' options, the faces Pango drew with were others, made and freed on any thread: eight threads
    /// setting consents in eight scripts crashed in Cairo, once in many runs.
    /// - Throws: ``RenderError/text(_:)`` when the fonts cannot be loaded; text is then set one thread at a time, as
    ///   before.
    package static func openEveryFace() throws(RenderError) {
        textLock.lock()
        defer { textLock.unlock() }
        if everyFaceOpen.load(ordering: .acquiring) { return }
        // The fonts of a configuration like every font map's; Cairo's faces are shared by all of them.
        let (config, fonts) = try makeConfiguration().get()
        defer { FcConfigDestroy(config) }
        var faces: [OpaquePointer] = [], scaled: [OpaquePointer] = []
        var matrix = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_matrix_init_scale(&matrix, 12, 12)
        cairo_matrix_init_identity(&identity)
        let options = makeFontOptions()
        defer { cairo_font_options_destroy(options) }
        for k in 0..<Int(fonts.pointee.nfont) {
            // The face with the options Pango's patterns carry, from its contexts' options.
            guard let pattern = fonts.pointee.fonts[k].flatMap(FcPatternDuplicate) else { continue }
            defer { FcPatternDestroy(pattern) }
            cairo_ft_font_options_substitute(options, pattern)
            guard let face = cairo_ft_font_face_create_for_pattern(pattern) else { continue }
            faces.append(face)
            if let font = cairo_scaled_font_create(face, &matrix, &identity, options) { scaled.append(font) }
        }
        // Every face locked at once: Cairo closes only faces no one has locked, so none of these is closed while
        // the others are opened, and all stay open after.
        let locked = scaled.filter { cairo_ft_scaled_font_lock_face($0) != nil }
        for font in locked { cairo_ft_scaled_font_unlock_face(font) }
        for font in scaled { cairo_scaled_font_destroy(font) }
        // Every face or none: a face not kept here would be made and freed by the threads.
        let count = Int(fonts.pointee.nfont)
        guard locked.count == count else {
            for face in faces { cairo_font_face_destroy(face) }
            throw .text("\(count - locked.count) of \(count) font faces could not be opened")
        }
        openFaces.withLock { $0 = OpenFaces(faces) }
        // The faces lines set without Pango draw with, made now: no thread adds one afterwards.
        HarfBuzzLine.Face.openEvery()
        everyFaceOpen.store(true, ordering: .releasing)
    }

    /// The Cairo font options of every context: outlines at their design positions, no hinting and no rounding, so
    /// a text measures the same at every scale and in every format. The caller destroys them.
    static func makeFontOptions() -> OpaquePointer? {
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        return options
    }

    /// The states not lent now, and why the fonts could not be loaded, once that is known.
    private struct Pool {
        var idle: [State] = []
        var failure: RenderError?
    }

    private static let pool = Mutex(Pool())

    /// The state the current thread holds, while it runs a ``withContext(language:direction:for:fonts:_:)`` body: a
    /// text set inside another (a signature block's name inside a document's page) uses the same font map, so that a
    /// document can keep its layouts from pagination to drawing.
    private static let heldKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The state the current thread holds, or `nil` outside ``withContext(language:direction:for:fonts:_:)``.
    private static var heldState: State? {
        pthread_getspecific(heldKey).map { Unmanaged<State>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` with a Pango context for `language` and `direction` whose font map no other thread uses while
    /// `body` runs; until ``openEveryFace()`` has run, no other thread sets text while it runs. Inside another call on
    /// the same thread, the same font map is used. A Pango object made in `body` is used and released only while a
    /// thread holds its font map: by the end of the outermost call, or, for a layout the font map keeps
    /// (``layout(_:_:)``), by a later holder of the same font map.
    /// - Parameters:
    ///   - language: the BCP 47 tag the context sets.
    ///   - direction: the context's base direction; default weak left to right (each paragraph from its first
    ///     strong character).
    ///   - text: the text the context sets, which chooses the font set (``FontSet``).
    ///   - fonts: the font set to use instead of the one `text` chooses.
    /// - Throws: ``RenderError/text(_:)`` when none of the project's fonts is installed, or what `body` throws.
    static func withContext<R>(language: String, direction: PangoDirection = PANGO_DIRECTION_WEAK_LTR, for text: String,
                               fonts: FontSet? = nil,
                               _ body: (OpaquePointer) throws(RenderError) -> R) throws(RenderError) -> R {
        try holdingState { (state) throws(RenderError) -> R in
            let set: FontSet
            if let fonts { set = fonts } else { set = try state.fontSet(for: text) }
            let key = ContextKey(language: language, direction: direction, fonts: set)
            return try body(try state.context(key))
        }
    }

    /// The font set a text is set with, from the fonts this thread holds or a state borrowed for the question.
    static func fontSet(for text: String) throws(RenderError) -> FontSet {
        try holdingState { (state) throws(RenderError) -> FontSet in try state.fontSet(for: text) }
    }

    /// Runs `body`, which opens or draws with Cairo's FreeType faces outside Pango (``HarfBuzzLine``), where no other
    /// thread sets text: holding the lock that Pango's texts hold until ``openEveryFace()`` has run, unless this
    /// thread holds it already (a line inside a document's text) or every face is open for good.
    static func excludingOtherText<R>(_ body: () throws(RenderError) -> R) throws(RenderError) -> R {
        if heldState != nil || everyFaceOpen.load(ordering: .acquiring) { return try body() }
        textLock.lock()
        defer { textLock.unlock() }
        return try body()
    }

    /// Runs `body` holding a font map, so that every text set in it, on this thread, uses that one (see
    /// ``withContext(language:direction:for:fonts:_:)``).
    static func holding<R>(_ body: () throws(RenderError) -> R) throws(RenderError) -> R {
        try holdingState { (_) throws(RenderError) -> R in try body() }
    }

    /// Runs `body` with the state this thread holds, or with one borrowed for as long as `body` runs.
    private static func holdingState<R>(_ body: (State) throws(RenderError) -> R) throws(RenderError) -> R {
        if let state = heldState { return try body(state) }
        let alone = !everyFaceOpen.load(ordering: .acquiring)
        if alone { textLock.lock() }
        defer { if alone { textLock.unlock() } }
        let state = borrow()
        pthread_setspecific(heldKey, Unmanaged.passUnretained(state).toOpaque())
        defer {
            pthread_setspecific(heldKey, nil)
            state.releaseUnkept()
            pool.withLock { $0.idle.append(state) }
        }
        return try body(state)
    }

    /// A state no thread holds: an idle one, or a new one (which loads Pango when a text first needs it).
    private static func borrow() -> State {
        pool.withLock { $0.idle.popLast() } ?? State()
    }

    /// A new fontconfig configuration of the project's fonts of `set` (``configuration(_:)``), and its fonts; the
    /// caller destroys the configuration.
    static func makeConfiguration(_ set: FontSet = .all)
        -> Result<(OpaquePointer, UnsafeMutablePointer<FcFontSet>), RenderError> {
        guard let config = FcConfigCreate() else { return .failure(.text("fontconfig could not be started")) }
        let text = Array(configuration(set).utf8) + [0]  // fontconfig reads a NUL-terminated buffer
        let parsed = text.withUnsafeBufferPointer { FcConfigParseAndLoadFromMemory(config, $0.baseAddress, 1) }
        guard parsed != 0, FcConfigBuildFonts(config) != 0 else {
            FcConfigDestroy(config)
            return .failure(.text("the font configuration could not be loaded"))
        }
        guard let fonts = FcConfigGetFonts(config, FcSetSystem), fonts.pointee.nfont > 0 else {
            FcConfigDestroy(config)
            return .failure(.text("none of the fonts is installed (\(files.joined(separator: ", ")) in "
                                  + "\(directories.joined(separator: " or ")); Debian's fonts-noto-core and fonts-noto-cjk have them)"))
        }
        return .success((config, fonts))
    }

    /// A font map of the fonts of `set`, made from a configuration of its own.
    private static func makeFontMap(_ set: FontSet) -> Result<UnsafeMutablePointer<PangoFontMap>, RenderError> {
        makeConfiguration(set).flatMap { made in fontMap(configuration: made.0) }
    }

    /// A font map that uses `config`; the caller's reference to `config` is released.
    private static func fontMap(configuration config: OpaquePointer)
        -> Result<UnsafeMutablePointer<PangoFontMap>, RenderError> {
        defer { FcConfigDestroy(config) }
        // Before the font map, whose making starts Pango's FcInit thread; once, by the first load that sees the flag.
        if processDefault.compareExchange(expected: true, desired: false, ordering: .relaxed).exchanged {
            FcConfigSetCurrent(config)
        }
        guard let map = pango.pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
            return .failure(.text("Pango has no FreeType font map"))
        }
        pango.pango_fc_font_map_set_config(OpaquePointer(map), config)
        return .success(map)
    }

    /// A state's first font maps: the ``FontSet/common`` one and the characters of its families; the ``FontSet/all``
    /// one is made when a text first needs it. When no common font is installed, every text is set with
    /// ``FontSet/all``, whose font map is then made at once.
    private static func loadFontMaps()
        -> Result<([FontSet: UnsafeMutablePointer<PangoFontMap>], CharacterCoverage?), RenderError> {
        if case let .failure(error) = PangoLibrary.loaded { return .failure(error) }
        guard case let .success((config, fonts)) = makeConfiguration(.common) else {
            return makeFontMap(.all).map { ([.all: $0], nil) }
        }
        // The cursive face comes first only in typed signatures, so the characters that only it has are not counted.
        let faces = (0..<Int(fonts.pointee.nfont)).compactMap { fonts.pointee.fonts[$0] }.filter { font in
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return false }
            return String(cString: file) != "\(handwritingFolder)/\(handwritingFile)"
        }
        let characters = CharacterCoverage(fonts: faces)
        return fontMap(configuration: config).map { ([.common: $0], characters) }
    }
}
