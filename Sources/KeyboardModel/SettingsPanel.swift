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
