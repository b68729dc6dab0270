// SPDX-License-Identifier: Apache-2.0
import CPango

/// Pango's functions, opened on first use rather than linked.
///
/// Linking Pango makes every process load sixteen more shared objects and run GLib's constructors, about 1.4 ms at
/// start (measured whole-process: a C program drawing one line with Cairo, 2.0 ms; the same linked with Pango,
/// 3.4 ms), although most runs draw no text at all. The first text opens `libpangocairo` instead, once; later texts
/// reuse the table. The functions' types come from Pango's headers (`CPango/shim.h`).
enum PangoLibrary {
    /// The function table, or why Pango could not be opened.
    static let loaded: Result<CFunctionTable<SIPango>, RenderError> = CFunctionTable.load { table in
        StandIns.shared.withLoaded { si_pango_load(table, $0) }
    }.mapError {
        .text("Pango could not be loaded (\($0.message)); Debian's libpango-1.0-0 and libpangocairo-1.0-0 have it")
    }
}

/// Pango's functions, for code that runs inside ``ProjectFonts/withContext(language:direction:for:fonts:_:)``, which
/// opens them first.
var pango: SIPango {
    PangoLibrary.loaded.openedFunctions(orStop: "Pango is used before ProjectFonts.withContext opened it")
}

/// The stand-ins of the executable's Cairo, fontconfig and FreeType (`si_stand_ins`, `CPango/shim.h`), loaded once,
/// before the first of HarfBuzz and Pango is opened.
final class StandIns: @unchecked Sendable {
    private var loaded: SILoadedStandIns
    private init() { loaded = si_load_stand_ins() }

    /// The process's stand-ins.
    static let shared = StandIns()

    /// Runs `body` with the stand-ins, which it may close (Pango, should it not load beside them). Called from the
    /// libraries' `static let` initializers, one at a time.
    func withLoaded<R>(_ body: (UnsafeMutablePointer<SILoadedStandIns>) -> R) -> R { body(&loaded) }
}
