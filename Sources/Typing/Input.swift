public import KeyboardModel

/// A finger, pen or mouse on the keyboard, decoded from X events.
public struct InputEvent: Equatable, Sendable {
    public enum Phase: Sendable { case began, moved, ended, cancelled }

    /// Which contact: the XI2 touch id, or `InputEvent.pointer` for the mouse and pen.
    public var touch: Int
    public var phase: Phase
    /// Where, in pixels from the keyboard's top left.
    public var x: Double
    public var y: Double
    /// When, in seconds on the keyboard's clock.
    public var time: Double

    /// The touch id used for the core pointer.
    public static let pointer = -1

    public init(touch: Int = InputEvent.pointer, phase: Phase, x: Double, y: Double, time: Double) {
        self.touch = touch
        self.phase = phase
        self.x = x
        self.y = y
        self.time = time
    }
}

/// What the keyboard asks the rest of the program to do.
public enum KeyAction: Equatable, Sendable {
    /// Type this text into the focused window.
    case text(String)
    /// Press and release this keysym, with these modifier keysyms held around it.
    case keysym(String, modifiers: [String])
    /// Move the caret this many characters (left when negative), `selecting` from where a selection began
    /// (the caret of the first such move): through the field's own caret and selection where the
    /// accessibility bus can set them, so the move is exact, else as Left or Right keys (with Shift).
    case moveCaret(by: Int, selecting: Bool)
    /// Show the next enabled keyboard.
    case nextKeyboard
    /// Show the enabled keyboard at this index.
    case selectKeyboard(Int)
    /// Hide the keyboard.
    case dismiss
    /// Undock the keyboard into a floating one, or dock it again.
    case toggleFloating
    /// Show the settings panel in the keyboard's place.
    case openSettings
    /// A row of the settings panel tapped: its setting changes, or its action is done.
    case changeSetting(SettingRow)
    /// Close the settings panel, back to the keyboard as it was.
    case closeSettings
    /// A key of the settings panel's entry field: its text changes, or it is saved.
    case editSettingsEntry(EntryEdit)

    /// The keys a caret move is made of where the field's caret cannot be set: Left or Right, one a
    /// character, with Shift to select.
    public static func arrows(_ characters: Int, selecting: Bool = false) -> [KeyAction] {
        Array(repeating: .keysym(characters < 0 ? "Left" : "Right", modifiers: selecting ? ["Shift_L"] : []),
              count: abs(characters))
    }

    /// What a plain text field holds once `actions` reach it: text typed, BackSpace deleting a character,
    /// Return a new line (for tools, tests and benchmarks that type without a display).
    public static func apply(_ actions: [KeyAction], to text: inout String) {
        for action in actions {
            switch action {
            case .text(let typed): text += typed
            case .keysym("BackSpace", _): if !text.isEmpty { text.removeLast() }
            case .keysym("Return", _): text += "\n"
            default: break
            }
        }
    }
}

/// The input click a key press sounds, as on iOS: one for character keys, one for delete, one for the
/// other keys (shift, space, return, layer, globe and the rest).
public enum Click: String, CaseIterable, Sendable {
    case character, delete, modifier

    /// The click of a key that does this.
    public init(for function: KeyFunction) {
        switch function {
        case .text(" "): self = .modifier
        case .text: self = .character
        case .keysym("BackSpace"): self = .delete
        default: self = .modifier
        }
    }
}

/// What changed after an event: what to do, and what to draw again.
public struct Update: Equatable, Sendable {
    public var actions: [KeyAction] = []
    /// The click to sound: a key went down, or delete repeated.
    public var click: Click?
    /// Keys whose look changed.
    public var changedKeys: KeySet = []
    /// The layer, shift or size changed: draw everything.
    public var redrawAll = false
    /// Popups were opened, changed or closed.
    public var popupsChanged = false
    /// The trail of a stroke moved or faded.
    public var trailChanged = false
    /// The word being typed changed: ask for suggestions again (`TypingEngine.suggestionRequest()`).
    public var wordChanged = false
    /// Words for the learner, in the language `wordLanguage`.
    public var words: [WordEvent] = []
    public var wordLanguage = "en"
    /// The recent emoji or a skin tone choice changed: keep them (`TypingEngine.emoji`'s `memory`).
    public var emojiMemoryChanged = false
    /// The edit bar came up: whether the clipboard holds text is to be asked of the display
    /// (`TypingEngine.clipboardChanged(hasText:)`).
    public var asksClipboard = false

    public init() {}

    /// A word for the learner of a language.
    mutating func learn(_ language: String?, _ event: WordEvent) {
        words.append(event)
        wordLanguage = language ?? wordLanguage
    }

    /// Adds what `other`, which came after, changed.
    mutating func merge(_ other: Update) {
        actions += other.actions
        click = other.click ?? click
        changedKeys.formUnion(other.changedKeys)
        redrawAll = redrawAll || other.redrawAll
        popupsChanged = popupsChanged || other.popupsChanged
        trailChanged = trailChanged || other.trailChanged
        wordChanged = wordChanged || other.wordChanged
        if !other.words.isEmpty {
            words += other.words
            wordLanguage = other.wordLanguage
        }
        emojiMemoryChanged = emojiMemoryChanged || other.emojiMemoryChanged
        asksClipboard = asksClipboard || other.asksClipboard
    }

    public var isEmpty: Bool {
        actions.isEmpty && click == nil && changedKeys.isEmpty && !redrawAll && !popupsChanged && !trailChanged && !wordChanged && words.isEmpty
            && !emojiMemoryChanged && !asksClipboard
    }
}
