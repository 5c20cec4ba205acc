import KeyboardModel
import TestSupport
import Testing
import Typing
import Words

/// Editing by touch in the engine: the space bar as a trackpad (thresholds, motion to arrow keys,
/// selection), cut, copy and paste in the bar, and delete held by words.
@Suite struct EditingByTouchTests {
    /// The keys an update list sends, by name (modifiers joined with +).
    /// The keys actions press, a caret move as the arrow keys it is made of where the caret cannot be set.
    static func keys(_ actions: [KeyAction]) -> [String] {
        actions.flatMap { action -> [String] in
            if case .moveCaret(let characters, let selecting) = action { return keys(KeyAction.arrows(characters, selecting: selecting)) }
            guard case .keysym(let name, let modifiers) = action else { return [] }
            return [(modifiers + [name]).joined(separator: "+")]
        }
    }

    @Test func holdingTheSpaceBarStillMakesItATrackpad() throws {
        var k = try Harness()
        k.send(.began, "space")
        #expect(k.engine.nextDeadline == k.now + 0.3)
        k.wait(0.35)
        #expect(k.engine.state.trackpad, "held 0.35 s: a trackpad")
        #expect(k.engine.state.pressed.isEmpty)
        k.send(.ended, "space")
        #expect(!k.engine.state.trackpad)
        #expect(k.typed().isEmpty, "nothing typed")
    }

    @Test func aQuickTapOnSpaceTypesASpace() throws {
        var k = try Harness()
        k.tap("space")
        #expect(k.typed() == [.text(" ")])
        #expect(!k.engine.state.trackpad)
    }

    /// Sliding along the space bar makes it a trackpad at once; each third of a key across moves the
    /// caret a character, slowly; a fast move moves it further.
    @Test func slidingMovesTheCaretByCharactersFasterWhenFast() throws {
        var k = try Harness()
        let (x, y) = k.centre(of: "space")
        let unit = k.engine.keyPlan().keyWidth
        k.send(.began, x: x, y: y)
        // Slowly: 0.1 key every 50 ms, to 2.1 keys right.
        for step in 1...21 {
            k.now += 0.05
            k.send(.moved, x: x + Double(step) * 0.1 * unit, y: y)
        }
        #expect(k.engine.state.trackpad)
        let slow = Self.keys(k.actions)
        #expect(slow == Array(repeating: "Right", count: 6), "\(slow)")
        k.actions = []
        // Fast: 2 keys back in 40 ms.
        for step in 1...4 {
            k.now += 0.01
            k.send(.moved, x: x + 2.1 * unit - Double(step) * 0.5 * unit, y: y)
        }
        let fast = Self.keys(k.actions)
        #expect(fast.allSatisfy { $0 == "Left" } && fast.count > 6, "\(fast)")
        k.actions = []
        // Up a row: nothing in a one-line field (Up would move the focus, or recall a shell's history)...
        k.now += 0.05
        k.send(.moved, x: x + 0.1 * unit, y: y - 60)
        #expect(!Self.keys(k.actions).contains("Up"))
        // ... a line up in one that holds lines.
        k.engine.fieldIsMultiLine = true
        k.now += 0.05
        k.send(.moved, x: x + 0.1 * unit, y: y - 120)
        #expect(Self.keys(k.actions).contains("Up"))
        k.send(.ended, x: x + 0.1 * unit, y: y - 60)
        #expect(!k.engine.state.trackpad)
        #expect(!k.typed().contains(.text(" ")), "no space typed")
    }

    /// Only a finger that went down on the space bar makes it a trackpad: one that slides onto it from a key
    /// picks the space, as it would pick any key it slides to, and lifting there types a space; held there,
    /// it is not a trackpad either.
    @Test func aFingerSlidOntoTheSpaceBarTypesASpace() throws {
        var k = try Harness()
        let (sx, sy) = k.centre(of: "space"), (vx, vy) = k.centre(of: "v")
        k.send(.began, x: vx, y: vy)
        for step in 1...4 {
            k.now += 0.03
            let t = Double(step) / 4
            k.send(.moved, x: vx + (sx + 40 - vx) * t, y: vy + (sy - vy) * t)
        }
        k.now += 0.03
        k.send(.moved, x: sx + 44, y: sy)
        #expect(!k.engine.state.trackpad)
        k.wait(0.5)
        #expect(!k.engine.state.trackpad, "held on the space bar it slid onto")
        k.send(.ended, x: sx + 44, y: sy)
        #expect(k.typed() == [.text(" ")])
        #expect(Self.keys(k.actions).isEmpty, "\(Self.keys(k.actions))")
    }

    /// On a layer without letters (123) the space bar and delete measure motion in that layer's keys too: a
    /// finger that rolls a few pixels as it taps types a space, and a slide of two keys moves the caret by
    /// about as much as on the letters. They were measured in pixels there, and the caret ran hundreds of
    /// characters away on a slight slide.
    @Test func aLayerWithoutLettersMeasuresSlidesInItsKeys() throws {
        var k = try Harness()
        let letterUnit = k.engine.keyPlan().keyWidth
        k.tap("123")
        #expect(k.engine.layer == "numbers")
        let unit = k.engine.keyPlan().keyWidth
        #expect(abs(unit - letterUnit) < letterUnit / 2, "\(unit) against \(letterUnit)")
        k.actions = []
        let (x, y) = k.centre(of: "space")
        k.send(.began, x: x, y: y)
        k.now += 0.04
        k.send(.moved, x: x + 3, y: y + 1)
        k.now += 0.04
        k.send(.ended, x: x + 3, y: y + 1)
        #expect(!k.engine.state.trackpad)
        #expect(k.typed() == [.text(" ")], "a tap that rolls 3 px types a space")
        k.actions = []
        k.now += 0.2
        k.send(.began, x: x, y: y)
        for step in 1...20 {
            k.now += 0.05
            k.send(.moved, x: x + Double(step) * 0.1 * unit, y: y)
        }
        k.send(.ended, x: x + 2 * unit, y: y)
        let moved = Self.keys(k.actions)
        #expect(moved.allSatisfy { $0 == "Right" } && (4...8).contains(moved.count), "\(moved)")
    }

    /// A second finger's tap starts a selection the motion extends (shift and arrows); its double tap
    /// selects the word; once lifted, the bar offers cut, copy and paste.
    @Test func aSecondFingerSelectsAndTheBarCutsCopiesAndPastes() throws {
        var s = try SuggestionHarness()
        let (x, y) = s.harness.centre(of: "space")
        let unit = s.harness.engine.keyPlan().keyWidth
        s.harness.send(.began, x: x, y: y, touch: 1)
        s.harness.wait(0.35)
        let (qx, qy) = s.harness.centre(of: "q")
        s.harness.send(.began, x: qx, y: qy, touch: 2)
        s.harness.send(.ended, x: qx, y: qy, touch: 2)
        #expect(s.harness.typed().isEmpty, "the second finger typed no q")
        for step in 1...4 {
            s.harness.now += 0.05
            s.harness.send(.moved, x: x - Double(step) * 0.2 * unit, y: y, touch: 1)
        }
        #expect(Self.keys(s.harness.actions) == ["Shift_L+Left", "Shift_L+Left"], "\(Self.keys(s.harness.actions))")
        s.harness.actions = []
        // A double tap: the word at the caret.
        for _ in 0..<2 {
            s.harness.now += 0.1
            s.harness.send(.began, x: qx, y: qy, touch: 3)
            s.harness.send(.ended, x: qx, y: qy, touch: 3)
        }
        #expect(Self.keys(s.harness.actions).suffix(2) == ["Control_L+Left", "Control_L+Shift_L+Right"])
        let lifted = s.harness.send(.ended, x: x, y: y, touch: 1)
        #expect(lifted.asksClipboard)
        s.settle(lifted)
        // Paste once the display says the clipboard holds text.
        #expect(s.bar.map(\.text) == ["Cut", "Copy", ""])
        s.settle(s.harness.engine.clipboardChanged(hasText: true))
        #expect(s.bar.map(\.text) == ["Cut", "Copy", "Paste"])
        s.harness.actions = []
        s.tap("suggestion 1")
        // Cut: the selection is gone, the bar offers undo, redo and paste.
        #expect(s.bar.map(\.text) == ["Undo", "Redo", "Paste"])
        s.tap("suggestion 3")
        #expect(Self.keys(s.harness.actions) == ["Control_L+x", "Control_L+v"])
        // Typing ends the edit bar.
        s.type("a")
        #expect(s.bar.map(\.text) != ["Cut", "Copy", "Paste"])
    }

    /// A caret moved by the trackpad, no selection: the bar offers undo and redo, and paste while the
    /// clipboard holds text.
    @Test func aCaretMovedOffersUndoRedoAndPaste() throws {
        var s = try SuggestionHarness()
        s.type("one two ")
        let (x, y) = s.harness.centre(of: "space")
        let unit = s.harness.engine.keyPlan().keyWidth
        s.harness.send(.began, x: x, y: y, touch: 1)
        s.harness.wait(0.35)
        s.harness.now += 0.05
        s.harness.send(.moved, x: x - 0.8 * unit, y: y, touch: 1)
        s.settle(s.harness.send(.ended, x: x - 0.8 * unit, y: y, touch: 1))
        #expect(s.bar.map(\.text) == ["Undo", "Redo", ""])
        s.harness.actions = []
        s.tap("suggestion 1")
        s.tap("suggestion 2")
        s.tap("suggestion 3")
        #expect(Self.keys(s.harness.actions) == ["Control_L+z", "Control_L+Shift_L+z"], "an empty slot sends nothing")
        s.settle(s.harness.engine.clipboardChanged(hasText: true))
        #expect(s.bar.map(\.text) == ["Undo", "Redo", "Paste"])
        // Nothing moved, nothing selected: a held space bar let go leaves the bar as it was.
        var still = try SuggestionHarness()
        still.harness.send(.began, x: x, y: y, touch: 1)
        still.harness.wait(0.35)
        let update = still.harness.send(.ended, x: x, y: y, touch: 1)
        #expect(!update.asksClipboard)
    }

    /// A terminal's field: its keyboard (the desktop one) gets a bar of its own, with Copy, and Paste while
    /// the clipboard holds text, as Ctrl+Shift+C and V; typing leaves it as it is, with no words.
    @Test func aTerminalsBarCopiesAndPastesWithShift() throws {
        var k = try Harness(["default", "desktop"], width: 1024, height: 400)
        k.engine.fieldIsTerminal = true
        k.engine.show(layout: "desktop", returnKey: .default)
        let offered = k.engine.offerTerminalEditBar()
        #expect(offered.asksClipboard)
        #expect(k.engine.state.bar.map(\.text) == ["", "Copy", ""])
        _ = k.engine.clipboardChanged(hasText: true)
        #expect(k.engine.state.bar.map(\.text) == ["", "Copy", "Paste"])
        k.tap("g")
        k.tap("i")
        k.tap("suggestion 3")
        k.tap("suggestion 2")
        k.tap("suggestion 1")
        #expect(Self.keys(k.typed().filter { if case .keysym = $0 { true } else { false } })
                == ["Control_L+Shift_L+v", "Control_L+Shift_L+c"])
        #expect(k.engine.state.bar.map(\.text) == ["", "Copy", "Paste"])
        #expect(k.engine.suggestionRequest() == nil, "no words in a terminal")
        // Another field: the desktop keyboard without the bar.
        k.engine.fieldIsTerminal = false
        k.engine.show(layout: "desktop", returnKey: .default)
        #expect(!k.engine.showsBar)
    }

    /// Held still half a second longer before moving, the trackpad selects as it moves.
    @Test func holdingLongerBeforeMovingSelects() throws {
        var k = try Harness()
        let (x, y) = k.centre(of: "space")
        let unit = k.engine.keyPlan().keyWidth
        k.send(.began, x: x, y: y)
        k.wait(0.35)
        #expect(k.engine.nextDeadline == k.now - 0.05 + 0.5, "a trackpad held still waits to select")
        k.wait(0.5)
        for step in 1...4 {
            k.now += 0.05
            k.send(.moved, x: x - Double(step) * 0.2 * unit, y: y)
        }
        #expect(Self.keys(k.actions) == ["Shift_L+Left", "Shift_L+Left"], "\(Self.keys(k.actions))")
        // Moved first, it only moves.
        var moved = try Harness()
        moved.send(.began, x: x, y: y)
        moved.wait(0.35)
        moved.now += 0.05
        moved.send(.moved, x: x - 0.4 * unit, y: y)
        moved.wait(1)
        moved.now += 0.05
        moved.send(.moved, x: x - 0.8 * unit, y: y)
        #expect(Self.keys(moved.actions) == ["Left", "Left"], "\(Self.keys(moved.actions))")
    }

    @Test func noTrackpadInAPasswordField() throws {
        var k = try Harness()
        k.engine.show(layout: "default", returnKey: .default, traits: .init(secureEntry: true))
        k.send(.began, "space")
        k.wait(0.5)
        #expect(!k.engine.state.trackpad)
        k.send(.ended, "space")
        #expect(k.typed() == [.text(" ")])
    }

    /// Held, delete goes by characters, then by whole words (iOS: after about ten characters).
    @Test func deleteHeldGoesByWordsAfterTenCharacters() throws {
        var k = try Harness()
        for character in "one two three four five six seven" { k.tap(character == " " ? "space" : String(character)) }
        func text() -> String {
            var result = ""
            KeyAction.apply(k.actions, to: &result)
            return result
        }
        let pressed = k.now
        k.send(.began, "delete")
        // The press and ten repeats by characters (the last two at the fast interval), by 1.36 s.
        k.wait(pressed + 1.36 - k.now)
        #expect(text() == "one two three four fiv", "\(text())")
        // Then whole words, one every quarter second.
        k.wait(pressed + 1.41 - k.now)
        #expect(text() == "one two three four ", "\(text())")
        k.wait(pressed + 1.66 - k.now)
        #expect(text() == "one two three ", "\(text())")
        k.send(.ended, "delete")
        k.wait(1)
        #expect(text() == "one two three ", "\(text())")
    }

    /// A shortcut becomes its phrase on space, offered in the bar first; a delete right after brings the
    /// shortcut back; never in a password field.
    @Test func aShortcutBecomesItsPhraseAndDeleteTakesItBack() throws {
        var s = try SuggestionHarness()
        s.type("omw")
        #expect(s.bar.map(\.text).prefix(2) == ["omw", "On my way!"], "\(s.bar)")
        #expect(s.bar[1].look == .correction)
        s.type(" ")
        #expect(s.text == "On my way! ")
        s.tap("delete")
        #expect(s.text == "omw")
        // The space right after keeps it; the next time it is typed, it is replaced again.
        s.type(" omw ")
        #expect(s.text == "omw On my way! ")

        var secret = try SuggestionHarness()
        secret.harness.engine.show(layout: "default", returnKey: .default, traits: .init(secureEntry: true))
        secret.type("omw ")
        #expect(secret.text == "omw ")
    }

    @Test func replacementsAreReadWrittenAndTheirMistakesSaid() {
        var problems: [String] = []
        let read = TextReplacements(text: "# mine\nbrb\tbe right back\nnot a line\nOMW\tOn my way!\n\tno shortcut\n",
                                    file: "replacements", problems: &problems)
        #expect(read.entries.map(\.shortcut) == ["brb", "omw"])
        #expect(read.phrase(for: "Brb") == "be right back")
        #expect(problems == ["replacements:3: expected a shortcut (one word), a tab and a phrase",
                             "replacements:5: expected a shortcut (one word), a tab and a phrase"])
        var again: [String] = []
        #expect(TextReplacements(text: read.serialized, file: "again", problems: &again) == read && again.isEmpty)
        var edited = read
        let twoWords = edited.set("two words", "x"), changed = edited.set("brb", "back soon")
        let removed = edited.remove("omw"), removedAgain = edited.remove("omw")
        #expect(!twoWords && changed && removed && !removedAgain)
        #expect(edited.entries == [TextReplacements.Entry(shortcut: "brb", phrase: "back soon")])
    }
}

extension EditingByTouchTests {
    /// Slides from delete to the left, `keys` key widths in steps, and lifts there.
    static func slideFromDelete(_ k: inout Harness, keys: Double, back: Double = 0) {
        let (x, y) = k.centre(of: "delete")
        let unit = k.engine.keyPlan().keyWidth
        k.send(.began, x: x, y: y)
        var at = x
        for _ in 0..<Int(keys * 5) {
            k.now += 0.02
            at -= 0.2 * unit
            k.send(.moved, x: at, y: y)
        }
        for _ in 0..<Int(back * 5) {
            k.now += 0.02
            at += 0.2 * unit
            k.send(.moved, x: at, y: y)
        }
        k.now += 0.02
        k.send(.ended, x: at, y: y)
    }

    static func typed(_ text: String, into k: inout Harness) {
        for character in text { k.tap(character == " " ? "space" : String(character)) }
    }

    /// Sliding left from delete selects words one by one (Ctrl+Shift+Left), the character the press took
    /// comes back, and lifting deletes the selection; sliding back to the start deletes nothing.
    @Test func slidingLeftFromDeleteSelectsWordsAndLiftingDeletesThem() throws {
        var k = try Harness()
        Self.typed("one two three", into: &k)
        k.actions = []
        Self.slideFromDelete(&k, keys: 1.6)
        #expect(Self.keys(k.actions) == ["BackSpace", "Control_L+Shift_L+Left", "Control_L+Shift_L+Left", "BackSpace"],
                "\(Self.keys(k.actions))")
        #expect(k.actions.contains(.text("e")), "the character the press took comes back")
        #expect(k.engine.composer.record == "one ")

        var back = try Harness()
        Self.typed("one two three", into: &back)
        back.actions = []
        Self.slideFromDelete(&back, keys: 1.6, back: 1.6)
        #expect(Self.keys(back.actions) == ["BackSpace", "Control_L+Shift_L+Left", "Control_L+Shift_L+Left",
                                            "Control_L+Shift_L+Right", "Control_L+Shift_L+Right"], "\(Self.keys(back.actions))")
        #expect(back.engine.composer.record == "one two three")
    }

    /// On the desktop keyboard (terminals show no selection) the words go by characters on lifting.
    @Test func aDeleteSlideInATerminalDeletesByCharacters() throws {
        var k = try Harness(["desktop"])
        for character in "ls foo bar" { k.tap(character == " " ? "space" : String(character)) }
        k.actions = []
        Self.slideFromDelete(&k, keys: 1.6)
        var text = "ls foo bar"
        KeyAction.apply(k.actions, to: &text)
        #expect(text == "ls ", "\(text)")
    }
}
