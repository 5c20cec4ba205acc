/// A focused text field as the accessibility bus describes it: what Keypane needs to choose a keyboard for
/// it. Filled in from AT-SPI's role, state set and object attributes; decided here, without the bus.
public struct TextField: Equatable, Sendable {
    /// The roles that change the choice; every other role counts by its states alone.
    public enum Role: Equatable, Sendable {
        case password, terminal, spinButton, other
    }

    public var role: Role
    /// The state EDITABLE: the user can change the text.
    public var editable: Bool
    /// The state READ_ONLY.
    public var readOnly: Bool
    /// The state MULTI_LINE (a text view, a textarea).
    public var multiLine: Bool
    /// The HTML input type a browser reports in the object attribute text-input-type, lowercased.
    public var inputType: String?
    /// The step of a number field (a spin button's minimum increment), where the application says it: 1
    /// for whole numbers, 0.01 for cents; nil or 0 when unknown.
    public var step: Double?
    /// Which object it is (the application's bus name and the object's path), when known: a field that
    /// gets the focus again keeps the keyboard the user chose for it.
    public var id: String?

    public init(role: Role = .other, editable: Bool = true, readOnly: Bool = false, multiLine: Bool = false,
                inputType: String? = nil, step: Double? = nil, id: String? = nil) {
        self.id = id
        self.step = step
        self.role = role
        self.editable = editable
        self.readOnly = readOnly
        self.multiLine = multiLine
        self.inputType = inputType?.lowercased()
    }

    /// Whether the keyboard is for it: text the user can change (a terminal takes keys whatever it says).
    public var takesText: Bool {
        guard !readOnly else { return false }
        return editable || role == .terminal || role == .password
    }

    /// Whether what is typed there is a secret.
    public var isSecret: Bool { role == .password || inputType == "password" }

    /// Whether the text before the caret may be read to decide capitals and punctuation: text that is
    /// neither a secret nor a terminal's screen.
    public var mayBeRead: Bool { takesText && !isSecret && role != .terminal }

    /// The keyboard, Return key and traits for the field, as iOS's UITextInputTraits would choose them.
    public var choice: FieldChoice {
        if isSecret {
            // A password: letters, and nothing kept, corrected, capitalized or made smart.
            return FieldChoice(type: .default, returnKey: .default,
                               traits: TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none,
                                                            autocorrection: false, smartQuotes: false,
                                                            smartDashes: false, secureEntry: true))
        }
        if role == .terminal {
            var choice = FieldChoice(type: .desktop, returnKey: .default,
                                     traits: TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none,
                                                                  autocorrection: false, smartQuotes: false, smartDashes: false))
            choice.terminal = true
            return choice
        }
        switch inputType {
        case "email": return FieldChoice(type: .email)
        case "url": return FieldChoice(type: .url)
        case "tel": return FieldChoice(type: .phonePad)
        case "number": return FieldChoice(type: numberPad)
        case "search": return FieldChoice(type: .webSearch, returnKey: .search)
        default: break
        }
        if role == .spinButton { return FieldChoice(type: numberPad) }
        return FieldChoice(type: .default, multiLine: multiLine)
    }
}

extension TextField {
    /// The pad for a number field: with a decimal point where its step is a fraction (Firefox says an
    /// input's step; Chromium says none, so its number inputs get the number pad).
    var numberPad: KeyboardType {
        guard let step, step > 0, step.isFinite, step != step.rounded() else { return .numberPad }
        return .decimalPad
    }
}

/// What a field asks of the keyboard: its type, its Return key, and traits over the type's own.
public struct FieldChoice: Equatable, Sendable {
    public var type: KeyboardType
    public var returnKey: ReturnKeyType
    public var traits: TextTraits.Overrides
    /// The field holds lines of text (a text view, a textarea): the trackpad moves its caret up and down.
    public var multiLine = false
    /// The field is a terminal's: its edit actions are Ctrl+Shift+C and V, in a bar of their own.
    public var terminal = false

    public init(type: KeyboardType, returnKey: ReturnKeyType = .default, traits: TextTraits.Overrides = .init(),
                multiLine: Bool = false) {
        self.type = type
        self.returnKey = returnKey
        self.traits = traits
        self.multiLine = multiLine
    }
}

extension Rect {
    /// Where a field at this place (screen pixels) should move to be seen above a keyboard at `keyboard`: its
    /// top-left corner for a scroll, or nil when its first line is already in sight (or the keyboard is
    /// elsewhere). At least `line` pixels of the field must show, `margin` above the keyboard.
    public func scrollTarget(clearOf keyboard: Rect, line: Int = 48, margin: Int = 16) -> (x: Int, y: Int)? {
        let overlapsHorizontally = x < keyboard.x + keyboard.width && x + width > keyboard.x
        let shown = min(height, line)
        guard overlapsHorizontally, y + shown > keyboard.y, y < keyboard.y + keyboard.height else { return nil }
        return (x, max(0, keyboard.y - margin - min(height, keyboard.y - margin)))
    }
}
