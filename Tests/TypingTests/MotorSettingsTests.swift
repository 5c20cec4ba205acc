import KeyboardModel
import Testing
import Typing

/// Slow keys, bounce keys, key repeat and the long-press time: settings for hands that tremble, bounce or
/// move slowly.
@Suite struct MotorSettingsTests {
    /// Holds a key for `seconds`, firing timers as the loop would, and lets go.
    static func hold(_ k: inout Harness, _ label: String, _ seconds: Double) {
        k.send(.began, label)
        k.wait(seconds)
        k.send(.ended, label)
        k.now += 0.05
    }

    @Test func slowKeysDropPressesShorterThanTheHold() throws {
        var k = try Harness()
        k.engine.timing.slowKeys = 0.3
        k.tap("q")                                  // 50 ms: a brush
        Self.hold(&k, "w", 0.2)
        #expect(k.typed().isEmpty)
        // Pressed but not counted: drawn pressed, no click yet, no preview.
        let press = k.send(.began, "e")
        #expect(press.click == nil && k.engine.state.pressed.count == 1 && k.engine.state.popups.isEmpty)
        k.wait(0.35)
        #expect(!k.engine.state.popups.isEmpty)
        k.send(.ended, "e")
        #expect(k.typed() == [.text("e")])
        // Delete deletes once held long enough, not on the touch.
        k.send(.began, "delete")
        #expect(k.typed().isEmpty)
        k.wait(0.31)
        #expect(k.typed() == [.keysym("BackSpace", modifiers: [])])
        k.send(.ended, "delete")
        // Sliding to another key starts the hold again.
        k.now += 1
        k.send(.began, "a")
        k.wait(0.2)
        k.send(.moved, "s")
        k.wait(0.2)
        k.send(.ended, "s")
        #expect(k.typed().isEmpty)
    }

    @Test func bounceKeysDropASecondPressOfTheSameKeyTooSoon() throws {
        var k = try Harness()
        k.engine.timing.bounceKeys = 0.5
        k.tap("a")
        k.tap("a")                                  // 50 ms after it was let go: a bounce
        k.tap("s")                                  // another key counts
        k.now += 0.6
        k.tap("s")                                  // the same key, later: counts
        #expect(k.typed() == [.text("a"), .text("s"), .text("s")])
    }

    @Test func heldDeleteRepeatsOnlyWithKeyRepeat() throws {
        var k = try Harness()
        Self.hold(&k, "delete", 1.2)
        #expect(k.typed().count > 3)
        k.engine.timing.keyRepeat = false
        Self.hold(&k, "delete", 1.2)
        #expect(k.typed() == [.keysym("BackSpace", modifiers: [])])
    }

    @Test func theLongPressTimeIsASetting() throws {
        var k = try Harness()
        k.engine.timing.longPress = 1.0
        k.send(.began, "e")
        k.wait(0.6)
        #expect(!k.engine.state.popups.contains { if case .alternates = $0 { true } else { false } })
        k.wait(0.5)
        #expect(k.engine.state.popups.contains { if case .alternates = $0 { true } else { false } })
    }

    /// A keyboard busy drawing handles a hold's events late, all at once, its timer never run: the events'
    /// own times still make it a hold. The popup opens before the finger's move is read, so the accent under
    /// the finger is typed, not the key beside the one held; a held delete repeats as often as it would have.
    @Test func eventsHandledLateKeepTheirTimes() throws {
        // Where the popup opens, from a hold whose timer ran on time.
        var onTime = try Harness()
        onTime.send(.began, "e")
        onTime.wait(0.5)
        let popup = try #require(onTime.engine.state.popups.last)
        guard case .alternates(_, let options, _) = popup else { Issue.record("no alternates: \(popup)"); return }
        #expect(options.prefix(3) == ["e", "è", "é"])
        let rect = PopupLayout.rect(for: popup, in: onTime.engine.geometry)
        let point = (x: Double(rect.x) + Double(rect.width) / Double(options.count) * 2.5, y: Double(rect.y) + 5)

        var k = try Harness()
        let start = k.now
        k.send(.began, "e")
        k.now = start + 0.7
        k.send(.moved, x: point.x, y: point.y)
        k.send(.ended, x: point.x, y: point.y)
        #expect(k.typed() == [.text("é")])
        k.now += 1
        let pressed = k.now
        k.send(.began, "delete")
        k.now = pressed + 1.0
        k.send(.ended, "delete")
        // At once, then at 0.5, 0.6, ... 1.0 s.
        #expect(k.typed().count == 7)
    }
}
