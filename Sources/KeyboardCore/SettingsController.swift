public import KeyboardModel
public import Sound
public import Typing
internal import Basics
internal import EventLoop

/// What the settings panel is given at start: the settings as the keyboard runs with them, those the
/// administrator locked, where the user's settings file is, and how to make what a setting needs anew.
public struct SettingsSetup: Sendable {
    /// The user's settings file; nil when there is none to write (no HOME): changes last until the end.
    public var file: SettingsFile?
    /// Each setting's value as the settings file writes it, for the settings that differ from the default.
    public var values: [String: String]
    public var locked: Set<String>
    /// The languages there are keyboards for: tag, name in its own words.
    public var languages: [(tag: String, title: String)]
    /// The About page's rows.
    public var about: [(title: String, detail: String)]
    /// Makes the input click at a volume (0 to 1); nil when there is no sound to make.
    public var makeSound: (@Sendable (Double) -> InputClick?)?
    /// Forgets the learned words of every language; says what went wrong, if anything.
    public var forgetLearned: (@Sendable () -> String?)?

    public init(file: SettingsFile?, values: [String: String], locked: Set<String> = [],
                languages: [(tag: String, title: String)], about: [(title: String, detail: String)] = []) {
        self.file = file
        self.values = values
        self.locked = locked
        self.languages = languages
        self.about = about
    }
}

/// The settings panel in the keyboard's place: opened from the Globe key's list or `keypane settings`, it
/// is a typing engine of its own showing `SettingsPanel`'s layout, so that touch, the mouse, switch
/// scanning and dwell work on its rows as on keys. The keyboard's engine waits meanwhile, and comes back
/// as it was. A row tapped changes its setting at once and writes it to the settings file.
public final class SettingsController {
    unowned let keyboard: Keyboard
    /// The keyboard's own engine, while the panel is in its place.
    var keyboardEngine: TypingEngine?
    /// Values changed since the start, over the setup's.
    private var values: [String: String?] = [:]
    private var confirming: String?
    /// The text replacement being written.
    private var entry = ReplacementEntry()

    init(keyboard: Keyboard) { self.keyboard = keyboard }

    public var isOpen: Bool { keyboardEngine != nil }
    private var setup: SettingsSetup? { keyboard.configuration.settingsPanel }

    /// The panel as the settings are now.
    func panel() -> SettingsPanel? {
        guard let setup else { return nil }
        var shown = setup.values
        for (name, value) in values { shown[name] = value }
        let engine = keyboardEngine ?? keyboard.engine
        for language in setup.languages {
            let name = Language.keyboard(for: language.tag, among: engine.library.available)
            shown["language:\(language.tag)"] = name.map { engine.configured.contains($0) } == true ? "on" : "off"
        }
        let replacements = engine.replacements.entries.map { (shortcut: $0.shortcut, phrase: $0.phrase) }
        // The languages on come first, in the Globe key's order (one turned on goes last); then the others.
        let order = { (tag: String) in
            Language.keyboard(for: tag, among: engine.library.available).flatMap { engine.configured.firstIndex(of: $0) }
                ?? Int.max
        }
        let languages = setup.languages.enumerated().sorted {
            (order($0.element.tag), $0.offset) < (order($1.element.tag), $1.offset)
        }.map(\.element)
        var panel = SettingsPanel(values: shown, locked: setup.locked, languages: languages, about: setup.about,
                                  replacements: replacements)
        panel.confirming = confirming
        panel.entry = entry
        return panel
    }

    /// Shows the panel in the keyboard's place, on a page (the first when nil); false when the panel is
    /// locked away or the page does not exist.
    @discardableResult
    public func open(page: String? = nil) -> Bool {
        guard let panel = panel() else { return false }
        if let page, !panel.layers.contains(page) { return false }
        if !isOpen {
            let shown = keyboard.engine
            var library = LayoutLibrary()
            library.add(panel.layout())
            guard var engine = try? TypingEngine(library: library, enabled: [SettingsPanel.name],
                                                 width: shown.size.width, height: shown.size.height) else { return false }
            engine.timing = shown.timing
            engine.scanning = shown.scanning
            _ = keyboard.engine.cancelTouches()
            _ = keyboard.engine.stopScanning()
            keyboardEngine = shown
            keyboard.engine = engine
            if keyboard.display.isShown { _ = keyboard.engine.startScanning(at: EventLoop.monotonicNow()) }
        }
        if let page { keyboard.engine.showLayer(page) }
        keyboard.display.noteAllChanged()
        return true
    }

    /// Back to the keyboard as it was.
    public func close() {
        guard var engine = keyboardEngine else { return }
        let panelEngine = keyboard.engine
        engine.timing = panelEngine.timing
        engine.scanning = panelEngine.scanning
        keyboardEngine = nil
        confirming = nil
        keyboard.engine = engine
        if keyboard.display.isShown { _ = keyboard.engine.startScanning(at: EventLoop.monotonicNow()) }
        keyboard.display.noteAllChanged()
    }

    /// A row tapped: its setting takes the next value, at once and in the settings file, or its action is
    /// done (on a second tap).
    func change(_ row: SettingRow) {
        guard let panel = panel(), !panel.locked.contains(row.name) else { return }
        if row.name == "add-replacement" {
            entry = ReplacementEntry()
            refresh()
            keyboard.engine.showLayer(SettingsPanel.entryLayer)
        } else if row.name.hasPrefix("entry-field:") {
            entry.field = row.name.hasSuffix("shortcut") ? .shortcut : .phrase
            entry.shifted = entry.field == .phrase && entry.phrase.isEmpty
        } else if row.control == .action {
            if confirming == row.name {
                confirming = nil
                if row.name == "forget" {
                    if let problem = setup?.forgetLearned?() { warn(problem) }
                    keyboard.suggestions.forget()
                } else if row.name.hasPrefix("replacement:") {
                    var replacements = keyboard.keyboardEngine.replacements
                    if replacements.remove(String(row.name.dropFirst("replacement:".count))) {
                        keyboard.keepReplacements(replacements)
                    }
                }
            } else {
                confirming = row.name
            }
        } else if let tag = row.language {
            let on = panel.values[row.name] != "on"
            keyboard.setLanguage(tag, on: on, among: setup?.languages.map(\.tag) ?? [])
            write([("languages", keyboard.languageTags(among: setup?.languages.map(\.tag) ?? []).joined(separator: ", "))])
        } else if case .some(let value) = panel.nextValue(of: row) {
            values[row.name] = .some(value)
            var changes = [(name: row.name, value: value)]
            // Smart punctuation is smart quotes and dashes together, as on iOS.
            if row.name == "smart-quotes" {
                changes.append((name: "smart-dashes", value: value))
                values["smart-dashes"] = .some(value)
            }
            for change in changes { keyboard.applySetting(change.name, change.value) }
            write(changes)
        }
        refresh()
    }

    /// A key of the entry layer: the field chosen changes; Save keeps the replacement written (one
    /// word of letters or digits, and a phrase) and goes back to the list, or to the field to mend.
    func edit(_ edit: EntryEdit) {
        if edit == .save {
            var replacements = keyboard.keyboardEngine.replacements
            if !entry.phrase.isEmpty, replacements.set(entry.shortcut, entry.phrase) {
                keyboard.keepReplacements(replacements)
                entry = ReplacementEntry()
                refresh()
                keyboard.engine.showLayer("replacements")
                return
            }
            entry.field = entry.phrase.isEmpty ? .phrase : .shortcut
        } else {
            entry.apply(edit)
        }
        refresh()
    }

    /// The panel drawn again with its rows' values now.
    private func refresh() {
        guard isOpen, let panel = panel() else { return }
        keyboard.engine.replaceLayout(panel.layout())
        keyboard.display.noteAllChanged()
    }

    private func write(_ changes: [(name: String, value: String?)]) {
        guard let file = setup?.file else { return }
        do { try file.change(changes) } catch { warn("\(error)") }
    }

    /// What the status says of the panel: the page shown, or nothing when closed.
    var status: String { isOpen ? "settings: \(keyboard.engine.layer)\n" : "" }
}
