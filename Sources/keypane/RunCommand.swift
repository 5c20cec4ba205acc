import KeyboardCore
internal import Basics
#if canImport(Glibc)
import Glibc
#endif

import Injector
import KeyboardModel
import Render
import Trace
import Sound
import Typing
import Words
import X11Host
import XDisplay

/// `keypane` (or `keypane run`): the live keyboard, docked at the bottom of the screen.
struct RunCommand {
    static let command = Command(
        name: "run",
        abstract: "Show the keyboard, docked at the bottom of the primary monitor.",
        discussion: """
            The keyboard never takes focus: it types into whichever window has it. If a keyboard is already \
            running on the display, it is shown instead of starting another. Signals: SIGUSR1 hides the \
            keyboard, SIGUSR2 shows it again; SIGINT, SIGTERM and SIGHUP end it, restoring the keymap.
            """,
        options: [
            .value("type", "type", "The keyboard shown first (a type or layout name); default: the first enabled."),
            .value("keyboards", "list", "The enabled keyboards, in Globe order, comma separated (default: the "
                   + "languages' keyboards, then desktop)."),
            .value("languages", "list", "The languages to type in, in Globe order, comma separated (de, fr, ru, "
                   + "en-US): each brings its keyboard (default: the languages of the X keymap's layouts, as "
                   + "setxkbmap set them, and of the locale; US English when none has a keyboard)."),
            .flag("emoji", "The emoji keyboard among the Globe key's keyboards, after the languages' (default: on; "
                  + "the emoji of Unicode's emoji-test.txt, from unicode-data). The emoji used lately and the skin "
                  + "tones chosen are kept in $XDG_STATE_HOME/keypane/emoji (never from a password field)."),
            .value("return-key", "key", "The Return key (\(ReturnKeyType.allNames)); default: default."),
            .value("theme", "theme", "The colour theme: light (the default), dark, or high-contrast and high-contrast-dark (every label at least 7:1 against its key); desktop follows the desktop's theme, dark while its GTK theme is a dark one."),
            .value("label-size", "percent", "How large the labels are, 50 to 200 percent of their usual size (default: 100)."),
            .value("height", "height", "Height in pixels (300) or percent of the monitor (35%)."),
            .value("monitor", "name", "The RandR monitor to dock on (default: the primary, else the first)."),
            .flag("floating", "Start undocked: a phone-sized keyboard dragged by its handle, reserving no space, "
                  + "where it was left last time ($XDG_STATE_HOME/keypane/floating-position). Holding the "
                  + "dismiss key undocks or docks the keyboard at any time."),
            .value("autocapitalization", "mode", "When shift engages by itself: none, words, sentences or all "
                   + "(default: the keyboard's own; sentences for prose keyboards, none for URL, email, search, pads "
                   + "and desktop)."),
            .flag("suggestions", "The suggestion bar above the keys of the prose keyboards: the word as typed, corrections "
                  + "and completions decoded from where each finger landed, and next words after a space; words typed "
                  + "are learned, per language ($XDG_DATA_HOME/keypane/learned-en, learned-de, ..., never from passwords, addresses or terminals; "
                  + "'keypane forget' clears it) (default: on)."),
            .flag("autocorrection", "A confident correction is applied on space and punctuation (a delete right after "
                  + "takes it back) (default: the keyboard's own)."),
            .flag("double-space-period", "Two quick spaces after a word become a period and a space, where the field "
                  + "allows corrections (default: on)."),
            .flag("caps-lock", "A double tap on shift locks capitals until shift is tapped again (default: on)."),
            .flag("sticky-keys", "On the desktop keyboard, a tap on Ctrl, Alt or Super holds it for the next key and a "
                  + "double tap locks it; off, they work only while held, as on a physical keyboard (default: on)."),
            .flag("learning", "Learn from your typing: the words and word pairs you use, and where your fingers land, "
                  + "per language (default: on). Off, nothing is learned or kept, and what was learned is still used "
                  + "until 'keypane forget'."),
            .flag("slide-to-type", "Slide to type: a finger sliding across the letters without lifting types the word "
                  + "its stroke traces, with a space before it after a word; the bar offers the next best, and a delete "
                  + "right after takes the word back whole. Where the bar shows, never in passwords (default: on)."),
            .value("dictionary", "[language=]file", "A dictionary for suggestions in a language, English unless one is named "
                   + "(default: dictionaries/LANGUAGE.dict in the data folder, for each language there is one for)."),
            .flag("smart-quotes", "' and \" become curly quotes (default: the keyboard's own)."),
            .flag("smart-dashes", "-- becomes an em dash (default: the keyboard's own)."),
            .flag("secure", "A password field: no corrections or smart punctuation, nothing kept of what is typed."),
            .value("slow-keys", "seconds", "Slow keys: a key counts only once held this long; shorter touches type "
                   + "nothing (default: 0, at once)."),
            .value("bounce-keys", "seconds", "Bounce keys: a second press of the key just typed, sooner than this "
                   + "after it, types nothing (default: 0, off)."),
            .flag("key-repeat", "A held delete key repeats (default: on)."),
            .value("long-press", "seconds", "How long a key is held for its accents or the keyboard list (default: 0.45)."),
            .value("scan", "mode", "Switch scanning: auto (one switch: rows, groups and keys are highlighted in turn "
                   + "and the switch picks), step (two switches: the first moves the highlight, the second picks) or "
                   + "off (the default)."),
            .value("scan-switch", "switches", "The switch, or two for step scanning, comma separated: an X key name "
                   + "(F12, space, Pause) or button:N; taken from every application (default: F12, or F11,F12 for step)."),
            .value("scan-interval", "seconds", "Auto scanning: how long each highlight stays (default: 1)."),
            .value("scan-cycles", "count", "Auto scanning: rounds with no pick before it pauses until the switch (default: 3)."),
            .value("dwell", "seconds", "Dwell, for head and eye pointers: a pointer resting this long on a key presses "
                   + "it, with a ring filling on the key; a pause key before the dismiss key stops it (default: 0, off)."),
            {
                var option = Option.value("auto-show", "when", "Follow the focus through the accessibility bus: "
                    + "show the keyboard when a text field gets the focus, with the keyboard, Return key and traits "
                    + "the field asks for (a password's learns nothing), and hide it when the focus leaves text. "
                    + "touch: for a field focused by a touch, not by the mouse or a key, as GNOME does; focus: "
                    + "for any field; never (or --no-auto-show). Default: touch when the session has a "
                    + "touchscreen, else focus.")
                option.offValue = true
                return option
            }(),
            .flag("show-button", "After the dismiss key hides the keyboard, a round button at the edge of the screen "
                  + "brings it back with a tap; it can be dragged (default: on; off for kiosks that show and hide "
                  + "the keyboard themselves)."),
            .flag("sound", "The input click on every key press (default: on, unless the desktop turns event sounds "
                  + "off). Played through libcanberra: PulseAudio, PipeWire or ALSA ($CANBERRA_DRIVER chooses)."),
            .value("volume", "percent", "How loud the input click is, 0 to 100; 0 is silent (default: 100)."),
            .value("display", "name", "The X display (default: $DISPLAY)."),
            layoutsOption,
            .value("config", "file", "The settings file (default: $XDG_CONFIG_HOME/keypane/config, else "
                   + "~/.config/keypane/config). It takes these options as 'name = value' lines; the command "
                   + "line overrides it."),
        ])

    /// Where the options came from: the settings file (which the settings panel writes) and the settings
    /// the administrator locked.
    struct Sources {
        var options: ParsedOptions
        var file: String?
        var locked: Set<String> = []
        var panelLocked = false
    }

    /// The options of the command line over the administrator's locked settings over those of the settings
    /// file, whose problems are said.
    static func withConfiguration(_ commandLine: ParsedOptions) -> Sources {
        let (locks, panelLocked) = Configuration.readLocks(for: command)
        let locked = Set(locks.values.keys).union(locks.flags.keys)
        let path: String
        if let given = commandLine["config"] {
            path = given
        } else if let directory = Configuration.directory() {
            path = directory + "/config"
        } else {
            return Sources(options: locks.overridden(by: commandLine), file: nil, locked: locked, panelLocked: panelLocked)
        }
        do {
            let (settings, problems) = try Configuration.read(path, for: command, required: commandLine["config"] != nil)
            problems.forEach { warn($0) }
            for name in locked where settings.origins[name] != nil {
                warn("\(settings.origins[name]!): '\(name)' is locked by the administrator; line ignored")
            }
            return Sources(options: settings.overridden(by: locks).overridden(by: commandLine), file: path,
                           locked: locked, panelLocked: panelLocked)
        } catch {
            fail("\(error)")
        }
    }

    let settings: RunSettings
    let sources: Sources
    init(_ sources: Sources) {
        self.sources = sources
        settings = RunSettings(sources.options)
    }

    /// Runs the keyboard; returns its exit status.
    func run() -> Int32 {
        Trace.step("settings read")
        Self.oneMallocArena()
        // Fontconfig is set up on a thread of its own: with the font the labels were drawn with last time,
        // while nothing it came from has changed; else with the whole font configuration. Meanwhile, as
        // start-up goes on; or, with a picture of the last start's first frame to show (FrameSnapshot),
        // once that is on screen, so that nothing competes with the way there.
        let fontRecord = LabelFonts.standardRecordPath()
        let snapshotPath = FrameSnapshot.standardPath()
        let fontsLater = snapshotPath.map { access($0, R_OK) == 0 } ?? false
        if !fontsLater { LabelFonts.prepare(recordAt: fontRecord) }
        let connection: DisplayConnection
        do { connection = try DisplayConnection(name: settings.display) } catch { fail("\(error)") }
        Trace.step("display opened")
        KeyboardHost.internStartUpAtoms(connection)
        if KeyboardHost.sendToRunning(.show, connection: connection) { return 0 }
        Trace.step("no keyboard running yet")

        // Only the layouts to show are parsed before the first frame; more once it is on screen (below).
        let languages = settings.keyboards == nil ? LanguageChoice(named: settings.languages, connection: connection) : nil
        let wanted = Set((settings.keyboards ?? (languages?.candidates ?? []) + ["desktop"]) + [settings.type].compactMap { $0 })
        var (library, saidProblems) = loadLibrary(layouts: settings.layouts, only: wanted)
        // The emoji keyboard is read before the first frame only when it is named; else once the frame is out.
        let emojiNamed = wanted.contains(EmojiBoard.name)
        var emojiBoard = emojiNamed ? EmojiSource.add(to: &library) : nil
        let known = library.available.joined(separator: ", ")
        let exists = { (name: String) in library.available.contains(name) }
        var enabled = settings.keyboards.flatMap { names in
            settings.accepts("keyboards", !names.isEmpty && names.allSatisfy(exists), problem:
                names.first { !exists($0) }.map { "unknown keyboard '\($0)' in --keyboards: expected one of \(known)" }
                    ?? "--keyboards names no keyboard") ? names : nil
        } ?? ((languages?.keyboards(among: library.available) ?? ["default"]) + ["desktop"]).filter(exists)
        let type = settings.type.flatMap { name in
            settings.accepts("type", exists(name), problem: "unknown keyboard type '\(name)': expected one of \(known)") ? name : nil
        }
        if let type, !enabled.contains(type) { enabled.append(type) }
        guard !enabled.isEmpty else { fail("no keyboard to show: the layouts have neither default nor desktop") }
        // A name refused above brings the default keyboards, which were not read yet.
        if !enabled.allSatisfy({ library[$0] != nil }) {
            library = loadLibrary(layouts: settings.layouts, only: Set(enabled), said: saidProblems).0
            if enabled.contains(EmojiBoard.name) { emojiBoard = EmojiSource.add(to: &library) }
        }
        Trace.step("layouts read")
        var hostOptions = KeyboardHost.Options(monitor: settings.monitor, floating: settings.floating,
                                               autoShow: settings.autoShow, showButton: settings.showButton,
                                               positionFile: PositionFile.standard())
        switch settings.height {
        case .pixels(let pixels): hostOptions.height = pixels
        case .fraction(let fraction): hostOptions.heightFraction = fraction
        case nil: break
        }

        let sound = inputClick()

        // The keyboard shown first: --type, else the language keyboard chosen last time, else the first.
        let languageFile = StateFile.standard("language")
        let remembered = type == nil ? (try? languageFile?.readLine()).flatMap { $0 } : nil
        let first = type ?? remembered.flatMap { enabled.contains($0) ? $0 : nil } ?? enabled[0]
        hostOptions.keyboard.languageFile = languageFile
        // The first keyboard's labels: another script's has the whole font configuration read meanwhile.
        let firstLayout = library[first]
        let willDraw: @Sendable () -> Void = {
            guard let shown = firstLayout else { return }
            LabelFonts.willDraw(WidthClass.allCases.flatMap { shown.rows(layer: shown.defaultLayer, widthClass: $0) }
                .flatMap(\.items).flatMap { item -> [String] in
                    guard case .key(let key) = item else { return [] }
                    if case .text(let text) = key.function { return [text] + [key.label, key.secondary].compactMap { $0 } }
                    return [key.label, key.secondary].compactMap { $0 }
                })
        }
        if fontsLater {
            // The labels listed only then: the closure keeps the layout, which the library keeps anyway.
            hostOptions.startFonts = {
                LabelFonts.prepare(recordAt: fontRecord)
                willDraw()
            }
        } else {
            willDraw()
        }
        hostOptions.frameSnapshot = snapshotPath.map {
            FrameSnapshot(path: $0, program: FrameSnapshot.programIdentity(version: Keypane.versionLine))
        }

        let injector: Injector
        do { injector = try Injector(connection: connection) } catch { fail("\(error)") }
        Trace.step("injector made")
        var engine: TypingEngine
        do {
            engine = try TypingEngine(library: library, enabled: enabled, current: enabled.firstIndex(of: first)!,
                                      returnKey: settings.returnKey, traits: settings.traits, width: 1024, height: 320)
        } catch { fail("\(error)") }
        Trace.step("keyboard laid out")
        if let emojiBoard { engine.addEmoji(emojiBoard) }
        let emojiWanted = settings.keyboards == nil && settings.emoji
        if !emojiNamed {
            // The list is read when the emoji keyboard is first wanted (the settings panel may turn it on);
            // whether it is there, now.
            hostOptions.keyboard.emojiInCycle = emojiWanted
            if access(EmojiCatalog.standardPath, R_OK) == 0 {
                hostOptions.keyboard.emojiCatalog = { firstPageOnly in
                    firstPageOnly ? try? EmojiCatalog.firstPage(count: EmojiBoard.pageSize) : EmojiSource.read()
                }
            } else if emojiWanted {
                warn("no emoji keyboard: cannot read \(EmojiCatalog.standardPath) (Debian's unicode-data has the list)")
            }
        }
        hostOptions.keyboard.emojiFile = StateFile.standard("emoji")
        engine.timing = settings.timing
        engine.suggestionsEnabled = settings.suggestions
        engine.slideToTypeEnabled = settings.slideToType
        engine.capsLockEnabled = settings.capsLock
        engine.stickyModifiers = settings.stickyKeys
        engine.doubleSpacePeriod = settings.doubleSpacePeriod
        if let file = Self.replacementsFile() {
            let (replacements, problems) = Keyboard.readReplacements(file)
            for problem in problems { warn(problem) }
            engine.replacements = replacements
            hostOptions.keyboard.replacementsFile = file
        }
        // Found with suggestions off too: the settings panel may turn them on.
        var dictionaries = Assets.dictionaries()
        if let (language, path) = settings.dictionary { dictionaries[language] = path }
        engine.dictionaryLanguages = Set(dictionaries.keys)
        if !dictionaries.isEmpty {
            hostOptions.keyboard.suggestionFiles = SuggestionWorker.Files(dictionaries: dictionaries,
                                                                 learnedFolder: Self.learnedFolder())
        }
        hostOptions.keyboard.learning = settings.learning
        hostOptions.labelScale = settings.labelScale
        hostOptions.themeFollowsDesktop = settings.themeFollowsDesktop
        hostOptions.fontRecord = fontRecord
        // Once the first frame is out: every layout of the user's own (a mistake in one is said at start).
        // A keyboard type's keyboard is read at the first field of its type, and another language's, never
        // shown unless enabled, when asked for (`keypane set --type de`): the keyboards of every type kept
        // from the start were some 0.2 MiB of the keyboard's memory, and every language's some 0.45 MiB.
        let (layouts, shown, said) = (settings.layouts, enabled, saidProblems)
        hostOptions.keyboard.restOfLibrary = { more in
            // Once the first frame is out, the user's own layouts (their folder listed then only); later,
            // those asked for. Each with the layouts it inherits; the host's library takes in those it lacks.
            let kept = !more.isEmpty ? more : layouts != nil ? [] : Set(
                Configuration.layoutsDirectory().flatMap { Files.names(in: $0, ending: ".layout") } ?? [])
            if kept.isEmpty { return nil }
            do {
                let (library, problems) = try readLibrary(layouts: layouts, only: kept)
                // The user's layouts left out are said once, at the first reading.
                if more.isEmpty { problems.filter { !said.contains($0) }.forEach { warn($0) } }
                return library
            } catch {
                warn("\(error); " + (more.isEmpty ? "keyboards other than \(shown.joined(separator: ", ")) are left out"
                                                   : "the \(more.sorted().joined(separator: ", ")) keyboard is left out"))
                return nil
            }
        }
        engine.scanning = settings.scanning
        if !sources.panelLocked {
            let setup = settingsSetup(available: library.available, emoji: hostOptions.keyboard.emojiCatalog != nil
                                      || engine.emoji != nil, keyboards: enabled)
            hostOptions.keyboard.settingsPanel = setup
            engine.settingsInList = true
            engine.settingsTitle = setup.words(Popup.settingsTitle)
        }
        hostOptions.scanSwitches = settings.scanSwitches
        if let named = hostOptions.scanSwitches.first(where: { ScanSwitch($0) == nil }) {
            fail("bad --scan-switch '\(named)': expected an X key name (F12, space) or button:N (1 to 9)")
        }
        let host = KeyboardHost(connection: connection, engine: engine, injector: injector, theme: settings.theme,
                                options: hostOptions, sound: sound)
        Trace.step("window made")
        return host.run()
    }

    /// One malloc arena for every thread, set before any is started: the keyboard's threads (fonts, sound,
    /// suggestions, files read at start) allocate little, and an arena each kept memory resident for
    /// nothing. glibc's mallopt, which no module of the toolchain's Glibc declares (malloc.h).
    static func oneMallocArena() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-8 /* M_ARENA_MAX */, 1)
    }

    /// Where the words learned in each language are kept.
    static func learnedFolder() -> String? {
        LearnedFile.folder(environment: ProcessFacts.environment(["XDG_DATA_HOME", "HOME"]))
    }

    /// Where the text replacements are kept: beside the learned words, the user's alone (0600).
    static func replacementsFile() -> StateFile? { learnedFolder().map { StateFile(path: $0 + "/replacements") } }

    /// What the settings panel shows and where it writes.
    func settingsSetup(available: [String], emoji: Bool, keyboards: [String]) -> SettingsSetup {
        var setup = SettingsSetup(file: sources.file.map(SettingsFile.init), values: settings.panelValues,
                                  locked: sources.locked,
                                  keyboards: SettingsPanel.offeredKeyboards(available: available, emoji: emoji), about: [
            ("Version", Keypane.versionLine),
            ("Licence", "Apache 2.0; layouts and sounds made for Keypane"),
            ("Word Lists", "FrequencyWords (OpenSubtitles), CC BY-SA 4.0; Google Books n-grams by orgtre, CC BY 3.0"),
            ("Emoji", "Unicode's emoji-test.txt, from Debian's unicode-data"),
        ])
        setup.words = Assets.panelWords(keyboards: keyboards.compactMap { name in
            Language.named.first { Language.keyboard(for: $0.tag, among: available) == name }?.tag
        })
        setup.makeSound = { volume in Self.inputClick(volume: volume) }
        setup.forgetLearned = {
            guard let folder = Self.learnedFolder() else { return "no HOME or XDG_DATA_HOME: no learned words to forget" }
            do { try LearnedFile.removeAll(in: folder) } catch { return "\(error)" }
            return nil
        }
        return setup
    }

    /// The input click, or nil with --no-sound (or a volume of 0). Missing sound files are said once, and
    /// the keyboard goes on without a click.
    func inputClick() -> InputClick? {
        guard settings.sound else { return nil }
        return Self.inputClick(volume: settings.volume)
    }

    static func inputClick(volume: Double) -> InputClick? {
        guard volume > 0 else { return nil }
        guard let directory = Assets.dataDirectory().map({ $0 + "/sounds" }) else {
            warn("cannot find the sound files: set KEYPANE_DATA_DIR; typing goes on without the input click")
            return nil
        }
        var sounds: [Click: String] = [:]
        for click in Click.allCases {
            let path = directory + "/" + Self.soundFile(click)
            guard access(path, R_OK) == 0 else {
                warn("cannot read \(path): \(String(cString: strerror(errno))); typing goes on without the input click")
                return nil
            }
            sounds[click] = path
        }
        return InputClick(settings: .init(sounds: sounds, volume: volume), report: { warn($0) })
    }

    /// The file of each click in the sounds folder.
    static func soundFile(_ click: Click) -> String {
        switch click {
        case .character: "key-click.wav"
        case .delete: "key-delete.wav"
        case .modifier: "key-modifier.wav"
        }
    }
}
