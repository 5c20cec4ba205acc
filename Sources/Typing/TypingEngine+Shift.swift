internal import KeyboardModel

/// Shift, caps lock, latched modifiers and the text a key types: the steps of the typing engine that decide
/// what shift is doing and hand text to the composer.
extension TypingEngine {
    static let modifierKeysyms: Set<String> = ["Control_L", "Control_R", "Alt_L", "Alt_R", "Super_L", "Super_R",
                                               "Meta_L", "Meta_R", "ISO_Level3_Shift"]

    /// The latched modifiers, plus Shift for keysym keys while shift is on. Caps lock is not Shift: as on a
    /// physical keyboard it capitalizes letters, and Tab, the arrows and shortcuts stay unshifted.
    func modifierList() -> [String] {
        var list = state.modifiers.sorted()
        if state.shift == .on { list.append("Shift_L") }
        return list
    }

    mutating func typeText(_ text: String, at time: Double, point: (x: Double, y: Double)? = nil, _ update: inout Update) {
        if state.modifiers.isEmpty {
            if let first = text.first, text.count == 1, Self.separators.contains(first),
               let corrected = endWord(with: text, at: time, &update) {
                update.actions += corrected
            } else {
                update.actions += composer.type(text, at: time)
                if !(text.count == 1 && Self.separators.contains(text.first!)) { typedIntoWord(text, point: point, &update) }
            }
        } else {
            // Ctrl+C and friends: the key with the modifiers, not the character alone.
            update.actions.append(.keysym(text, modifiers: modifierList()))
            composer.reset()
            restartWord(&update)
        }
        afterKey(&update)
    }

    /// The delete key, pressed or repeating: right after a smart change it restores what was typed.
    /// Shift does not change a delete; other modifiers go with it.
    mutating func delete(_ update: inout Update) {
        let modifiers = state.modifiers.sorted()
        if modifiers.isEmpty, deleteStrokeWord(&update) {
            autoCapitalize(&update)
            return
        }
        if modifiers.isEmpty, let replaced = composer.delete() {
            update.actions += replaced
            deletedFromWord(reverted: true, &update)
        } else {
            update.actions.append(.keysym("BackSpace", modifiers: modifiers))
            if !modifiers.isEmpty { composer.reset() }
            deletedFromWord(reverted: false, &update)
        }
        autoCapitalize(&update)
    }

    /// A held delete past its first characters: the word before the caret goes whole, with the spaces
    /// after it. Where the keyboard does not know the text before the caret, the application's own
    /// word delete (Ctrl+BackSpace) does it; a terminal's keyboard goes on by characters.
    mutating func deleteWordBack(_ update: inout Update) {
        let record = Array(composer.record)
        guard !record.isEmpty, state.modifiers.isEmpty else {
            let modifiers = layout.type == .desktop ? state.modifiers.sorted() : ["Control_L"]
            update.actions.append(.keysym("BackSpace", modifiers: modifiers))
            composer.reset()
            restartWord(&update)
            return
        }
        var count = 0
        while count < record.count, record[record.count - 1 - count].isWhitespace { count += 1 }
        while count < record.count, Self.isWordCharacter(record[record.count - 1 - count]) { count += 1 }
        update.actions += composer.erase(count: max(count, 1))
        restartWord(&update)
        autoCapitalize(&update)
    }

    /// Shift on where the traits want a capital (start of input, of a sentence, of a word), and off again
    /// where they do not, unless a finger holds shift or caps lock is on. A tap on shift overrides it.
    mutating func autoCapitalize(_ update: inout Update) {
        guard state.shift != .capsLock, shiftHold == nil else { return }
        let wanted = composer.wantsCapital
        if wanted && state.shift == .off {
            state.shift = .on
            autoShift = true
            relayoutForShift(&update)
        } else if !wanted && state.shift == .on && autoShift {
            state.shift = .off
            autoShift = false
            relayoutForShift(&update)
        }
    }

    /// A tap on a modifier key (Ctrl, Alt, Super): the first latches it for the next key, a second within the
    /// double-tap time locks it, and a tap on a locked one (or on a latched one later) lets it go.
    mutating func tapModifier(_ name: String, at time: Double) {
        if state.lockedModifiers.contains(name) {
            state.lockedModifiers.remove(name)
            state.modifiers.remove(name)
        } else if state.modifiers.contains(name) {
            if time - (lastModifierTap[name] ?? -.infinity) <= timing.doubleTap {
                state.lockedModifiers.insert(name)
            } else {
                state.modifiers.remove(name)
            }
        } else {
            state.modifiers.insert(name)
            lastModifierTap[name] = time
        }
    }

    /// One-shot shift and latched modifiers end after one key, unless shift is held down by a finger; locked
    /// modifiers stay.
    mutating func afterKey(_ update: inout Update) {
        let kept = state.lockedModifiers.union(heldModifiers.values)
        if state.modifiers != kept {
            let latched = state.modifiers.subtracting(kept)
            state.modifiers = kept
            update.changedKeys.formUnion(keys { if case .keysym(let n) = $0 { latched.contains(n) } else { false } })
        }
        if var hold = shiftHold {
            hold.typed = true
            shiftHold = hold
        } else if state.shift == .on {
            state.shift = .off
            autoShift = false
            relayoutForShift(&update)
        }
        autoCapitalize(&update)
    }

    mutating func shiftPressed(at time: Double, _ update: inout Update) {
        autoShift = false
        switch state.shift {
        case .capsLock: state.shift = .off
        case .on: state.shift = capsLockEnabled && time - lastShiftPress <= timing.doubleTap ? .capsLock : .off
        case .off: state.shift = .on
        }
        lastShiftPress = time
        relayoutForShift(&update)
    }

    /// After a shift change: the shifted layer in or out, and the shift keys drawn again.
    mutating func relayoutForShift(_ update: inout Update) {
        let before = geometry.layer
        try? relayout()
        if geometry.layer != before {
            update.redrawAll = true
        } else {
            update.changedKeys.formUnion(keys { $0 == .shift || $0 == .capsLock })
        }
    }
}
