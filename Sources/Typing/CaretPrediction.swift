/// Where the focused field's caret should be after the keyboard's own keystrokes, counted from where it was
/// last read: a caret move the application reports at that place is the keyboard's typing, and the field
/// need not be read again (the keyboard's record already says what is before the caret). Offsets are in
/// characters (Unicode scalars), as the accessibility bus counts them.
public struct CaretPrediction: Sendable {
    /// The offset the caret should be at; nil when unknown (nothing read yet, or a key that moves the caret
    /// by an amount the keyboard cannot know).
    public private(set) var expected: Int?

    public init() {}

    /// The field was read with its caret at `offset`.
    public mutating func read(at offset: Int) { expected = offset }

    /// Nothing is known: another field, or no field.
    public mutating func forget() { expected = nil }

    /// The keyboard sent a keystroke into the field.
    public mutating func sent(_ action: KeyAction) {
        guard let caret = expected else { return }
        switch action {
        case .text(let text): expected = caret + text.unicodeScalars.count
        case .keysym("BackSpace", let modifiers) where modifiers.isEmpty: expected = max(0, caret - 1)
        case .moveCaret(let characters, _): expected = max(0, caret + characters)
        case .keysym: expected = nil
        default: break
        }
    }

    /// Whether the keyboard's keystrokes put the caret at `offset`.
    public func explains(_ offset: Int) -> Bool { expected == offset }
}

/// The reads of a field's text that are under way: an answer counts only if nothing was typed and no
/// other read started since it was asked for (it would describe the field as it was before).
public struct ContextReads: Sendable {
    private var latest = 0
    private var pending: Int?

    public init() {}

    /// Whether a read's answer is awaited.
    public var isUnderWay: Bool { pending != nil }

    /// A read starts: its number, for `finish`.
    public mutating func start() -> Int {
        latest += 1
        pending = latest
        return latest
    }

    /// Keystrokes went out: the answer to a read under way is of the text before them.
    public mutating func outdate() {
        latest += 1
    }

    /// A read's answer came: true when it is the latest and nothing was typed since.
    public mutating func finish(_ read: Int) -> Bool {
        if pending == read { pending = nil }
        return read == latest
    }
}
