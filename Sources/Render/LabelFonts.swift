#if canImport(Glibc)
import Glibc
#endif
import Synchronization
internal import CCairo
internal import CPangoCairo
internal import CPangoFc
internal import Trace

/// Which font labels are drawn with, and how fontconfig is set up to find it.
///
/// Reading the system's font configuration (some fifty XML files) is the slowest step of start-up, and it holds its parsed rules and the font caches in memory all day. Yet every label of a Latin
/// keyboard is drawn with one font, at one size (`KeyboardRenderer.layoutSize`), with one set of rendering
/// settings. So the answer the whole configuration gave is remembered in a small file (the record): the
/// font file and the settings the configuration gave its pattern. At the next start, while nothing the
/// answer came from has changed (each configuration file, folder and font folder is listed in the record
/// with its modification time), fontconfig gets a configuration of that one font and those settings, made
/// in well under a millisecond, and draws the same pixels.
///
/// Text the one font cannot draw as the system would (another script, whose fallback fonts and language
/// rules the record does not hold, or a character the font lacks) makes the renderer load the whole
/// configuration there and then (`widen`), once.
///
/// The two threads it starts (the set-up, and the whole configuration's reading) hand their results over
/// through `ThreadResult`, and everything else it keeps is behind one lock: nothing it shares is read or
/// written by two threads unguarded.
public enum LabelFonts {
    private struct State {
        /// Whether fontconfig holds the one-font configuration now.
        var isNarrow = false
        /// Whether the one-font configuration has the emoji font too (the record named one).
        var narrowHasEmoji = false
        /// Whether this start's record held.
        var recordHeld = false
        /// The set-up `prepare` started, until it is waited for.
        var setUp: ThreadResult<SetUp>?
        /// The whole configuration being read for `willDraw`, until it is taken.
        var widening: ThreadResult<Configuration>?
    }

    private static let state = Mutex(State())

    /// What the set-up thread did: the one-font configuration of the record, with or without an emoji
    /// font, or the whole configuration.
    private enum SetUp: Sendable {
        case narrow(hasEmoji: Bool)
        case whole
    }

    /// A fontconfig configuration made on one thread and handed to another (fontconfig's own reference
    /// counting makes that safe).
    private struct Configuration: @unchecked Sendable {
        let pointer: OpaquePointer?
    }

    /// Whether fontconfig holds the one-font configuration now (the record held, `widen` not yet).
    public static var isNarrow: Bool { state.withLock { $0.isNarrow } }
    /// Whether the one-font configuration has the emoji font too (the record named one).
    static var narrowHasEmoji: Bool { state.withLock { $0.narrowHasEmoji } }
    /// Whether this start's record held (then there is nothing to write after the first frame, even once
    /// the whole configuration has been read for other text).
    public static var recordHeld: Bool { state.withLock { $0.recordHeld } }

    /// The record's usual place: $XDG_CACHE_HOME/keypane/fonts, else ~/.cache/keypane/fonts; nil with
    /// neither set.
    public static func standardRecordPath() -> String? { cacheFolder().map { $0 + "/fonts" } }

    /// Keypane's folder of things it can make again (the font record, the first frame's picture):
    /// $XDG_CACHE_HOME/keypane, else ~/.cache/keypane; nil with neither set.
    public static func cacheFolder() -> String? {
        if let value = getenv("XDG_CACHE_HOME"), value.pointee != 0 { return String(cString: value) + "/keypane" }
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) + "/.cache/keypane" }
        return nil
    }

    /// A file's modification time, inode and size, as the record's stamps keep them; nil when it is not
    /// there. A file written again and renamed over the old one is a new inode.
    public static func fileState(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino) \(info.st_size)"
    }

    /// Sets fontconfig up on a thread of its own while start-up goes on: the one-font configuration of the
    /// record at `path`, if it holds; else the system's whole configuration, which Pango would otherwise
    /// read when the first font map is made. The first renderer waits for it (`awaitPrepared`). Call it
    /// first thing, before anything touches fonts.
    public static func prepare(recordAt path: String?) {
        let setUp = ThreadResult<SetUp> {
            if let path, let hasEmoji = useRecord(at: path) {
                // The warm-up draws before the set-up is over: nothing else draws until it is.
                warmUp()
                return .narrow(hasEmoji: hasEmoji)
            }
            FcInit()
            return .whole
        }
        state.withLock { $0.setUp = setUp }
    }

    /// Lays out and draws a line of letters with a font map of its own, meanwhile: the font file is opened
    /// and parsed, and the code that shapes and draws is read in, before the first frame needs them (half
    /// a millisecond off it). It draws onto a recording surface: text drawn on an image surface makes
    /// cairo keep a 256 KiB glyph cache for image drawing all day, which the keyboard, drawing its labels
    /// through X, never uses (256 KiB of dirty memory). It does not take `KeyboardRenderer.fonts`: every
    /// renderer waits for the set-up before its first text (`awaitPrepared`), holding that lock at times.
    private static func warmUp() {
        let map = pango_cairo_font_map_new()
        // Its own reference to the one-font configuration, which the main thread may replace meanwhile.
        pango_fc_font_map_set_config(OpaquePointer(map), FcConfigGetCurrent())
        let context = pango_font_map_create_context(map)
        let layout = pango_layout_new(context)
        let font = pango_font_description_from_string(KeyboardRenderer.fontFamily)
        pango_font_description_set_absolute_size(font, KeyboardRenderer.layoutSize * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_layout_set_text(layout, "qwertyuiopasdfghjklzxcvbnm", -1)
        let surface = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)
        let cr = cairo_create(surface)
        pango_cairo_show_layout(cr, layout)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        pango_font_description_free(font)
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(map))
    }

    /// Waits until `prepare`'s set-up is done (at once without one), and for the whole configuration when
    /// `willDraw` asked for it; returns whether the one-font configuration is the one in use.
    @discardableResult
    public static func awaitPrepared() -> Bool {
        let (setUp, widening) = state.withLock { state in
            defer { (state.setUp, state.widening) = (nil, nil) }
            return (state.setUp, state.widening)
        }
        if let setUp {
            let narrow: Bool
            switch setUp.value() {
            case .narrow(let hasEmoji):
                state.withLock { ($0.isNarrow, $0.narrowHasEmoji, $0.recordHeld) = (true, hasEmoji, true) }
                narrow = true
            case .whole:
                narrow = false
            }
            Trace.step(narrow ? "fonts remembered" : "font configuration read")
        }
        if let widening, let whole = widening.value().pointer { useWhole(whole) }
        return isNarrow
    }

    /// Says what is about to be drawn: text the one-font configuration cannot draw as the system would (a
    /// Russian keyboard's, emoji) has the whole configuration read on a thread of its own meanwhile, rather
    /// than in the way of the frame that draws it. Before the first renderer is made, for the first frame;
    /// later, while the Globe key toward such a keyboard is held.
    public static func willDraw(_ texts: [String]) {
        // Text the one font draws needs no wait; whether the record has a colour font for emoji is known
        // only once the set-up has read it.
        let preparing = state.withLock { $0.setUp != nil }
        guard preparing || isNarrow, !texts.allSatisfy({ narrowCovers($0, emoji: false) }) else { return }
        guard awaitPrepared(), !texts.allSatisfy({ narrowCovers($0) }) else { return }
        state.withLock { state in
            guard state.widening == nil else { return }
            state.widening = ThreadResult { Configuration(pointer: FcInitLoadConfigAndFonts()) }
        }
        Trace.step("whole font configuration being read")
    }

    /// Gives fontconfig the one-font configuration the record describes, if the record is there and still
    /// holds; returns whether it did. A record that is missing, out of date or unreadable is no error:
    /// the system's configuration is read, as without one.
    /// Returns whether its configuration has an emoji font; nil when the record was not used.
    static func useRecord(at path: String) -> Bool? {
        guard let text = readSmallFile(path), let record = Record(parsing: text), record.holds(),
              let (config, hasEmoji) = record.configuration() else { return nil }
        FcConfigSetCurrent(config)
        FcConfigDestroy(config)   // the current configuration keeps its own reference
        return hasEmoji
    }

    /// Once a start without a record has written `record` (`KeyboardRenderer.rememberFonts`): takes the
    /// one-font configuration it describes, as every later start does, and lets go of the whole configuration
    /// (its parsed rules, font lists and caches, most of a MiB), when `labels`, the text drawn so far, is all
    /// the one font's. Text of another script makes the whole one read again later, as in a later start.
    static func narrow(to record: Record, labels: [String]) {
        let busy = state.withLock { $0.isNarrow || $0.setUp != nil || $0.widening != nil }
        guard !busy, let (config, hasEmoji) = record.configuration() else { return }
        guard labels.allSatisfy({ narrowCovers($0, emoji: hasEmoji) }) else {
            FcConfigDestroy(config)
            return
        }
        FcConfigSetCurrent(config)
        // Pango's font map forgets what it matched with the whole configuration, and lets it go.
        KeyboardRenderer.fonts.withLock {
            pango_fc_font_map_set_config(OpaquePointer(pango_cairo_font_map_get_default()), config)
        }
        FcConfigDestroy(config)
        state.withLock { ($0.isNarrow, $0.narrowHasEmoji) = (true, hasEmoji) }
        Trace.step("fonts narrowed to their new record")
    }

    /// Reads the system's whole font configuration and gives it to Pango, for text the one font cannot
    /// draw as the system would; waits for the thread reading it instead, when `willDraw` started one.
    /// Nothing drawn before changes: the font the record names is the one the whole configuration picks
    /// first.
    static func widen() {
        guard isNarrow else { return }
        if state.withLock({ $0.widening != nil }) {
            awaitPrepared()
        } else if let config = FcInitLoadConfigAndFonts() {
            useWhole(config)
        }
        // A configuration that could not be read is not asked for again.
        state.withLock { $0.isNarrow = false }
    }

    /// Makes the whole configuration (the caller's reference, given up) fontconfig's and Pango's, whose
    /// font map forgets what it matched with the one-font configuration.
    private static func useWhole(_ config: OpaquePointer) {
        FcConfigSetCurrent(config)
        KeyboardRenderer.fonts.withLock {
            pango_fc_font_map_set_config(OpaquePointer(pango_cairo_font_map_get_default()), config)
        }
        FcConfigDestroy(config)
        state.withLock { $0.isNarrow = false }
        Trace.step("whole font configuration read")
    }

    /// Whether a thread `willDraw` started is reading the whole configuration still: what waits for it
    /// (text of another script, emoji) is better drawn a little later than waited for.
    public static var isWideningUnderWay: Bool {
        state.withLock { $0.widening.map { !$0.isDone } ?? false }
    }

    /// Whether the one-font configuration draws this text as the whole configuration would: only scripts
    /// the record was made for (Latin, and the signs and marks all scripts share), and emoji when the
    /// record named their font.
    static func narrowCovers(_ text: String, emoji: Bool = narrowHasEmoji) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            if KeyboardRenderer.asksForEmoji(scalar) { return emoji }
            return scalar.value < 0x250 || {
                let script = g_unichar_get_script(gunichar(scalar.value))
                return script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED
                    || script == G_UNICODE_SCRIPT_LATIN
            }()
        }
    }

    /// Why the record could not be written.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes the record of the font Pango chose for labels with the whole configuration (`font`, a
    /// PangoFont loaded for the labels' description), and of the one it chose for emoji (`emoji`), beside
    /// the file and renames it over, so a crash never leaves half a record.
    /// Returns the record written; nil when this start used one.
    @discardableResult
    static func writeRecord(for font: OpaquePointer, emoji: OpaquePointer?, at path: String) throws(Problem) -> Record? {
        guard !isNarrow, !recordHeld else { return nil }
        func pattern(_ font: OpaquePointer) -> OpaquePointer? {
            pango_fc_font_get_pattern(UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self))
        }
        guard let labels = pattern(font), let record = Record(pattern: labels, emoji: emoji.flatMap(pattern),
                                                              config: FcConfigGetCurrent()) else {
            throw Problem(description: "the labels' font is not one that can be remembered (a transformed or "
                          + "unnamed font); each start reads the whole font configuration")
        }
        let text = record.text
        makeDirectories(upTo: path)
        let temporary = path + ".new"
        guard let file = fopen(temporary, "w") else {
            throw Problem(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        let written = fputs(text, file) >= 0
        let closed = fclose(file) == 0
        guard written && closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Problem(description: "cannot write \(path): \(reason)")
        }
        return record
    }

    private static func makeDirectories(upTo file: String) {
        var prefix = file.hasPrefix("/") ? "" : "."
        for part in file.split(separator: "/").dropLast() {
            prefix += "/" + part
            mkdir(prefix, 0o755)
        }
    }

    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
