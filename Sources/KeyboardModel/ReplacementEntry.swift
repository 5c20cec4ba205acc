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
