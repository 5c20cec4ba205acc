import KeyboardModel
import TestSupport
import Testing
import Typing

/// The typing options the settings panel turns on and off: caps lock by a double tap on shift, sticky
/// modifiers on the desktop keyboard, the double-space period; and the keyboard always shown.
@Suite struct TypingOptionsTests {
    @Test func withoutCapsLockADoubleTapOnShiftIsTwoTaps() throws {
        var k = try Harness()
        k.engine.capsLockEnabled = false
        k.tap("shift")
        k.tap("shift")
        #expect(k.engine.state.shift == .off)
        k.tap("shift")
        k.tap("H")
        k.tap("i")
        #expect(k.typed() == [.text("H"), .text("i")])
        // On again: the double tap locks.
        k.engine.capsLockEnabled = true
        k.tap("shift")
        k.tap("shift")
        #expect(k.engine.state.shift == .capsLock)
    }

    /// Without sticky keys, Ctrl works while a finger holds it, as on a physical keyboard: a second finger
    /// taps c and v with Ctrl held; a tap on Ctrl alone latches nothing.
    @Test func withoutStickyKeysAModifierActsWhileHeld() throws {
        var k = try Harness(["desktop"], width: 1024, height: 360)
        k.engine.stickyModifiers = false
        k.send(.began, "ctrl", touch: 1)
        k.now += 0.3
        #expect(k.engine.state.modifiers == ["Control_L"])
        k.tap("c", touch: 2)
        k.now += 0.4
        k.tap("v", touch: 2)
        k.now += 0.2
        k.send(.ended, "ctrl", touch: 1)
        #expect(k.engine.state.modifiers.isEmpty)
        k.tap("ctrl")
        k.tap("c")
        #expect(k.typed() == [.keysym("c", modifiers: ["Control_L"]), .keysym("v", modifiers: ["Control_L"]), .text("c")])
        #expect(k.engine.state.lockedModifiers.isEmpty)
    }

    @Test func aLostTouchLetsAHeldModifierGo() throws {
        var k = try Harness(["desktop"], width: 1024, height: 360)
        k.engine.stickyModifiers = false
        k.send(.began, "alt", touch: 1)
        #expect(k.engine.state.modifiers == ["Alt_L"])
        _ = k.engine.cancelTouches()
        #expect(k.engine.state.modifiers.isEmpty)
    }

    @Test func withoutTheDoubleSpacePeriodTwoSpacesStayTwoSpaces() throws {
        var traits = TextTraits.Overrides.none
        traits.autocorrection = true
        var k = try Harness(traits: traits)
        k.engine.doubleSpacePeriod = false
        for key in ["h", "i", "space", "space"] { k.tap(key) }
        #expect(applying(k.typed()) == "hi  ")
        k.engine.doubleSpacePeriod = true
        for key in ["h", "i", "space", "space"] { k.tap(key) }
        #expect(applying(k.typed()) == "hi. ")
    }

    /// Always shown: a field focused changes the keyboard to suit it, but nothing shows or hides it, and
    /// keys of a physical keyboard leave it on screen.
    @Test func alwaysShownOnlySuitsTheKeyboardToTheField() {
        var policy = FocusPolicy(showOn: .never)
        let email = TextField(inputType: "email", id: "1")
        #expect(policy.focused(email) == .choose(email.choice))
        #expect(policy.focused(email) == .none)
        #expect(policy.focused(TextField(editable: false, id: "2")) == .none)
        #expect(policy.physicalKey(keyboardVisible: true) == .none)
        #expect(policy.pressed(by: .touch) == .none)
    }
}
