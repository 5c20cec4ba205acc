public import KeyboardModel

/// When the keyboard shows and hides as the focus and the user's hands move, after iOS (a text field shows
/// it) and Onboard (typing on a physical keyboard hides it until the user touches or clicks again). Pure:
/// the host feeds it what happened and acts on what it answers, with its own timers.
/// What makes a focused text field show the keyboard (`--auto-show`).
public enum AutoShow: String, Sendable, CaseIterable {
    /// A field focused by a touch, as GNOME's keyboard does: not one focused by a mouse click or a key.
    case touch
    /// Any field that gets the focus, however it got it.
    case focus
    /// None: the keyboard neither shows nor hides for fields (chosen at start, it does not follow the focus
    /// at all; chosen later, it still changes to suit the field focused).
    case never
}

public struct FocusPolicy: Sendable {
    /// How the user last pressed: what a focus that follows was most likely made by.
    public enum Press: Equatable, Sendable {
        case touch, click, key
    }

    /// What the host is to do.
    public enum Action: Equatable, Sendable {
        /// Choose this keyboard for the field and show it.
        case show(FieldChoice)
        /// Show the keyboard as it was last chosen: the same field got the focus again, and keeps what the
        /// user picked for it with the Globe key.
        case showAgain
        /// Choose this keyboard for the field, but leave the keyboard hidden (the user types on a physical
        /// keyboard).
        case choose(FieldChoice)
        /// Hide a moment from now (the focus may only be passing to the next field), unless told otherwise.
        case hideSoon
        /// Hide now.
        case hideNow
        /// Show a moment from now, unless the focus moves off text first (a click back into the field that
        /// has the focus, after typing on a physical keyboard, brings no focus event).
        case showSoon
        /// Nothing to do.
        case none
    }

    /// The field that last had the focus.
    public private(set) var field: TextField?
    /// Whether a physical keyboard is being used: the on-screen one stays hidden until a touch or click.
    public private(set) var typingPhysically = false
    /// Which focus changes show the keyboard: with `.touch`, only those that follow a touch.
    public var showOn: AutoShow
    /// The last press of the user's: a touch, a mouse click or a physical key.
    public private(set) var lastPress: Press?

    public init(showOn: AutoShow = .focus) {
        self.showOn = showOn
    }

    /// Something got the focus.
    public mutating func focused(_ field: TextField) -> Action {
        let same = field.id != nil && field.id == self.field?.id
        self.field = field
        // Always shown: the keyboard only changes to suit the field.
        if showOn == .never { return field.takesText && !same ? .choose(field.choice) : .none }
        guard field.takesText else { return .hideSoon }
        if typingPhysically { return same ? .none : .choose(field.choice) }
        // Focused by a click or a key, with the keyboard shown for touch only: chosen for the field, and
        // left shown or hidden as it is.
        if showOn == .touch && lastPress != .touch { return same ? .none : .choose(field.choice) }
        return same ? .showAgain : .show(field.choice)
    }

    /// A key of a physical keyboard went down (not one Keypane or another program synthesized).
    public mutating func physicalKey(keyboardVisible: Bool) -> Action {
        lastPress = .key
        guard showOn != .never else { return .none }
        typingPhysically = true
        return keyboardVisible ? .hideNow : .none
    }

    /// A click or touch anywhere: the user is back on the screen (by touch, when the keyboard shows for
    /// touch only).
    public mutating func pressed(by press: Press = .click) -> Action {
        lastPress = press
        guard typingPhysically, showOn == .focus || press == .touch else { return .none }
        typingPhysically = false
        return field?.takesText == true ? .showSoon : .none
    }

    /// The moment after `showSoon`: the keyboard chosen for the field, if the focus is still on text.
    public func showNow() -> Action {
        guard let field, field.takesText, !typingPhysically else { return .none }
        return .showAgain
    }
}
