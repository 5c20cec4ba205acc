internal import Basics
import KeyboardCore
import KeyboardModel
import Render

/// `keypane render`: draws a keyboard to a PNG file, with no X server.
struct RenderCommand {
    static let name = "render"
    static let command = Command(
        name: name,
        abstract: "Draw a keyboard to a PNG file, and optionally write its key geometry as JSON.",
        options: [
            .value("type", "type", "The keyboard type (\(KeyboardType.allNames)), or the name of a layout file; default: default."),
            .value("width", "px", "Width in pixels (\(KeyboardLayoutEngine.widths.lowerBound)-\(KeyboardLayoutEngine.widths.upperBound)).", required: true),
            .value("height", "px", "Height in pixels.", required: true),
            .value("layer", "layer", "The layer to show (letters, shifted, numbers, symbols; pads have 'pad'); default: the first."),
            .value("return-key", "key", "The Return key (\(ReturnKeyType.allNames)); default: default."),
            .value("theme", "theme", "The colour theme: light (the default), dark, or high-contrast and high-contrast-dark (every label at least 7:1 against its key)."),
            .value("label-size", "percent", "How large the labels are, 50 to 200 percent of their usual size (default: 100)."),
            .flag("globe", "Show the Globe key, as when more than one keyboard is enabled (the default)."),
            .flag("dwell-pause", "Show dwell's pause key, as with --dwell (default: off)."),
            .flag("suggestions", "Show the suggestion bar above the keys of the prose keyboards, as the live keyboard "
                  + "does (default: on)."),
            .flag("terminal", "Draw the keyboard as a terminal's field gets it: a bar of edit actions (Copy, Paste) "
                  + "and no words (default: off)."),
            .value("bar", "words", "The words in the bar's slots, separated by '|': \"word\" in quotes is the word as "
                   + "typed, [word] the correction space would make."),
            .value("shift", "state", "Show the shift key latched: off (the default), on or caps-lock."),
            .value("pressed", "labels", "Show the keys with these labels pressed (comma separated)."),
            .value("popup", "popup", "Show a popup as the live keyboard does: preview:LABEL (the bubble over a pressed "
                   + "key), alternates:LABEL[:N] (a held key's accents, the Nth chosen) or keyboards[:N] (the Globe "
                   + "key's list, the Nth chosen)."),
            .value("keyboards", "list", "The keyboards the Globe list names (default: the one shown, then default "
                   + "and desktop)."),
            .value("languages", "list", "Languages (de, ru, en-GB): without --type, the first one's keyboard is drawn, as "
                   + "the live keyboard shows it; the Globe list names their keyboards."),
            .value("settings", "page", "Draw a page of the settings panel in place of a keyboard (settings, keyboards, "
                   + "typing, look, sound, accessibility, privacy, showing, about; a long page's next with -2), its "
                   + "rows showing the settings as the settings file and the administrator's locks make them; the "
                   + "geometry lists each row's setting, value and control."),
            .value("output", "file", "The PNG file to write.", required: true),
            .value("geometry", "file", "A JSON file to write the key geometry to."),
            layoutsOption,
        ])

    let options: ParsedOptions
    init(_ options: ParsedOptions) { self.options = options }

    func run() {
        let fail = { (message: String) -> Never in Keypane_fail(message) }
        let width: Int, height: Int
        do {
            width = try options.int("width")!
            height = try options.int("height")!
        } catch { Keypane.usage("\(error)", command: "keypane render") }
        var options = options
        let shift = options["shift"] ?? "off"
        let output = options["output"]!, geometry = options["geometry"], pressed = options["pressed"]
        let returnKeyName = options["return-key"] ?? "default", themeName = options["theme"] ?? "light"
        var (library, _) = loadLibrary(layouts: options["layouts"])
        if options["type"] == EmojiBoard.name { _ = EmojiSource.add(to: &library) }
        let languages = options["languages"].map { list in
            list.split(separator: ",").map { text -> String in
                guard let tag = Language.normalized(String(text.trimmingSpaces)) else {
                    fail("bad language '\(text)' in --languages: expected language tags such as de, fr, ru or en-GB")
                }
                guard let name = Language.keyboard(for: tag, among: library.available) else {
                    fail("no keyboard for the language '\(tag)' in --languages")
                }
                return name
            }
        }
        if let page = options["settings"] {
            let sources = RunCommand.withConfiguration(ParsedOptions())
            let replacements = RunCommand.replacementsFile().map { Keyboard.readReplacements($0).replacements } ?? .standard
            let run = RunSettings(sources.options)
            // The Globe key's list as a keyboard started with these settings has it: the languages' (or
            // English), the emoji keyboard, desktop; or the settings' own list.
            let listed = run.keyboards ?? (run.languages?.compactMap { Language.keyboard(for: $0, among: library.available) }
                ?? ["default"]) + (run.emoji ? [EmojiBoard.name] : []) + ["desktop"]
            let (keyboards, listedValues) = SettingsPanel.keyboardRows(
                listed: listed, offered: SettingsPanel.offeredKeyboards(available: library.available, emoji: true))
            let panel = SettingsPanel(values: run.panelValues.merging(listedValues) { $1 }, locked: sources.locked,
                                      keyboards: keyboards,
                                      replacements: replacements.entries.map { ($0.shortcut, $0.phrase) },
                                      words: Assets.panelWords(keyboards: []))
            guard panel.layers.contains(page) else {
                fail("unknown settings page '\(page)': expected one of \(panel.layers.joined(separator: ", "))")
            }
            library.add(panel.layout())
            options.values["type"] = SettingsPanel.name
            options.values["layer"] = page
        }
        let layer = options["layer"]
        let type = options["type"] ?? languages?.first ?? "default"
        guard let layout = library[type] else {
            fail("unknown keyboard type '\(type)': expected one of \(library.layouts.keys.sorted().joined(separator: ", "))")
        }
        guard let returnKey = ReturnKeyType(rawValue: returnKeyName) else {
            fail("unknown return key '\(returnKeyName)': expected one of \(ReturnKeyType.allNames)")
        }
        guard let theme = Theme.named(themeName) else { fail("unknown theme '\(themeName)': expected one of \(Theme.allNames)") }
        let shiftState: KeyboardState.Shift
        switch shift {
        case "off": shiftState = .off
        case "on": shiftState = .on
        case "caps-lock": shiftState = .capsLock
        default: fail("unknown shift state '\(shift)': expected off, on or caps-lock")
        }
        let terminal = options.flag("terminal", default: false)
        var base = LayoutOptions(returnKey: returnKey, showsGlobe: options.flag("globe", default: true),
                                 showsDwellPause: options.flag("dwell-pause", default: false),
                                 // Keyboards of a language without a dictionary show no bar.
                                 showsSuggestions: options.flag("suggestions", default: true) && !terminal
                                     && Assets.dictionaries()[Language.primary(layout.language ?? "en")] != nil)
        base.showsEditBar = terminal
        // The space bar names the language when --languages names several, and the function keys speak the
        // first one's, as the live keyboard's do.
        let layoutOptions = library.options(base, for: layout, among: languages ?? [],
                                            languageKeyboard: languages?.first ?? "default")
        let placed: KeyboardGeometry
        do {
            // Shift on shows the shifted letters, as the live keyboard does.
            let shown = layer ?? (shiftState != .off && layout.layers.contains("shifted") ? "shifted" : nil)
            placed = try KeyboardLayoutEngine.layout(layout, layer: shown, width: width, height: height, options: layoutOptions)
        } catch { fail("\(error)") }

        var state = KeyboardState(shift: shiftState)
        state.bar = (options["bar"] ?? "").split(separator: "|", omittingEmptySubsequences: false).map { part in
            let word = part.trimmingSpaces
            if word.count >= 2, word.first == "\"", word.last == "\"" { return BarSlot(text: String(word.dropFirst().dropLast()), look: .typed) }
            if word.count >= 2, word.first == "[", word.last == "]" { return BarSlot(text: String(word.dropFirst().dropLast()), look: .correction) }
            return BarSlot(text: String(word))
        }.filter { !$0.text.isEmpty || options["bar"] != nil }
        for label in pressed?.split(separator: ",").map(String.init) ?? [] {
            guard let index = placed.keys.firstIndex(where: { $0.name == label }) else {
                fail("no key labelled '\(label)' on this keyboard")
            }
            state.pressed.insert(index)
        }
        if let popup = options["popup"] {
            let titles = (options["keyboards"].map { $0.split(separator: ",").map(String.init) }
                          ?? languages.map { $0 + ["desktop"] } ?? [type, "default", "desktop"])
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let shown = Self.popup(popup, in: placed, keyboards: titles.map { library[$0]?.title ?? $0 },
                                   selected: titles.firstIndex(of: type) ?? 0,
                                   hideTitle: layoutOptions.labels["hide-keyboard"])
            state.popups = [shown]
            state.pressed.insert(shown.key)
        }
        do {
            let surface = try Surface(width: width, height: height)
            let renderer = KeyboardRenderer(theme: theme)
            renderer.labelScale = options.labelScale
            try renderer.draw(placed, state: state, on: surface)
            try surface.writePNG(to: output)
            if let geometry { try Files.write(placed.json(), to: geometry) }
        } catch { fail("\(error)") }
    }
}

extension RenderCommand {
    /// The popup `--popup` names, over the key it names.
    static func popup(_ text: String, in geometry: KeyboardGeometry, keyboards: [String], selected: Int,
                      hideTitle: String? = nil) -> Popup {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let number = { (index: Int) -> Int in
            guard parts.count > index else { return 0 }
            guard let value = Int(parts[index]), value >= 0 else { Keypane_fail("--popup \(text): '\(parts[index])' is not a number") }
            return value
        }
        let key = { () -> Int in
            guard parts.count > 1, let index = geometry.keys.firstIndex(where: { $0.name == parts[1] }) else {
                Keypane_fail("--popup \(text): no key labelled '\(parts.count > 1 ? parts[1] : "")' on this keyboard")
            }
            return index
        }
        switch parts[0] {
        case "preview":
            guard let popup = Popup.preview(of: key(), in: geometry) else { Keypane_fail("--popup \(text): that key has no preview") }
            return popup
        case "alternates":
            guard let popup = Popup.alternates(of: key(), in: geometry, selected: number(2)) else {
                Keypane_fail("--popup \(text): that key has no alternates")
            }
            return popup
        case "keyboards":
            let chosen = parts.count > 1 ? number(1) : selected
            guard let popup = Popup.keyboards(keyboards, selected: chosen, in: geometry, hideTitle: hideTitle) else {
                Keypane_fail("--popup \(text): this keyboard shows no Globe key")
            }
            if case .keyboards(_, let titles, _) = popup, chosen >= titles.count {
                Keypane_fail("--popup \(text): the list has \(titles.count) entries")
            }
            return popup
        default:
            Keypane_fail("unknown popup '\(text)': expected preview:LABEL, alternates:LABEL[:N] or keyboards[:N]")
        }
    }
}

private func Keypane_fail(_ message: String) -> Never { fail(message, command: "keypane render") }
