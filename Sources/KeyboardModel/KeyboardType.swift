/// The kinds of keyboard Keypane offers, after iOS's `UIKeyboardType`, plus a full desktop layout.
///
/// The raw values are the names used on the command line, in layout files and in geometry files.
public enum KeyboardType: String, CaseIterable, Sendable {
    case `default` = "default"
    case ascii = "ascii"
    case numbersPunctuation = "numbers-punctuation"
    case url = "url"
    case numberPad = "number-pad"
    case phonePad = "phone-pad"
    case namePhonePad = "name-phone-pad"
    case email = "email"
    case decimalPad = "decimal-pad"
    case social = "social"
    case webSearch = "web-search"
    case asciiNumberPad = "ascii-number-pad"
    case desktop = "desktop"
    /// The emoji keyboard (`EmojiBoard`), made from Unicode's emoji list rather than a layout file.
    case emoji = "emoji"
    /// The settings panel (`SettingsPanel`), shown in the keyboard's place; never among the Globe key's.
    case settings = "settings"

    /// All names, comma separated, for messages.
    public static var allNames: String { allCases.filter { $0 != .settings }.map(\.rawValue).joined(separator: ", ") }

    /// The types whose keyboards are layout files (Assets/layouts/TYPE.layout): all but emoji.
    public static var withLayoutFiles: [KeyboardType] { allCases.filter { $0 != .emoji && $0 != .settings } }

    /// The keyboards for prose, which show the suggestion bar (as iOS's do): not the pads, not addresses,
    /// not the desktop keyboard.
    public var hasSuggestionBar: Bool {
        switch self {
        case .default, .ascii, .numbersPunctuation, .social, .namePhonePad, .webSearch: true
        case .url, .email, .numberPad, .phonePad, .decimalPad, .asciiNumberPad, .desktop, .emoji, .settings: false
        }
    }
}

/// What the Return key does for the field being edited, after iOS's `UIReturnKeyType`.
public enum ReturnKeyType: String, CaseIterable, Sendable {
    case `default` = "default"
    case go = "go"
    case search = "search"
    case send = "send"
    case done = "done"
    case next = "next"
    case join = "join"
    case route = "route"
    case `continue` = "continue"
    case emergencyCall = "emergency-call"

    /// The word on the key, or nil for the default key, which shows the return icon.
    public var label: String? {
        switch self {
        case .default: nil
        case .go: "go"
        case .search: "search"
        case .send: "send"
        case .done: "done"
        case .next: "next"
        case .join: "join"
        case .route: "route"
        case .continue: "continue"
        case .emergencyCall: "Emergency call"
        }
    }

    /// Its name in a layout's `label` lines: the default key's is "return".
    public var labelName: String { self == .default ? "return" : rawValue }

    /// Whether the key is drawn in the accent colour, as iOS does for keys that complete an action.
    public var isProminent: Bool { self != .default && self != .next }

    /// All names, comma separated, for messages.
    public static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The two size classes of the keyboard: phone-like and tablet-like.
public enum WidthClass: String, CaseIterable, Sendable {
    case compact
    case regular

    /// Keyboards at least this many pixels wide use the regular (tablet) layouts.
    ///
    /// 768 px is the narrowest side of the smallest tablets, in the same place as iPad's regular
    /// width class; phones and narrow windows stay compact.
    public static let regularMinimumWidth = 768

    /// The class for a keyboard of the given width in pixels.
    public init(width: Int) {
        self = width >= Self.regularMinimumWidth ? .regular : .compact
    }
}
