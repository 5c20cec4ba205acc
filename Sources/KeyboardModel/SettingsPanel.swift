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

    /// `languages`: the languages there are keyboards for, by tag, with their names in their own words.
    /// `replacements`: the text replacements, each a row that a second tap removes.
    public init(values: [String: String], locked: Set<String> = [], languages: [(tag: String, title: String)],
                about: [(title: String, detail: String)] = [], replacements: [(shortcut: String, phrase: String)] = []) {
        self.values = values
        self.locked = locked
        pages = Self.pages(languages: languages, about: about, replacements: replacements)
    }

    // MARK: - Values

    /// The choices a row cycles through; empty for a row that is on or off, opens a page or does something.
    public func choices(of name: String) -> [Choice] { Self.choices[name] ?? [] }

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
        case .toggle: value(of: row) == "on" ? "On" : "Off"
        case .choice:
            choices(of: row.name).first { $0.value == values[row.name] }?.title
                ?? values[row.name] ?? choices(of: row.name).first?.title ?? ""
        case .page: "›"
        case .action: confirming == row.name ? "Tap again" : ""
        case .info: ""
        }
    }

    /// The value a tap on the row gives its setting: a switch flips, a choice goes to the next one (after
    /// the last, the first). Nil for a row that holds no value, or is locked.
    public func nextValue(of row: SettingRow) -> String?? {
        guard !locked.contains(row.name) else { return nil }
        switch row.control {
        case .toggle: return .some(value(of: row) == "on" ? "off" : "on")
        case .choice:
            let choices = choices(of: row.name)
            let index = choices.firstIndex { $0.value == values[row.name] } ?? -1
            return .some(choices[(index + 1) % choices.count].value)
        default: return nil
        }
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
        var layout = Layout(name: Self.name, type: .settings, title: "Keyboard Settings", language: nil,
                            layers: layers, rows: [:])
        for page in pages {
            let count = layerCount(page)
            for index in 0..<count {
                let rows = page.rows.dropFirst(index * Self.rowsPerLayer).prefix(Self.rowsPerLayer)
                var items: [[RowItem]] = rows.map { [.key(key(for: $0))] }
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
        if locked.contains(row.name) {
            shown.locked = true
            shown.detail = "Set by the administrator"
        }
        if row.control == .action, confirming == row.name { shown.detail = row.confirmation ?? row.detail }
        return KeySpec(function: .setting(shown), width: 10, label: row.title, secondary: shownValue(of: row))
    }

    /// The row under a page: back to the first page, the page's title, the other layers of a long page,
    /// and Done, which closes the panel.
    private func navigation(_ page: Page, index: Int, of count: Int) -> [RowItem] {
        var items: [RowItem] = []
        if page.id != Self.home {
            items.append(.key(KeySpec(function: .layer(Self.home), width: 2.5, label: "‹ Settings")))
        }
        if count > 1 {
            let previous = Self.layer((index + count - 1) % count, of: page.id)
            let next = Self.layer((index + 1) % count, of: page.id)
            items.append(.key(KeySpec(function: .layer(previous), width: 1.5, label: "‹")))
            items.append(.gap(page.id == Self.home ? 5 : 2.5))
            items.append(.key(KeySpec(function: .layer(next), width: 1.5, label: "\(index + 1)/\(count) ›")))
        } else {
            items.append(.gap(page.id == Self.home ? 7.5 : 5))
        }
        items.append(.key(KeySpec(function: .closeSettings, width: 2.5, label: "Done")))
        return items
    }
}

/// A row of the settings panel, as its key carries it: the setting's name in the settings file (or
/// `page:NAME` for a row that opens a page, `language:TAG` for a language), a short explanation, and what
/// a tap does.
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
    }

    public var name: String
    public var title: String
    public var detail: String
    public var control: Control
    /// Set by the administrator: drawn greyed, never changed.
    public var locked = false
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
        }
    }

    /// The page a `page:NAME` row opens.
    public var page: String? { name.hasPrefix("page:") ? String(name.dropFirst(5)) : nil }
    /// The language a `language:TAG` row turns on or off.
    public var language: String? { name.hasPrefix("language:") ? String(name.dropFirst(9)) : nil }
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

    static func pages(languages: [(tag: String, title: String)], about: [(title: String, detail: String)],
                      replacements: [(shortcut: String, phrase: String)]) -> [Page] {
        [
            Page(id: home, title: "Keyboard Settings", rows: [
                SettingRow("page:keyboards", "Keyboards", "Languages and the emoji keyboard", .page),
                SettingRow("page:typing", "Typing", "Capitals, corrections, suggestions, keys held", .page),
                SettingRow("page:look", "Look and Size", "Theme, height, labels, docked or floating", .page),
                SettingRow("page:sound", "Sound", "The input click", .page),
                SettingRow("page:accessibility", "Accessibility", "Switch scanning, dwell, slow and bounce keys", .page),
                SettingRow("page:privacy", "Privacy", "What the keyboard learns and keeps", .page),
                SettingRow("page:showing", "When to Show", "Which fields bring the keyboard up", .page),
                SettingRow("page:about", "About", "Version and licences", .page),
            ]),
            Page(id: "keyboards", title: "Keyboards", rows:
                [SettingRow("emoji", "Emoji", "The emoji keyboard in the Globe key's list", .toggle(defaultOn: true))]
                + languages.map { SettingRow("language:\($0.tag)", $0.title, "A keyboard in the Globe key's list",
                                             .toggle(defaultOn: false)) }),
            Page(id: "typing", title: "Typing", rows: [
                SettingRow("autocapitalization", "Auto-Capitalization", "Shift at the start of a sentence", .choice),
                SettingRow("autocorrection", "Auto-Correction", "Corrects on space; two spaces make a period",
                           .toggle(defaultOn: true)),
                SettingRow("suggestions", "Predictive", "The bar of words above the keys", .toggle(defaultOn: true)),
                SettingRow("slide-to-type", "Slide to Type", "Slide across the letters to type a word",
                           .toggle(defaultOn: true)),
                SettingRow("smart-quotes", "Smart Punctuation", "Curly quotes, and -- becomes a dash",
                           .toggle(defaultOn: true)),
                SettingRow("key-repeat", "Key Repeat", "A held delete key repeats", .toggle(defaultOn: true)),
                SettingRow("long-press", "Long-Press Time", "How long a key is held for its accents", .choice),
                SettingRow("page:replacements", "Text Replacements", "Shortcuts typed that become phrases", .page),
            ]),
            Page(id: "replacements", title: "Text Replacements", rows:
                [SettingRow("add-replacement", "Add a Replacement", "Write a phrase and its shortcut", .page)]
                + replacements.map { SettingRow("replacement:\($0.shortcut)", $0.shortcut, $0.phrase, .action,
                                                confirmation: "Tap again to remove it") }),
            Page(id: "look", title: "Look and Size", rows: [
                SettingRow("theme", "Theme", "The keys' colours", .choice),
                SettingRow("label-size", "Label Size", "How large the letters on the keys are", .choice),
                SettingRow("height", "Keyboard Height", "Docked, as a share of the screen", .choice),
                SettingRow("floating", "Floating", "A small keyboard you can drag, reserving no space",
                           .toggle(defaultOn: false)),
            ]),
            Page(id: "sound", title: "Sound", rows: [
                SettingRow("sound", "Input Click", "A click at every key", .toggle(defaultOn: true)),
                SettingRow("volume", "Click Volume", "How loud the click is", .choice),
            ]),
            Page(id: "accessibility", title: "Accessibility", rows: [
                SettingRow("scan", "Switch Scanning", "Keys highlighted in turn, a switch picks", .choice),
                SettingRow("scan-interval", "Scanning Speed", "How long each highlight stays", .choice),
                SettingRow("dwell", "Dwell", "A pointer resting on a key presses it", .choice),
                SettingRow("slow-keys", "Slow Keys", "A key counts only once held this long", .choice),
                SettingRow("bounce-keys", "Bounce Keys", "A quick second press of a key types nothing", .choice),
            ]),
            Page(id: "privacy", title: "Privacy", rows: [
                SettingRow("learning", "Learn From My Typing", "Words and taps, never passwords",
                           .toggle(defaultOn: true)),
                SettingRow("forget", "Forget Learned Words", "Learned in every language, never from passwords",
                           .action, confirmation: "Tap again to forget them all"),
                SettingRow("files", "Files Kept", "~/.local/share/keypane, yours alone (0600)", .info),
            ]),
            Page(id: "showing", title: "When to Show", rows: [
                SettingRow("auto-show", "Show the Keyboard", "For which fields; from the next start", .choice),
                SettingRow("show-button", "Show Button", "A round button brings a hidden keyboard back",
                           .toggle(defaultOn: true)),
            ]),
            Page(id: "about", title: "About", rows: about.map { SettingRow("about:\($0.title)", $0.title, $0.detail, .info) }),
        ]
    }
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

    /// The field's text with an edit made: a character added (a capital after shift, which then goes off),
    /// or the last taken away.
    public mutating func apply(_ edit: EntryEdit) {
        var text = field == .phrase ? phrase : shortcut
        switch edit {
        case .type(let typed):
            text += shifted ? typed.uppercased() : typed
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
            let row = SettingRow("entry-field:\(name.rawValue)", title, text.isEmpty && !chosen ? "Tap to write" : text
                                 + (chosen ? "|" : ""), .action)
            return .key(KeySpec(function: .setting(row), width: 5, label: title, secondary: chosen ? "Writing" : ""))
        }
        let letter = { (text: Character) -> RowItem in
            let typed = String(text)
            return .key(KeySpec(function: .settingsEntry(.type(typed)), label: entry.shifted ? typed.uppercased() : typed))
        }
        return [
            [field(.phrase, "Phrase", entry.phrase), field(.shortcut, "Shortcut", entry.shortcut)],
            "qwertyuiop".map(letter),
            [.gap(0.5)] + "asdfghjkl".map(letter) + [.gap(0.5)],
            [.key(KeySpec(function: .settingsEntry(.shift), width: 1.5))] + "zxcvbnm".map(letter)
                + [.key(KeySpec(function: .settingsEntry(.deleteBackward), width: 1.5))],
            [.key(KeySpec(function: .layer("replacements"), width: 2, label: "Cancel")),
             letter(","), letter("."), letter("!"), letter("?"),
             .key(KeySpec(function: .settingsEntry(.type(" ")), width: 2.5, label: "space")),
             .key(KeySpec(function: .settingsEntry(.save), width: 2, label: "Save"))],
        ]
    }
}
