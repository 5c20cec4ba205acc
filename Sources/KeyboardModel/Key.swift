/// What a key does when tapped.
public enum KeyFunction: Equatable, Hashable, Sendable {
    /// Types this text (one character or more, such as ".com").
    case text(String)
    /// Sends this X keysym by name (Return, BackSpace, Tab, Left, F1, Control_L, ...).
    case keysym(String)
    /// One-shot shift.
    case shift
    /// Caps lock.
    case capsLock
    /// Switches to the named layer.
    case layer(String)
    /// Next keyboard on tap, the list on hold.
    case globe
    /// Hides the keyboard.
    case dismiss
    /// Back to the language keyboard last shown (the emoji keyboard's ABC key).
    case languageKeyboard
    /// Edits the emoji search (the keys of the emoji keyboard's search layer; never in layout files).
    case emojiSearch(EmojiSearchEdit)
    /// Pauses dwell, or resumes it (shown when dwell is on).
    case dwellPause
    /// Undoes the last edit (Ctrl+Z), or redoes it (Ctrl+Shift+Z), as iPad's keys do.
    case undo, redo
    /// A slot of the suggestion bar, counted from the left (added by the layout engine, never written
    /// in layout files).
    case suggestion(Int)
    /// A row of the settings panel (`SettingsPanel`; never in layout files).
    case setting(SettingRow)
    /// Closes the settings panel, back to the keyboard as it was.
    case closeSettings
    /// Edits the settings panel's own entry field (a new text replacement; never in layout files).
    case settingsEntry(EntryEdit)

    /// The form used in geometry files and layout files: `shift`, `caps-lock`, `layer:NAME`, ...
    public var actionName: String? {
        switch self {
        case .text, .keysym: nil
        case .shift: "shift"
        case .capsLock: "caps-lock"
        case .layer(let name): "layer:\(name)"
        case .globe: "globe"
        case .dismiss: "dismiss"
        case .languageKeyboard: "language-keyboard"
        case .emojiSearch(.type(let text)): "emoji-search:\(text)"
        case .emojiSearch(.deleteBackward): "emoji-search-delete"
        case .dwellPause: "dwell-pause"
        case .undo: "undo"
        case .redo: "redo"
        case .suggestion(let slot): "suggestion:\(slot)"
        case .setting(let row): "setting:\(row.name)"
        case .closeSettings: "close-settings"
        case .settingsEntry(.type(let text)): "entry:\(text)"
        case .settingsEntry(.deleteBackward): "entry-delete"
        case .settingsEntry(.shift): "entry-shift"
        case .settingsEntry(.save): "entry-save"
        }
    }

    /// Parses an action name as written after `@` in a layout file.
    public init?(actionName: String) {
        switch actionName {
        case "shift": self = .shift
        case "caps-lock": self = .capsLock
        case "globe": self = .globe
        case "dismiss": self = .dismiss
        case "language-keyboard": self = .languageKeyboard
        case "dwell-pause": self = .dwellPause
        case "undo": self = .undo
        case "redo": self = .redo
        default:
            guard actionName.hasPrefix("layer:"), actionName.count > 6 else { return nil }
            self = .layer(String(actionName.dropFirst(6)))
        }
    }

    /// True for the space bar.
    public var isSpace: Bool { self == .text(" ") }

    /// True for a slot of the suggestion bar.
    public var isSuggestion: Bool {
        if case .suggestion = self { true } else { false }
    }
}

/// The symbol drawn on keys that show an icon rather than a word.
public enum KeyIcon: String, CaseIterable, Sendable {
    case globe, shift, capsLock, delete, `return`, dismiss, space
}

/// One key as a layout file describes it, before it is placed.
public struct KeySpec: Equatable, Sendable {
    /// What the key does.
    public var function: KeyFunction
    /// Width in key units; a plain letter key is 1.
    public var width: Double
    /// The label from the layout file, if it gave one.
    public var label: String?
    /// A small second label: the phone letters on a digit, or the shifted character.
    public var secondary: String?
    /// Characters offered when the key is held.
    public var alternates: [String]

    public init(function: KeyFunction, width: Double = 1, label: String? = nil,
                secondary: String? = nil, alternates: [String] = []) {
        self.function = function
        self.width = width
        self.label = label
        self.secondary = secondary
        self.alternates = alternates
    }
}

/// An item of a row: a key, or an empty gap that pushes keys along.
public enum RowItem: Equatable, Sendable {
    case key(KeySpec)
    case gap(Double)

    /// Width in key units.
    public var width: Double {
        switch self {
        case .key(let key): key.width
        case .gap(let width): width
        }
    }
}
