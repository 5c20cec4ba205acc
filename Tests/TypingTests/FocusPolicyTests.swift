import KeyboardModel
import Testing
import Typing

@Suite struct FocusPolicyTests {
    let entry = TextField()
    let password = TextField(role: .password)
    let button = TextField(editable: false)

    @Test func fieldsShowAndOtherThingsHideSoon() {
        var policy = FocusPolicy()
        #expect(policy.focused(entry) == .show(entry.choice))
        #expect(policy.focused(password) == .show(password.choice))
        #expect(policy.focused(button) == .hideSoon)
        #expect(policy.focused(TextField(editable: true, readOnly: true)) == .hideSoon)
    }

    @Test func aPhysicalKeyboardHidesItUntilTheNextTouchOrClick() {
        var policy = FocusPolicy()
        _ = policy.focused(entry)
        #expect(policy.physicalKey(keyboardVisible: true) == .hideNow)
        #expect(policy.physicalKey(keyboardVisible: false) == .none)
        // Tab to the next field on the physical keyboard: chosen, not shown.
        #expect(policy.focused(password) == .choose(password.choice))
        #expect(policy.showNow() == .none)
        // A click into the field: shown a moment later, as the focus does not change.
        #expect(policy.pressed() == .showSoon)
        #expect(policy.showNow() == .showAgain)
        #expect(policy.pressed() == .none)
    }

    /// What the user picked with the Globe key holds while the focus stays in the field, even when the field
    /// says again that it has it (a window that comes back to the front); a field that is new to the
    /// focus chooses afresh.
    @Test func theSameFieldFocusedAgainKeepsTheKeyboardChosenForIt() {
        var policy = FocusPolicy()
        let email = TextField(inputType: "email", id: ":1.5/org/a11y/atspi/accessible/12")
        let other = TextField(inputType: "email", id: ":1.5/org/a11y/atspi/accessible/13")
        #expect(policy.focused(email) == .show(email.choice))
        #expect(policy.focused(email) == .showAgain)
        #expect(policy.focused(other) == .show(other.choice))
        #expect(policy.focused(button) == .hideSoon)
        #expect(policy.focused(other) == .show(other.choice))
        // Fields with no identity are never taken for the same one.
        #expect(policy.focused(entry) == .show(entry.choice))
        #expect(policy.focused(entry) == .show(entry.choice))
        // Typing physically: the same field chooses nothing new.
        _ = policy.focused(email)
        _ = policy.physicalKey(keyboardVisible: true)
        #expect(policy.focused(email) == .none)
        #expect(policy.focused(other) == .choose(other.choice))
    }

    @Test func aClickOnSomethingElseAfterPhysicalTypingShowsNothing() {
        var policy = FocusPolicy()
        _ = policy.focused(entry)
        _ = policy.physicalKey(keyboardVisible: true)
        #expect(policy.pressed() == .showSoon)
        // The click landed on a button: its focus event comes before the moment is up.
        #expect(policy.focused(button) == .hideSoon)
        #expect(policy.showNow() == .none)
        // With no field ever focused, a click shows nothing.
        var fresh = FocusPolicy()
        _ = fresh.physicalKey(keyboardVisible: false)
        #expect(fresh.pressed() == .none)
    }

    /// Shown for touch only: a field focused after a touch shows the keyboard; one focused after a click or
    /// a key (Tab) is chosen and left as it is; a click after physical typing brings nothing back, a touch
    /// does.
    @Test func forTouchOnlyAFieldFocusedByATouchShowsIt() {
        var policy = FocusPolicy(showOn: .touch)
        // Nothing pressed yet (a field focused at start): not shown.
        #expect(policy.focused(entry) == .choose(entry.choice))
        _ = policy.pressed(by: .click)
        #expect(policy.focused(password) == .choose(password.choice))
        _ = policy.pressed(by: .touch)
        #expect(policy.focused(entry) == .show(entry.choice))
        #expect(policy.focused(button) == .hideSoon)
        _ = policy.pressed(by: .click)
        #expect(policy.focused(password) == .choose(password.choice))
        // Physical typing hides it; a click does not bring it back, a touch does.
        _ = policy.pressed(by: .touch)
        _ = policy.focused(entry)
        #expect(policy.physicalKey(keyboardVisible: true) == .hideNow)
        #expect(policy.focused(password) == .choose(password.choice))
        #expect(policy.pressed(by: .click) == .none)
        #expect(policy.pressed(by: .touch) == .showSoon)
        #expect(policy.showNow() == .showAgain)
        // The focus moved by a key after a touch: the key is the last press.
        _ = policy.physicalKey(keyboardVisible: true)
        _ = policy.pressed(by: .touch)
        #expect(policy.focused(entry) == .show(entry.choice))
    }

    @Test func forAnyFocusClicksAndTouchesAlike() {
        var policy = FocusPolicy(showOn: .focus)
        _ = policy.pressed(by: .click)
        #expect(policy.focused(entry) == .show(entry.choice))
        _ = policy.physicalKey(keyboardVisible: true)
        #expect(policy.pressed(by: .click) == .showSoon)
    }
}
