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
    /// The keyboards the Globe key's list may hold, by layout name with their titles (languages in their
    /// own words), in the order they are offered after those in the list.
    public var keyboards: [(name: String, title: String)]
    /// The words the panel speaks.
    public var words = PanelWords.english
    /// The About page's rows.
    public var about: [(title: String, detail: String)]
    /// Makes the input click at a volume (0 to 1); nil when there is no sound to make.
    public var makeSound: (@Sendable (Double) -> InputClick?)?
    /// Forgets the learned words of every language; says what went wrong, if anything.
    public var forgetLearned: (@Sendable () -> String?)?

    public init(file: SettingsFile?, values: [String: String], locked: Set<String> = [],
                keyboards: [(name: String, title: String)], about: [(title: String, detail: String)] = []) {
        self.file = file
        self.values = values
        self.locked = locked
        self.keyboards = keyboards
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
    /// The scanning switches pressed so far while the panel waits for them, and what it asks for.
    private var capture: (pressed: [String], prompt: String)?

    init(keyboard: Keyboard) { self.keyboard = keyboard }

    public var isOpen: Bool { keyboardEngine != nil }
    private var setup: SettingsSetup? { keyboard.configuration.settingsPanel }

    /// A setting's value now, as the settings file writes it: changed in the panel, else as at start.
    func value(of name: String) -> String? {
        if let changed = values[name] { return changed }
        return setup?.values[name]
    }

    /// The panel as the settings are now.
    func panel() -> SettingsPanel? {
        guard let setup else { return nil }
        var shown = setup.values
        for (name, value) in values { shown[name] = value }
        let engine = keyboardEngine ?? keyboard.engine
        // The keyboards in the Globe key's list first, in its order; then the others.
        let (keyboards, listed) = SettingsPanel.keyboardRows(listed: engine.configured, offered: setup.keyboards) {
            engine.library[$0]?.title
        }
        shown.merge(listed) { $1 }
        let replacements = engine.replacements.entries.map { (shortcut: $0.shortcut, phrase: $0.phrase) }
        var panel = SettingsPanel(values: shown, locked: setup.locked, keyboards: keyboards, about: setup.about,
                                  replacements: replacements, words: setup.words)
        panel.confirming = confirming
        panel.entry = entry
        panel.waiting = capture.map { ("scan-switch", $0.prompt) }
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
        guard let panel = panel(), !panel.isLocked(row) else { return }
        if row.name == "add-replacement" {
            entry = ReplacementEntry()
            refresh()
            keyboard.engine.showLayer(SettingsPanel.entryLayer)
        } else if row.name.hasPrefix("entry-field:") {
            entry.field = row.name.hasSuffix("shortcut") ? .shortcut : .phrase
            entry.shifted = entry.field == .phrase && entry.phrase.isEmpty
        } else if row.name == "scan-switch" {
            if capture == nil { captureSwitch() }
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
        } else if let name = row.keyboard ?? row.movedKeyboard {
            var names = keyboard.keyboardEngine.configured
            if let index = names.firstIndex(of: name) {
                if row.keyboard == nil { names.swapAt(index, max(0, index - 1)) } else { names.remove(at: index) }
            } else {
                names.append(name)
            }
            // The whole list is written: `keyboards` is what the next start reads, over the languages'.
            if keyboard.setGlobeList(names) {
                write([("keyboards", names.joined(separator: ", ")), ("languages", nil), ("emoji", nil)])
            }
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

    /// Waits for the scanning switch to be pressed (for step scanning, the one that moves, then the one
    /// that picks): it becomes the switch at once and in the file. Nothing changes when none comes.
    private func captureSwitch(pressed: [String] = []) {
        let words = setup?.words ?? .english
        let step = keyboard.keyboardEngine.scanning?.mode == .step || keyboard.engine.scanning?.mode == .step
        let prompt = SettingsPanel.switchPrompt(step: step, pressed: pressed.count, words: words)
        capture = (pressed, prompt)
        let started = keyboard.display.captureKey(seconds: 10) { [weak self] name in
            guard let self else { return }
            capture = nil
            if let name {
                let names = pressed + [name]
                if step && names.count < 2 {
                    // The row asks for the second switch now.
                    captureSwitch(pressed: names)
                    refresh()
                    return
                }
                let value = names.joined(separator: ", ")
                values["scan-switch"] = .some(value)
                write([("scan-switch", value)])
                keyboard.applySetting("scan-switch", value)
            }
            refresh()
        }
        if !started { capture = nil }
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
    var status: String {
        guard isOpen else { return "" }
        return "settings: \(keyboard.engine.layer)\n" + (capture == nil ? "" : "settings-waiting: scan-switch\n")
    }
}
