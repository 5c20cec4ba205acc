internal import Basics
internal import Accessibility
internal import EventLoop
internal import KeyboardModel
internal import Typing

/// The keyboard follows the focus, as iOS's does: a text field that gets the focus shows it, with the
/// keyboard, Return key and traits the field asks for; focus that moves to something that is not text hides
/// it a moment later (so going from one field to the next does not flicker), never while a finger is on it.
/// Typing on a physical keyboard hides it until the next touch or click (`FocusPolicy` decides; this file
/// acts).
extension KeyboardHost {
    /// How long the focus must stay off text before the keyboard hides.
    static let hideDelay = 0.3
    /// How long after a click the keyboard comes back to the field that has the focus, if the click did not
    /// move the focus off text.
    static let returnDelay = 0.15
    /// How long the caret and the keyboard must rest before the field's text is read: the keystrokes on
    /// their way to the application have arrived by then.
    static let readDelay = 0.05

    /// Listens to the accessibility bus; returns the source that runs it in the loop, or nil (said once)
    /// when there is no bus.
    func followFocus() -> GLibContextSource? {
        guard let context = GLibContextSource() else {
            warn("GLib's main context is taken; the keyboard does not follow the focus (auto-show is off)")
            return nil
        }
        do {
            focusWatcher = try FocusWatcher(focused: { [unowned self] in act(focusPolicy.focused($0)) },
                                            caretMoved: { [unowned self] in caretMoved(to: $0) })
        } catch {
            warn("\(error); the keyboard does not follow the focus (auto-show is off)")
            return nil
        }
        // Qt and Firefox speak to the bus only while the session says accessibility is on.
        accessibilityStatus = AccessibilityStatus()
        if accessibilityStatus?.enable() != true {
            warn("cannot turn on org.a11y.Status IsEnabled; Qt applications and Firefox may not say where the focus is")
        }
        // Keys of physical keyboards, seen as raw events, hide the keyboard.
        window.selectRawKeys()
        focusPolicy.showOn = options.autoShow ?? (window.hasTouchscreen() ? .touch : .focus)
        return context
    }

    /// Touch screens plugged in or out: the keyboard shows for touch while there is one, unless told.
    func touchscreensChanged() {
        guard focusWatcher != nil, options.autoShow == nil else { return }
        focusPolicy.showOn = window.hasTouchscreen() ? .touch : .focus
    }

    /// A key went down on a physical keyboard (not a synthesized one).
    func physicalKeyPressed() {
        guard focusWatcher != nil, !engine.isTouched else { return }
        act(focusPolicy.physicalKey(keyboardVisible: window.isMapped))
    }

    /// A click or touch anywhere.
    func pressedAnywhere(by press: FocusPolicy.Press) {
        guard focusWatcher != nil else { return }
        act(focusPolicy.pressed(by: press))
    }

    private func act(_ action: FocusPolicy.Action) {
        switch action {
        case .show(let choice):
            // On screen first: the questions to the application (its text, its place) come after.
            choose(choice)
            showForField()
            readContext()
            keepFieldInSight()
        case .showAgain:
            showForField()
        case .choose(let choice):
            choose(choice)
            readContext()
        case .hideSoon:
            fieldReturn.cancel()
            if window.isMapped { fieldLeft.set(at: EventLoop.monotonicNow() + Self.hideDelay) }
        case .hideNow:
            fieldLeft.cancel()
            hide()
        case .showSoon:
            fieldReturn.set(at: EventLoop.monotonicNow() + Self.returnDelay)
        case .none:
            break
        }
    }

    private func showForField() {
        fieldLeft.cancel()
        fieldReturn.cancel()
        // Above a full-screen window (a kiosk's browser), which window managers stack over docks.
        window.setTransient(for: caret.activeWindowIsFullScreen ? caret.activeWindow : nil)
        show()
    }

    /// A field the keyboard would cover (a full-screen window ignores the space a docked keyboard reserves,
    /// and a window that is not maximized keeps its place) is scrolled above it, where its page or view
    /// can scroll.
    private func keepFieldInSight() {
        guard window.isMapped else { return }
        focusWatcher?.keepFieldInSight { [weak self] frame in
            guard let self, window.isMapped else { return nil }
            return frame.scrollTarget(clearOf: window.frame)
        }
    }

    private func choose(_ choice: FieldChoice) {
        // The type's keyboard in the language last shown, read at the first field of its type; a type the
        // layouts lack (user layouts replaced it) leaves the keyboard as it is.
        if engine.library[choice.type.rawValue] == nil { _ = readLayout(choice.type.rawValue) }
        let name = engine.keyboard(for: choice.type) ?? engine.enabled[engine.current]
        engine.show(layout: name, returnKey: choice.returnKey, traits: choice.traits)
        painter.noteAll()
    }

    /// Reads a layout not read yet (a keyboard type's, at the first field of that type, or another
    /// language's keyboard asked for) into the engine's library; false when there is no such layout or it
    /// cannot be read.
    func readLayout(_ name: String) -> Bool {
        guard engine.library.available.contains(name), let read = options.restOfLibrary,
              let library = read([name]), library[name] != nil else { return false }
        engine.extendLibrary(library)
        return engine.library[name] != nil
    }

    /// The moment after the focus left text.
    func focusLeftText() {
        if engine.isTouched {
            fieldLeft.set(at: EventLoop.monotonicNow() + Self.hideDelay)
        } else {
            hide()
        }
    }

    /// The moment after a click that may bring the keyboard back to the focused field.
    func focusReturned() { act(focusPolicy.showNow()) }

    // MARK: - The text before the caret

    /// The caret moved in the focused field: where the keyboard's own keystrokes put it there, nothing is
    /// to be read (a read already due for an earlier move is no longer needed); otherwise its text is read
    /// once caret and keyboard rest.
    func caretMoved(to offset: Int) {
        if caretPrediction.explains(offset) {
            contextRead.cancel()
        } else {
            readContextSoon()
        }
    }

    private func readContextSoon() {
        contextRead.set(at: EventLoop.monotonicNow() + Self.readDelay)
    }

    /// The keyboard typed into the field: the caret will move by as much; a read already due waits until
    /// these keystrokes have arrived too, and one under way is of text from before them.
    func typedIntoField(_ action: KeyAction) {
        caretPrediction.sent(action)
        if contextRead.deadline != nil || contextReads.isUnderWay { readContextSoon() }
        contextReads.outdate()
    }

    /// A click elsewhere or another window may have moved the caret: where the field can be read, the
    /// caret's own event says whether it did; elsewhere, the record starts afresh.
    func caretMayHaveMoved() {
        if focusWatcher?.canRead != true { apply(engine.resetContext()) }
    }

    /// The field's text before the caret decides capitals and punctuation (not a password's: those are
    /// never read); the keyboard's own record stands where the field cannot be read or does not answer.
    func readContext() {
        contextRead.cancel()
        guard let focusWatcher, focusWatcher.canRead else {
            caretPrediction.forget()
            return
        }
        let read = contextReads.start()
        focusWatcher.readTextBeforeCaret { [weak self] answer in
            guard let self, contextReads.finish(read) else { return }
            caretPrediction.forget()
            guard let (text, caret) = answer else { return }
            caretPrediction.read(at: caret)
            apply(engine.read(context: text))
        }
    }
}
