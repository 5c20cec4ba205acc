/// What the keyboard shows besides its keys: which are pressed, shift, and popups.
public struct KeyboardState: Equatable, Sendable {
    public enum Shift: String, Sendable { case off, on, capsLock = "caps-lock" }

    /// Indices of the keys being pressed.
    public var pressed: KeySet
    public var shift: Shift
    /// Modifier keysyms on for the next key (desktop keyboard: Control_L, Alt_L, Super_L): latched for one
    /// key, or locked (those in `lockedModifiers`) until tapped again.
    public var modifiers: Set<String>
    /// The modifiers of `modifiers` that stay on after a key: a double tap locked them.
    public var lockedModifiers: Set<String> = []
    /// Dwell filling up on a key: which, and how far (0 to 1), for its progress ring.
    public var dwell: (key: Int, progress: Double)? {
        get { dwellKey.map { ($0, dwellProgress) } }
        set {
            dwellKey = newValue?.key
            dwellProgress = newValue?.progress ?? 0
        }
    }
    private var dwellKey: Int?
    private var dwellProgress = 0.0
    /// The keys switch scanning highlights.
    public var scanned: KeySet = []
    /// Dwell paused by its pause key: resting on keys presses nothing, but on the pause key itself.
    public var dwellPaused = false
    /// What is drawn over the keys, in order.
    public var popups: [Popup]
    /// What the suggestion bar's slots show, left to right.
    public var bar: [BarSlot] = []
    /// The trail of a stroke across the keys, drawn over them.
    public var trail = Trail()
    /// The space bar is a trackpad: the keys are drawn without their labels.
    public var trackpad = false

    public init(pressed: KeySet = [], shift: Shift = .off, modifiers: Set<String> = [], popups: [Popup] = []) {
        self.pressed = pressed
        self.shift = shift
        self.modifiers = modifiers
        self.popups = popups
    }
}

/// Something drawn over the keys.
public enum Popup: Equatable, Sendable {
    /// The enlarged key above a pressed character key.
    case preview(key: Int, label: String)
    /// The alternates of a held key; `selected` follows the finger.
    case alternates(key: Int, options: [String], selected: Int)
    /// The list of enabled keyboards, from a held Globe key.
    case keyboards(key: Int, titles: [String], selected: Int)

    public var key: Int {
        switch self {
        case .preview(let key, _), .alternates(let key, _, _), .keyboards(let key, _, _): key
        }
    }

    /// The Globe list's last entry where the keyboard has no dismiss key of its own (a phone's keyboard
    /// without a suggestion bar, where the key would narrow the space bar).
    public static let hideKeyboardTitle = "Hide keyboard"
    /// The Globe list's entry that opens the settings panel, after every other.
    public static let settingsTitle = "Keyboard Settings"

    /// The bubble over a pressed character key (none for space or a function key). A shifted key that
    /// keeps its own label types its small one: that is what the bubble shows.
    public static func preview(of key: Int, in geometry: KeyboardGeometry) -> Popup? {
        let placed = geometry.keys[key]
        guard case .text(let text) = placed.function, text != " " else { return nil }
        return .preview(key: key, label: placed.secondary == text ? text : placed.label ?? text)
    }

    /// The accents of a held key, its own character first (none where it has none).
    public static func alternates(of key: Int, in geometry: KeyboardGeometry, selected: Int = 0) -> Popup? {
        let placed = geometry.keys[key]
        guard case .text(let text) = placed.function, !placed.alternates.isEmpty else { return nil }
        // Alternates that include the key's own text (an emoji's tones, the key showing one) keep their
        // order, with the key's own chosen at first.
        let own = placed.alternates.firstIndex(of: text)
        let options = own == nil ? [text] + placed.alternates : placed.alternates
        let start = selected == 0 ? own ?? 0 : selected
        return .alternates(key: key, options: options, selected: min(max(start, 0), options.count - 1))
    }

    /// The Globe key's list: the enabled keyboards' titles, "Hide keyboard" where the keyboard shown
    /// has no dismiss key, and `settingsTitle` (the entry that opens the settings) when given.
    /// `hideTitle` is that entry in the keyboard's language.
    public static func keyboards(_ titles: [String], selected: Int, in geometry: KeyboardGeometry,
                                 hideTitle: String? = nil, settingsTitle: String? = nil) -> Popup? {
        guard let globe = geometry.keys.firstIndex(where: { $0.function == .globe }) else { return nil }
        let hide = !geometry.keys.contains { $0.function == .dismiss }
        let entries = titles + (hide ? [hideTitle ?? hideKeyboardTitle] : []) + (settingsTitle.map { [$0] } ?? [])
        return .keyboards(key: globe, titles: entries, selected: selected)
    }
}


/// What a slot of the suggestion bar shows.
public struct BarSlot: Equatable, Sendable {
    public enum Look: Equatable, Sendable {
        /// A word offered.
        case plain
        /// The word as typed, in quotes: tapping keeps it.
        case typed
        /// What space will put in place of the typed word: drawn on a key's background.
        case correction
    }
    public var text: String
    public var look: Look

    public init(text: String, look: Look = .plain) {
        self.text = text
        self.look = look
    }
}
