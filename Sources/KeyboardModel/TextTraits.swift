/// How the keyboard helps with the text of a field, after iOS's `UITextInputTraits`.
public struct TextTraits: Equatable, Sendable {
    /// When shift engages by itself, after iOS's `UITextAutocapitalizationType`.
    public enum Autocapitalization: String, CaseIterable, Sendable {
        case none
        /// At the start of every word.
        case words
        /// At the start of the text and of every sentence.
        case sentences
        /// Always.
        case allCharacters = "all"
    }

    public var autocapitalization: Autocapitalization
    /// Corrections of what was typed; here, two quick spaces after a word become a period and a space.
    public var autocorrection: Bool
    /// ' and " become curly quotes that open or close by their place.
    public var smartQuotes: Bool
    /// -- becomes an em dash.
    public var smartDashes: Bool
    /// A password: no corrections or smart punctuation, and nothing kept beyond the current word.
    public var secureEntry: Bool

    public init(autocapitalization: Autocapitalization = .sentences, autocorrection: Bool = true,
                smartQuotes: Bool = true, smartDashes: Bool = true, secureEntry: Bool = false) {
        self.autocapitalization = autocapitalization
        self.autocorrection = autocorrection
        self.smartQuotes = smartQuotes
        self.smartDashes = smartDashes
        self.secureEntry = secureEntry
    }

    /// None of the behaviours: every key types what it shows.
    public static let plain = TextTraits(autocapitalization: .none, autocorrection: false, smartQuotes: false,
                                         smartDashes: false)

    /// What iOS does for each kind of field: prose keyboards help; addresses, searches, numbers and the
    /// desktop keyboard (terminals, code) type exactly what is tapped.
    public static func defaults(for type: KeyboardType) -> TextTraits {
        switch type {
        case .default, .ascii, .numbersPunctuation, .social, .emoji: TextTraits()
        case .namePhonePad: TextTraits(autocapitalization: .words, autocorrection: false)
        case .url, .email, .webSearch, .numberPad, .phonePad, .decimalPad, .asciiNumberPad, .desktop, .settings: .plain
        }
    }

    /// Traits chosen on the command line, each over every keyboard's defaults.
    public struct Overrides: Equatable, Sendable {
        public var autocapitalization: Autocapitalization?
        public var autocorrection: Bool?
        public var smartQuotes: Bool?
        public var smartDashes: Bool?
        public var secureEntry: Bool?

        public init(autocapitalization: Autocapitalization? = nil, autocorrection: Bool? = nil,
                    smartQuotes: Bool? = nil, smartDashes: Bool? = nil, secureEntry: Bool? = nil) {
            self.autocapitalization = autocapitalization
            self.autocorrection = autocorrection
            self.smartQuotes = smartQuotes
            self.smartDashes = smartDashes
            self.secureEntry = secureEntry
        }

        public func applied(to traits: TextTraits) -> TextTraits {
            var result = traits
            if let autocapitalization { result.autocapitalization = autocapitalization }
            if let autocorrection { result.autocorrection = autocorrection }
            if let smartQuotes { result.smartQuotes = smartQuotes }
            if let smartDashes { result.smartDashes = smartDashes }
            if let secureEntry { result.secureEntry = secureEntry }
            return result
        }
    }
}
