/// The settings panel as a layout: a layer a page, a key a row, so that touch, the mouse, switch scanning,
/// dwell, hit testing and geometry files reach every row as they reach keys. A page with more rows than
/// fit goes on over layers of its own (typing, typing-2), with keys that turn them.
///
/// What each row shows comes from `values`, the settings as the keyboard runs with them, by the settings
/// file's names; `locked` rows (set by the administrator) show their value and change nothing.
public struct SettingsPanel: Sendable {
    /// The layout's name, and the keyboard type's.
    public static let name = "settings"
    /// The first page: a row for each of the others.
    public static let home = "settings"
    /// Rows of settings a layer shows, above the row of the keys that leave or turn the page.
    public static let rowsPerLayer = 4

    /// One page: its name (the layer's), its title, its rows.
    public struct Page: Sendable {
        public var id: String
        public var title: String
        public var rows: [SettingRow]
    }

    /// A choice of a row that cycles: the value the settings file is given (nil: no line, the default) and
    /// what the row shows for it.
    public struct Choice: Equatable, Sendable {
        public var value: String?
        public var title: String

        public init(_ value: String?, _ title: String) {
            self.value = value
            self.title = title
        }
    }

    public private(set) var pages: [Page]
    /// Each setting's value as the settings file writes it ("on", "dark", "0.8"); a setting not here has
    /// its default.
    public var values: [String: String]
    /// The settings the administrator set: shown, never changed.
    public var locked: Set<String>
    /// An action row waiting for a second tap to confirm it (forgetting the learned words).
    public var confirming: String?
    /// The text replacement being written on the entry layer.
    public var entry = ReplacementEntry()
    /// The row waiting for a switch to be pressed, and what it asks for meanwhile.
    public var waiting: (row: String, prompt: String)?
    /// The words the panel speaks.
    public let words: PanelWords

    /// `keyboards`: those the Globe key's list may hold, by layout name with their titles, the ones in it
    /// first in its order (`keyboard:NAME` is "on" in `values` for each). `replacements`: the text
    /// replacements, each a row that a second tap removes.
    public init(values: [String: String], locked: Set<String> = [], keyboards: [(name: String, title: String)],
                about: [(title: String, detail: String)] = [], replacements: [(shortcut: String, phrase: String)] = [],
                words: PanelWords = .english) {
        self.values = values
        self.locked = locked
        self.words = words
        pages = Self.pages(keyboards: keyboards, about: about, replacements: replacements, values: values, words: words)
    }

    // MARK: - Values

    /// The choices a row cycles through; empty for a row that is on or off, opens a page or does something.
    public func choices(of name: String) -> [Choice] {
        (Self.choices[name] ?? []).map { Choice($0.value, words($0.title)) }
    }

    /// What a row's value is now, as the settings file writes it: "on" or "off" for a switch.
    public func value(of row: SettingRow) -> String? {
        switch row.control {
        case .toggle(let defaultOn): values[row.name] ?? (defaultOn ? "on" : "off")
        case .choice: values[row.name]
        default: nil
        }
    }

    /// What a row shows at its right: On or Off, the choice's title, a page's arrow.
    public func shownValue(of row: SettingRow) -> String {
        switch row.control {
        case .toggle: words(value(of: row) == "on" ? "On" : "Off")
        case .choice:
            choices(of: row.name).first { $0.value == values[row.name] }?.title
                ?? values[row.name] ?? choices(of: row.name).first?.title ?? ""
        case .page: "›"
        case .action where waiting?.row == row.name: "…"
        case .action where row.name == "scan-switch": values[row.name] ?? (values["scan"] == "step" ? "F11, F12" : "F12")
        case .action: confirming == row.name ? words("Tap again") : values[row.name] ?? ""
        case .info, .button: ""
        }
    }

    /// The value a tap on the row gives its setting: a switch flips, a choice goes to the next one (after
    /// the last, the first). Nil for a row that holds no value, or is locked.
    public func nextValue(of row: SettingRow) -> String?? {
        guard !isLocked(row) else { return nil }
        switch row.control {
        case .toggle: return .some(value(of: row) == "on" ? "off" : "on")
        case .choice:
            let choices = choices(of: row.name)
            let index = choices.firstIndex { $0.value == values[row.name] } ?? -1
            return .some(choices[(index + 1) % choices.count].value)
        default: return nil
        }
    }

    /// Set by the administrator: the setting itself, or for the Globe key's list, `keyboards` or
    /// `languages` (and `emoji` for the emoji keyboard's row).
    public func isLocked(_ row: SettingRow) -> Bool {
        guard let keyboard = row.keyboard ?? row.movedKeyboard else { return locked.contains(row.name) }
        return locked.contains("keyboards") || locked.contains("languages")
            || (keyboard == EmojiBoard.name && locked.contains("emoji"))
    }

    /// The row of a setting, on whichever page it is.
    public func row(named name: String) -> SettingRow? {
        pages.lazy.flatMap(\.rows).first { $0.name == name }
    }

    // MARK: - The layout

    /// The layers in order: each page's, a page of more rows than fit going on over `id-2`, `id-3`.
    public var layers: [String] {
        pages.flatMap { page in (0..<layerCount(page)).map { Self.layer($0, of: page.id) } } + [Self.entryLayer]
    }

    func layerCount(_ page: Page) -> Int { max(1, (page.rows.count + Self.rowsPerLayer - 1) / Self.rowsPerLayer) }

    static func layer(_ index: Int, of page: String) -> String { index == 0 ? page : "\(page)-\(index + 1)" }

    /// The page a layer belongs to (typing for typing-2).
    public static func page(of layer: String) -> String {
        guard let dash = layer.lastIndex(of: "-"), Int(layer[layer.index(after: dash)...]) != nil else { return layer }
        return String(layer[..<dash])
    }

    /// The whole panel, each row showing its value now.
    public func layout() -> Layout {
        var layout = Layout(name: Self.name, type: .settings, title: words("Keyboard Settings"), language: nil,
                            layers: layers, rows: [:])
        for page in pages {
            let count = layerCount(page)
            for index in 0..<count {
                let rows = page.rows.dropFirst(index * Self.rowsPerLayer).prefix(Self.rowsPerLayer)
                var items: [[RowItem]] = rows.map { row in [.key(key(for: row))] + moveKey(for: row, on: page) }
                // Short pages keep rows of the same height.
                while items.count < Self.rowsPerLayer { items.append([.gap(10)]) }
                items.append(navigation(page, index: index, of: count))
                for widthClass in WidthClass.allCases {
                    layout.rows[Layout.LayerKey(layer: Self.layer(index, of: page.id), widthClass: widthClass)] =
                        items.map { Row(items: $0, location: SourceLocation(file: Self.name, line: 0)) }
                }
            }
        }
        for widthClass in WidthClass.allCases {
            layout.rows[Layout.LayerKey(layer: Self.entryLayer, widthClass: widthClass)] =
                entryRows(entry).map { Row(items: $0, location: SourceLocation(file: Self.name, line: 0)) }
        }
        return layout
    }

    private func key(for row: SettingRow) -> KeySpec {
        var shown = row
        if isLocked(row) {
            shown.locked = true
            shown.detail = words("Set by the administrator")
        }
        if row.control == .action, confirming == row.name { shown.detail = row.confirmation ?? row.detail }
        if let waiting, waiting.row == row.name { shown.detail = waiting.prompt }
        shown.isOn = value(of: row) == "on"
        let width = moveKey(for: row, on: nil).isEmpty ? 10.0 : 8.5
        return KeySpec(function: .setting(shown), width: width, label: row.title, secondary: shownValue(of: row))
    }

    /// Beside a keyboard in the Globe key's list, after its first: a key that moves it up the list.
    private func moveKey(for row: SettingRow, on page: Page?) -> [RowItem] {
        guard let name = row.keyboard, values[row.name] == "on", !isLocked(row),
              let first = pages.first(where: { $0.id == "keyboards" })?.rows.first, first.name != row.name
        else { return [] }
        let move = SettingRow(Self.moveRow(name), words("Move up"), "", .button)
        return [.key(KeySpec(function: .setting(move), width: 1.5, label: "↑"))]
    }

    /// The key that moves a keyboard up the Globe key's list.
    public static func moveRow(_ name: String) -> String { "move:\(name)" }

    /// The row under a page: back to the first page, the page's title, the other layers of a long page,
    /// and Done, which closes the panel.
    private func navigation(_ page: Page, index: Int, of count: Int) -> [RowItem] {
        var items: [RowItem] = []
        if page.id != Self.home {
            // Wide enough for "‹ Settings" in every language's words ("‹ Indstillinger").
            items.append(.key(KeySpec(function: .layer(Self.home), width: 3.5, label: words("‹ Settings"))))
        }
        let back = page.id == Self.home ? 0.0 : 3.5
        if count > 1 {
            let previous = Self.layer((index + count - 1) % count, of: page.id)
            let next = Self.layer((index + 1) % count, of: page.id)
            items.append(.key(KeySpec(function: .layer(previous), width: 1.5, label: "‹")))
            items.append(.gap(7.5 - back - 3))
            items.append(.key(KeySpec(function: .layer(next), width: 1.5, label: "\(index + 1)/\(count) ›")))
        } else {
            items.append(.gap(7.5 - back))
        }
        items.append(.key(KeySpec(function: .closeSettings, width: 2.5, label: words("Done"))))
        return items
    }
}

/// A row of the settings panel, as its key carries it: the setting's name in the settings file (or
/// `page:NAME` for a row that opens a page, `keyboard:NAME` for a keyboard of the Globe key's list), a short
/// explanation, and what a tap does.
public struct SettingRow: Equatable, Hashable, Sendable {
    public enum Control: Equatable, Hashable, Sendable {
        /// On or off, and which it is by default.
        case toggle(defaultOn: Bool)
        /// One of several values, the next at each tap.
        case choice
        /// Opens a page.
        case page
        /// Does something, on a second tap (forget the learned words).
        case action
        /// Says something; a tap does nothing.
        case info
        /// A key of its own beside a row, drawn as a key with its label (a keyboard moved up the list).
        case button
    }

    public var name: String
    public var title: String
    public var detail: String
    public var control: Control
    /// Set by the administrator: drawn greyed, never changed.
    public var locked = false
    /// A switch's state as drawn (its value's words are the panel's language's).
    public var isOn = false
    /// What an action's row says while it waits for the second tap.
    public var confirmation: String?

    public init(_ name: String, _ title: String, _ detail: String, _ control: Control, confirmation: String? = nil) {
        self.name = name
        self.title = title
        self.detail = detail
        self.control = control
        self.confirmation = confirmation
    }

    /// The control's name in geometry files: switch, choice, page, action or info.
    public var controlName: String {
        switch control {
        case .toggle: "switch"
        case .choice: "choice"
        case .page: "page"
        case .action: "action"
        case .info: "info"
        case .button: "button"
        }
    }

    /// The page a `page:NAME` row opens.
    public var page: String? { name.hasPrefix("page:") ? String(name.dropFirst(5)) : nil }
    /// The keyboard a `keyboard:NAME` row puts in the Globe key's list or takes out.
    public var keyboard: String? { name.hasPrefix("keyboard:") ? String(name.dropFirst(9)) : nil }
    /// The keyboard a `move:NAME` key moves up the list.
    public var movedKeyboard: String? { name.hasPrefix("move:") ? String(name.dropFirst(5)) : nil }
}

extension SettingsPanel {
    static let choices: [String: [Choice]] = [
        "theme": [Choice("light", "Light"), Choice("dark", "Dark"), Choice("high-contrast", "High Contrast"),
                  Choice("high-contrast-dark", "High Contrast Dark"), Choice("desktop", "As the Desktop")],
        "label-size": [Choice(nil, "100%"), Choice("125", "125%"), Choice("150", "150%"), Choice("200", "200%"),
                       Choice("75", "75%")],
        "height": [Choice(nil, "Standard"), Choice("40%", "40% of the screen"), Choice("50%", "50% of the screen"),
                   Choice("30%", "30% of the screen")],
        "volume": [Choice(nil, "100%"), Choice("25", "25%"), Choice("50", "50%"), Choice("75", "75%")],
        "autocapitalization": [Choice(nil, "Keyboard's own"), Choice("none", "None"), Choice("words", "Words"),
                               Choice("sentences", "Sentences"), Choice("all", "All")],
        "long-press": [Choice(nil, "0.45 s"), Choice("0.6", "0.6 s"), Choice("0.8", "0.8 s"), Choice("1", "1 s"),
                       Choice("1.5", "1.5 s"), Choice("0.3", "0.3 s")],
        "scan": [Choice(nil, "Off"), Choice("auto", "Auto"), Choice("step", "Step")],
        "scan-interval": [Choice(nil, "1 s"), Choice("1.5", "1.5 s"), Choice("2", "2 s"), Choice("3", "3 s"),
                          Choice("0.5", "0.5 s"), Choice("0.75", "0.75 s")],
        "dwell": [Choice(nil, "Off"), Choice("0.8", "0.8 s"), Choice("1", "1 s"), Choice("1.5", "1.5 s"),
                  Choice("2", "2 s"), Choice("0.5", "0.5 s")],
        "slow-keys": [Choice(nil, "Off"), Choice("0.3", "0.3 s"), Choice("0.5", "0.5 s"), Choice("1", "1 s")],
        "bounce-keys": [Choice(nil, "Off"), Choice("0.3", "0.3 s"), Choice("0.5", "0.5 s"), Choice("1", "1 s")],
        "auto-show": [Choice(nil, "Automatic"), Choice("focus", "Any focused field"),
                      Choice("touch", "Fields touched"), Choice("never", "Always shown")],
    ]

    static func pages(keyboards: [(name: String, title: String)], about: [(title: String, detail: String)],
                      replacements: [(shortcut: String, phrase: String)], values: [String: String],
                      words w: PanelWords) -> [Page] {
        [
            Page(id: home, title: w("Keyboard Settings"), rows: [
                SettingRow("page:keyboards", w("Keyboards"), w("Languages, keyboards and their order"), .page),
                SettingRow("page:typing", w("Typing"), w("Capitals, corrections, suggestions, keys held"), .page),
                SettingRow("page:look", w("Look and Size"), w("Theme, height, labels, docked or floating"), .page),
                SettingRow("page:sound", w("Sound"), w("The input click"), .page),
                SettingRow("page:accessibility", w("Accessibility"), w("Switch scanning, dwell, slow, bounce and sticky keys"),
                           .page),
                SettingRow("page:privacy", w("Privacy"), w("What the keyboard learns and keeps"), .page),
                SettingRow("page:showing", w("When to Show"), w("Which fields bring the keyboard up"), .page),
                SettingRow("page:about", w("About"), w("Version and licences"), .page),
            ]),
            Page(id: "keyboards", title: w("Keyboards"), rows: keyboards.map { keyboard in
                let on = values[keyboardRow(keyboard.name)] == "on"
                return SettingRow(keyboardRow(keyboard.name), w(keyboard.title),
                                  on ? w("In the Globe key's list") : w("Not in the Globe key's list"), .toggle(defaultOn: false))
            }),
            Page(id: "typing", title: w("Typing"), rows: [
                SettingRow("autocapitalization", w("Auto-Capitalization"), w("Shift at the start of a sentence"), .choice),
                SettingRow("autocorrection", w("Auto-Correction"), w("Corrects a misspelt word at the space after it"),
                           .toggle(defaultOn: true)),
                SettingRow("suggestions", w("Predictive"), w("The bar of words above the keys"), .toggle(defaultOn: true)),
                SettingRow("slide-to-type", w("Slide to Type"), w("Slide across the letters to type a word"),
                           .toggle(defaultOn: true)),
                SettingRow("smart-quotes", w("Smart Punctuation"), w("Curly quotes, and -- becomes a dash"),
                           .toggle(defaultOn: true)),
                SettingRow("double-space-period", w("Double-Space Period"), w("Two spaces type a period and a space"),
                           .toggle(defaultOn: true)),
                SettingRow("caps-lock", w("Caps Lock"), w("A double tap on shift locks capitals"), .toggle(defaultOn: true)),
                SettingRow("key-repeat", w("Key Repeat"), w("A held delete key repeats"), .toggle(defaultOn: true)),
                SettingRow("long-press", w("Long-Press Time"), w("How long a key is held for its accents"), .choice),
                SettingRow("page:replacements", w("Text Replacements"), w("Shortcuts typed that become phrases"), .page),
            ]),
            Page(id: "replacements", title: w("Text Replacements"), rows:
                [SettingRow("add-replacement", w("Add a Replacement"), w("Write a phrase and its shortcut"), .page)]
                + replacements.map { SettingRow("replacement:\($0.shortcut)", $0.shortcut, $0.phrase, .action,
                                                confirmation: w("Tap again to remove it")) }),
            Page(id: "look", title: w("Look and Size"), rows: [
                SettingRow("theme", w("Theme"), w("The keys' colours"), .choice),
                SettingRow("label-size", w("Label Size"), w("How large the letters on the keys are"), .choice),
                SettingRow("height", w("Keyboard Height"), w("Docked, as a share of the screen"), .choice),
                SettingRow("floating", w("Floating"), w("A small keyboard you can drag, reserving no space"),
                           .toggle(defaultOn: false)),
            ]),
            Page(id: "sound", title: w("Sound"), rows: [
                SettingRow("sound", w("Input Click"), w("A click at every key"), .toggle(defaultOn: true)),
                SettingRow("volume", w("Click Volume"), w("How loud the click is"), .choice),
            ]),
            Page(id: "accessibility", title: w("Accessibility"), rows: [
                SettingRow("scan", w("Switch Scanning"), w("Keys highlighted in turn, a switch picks"), .choice),
                SettingRow("scan-switch", w("Scanning Switch"), w("The key your switch sends: tap, then press it"), .action),
                SettingRow("scan-interval", w("Scanning Speed"), w("How long each highlight stays"), .choice),
                SettingRow("dwell", w("Dwell"), w("A pointer resting on a key presses it"), .choice),
                SettingRow("slow-keys", w("Slow Keys"), w("A key counts only once held this long"), .choice),
                SettingRow("bounce-keys", w("Bounce Keys"), w("A quick second press of a key types nothing"), .choice),
                SettingRow("sticky-keys", w("Sticky Keys"), w("Ctrl, Alt and Super stay down for the next key"),
                           .toggle(defaultOn: true)),
            ]),
            Page(id: "privacy", title: w("Privacy"), rows: [
                SettingRow("learning", w("Learn From My Typing"), w("Words and taps, never passwords"),
                           .toggle(defaultOn: true)),
                SettingRow("forget", w("Forget Learned Words"), w("Learned in every language, never from passwords"),
                           .action, confirmation: w("Tap again to forget them all")),
                SettingRow("files", w("Files Kept"), w("~/.local/share/keypane, yours alone (0600)"), .info),
            ]),
            Page(id: "showing", title: w("When to Show"), rows: [
                SettingRow("auto-show", w("Show the Keyboard"), w("For which fields"), .choice),
                SettingRow("show-button", w("Show Button"), w("A round button brings a hidden keyboard back"),
                           .toggle(defaultOn: true)),
            ]),
            Page(id: "about", title: w("About"), rows: about.map {
                SettingRow("about:\($0.title)", w($0.title), w($0.detail), .info)
            }),
        ]
    }

    /// The keyboards page's rows for a Globe key's list: those `listed` first in its order (named by
    /// `title` where `offered` does not name them), then the rest of `offered`; and their values.
    public static func keyboardRows(listed: [String], offered: [(name: String, title: String)],
                                    title: (String) -> String? = { _ in nil })
        -> (keyboards: [(name: String, title: String)], values: [String: String]) {
        let titles = Dictionary(offered.map { ($0.name, $0.title) }, uniquingKeysWith: { first, _ in first })
        let keyboards = listed.map { (name: $0, title: titles[$0] ?? title($0) ?? $0) } + offered.filter { !listed.contains($0.name) }
        return (keyboards, Dictionary(listed.map { (keyboardRow($0), "on") }, uniquingKeysWith: { first, _ in first }))
    }

    /// What the scanning switch's row asks for while it waits: the one switch, or for step scanning the
    /// one that moves (none pressed yet), then the one that picks.
    public static func switchPrompt(step: Bool, pressed: Int, words: PanelWords) -> String {
        guard step else { return words("Press your switch within 10 s") }
        return pressed == 0 ? words("Press the switch that moves, within 10 s") : words("Press the switch that picks, within 10 s")
    }

    /// The keyboards other than languages' that the Globe key's list may hold, after the languages', with
    /// their layouts' titles.
    public static let keyboardTypes: [(name: String, title: String)] = [
        ("emoji", "Emoji"), ("desktop", "Desktop (US)"), ("ascii", "English (US, ASCII)"), ("email", "Email address"),
        ("url", "URL"), ("web-search", "Web search"), ("social", "Social"), ("numbers-punctuation", "Numbers and punctuation"),
        ("number-pad", "Number pad"), ("ascii-number-pad", "Number pad (ASCII)"), ("phone-pad", "Phone pad"),
        ("name-phone-pad", "Name and phone number"), ("decimal-pad", "Decimal pad"),
    ]

    /// The keyboards the Globe key's list may hold, among the layouts `available`: the languages', each
    /// named in its own words, then the emoji keyboard (when there are emoji) and the other types.
    public static func offeredKeyboards(available: [String], emoji: Bool) -> [(name: String, title: String)] {
        Language.named.compactMap { language in
            Language.keyboard(for: language.tag, among: available).map { (name: $0, title: language.title) }
        } + keyboardTypes.filter { $0.name == EmojiBoard.name ? emoji : available.contains($0.name) }
    }

    /// The row of a keyboard in the Globe key's list, by its layout's name.
    public static func keyboardRow(_ name: String) -> String { "keyboard:\(name)" }
}

/// A change to the settings panel's entry field, from the keys under it.
public enum EntryEdit: Equatable, Hashable, Sendable {
    case type(String)
    case deleteBackward
    /// Capitals for the next letter.
    case shift
    /// The entry is done: kept.
    case save
}

/// A text replacement being written in the panel: its phrase and shortcut, the field the keys type into,
/// and whether the next letter is a capital.
public struct ReplacementEntry: Equatable, Sendable {
    public enum Field: String, Sendable { case phrase, shortcut }
    public var phrase = ""
    public var shortcut = ""
    public var field = Field.phrase
    public var shifted = true

    public init() {}

    /// A key's text shifted: a capital; as iPad's ",!" and ".?" keys, the comma's is "!", the period's "?".
    public static func shifted(_ typed: String) -> String { [",": "!", ".": "?"][typed] ?? typed.uppercased() }

    /// The field's text with an edit made: a character added (a capital after shift, which then goes off),
    /// or the last taken away.
    public mutating func apply(_ edit: EntryEdit) {
        var text = field == .phrase ? phrase : shortcut
        switch edit {
        case .type(let typed):
            text += shifted ? Self.shifted(typed) : typed
            shifted = false
        case .deleteBackward:
            if !text.isEmpty { text.removeLast() }
            shifted = field == .phrase && text.isEmpty
        case .shift:
            shifted.toggle()
        case .save:
            break
        }
        // A shortcut is one word of letters and digits, typed in lower case.
        if field == .phrase { phrase = text } else { shortcut = String(text.lowercased().filter { $0.isLetter || $0.isNumber }) }
    }
}

extension SettingsPanel {
    /// The layer where a new replacement is written.
    public static let entryLayer = "replacement-entry"

    /// The entry layer's rows: the two fields, then a small keyboard whose keys type into the field chosen.
    func entryRows(_ entry: ReplacementEntry) -> [[RowItem]] {
        let field = { (name: ReplacementEntry.Field, title: String, text: String) -> RowItem in
            let chosen = entry.field == name
            let row = SettingRow("entry-field:\(name.rawValue)", title, text.isEmpty && !chosen ? words("Tap to write") : text
                                 + (chosen ? "|" : ""), .action)
            return .key(KeySpec(function: .setting(row), width: 5, label: title, secondary: ""))
        }
        let letter = { (text: Character) -> RowItem in
            let typed = String(text)
            return .key(KeySpec(function: .settingsEntry(.type(typed)), label: entry.shifted ? ReplacementEntry.shifted(typed) : typed))
        }
        return [
            [field(.phrase, words("Phrase"), entry.phrase), field(.shortcut, words("Shortcut"), entry.shortcut)],
            "qwertyuiop".map(letter),
            "asdfghjkl.".map(letter),
            [.key(KeySpec(function: .settingsEntry(.shift), width: 1.5))] + "zxcvbnm".map(letter)
                + [.key(KeySpec(function: .settingsEntry(.deleteBackward), width: 1.5))],
            // Cancel and Save wide enough for every language's words ("Αποθήκευση").
            [.key(KeySpec(function: .layer("replacements"), width: 3, label: words("Cancel"))), letter(","),
             .key(KeySpec(function: .settingsEntry(.type(" ")), width: 3, label: "␣")),
             .key(KeySpec(function: .settingsEntry(.save), width: 3, label: words("Save")))],
        ]
    }
}
