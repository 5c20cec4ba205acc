public import KeyboardModel

/// What the keyboard typed since the focus or the caret last moved, and the behaviours that build on it:
/// autocapitalization, the double-space period, smart quotes and dashes.
///
/// It keeps its own record of what it typed. Where the field can be read (the accessibility bus's Text
/// interface), the field's text before the caret replaces the record whenever the two differ; elsewhere,
/// after a reset (another window, a click outside the keyboard, a key that moves the caret) it knows only
/// that input starts afresh.
public struct Composer: Sendable {
    public var traits: TextTraits {
        didSet { if traits.secureEntry { record = "" } }
    }
    /// The marks smart quotes type: the language's.
    public var quotes = Quotes.english
    /// The longest pause between the two spaces of a double-space period, in seconds.
    public var doubleSpaceInterval = 0.6
    /// Two spaces type a period and a space (`--double-space-period`), where corrections are allowed.
    public var doubleSpacePeriod = true

    /// What was typed since the last reset: its last characters only (at least `memory` of them), and in
    /// secure entry nothing at all.
    public private(set) var record = ""
    /// When the last thing typed was a space, when it was typed.
    private var lastSpace: Double?
    /// The last change the keyboard made to what was typed, undone by a delete right after it.
    private var undo: (sent: String, typed: String)?

    /// Enough of the text to decide on capitals and quotes.
    public static let memory = 64

    public init(traits: TextTraits) {
        self.traits = traits
    }

    /// Forgets everything: input starts afresh.
    public mutating func reset() {
        record = ""
        lastSpace = nil
        undo = nil
    }

    /// The field's text before the caret. Where it ends with the record, the caret is where the keyboard
    /// left it: the record grows to the field's text and a change just made can still be undone. Otherwise
    /// the caret or the text moved by other means: the field's text is the record, from here on. A secret
    /// field is never read.
    public mutating func read(_ before: String) {
        guard !traits.secureEntry else { return }
        let text = String(before.suffix(Self.memory))
        if record.isEmpty || !text.hasSuffix(record) {
            lastSpace = nil
            undo = nil
        }
        record = text
    }

    /// What to send for a key's text typed at `time`: the text itself, or the keyboard's change of it.
    public mutating func type(_ text: String, at time: Double) -> [KeyAction] {
        let smart = !traits.secureEntry
        let previous = record.last
        var sent = text, deletes = 0
        if smart && traits.smartDashes && text == "-" && previous == "-" && undo == nil {
            (sent, deletes) = ("—", 1)
        } else if smart && traits.smartQuotes && (text == "'" || text == "\"") {
            let opening = previous.map { $0.isWhitespace || quotes.openers.contains($0) } ?? true
            if text == "'" {
                sent = opening ? quotes.singleOpen : quotes.singleClose
            } else {
                sent = opening ? quotes.doubleOpen + quotes.inside : quotes.inside + quotes.doubleClose
            }
        } else if smart && doubleSpacePeriod && traits.autocorrection && text == " " && previous == " ", let lastSpace,
                  time - lastSpace <= doubleSpaceInterval,
                  let word = record.dropLast().last, word.isLetter || word.isNumber {
            (sent, deletes) = (". ", 1)
        }
        if sent != text {
            let typed = String(record.suffix(deletes)) + text
            undo = (sent, typed)
        } else {
            undo = nil
        }
        record.removeLast(deletes)
        remember(sent)
        lastSpace = text == " " && sent == text ? time : nil
        return Array(repeating: .keysym("BackSpace", modifiers: []), count: deletes) + [.text(sent)]
    }

    /// A correction on a separator: the typed word (its last `count` characters) goes, the correction
    /// and the separator come; a delete right after brings the typed word back (without the separator).
    public mutating func correct(count: Int, typed: String, with correction: String, then separator: String,
                                 at time: Double) -> [KeyAction] {
        let deletes = min(count, record.count)
        record.removeLast(deletes)
        let sent = correction + separator
        remember(sent)
        undo = (sent, typed)
        lastSpace = separator == " " ? time : nil
        return Array(repeating: .keysym("BackSpace", modifiers: []), count: count) + [.text(sent)]
    }

    /// A word chosen from the suggestion bar in place of the last `count` characters typed.
    public mutating func replace(count: Int, with text: String, at time: Double) -> [KeyAction] {
        record.removeLast(min(count, record.count))
        remember(text)
        undo = nil
        lastSpace = text.hasSuffix(" ") ? time : nil
        return Array(repeating: .keysym("BackSpace", modifiers: []), count: count) + [.text(text)]
    }

    /// Deletes the last `count` characters typed (a stroke's word, whole).
    public mutating func erase(count: Int) -> [KeyAction] {
        record.removeLast(min(count, record.count))
        undo = nil
        lastSpace = nil
        return Array(repeating: .keysym("BackSpace", modifiers: []), count: count)
    }

    /// A delete key: right after a change, what the keyboard sent is replaced by what was typed (the
    /// returned actions); otherwise nil, and the delete goes as it is.
    public mutating func delete() -> [KeyAction]? {
        lastSpace = nil
        guard let (sent, typed) = undo else {
            if !record.isEmpty { record.removeLast() }
            return nil
        }
        undo = nil
        record.removeLast(min(sent.count, record.count))
        remember(typed)
        return Array(repeating: .keysym("BackSpace", modifiers: []), count: sent.count) + [.text(typed)]
    }

    /// A key that is not text: Return starts a new line; anything else may move the caret, so the
    /// record starts afresh.
    public mutating func keysym(_ name: String, modifiers: [String]) {
        if modifiers.isEmpty && ["Return", "KP_Enter"].contains(name) {
            undo = nil
            lastSpace = nil
            remember("\n")
        } else {
            reset()
        }
    }

    /// Whether the next letter should be a capital.
    public var wantsCapital: Bool {
        if traits.autocapitalization == .allCharacters { return true }
        // A password's words are not sentences: capitals only when asked for all of them.
        guard !traits.secureEntry else { return false }
        // Read by scalars, not characters: this runs on every keystroke, and what it looks for (spaces, line
        // ends, closing marks, a sentence's end) are single scalars.
        guard let last = record.unicodeScalars.last else { return traits.autocapitalization != .none }
        switch traits.autocapitalization {
        case .none, .allCharacters: return false
        case .words: return last.properties.isWhitespace
        case .sentences:
            if Character(last).isNewline { return true }
            guard last.properties.isWhitespace else { return false }
            // The end of a sentence, then spaces: "word. ", "(so!) ", "“Yes?” ".
            let closing = ")]}”’\"'".unicodeScalars
            let before = record.unicodeScalars.reversed().drop { $0.properties.isWhitespace }.drop { closing.contains($0) }
            return before.first.map(Self.endsSentence) ?? true
        }
    }

    /// Whether a character ends a sentence: a full stop, a question or exclamation mark, or a new line. It
    /// decides the capital after it and where the language model's context starts.
    static func endsSentence(_ scalar: Unicode.Scalar) -> Bool {
        ".!?".unicodeScalars.contains(scalar) || Character(scalar).isNewline
    }

    private mutating func remember(_ text: String) {
        guard !traits.secureEntry else { return }
        record += text
        // Cut back to `memory` characters once it holds four times as many bytes, not on each keystroke:
        // counting the characters each time cost more than the rest of typing a letter.
        if record.utf8.count > 4 * Self.memory {
            record = String(record.suffix(Self.memory))
        }
    }
}
