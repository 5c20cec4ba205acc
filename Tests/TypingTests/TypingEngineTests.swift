import KeyboardModel
import TestSupport
import Testing
import Typing

/// A keyboard under test with its own clock, tapped by key label.
extension TextTraits.Overrides {
    static let none = TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none,
                                           autocorrection: false, smartQuotes: false, smartDashes: false)
}

struct Harness {
    var engine: TypingEngine
    var now = 100.0
    var actions: [KeyAction] = []

    /// A keyboard with the given traits; by default none of the text behaviours, so that each key types
    /// what it shows.
    init(_ enabled: [String] = ["default"], width: Int = 375, height: Int = 260,
         traits: TextTraits.Overrides = .none) throws {
        engine = try TypingEngine(library: bundled, enabled: enabled, traits: traits, width: width, height: height)
    }

    func centre(of label: String) -> (Double, Double) {
        guard let key = engine.geometry.keys.first(where: { $0.name == label }) else {
            fatalError("no key '\(label)' on layer \(engine.layer): \(engine.geometry.keys.map(\.name))")
        }
        return (Double(key.rect.x) + Double(key.rect.width) / 2, Double(key.rect.y) + Double(key.rect.height) / 2)
    }

    @discardableResult
    mutating func send(_ phase: InputEvent.Phase, _ label: String, touch: Int = InputEvent.pointer) -> Update {
        let (x, y) = centre(of: label)
        return send(phase, x: x, y: y, touch: touch)
    }

    @discardableResult
    mutating func send(_ phase: InputEvent.Phase, x: Double, y: Double, touch: Int = InputEvent.pointer) -> Update {
        let update = engine.handle(InputEvent(touch: touch, phase: phase, x: x, y: y, time: now))
        actions += update.actions
        return update
    }

    mutating func tap(_ label: String, touch: Int = InputEvent.pointer) {
        send(.began, label, touch: touch)
        now += 0.05
        send(.ended, label, touch: touch)
        now += 0.05
    }

    /// Moves time on, firing timers as the event loop would.
    mutating func wait(_ seconds: Double) {
        let end = now + seconds
        while let deadline = engine.nextDeadline, deadline <= end {
            now = deadline
            actions += engine.tick(at: now).actions
        }
        now = end
    }

    mutating func typed() -> [KeyAction] {
        defer { actions = [] }
        return actions
    }
}

@Suite struct TypingTests {
    @Test func aTapTypesOnRelease() throws {
        var k = try Harness()
        let press = k.send(.began, "q")
        #expect(press.actions.isEmpty)
        #expect(k.engine.state.pressed.count == 1)
        #expect(k.engine.state.popups == [.preview(key: 0, label: "q")])
        k.now += 0.05
        let release = k.send(.ended, "q")
        #expect(release.actions == [.text("q")])
        #expect(k.engine.state.pressed.isEmpty && k.engine.state.popups.isEmpty)
    }

    @Test func slidingMovesThePress() throws {
        var k = try Harness()
        k.send(.began, "q")
        let (x, y) = k.centre(of: "w")
        let moved = k.send(.moved, x: x, y: y)
        #expect(moved.changedKeys == [0, 1])
        #expect(k.engine.state.pressed == [1])
        k.send(.ended, x: x, y: y)
        #expect(k.typed() == [.text("w")])
    }

    @Test func shiftIsOneShot() throws {
        var k = try Harness()
        k.tap("shift")
        #expect(k.engine.state.shift == .on)
        #expect(k.engine.layer == "shifted")
        k.tap("H")
        k.tap("i")
        #expect(k.typed() == [.text("H"), .text("i")])
        #expect(k.engine.state.shift == .off && k.engine.layer == "letters")
    }

    @Test func doubleTapLocksCaps() throws {
        var k = try Harness()
        k.tap("shift")
        k.tap("shift")
        #expect(k.engine.state.shift == .capsLock)
        k.tap("A")
        k.tap("B")
        #expect(k.typed() == [.text("A"), .text("B")])
        k.now += 1
        k.tap("shift")
        #expect(k.engine.state.shift == .off)
        // Two taps far apart are on, then off.
        k.tap("shift")
        k.now += 1
        k.tap("shift")
        #expect(k.engine.state.shift == .off)
    }

    @Test func oneFingerHoldsShiftWhileAnotherTypes() throws {
        var k = try Harness()
        k.send(.began, "shift", touch: 1)
        k.tap("Q", touch: 2)
        k.tap("W", touch: 2)
        #expect(k.engine.state.shift == .on)
        k.send(.ended, "shift", touch: 1)
        #expect(k.typed() == [.text("Q"), .text("W")])
        #expect(k.engine.state.shift == .off)
    }

    @Test func layerKeysSwitchLayers() throws {
        var k = try Harness()
        k.tap("123")
        #expect(k.engine.layer == "numbers")
        k.tap("7")
        k.tap("#+=")
        #expect(k.engine.layer == "symbols")
        k.tap("€")
        k.tap("ABC")
        #expect(k.engine.layer == "letters")
        k.tap("z")
        #expect(k.typed() == [.text("7"), .text("€"), .text("z")])
    }

    @Test func holdingAKeyOffersItsAlternates() throws {
        var k = try Harness()
        k.send(.began, "e")
        #expect(k.engine.nextDeadline == k.now + 0.45)
        k.wait(0.5)
        guard case .alternates(_, let options, 0)? = k.engine.state.popups.last else {
            Issue.record("no alternates: \(k.engine.state.popups)"); return
        }
        #expect(options.prefix(3) == ["e", "è", "é"])
        let rect = PopupLayout.rect(for: k.engine.state.popups.last!, in: k.engine.geometry)
        let cell = Double(rect.width) / Double(options.count)
        k.send(.moved, x: Double(rect.x) + cell * 2.5, y: Double(rect.y) + 5)
        k.send(.ended, x: Double(rect.x) + cell * 2.5, y: Double(rect.y) + 5)
        #expect(k.typed() == [.text("é")])
        #expect(k.engine.nextDeadline == nil)
    }

    @Test func heldDeleteRepeatsFasterThenByWordsUntilRelease() throws {
        var k = try Harness()
        k.send(.began, "delete")
        #expect(k.typed() == [.keysym("BackSpace", modifiers: [])])
        k.wait(0.49)
        #expect(k.typed().isEmpty)
        k.wait(0.51) // to 1.0 s: repeats at 0.5, 0.6, ... 1.0
        #expect(k.typed().count == 6)
        k.wait(1.0) // 3 more at 0.1 s, one at 0.05 s; then whole words every 0.25 s (the application's own
        // word delete, as the keyboard typed none of the text)
        let backSpace = KeyAction.keysym("BackSpace", modifiers: []), word = KeyAction.keysym("BackSpace", modifiers: ["Control_L"])
        #expect(k.typed() == Array(repeating: backSpace, count: 4) + Array(repeating: word, count: 3))
        k.send(.ended, "delete")
        #expect(k.engine.nextDeadline == nil)
        k.wait(1)
        #expect(k.typed().isEmpty)
    }

    @Test func noTimerRunsWhenIdle() throws {
        var k = try Harness()
        #expect(k.engine.nextDeadline == nil)
        k.send(.began, "q") // q has no alternates
        #expect(k.engine.nextDeadline == nil)
        k.send(.ended, "q")
        #expect(k.engine.nextDeadline == nil)
    }

    @Test func globeCyclesAndHoldListsKeyboards() throws {
        var k = try Harness(["default", "desktop", "email"])
        k.tap("globe")
        #expect(k.typed() == [.nextKeyboard])
        k.send(.began, "globe")
        k.wait(0.5)
        guard case .keyboards(_, let titles, 0)? = k.engine.state.popups.last else {
            Issue.record("no list: \(k.engine.state.popups)"); return
        }
        // A phone's keyboard without a suggestion bar has no dismiss key: the list ends with it.
        #expect(titles == ["English (US)", "Desktop (US)", "Email address", "Hide keyboard"])
        let rect = PopupLayout.rect(for: k.engine.state.popups.last!, in: k.engine.geometry)
        let y = Double(rect.y) + Double(rect.height) * 5 / 8
        k.send(.moved, x: Double(rect.x) + 10, y: y)
        k.send(.ended, x: Double(rect.x) + 10, y: y)
        #expect(k.typed() == [.selectKeyboard(2)])
        k.engine.select(keyboard: 2)
        #expect(k.engine.layout.name == "email")
    }

    /// On a phone, the dismiss key would take its width from the space bar where there is no suggestion
    /// bar to hold it (email, URL, or suggestions off): it leaves the row and the Globe list hides instead.
    /// A tablet, a pad, one keyboard (no Globe) or dwell keep the key.
    @Test func aPhonesKeyboardWithoutABarHidesFromTheGlobeList() throws {
        var k = try Harness(["default", "email"], width: 390, height: 260)
        k.engine.select(keyboard: 1)
        #expect(!k.engine.geometry.keys.contains { $0.function == .dismiss })
        let space = try #require(k.engine.geometry.keys.first { $0.function.isSpace })
        #expect(space.rect.width >= 130, "iOS's email space bar at 390 pt is about 136")
        k.send(.began, "globe")
        k.wait(0.5)
        let rect = PopupLayout.rect(for: try #require(k.engine.state.popups.last), in: k.engine.geometry)
        let y = Double(rect.maxY) - 4
        k.send(.moved, x: Double(rect.x) + 10, y: y)
        k.send(.ended, x: Double(rect.x) + 10, y: y)
        #expect(k.typed() == [.dismiss])

        for (enabled, width) in [(["default", "email"], 1024), (["email"], 390), (["default", "number-pad"], 390)] {
            var kept = try Harness(enabled, width: width, height: 260)
            kept.engine.select(keyboard: enabled.count - 1)
            #expect(kept.engine.geometry.keys.contains { $0.function == .dismiss }, "\(enabled) \(width)")
            guard enabled.count > 1 else { continue }
            kept.send(.began, "globe")
            kept.wait(0.5)
            guard case .keyboards(_, let titles, _)? = kept.engine.state.popups.last else { Issue.record("no list"); continue }
            #expect(!titles.contains("Hide keyboard"))
        }
    }

    @Test func oneKeyboardHasNoGlobe() throws {
        let k = try Harness(["default"])
        #expect(!k.engine.geometry.keys.contains { $0.function == .globe })
    }

    @Test func desktopModifiersLatchForOneKey() throws {
        var k = try Harness(["desktop"], width: 1024, height: 360)
        k.tap("ctrl")
        #expect(k.engine.state.modifiers == ["Control_L"])
        k.tap("c")
        k.tap("c")
        k.tap("shift")
        k.tap("→")
        k.tap("F5")
        #expect(k.typed() == [.keysym("c", modifiers: ["Control_L"]), .text("c"),
                              .keysym("Right", modifiers: ["Shift_L"]), .keysym("F5", modifiers: [])])
    }

    /// Caps lock capitalizes letters but is not Shift: Tab stays Tab (not back-tab), an arrow moves without
    /// selecting, on the function layer as on the letters.
    @Test func capsLockLeavesTabAndArrowsUnshifted() throws {
        var k = try Harness(["desktop"], width: 1024, height: 360)
        k.tap("shift")
        k.tap("shift")
        #expect(k.engine.state.shift == .capsLock)
        k.tap("A")
        k.tap("tab")
        k.tap("fn")
        k.tap("tab")
        k.tap("→")
        #expect(k.typed() == [.text("A"), .keysym("Tab", modifiers: []), .keysym("Tab", modifiers: []),
                              .keysym("Right", modifiers: [])])
    }

    /// A double tap locks a modifier for every key until it is tapped again; a second tap later only lets a
    /// latched one go. Several modifiers go together, in a fixed order.
    @Test func desktopModifiersLockWithADoubleTapAndReleaseWithAThird() throws {
        var k = try Harness(["desktop"], width: 1024, height: 360)
        k.tap("ctrl")
        k.tap("ctrl")
        #expect(k.engine.state.lockedModifiers == ["Control_L"])
        k.tap("a")
        k.tap("x")
        #expect(k.engine.state.modifiers == ["Control_L"])
        k.tap("alt")
        k.tap("t")
        k.tap("ctrl")
        k.tap("z")
        #expect(k.typed() == [.keysym("a", modifiers: ["Control_L"]), .keysym("x", modifiers: ["Control_L"]),
                              .keysym("t", modifiers: ["Alt_L", "Control_L"]), .text("z")])
        #expect(k.engine.state.modifiers.isEmpty && k.engine.state.lockedModifiers.isEmpty)
        // Latched, then tapped again after the double-tap time: off, not locked.
        k.tap("super")
        k.now += 1
        k.tap("super")
        #expect(k.engine.state.modifiers.isEmpty)
        // Another keyboard lets every modifier go.
        k.tap("ctrl")
        k.tap("ctrl")
        k.engine.select(keyboard: 0)
        #expect(k.engine.state.modifiers.isEmpty && k.engine.state.lockedModifiers.isEmpty)
    }

    @Test func returnAndDismiss() throws {
        var k = try Harness()
        k.tap("return")
        k.tap("dismiss")
        #expect(k.typed() == [.keysym("Return", modifiers: []), .dismiss])
    }

    @Test func holdingDismissUndocksInsteadOfHiding() throws {
        var k = try Harness()
        k.send(.began, "dismiss")
        k.wait(0.5)
        #expect(k.typed() == [.toggleFloating])
        k.send(.ended, "dismiss")
        #expect(k.typed().isEmpty)
        #expect(k.engine.nextDeadline == nil)
        k.tap("dismiss")
        #expect(k.typed() == [.dismiss])
    }

    @Test func resizeKeepsLayerAndShift() throws {
        var k = try Harness()
        k.tap("123")
        try k.engine.resize(width: 1024, height: 340)
        #expect(k.engine.layer == "numbers" && k.engine.geometry.widthClass == .regular)
        k.tap("ABC")
        k.tap("shift")
        try k.engine.resize(width: 375, height: 260)
        #expect(k.engine.layer == "shifted" && k.engine.state.shift == .on)
        #expect(throws: GeometryError.self) { try k.engine.resize(width: 100, height: 260) }
        #expect(k.engine.size.width == 375)
    }

    @Test func cancelledTouchesTypeNothing() throws {
        var k = try Harness()
        k.send(.began, "q", touch: 4)
        k.send(.cancelled, "q", touch: 4)
        #expect(k.typed().isEmpty && k.engine.state.pressed.isEmpty)
    }

    @Test func tapsOutsideTheKeysDoNothing() throws {
        var k = try Harness()
        k.send(.began, x: -5, y: 10)
        k.send(.ended, x: -5, y: 10)
        #expect(k.typed().isEmpty)
    }

    @Test func showSwitchesTypeAndReturnKey() throws {
        var k = try Harness()
        k.engine.show(layout: "email", returnKey: .go)
        #expect(k.engine.layout.type == .email)
        #expect(k.engine.geometry.keys.contains { $0.label == "go" })
        #expect(k.engine.geometry.keys.contains { $0.function == .globe })
    }

    /// The Globe key offers the configured keyboards, and a field's own while it is shown for that field;
    /// the next field's replaces it.
    @Test func aFieldsKeyboardJoinsTheConfiguredOnesOnlyForThatField() throws {
        var k = try Harness(["default", "ascii"])
        k.engine.show(layout: "email", returnKey: .go)
        #expect(k.engine.enabled == ["default", "ascii", "email"])
        #expect(k.engine.layout.type == .email)
        k.engine.show(layout: "url", returnKey: .go)
        #expect(k.engine.enabled == ["default", "ascii", "url"])
        k.engine.show(layout: "ascii", returnKey: .default)
        #expect(k.engine.enabled == ["default", "ascii"])
        #expect(k.engine.current == 1)
        var single = try Harness()
        single.engine.show(layout: "default", returnKey: .search)
        #expect(!single.engine.geometry.keys.contains { $0.function == .globe })
    }

    @Test func aPressSoundsTheClickOfItsKindAndARepeatSoundsDelete() throws {
        var k = try Harness(["default", "email"])
        let expected: [(String, Click)] = [("q", .character), ("space", .modifier), ("shift", .modifier),
                                           ("delete", .delete), ("return", .modifier), ("globe", .modifier)]
        for (label, click) in expected {
            #expect(k.send(.began, label).click == click, "\(label)")
            k.now += 0.05
            #expect(k.send(.ended, label).click == nil, "\(label) released")
            k.now += 0.5
        }
        k.send(.began, "123")
        k.now += 0.05
        k.send(.ended, "123")
        #expect(k.send(.began, "1").click == .character)
        k.send(.ended, "1")
        // A held delete clicks on every repeat, as it deletes.
        k.send(.began, "delete")
        var repeats = 0
        let end = k.now + 1
        while let deadline = k.engine.nextDeadline, deadline <= end {
            k.now = deadline
            if k.engine.tick(at: deadline).click == .delete { repeats += 1 }
        }
        #expect(repeats == 6)
    }
}

@Suite struct ShiftedSecondaryTests {
    /// At regular width, shift makes ",!" type "!": the key looks the same, and its bubble shows "!".
    @Test func aShiftedSecondaryKeyShowsWhatItTypes() throws {
        var k = try Harness(["default"], width: 1024, height: 300)
        k.tap("shift")
        let update = k.send(.began, ",")
        #expect(k.engine.state.popups.contains(.preview(key: k.engine.geometry.keys.firstIndex { $0.name == "," }!, label: "!")))
        _ = update
        k.send(.ended, ",")
        #expect(k.typed() == [.text("!")])
    }
}

@Suite struct UndoRedoTests {
    /// A tablet's numbers layer has undo where caps lock is, and its symbols layer redo, as on iPad:
    /// Ctrl+Z and Ctrl+Shift+Z; the record starts afresh, as the text changed under it.
    @Test func undoAndRedoAreShortcutKeys() throws {
        var k = try Harness(["default"], width: 1024, height: 300)
        k.tap(".?123")
        k.tap("undo")
        k.tap("#+=")
        k.tap("redo")
        #expect(k.typed() == [.keysym("z", modifiers: ["Control_L"]), .keysym("z", modifiers: ["Control_L", "Shift_L"])])
        #expect(k.engine.composer.record.isEmpty)
    }
}
