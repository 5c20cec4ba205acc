public import KeyboardModel

/// A touch's life on the keyboard: it goes down on a key (and counts at once, or with slow keys once held),
/// slides to other keys, and lifts to type.
extension TypingEngine {
    mutating func began(_ event: InputEvent, _ update: inout Update) {
        if let old = touches.removeValue(forKey: event.touch) { release(old, &update) }
        // A slide to a neighbour still waiting for its words is the tap it may be, before anything new.
        typePendingShortStrokeAsTap(&update)
        guard let key = helpedKey(geometry.keyIndex(atX: event.x, y: event.y), x: event.x, y: event.y) else { return }
        if let last = lastTyped, last.function == geometry.keys[key].function, event.time - last.time < timing.bounceKeys {
            return
        }
        press(key, &update)
        touches[event.touch] = Touch(key: key, began: event.time, point: (event.x, event.y), start: (event.x, event.y),
                                     startKey: key, accepted: false, stroke: strokeTracking(key: key))
        if timing.slowKeys <= 0 { accept(event.touch, at: event.time, &update) }
    }

    /// The press of a touch counts: at once, or with slow keys once held long enough. What a key does on
    /// its press (delete, shift, caps lock, the preview) happens now; typing waits for the release.
    mutating func accept(_ id: Int, at time: Double, _ update: inout Update) {
        guard var touch = touches[id] else { return }
        touch.accepted = true
        touch.began = time
        let key = touch.key
        update.click = Click(for: geometry.keys[key].function)
        switch geometry.keys[key].function {
        case .keysym("BackSpace"):
            // The character a plain delete takes, which a slide from here puts back.
            let before = composer.record
            delete(&update)
            let plain = state.modifiers.isEmpty && !before.isEmpty && composer.record == String(before.dropLast())
            touch.deleted = plain ? before.last : nil
            if timing.keyRepeat { touch.nextRepeat = time + timing.repeatDelay }
        case .shift:
            // Shift that autocapitalization put on stays on under the finger; let go untouched, it goes off.
            let fromAuto = autoShift && state.shift == .on
            if fromAuto {
                autoShift = false
            } else {
                shiftPressed(at: time, &update)
            }
            shiftHold = (id, false, fromAuto)
        case .capsLock:
            state.shift = state.shift == .capsLock ? .off : .capsLock
            relayoutForShift(&update)
        case .keysym(let name) where Self.modifierKeysyms.contains(name) && !stickyModifiers:
            heldModifiers[id] = name
            state.modifiers.insert(name)
            update.changedKeys.formUnion(keys { $0 == .keysym(name) })
        default: break
        }
        touches[id] = touch
        showPreview(for: touch.key, &update)
    }

    mutating func moved(_ event: InputEvent, _ update: inout Update) {
        guard var touch = touches[event.touch] else { return }
        touch.point = (event.x, event.y)
        touches[event.touch] = touch
        if let index = state.popups.firstIndex(where: { $0.key == touch.key && !isPreview($0) }) {
            choose(in: index, x: event.x, y: event.y, &update)
            return
        }
        if strokeMoved(&touch, event, &update) {
            touches[event.touch] = touch
            return
        }
        if deleteSlid(&touch, event, &update) {
            touches[event.touch] = touch
            return
        }
        touches[event.touch] = touch
        if spaceSlid(event.touch, touch, event, &update) { return }
        guard let key = geometry.keyIndex(atX: event.x, y: event.y), key != touch.key else { return }
        // Sliding moves the press to the key under the finger, as on iOS; a repeat stops. With slow keys,
        // the new key must be held as long again.
        unpress(touch.key, &update)
        touch.key = key
        touch.began = event.time
        touch.longPressDone = false
        touch.nextRepeat = nil
        press(key, &update)
        touches[event.touch] = touch
        if touch.accepted { showPreview(for: key, &update) }
    }

    mutating func ended(_ event: InputEvent, _ update: inout Update) {
        guard let touch = touches.removeValue(forKey: event.touch) else { return }
        let popup = state.popups.first { $0.key == touch.key && !isPreview($0) }
        release(touch, &update)
        if let stroke = touch.stroke, stroke.isStroke || isShortStroke(touch) {
            strokeEnded(stroke, event, &update)
            return
        }
        if let slide = touch.deleteSlide {
            deleteSlideEnded(slide, &update)
            return
        }
        // Let go before slow keys took it: nothing.
        guard touch.accepted else { return }
        lastTyped = (geometry.keys[touch.key].function, event.time)
        switch popup {
        case .alternates(_, let options, let selected):
            typeAlternate(options[selected], at: event.time, &update)
            return
        case .keyboards(_, let titles, let selected):
            update.actions.append(keyboardListAction(selected, of: titles))
            return
        default: break
        }
        let placed = geometry.keys[touch.key]
        switch placed.function {
        case .text(let text) where layout.type == .emoji:
            typeEmoji(text, at: event.time, &update)
        case .text(let text):
            typeText(text, at: event.time, point: (event.x, event.y), &update)
        case .suggestion(let slot):
            chooseSuggestion(slot, at: event.time, &update)
        case .keysym("BackSpace"):
            break
        case .keysym(let name) where Self.modifierKeysyms.contains(name):
            if heldModifiers.removeValue(forKey: event.touch) != nil {
                if !heldModifiers.values.contains(name) { state.modifiers.remove(name) }
            } else {
                tapModifier(name, at: event.time)
            }
            update.changedKeys.formUnion(keys { $0 == .keysym(name) })
        case .keysym(let name):
            update.actions.append(.keysym(name, modifiers: modifierList()))
            if name == "Return" || name == "KP_Enter" { _ = endWord(with: "\n", at: event.time, correcting: false, &update) }
            composer.keysym(name, modifiers: modifierList())
            restartWord(&update)
            afterKey(&update)
        case .shift:
            if let hold = shiftHold, hold.touch == event.touch {
                shiftHold = nil
                if (hold.typed || hold.fromAuto) && state.shift == .on {
                    state.shift = .off
                    relayoutForShift(&update)
                }
                if hold.fromAuto { lastShiftPress = event.time }
            }
        case .capsLock:
            break
        case .layer(let target):
            if target == "shifted" {
                baseLayer = "letters"
                state.shift = .on
            } else {
                baseLayer = target
            }
            refreshEmojiIfStale()
            try? relayout()
            update.redrawAll = true
        case .globe:
            if !touch.longPressDone { update.actions.append(.nextKeyboard) }
        case .dismiss:
            if !touch.longPressDone { update.actions.append(.dismiss) }
        case .languageKeyboard:
            update.actions.append(languageKeyboardAction())
        case .emojiSearch(let edit):
            editEmojiSearch(edit, &update)
        case .dwellPause:
            state.dwellPaused.toggle()
            update.changedKeys.insert(touch.key)
        case .setting(let row):
            if let page = row.page {
                baseLayer = page
                try? relayout()
                update.redrawAll = true
            } else if row.control != .info {
                update.actions.append(.changeSetting(row))
            }
        case .closeSettings:
            update.actions.append(.closeSettings)
        case .settingsEntry(let edit):
            update.actions.append(.editSettingsEntry(edit))
        case .undo, .redo:
            let modifiers = placed.function == .undo ? ["Control_L"] : ["Control_L", "Shift_L"]
            update.actions.append(.keysym("z", modifiers: modifiers))
            composer.keysym("z", modifiers: modifiers)
            restartWord(&update)
        }
    }
}
