internal import Basics
public import Accessibility
public import EventLoop
internal import KeyboardModel
public import Typing

/// Follows the focused field, as iOS's keyboard does: a text field that gets the focus shows the
/// keyboard, with the keyboard, Return key and traits the field asks for; focus that moves to something
/// that is not text hides it a moment later (so going from one field to the next does not flicker), never
/// while a finger is on it. Typing on a physical keyboard hides it until the next touch or click
/// (`FocusPolicy` decides; this acts). It also reads the field's text before the caret, for capitals and
/// punctuation.
///
/// One event-loop source: the accessibility bus and its timers.
public final class FieldFollower: EventSource {
    /// How long the focus must stay off text before the keyboard hides.
    static let hideDelay = 0.3
    /// How long after a click the keyboard comes back to the field that has the focus, if the click did not
    /// move the focus off text.
    static let returnDelay = 0.15
    /// How long the caret and the keyboard must rest before the field's text is read: the keystrokes on
    /// their way to the application have arrived by then.
    static let readDelay = 0.05

    private unowned let keyboard: Keyboard
    private var display: any KeyboardDisplay { keyboard.display }
    private var watcher: FocusWatcher?
    /// The session's accessibility switch, turned on while the keyboard follows the focus.
    private var accessibilityStatus: AccessibilityStatus?
    private var policy = FocusPolicy()
    /// Where the focused field's caret should be after the keyboard's keystrokes.
    private var caretPrediction = CaretPrediction()
    /// The reads of the focused field's text under way.
    private var contextReads = ContextReads()
    /// Hides the keyboard a moment after the focus left text.
    private lazy var fieldLeft = TimerSource { [unowned self] in focusLeftText() }
    /// Shows it again a moment after a click, when the focus stayed on text.
    private lazy var fieldReturn = TimerSource { [unowned self] in act(policy.showNow()) }
    /// Reads the field's text before the caret once its caret has stopped moving.
    private lazy var contextRead = TimerSource { [unowned self] in readContext() }
    private var sources: SourceGroup?

    /// When the keyboard shows: for fields focused by touch, or by any means.
    public var showsOn: AutoShow { policy.showOn }

    /// Listens to the accessibility bus; nil (said once) when there is no bus.
    init?(keyboard: Keyboard) {
        self.keyboard = keyboard
        guard let bus = GLibContextSource() else {
            warn("GLib's main context is taken; the keyboard does not follow the focus (auto-show is off)")
            return nil
        }
        do {
            watcher = try FocusWatcher(focused: { [unowned self] in act(policy.focused($0)) },
                                       caretMoved: { [unowned self] in caretMoved(to: $0) })
        } catch {
            warn("\(error); the keyboard does not follow the focus (auto-show is off)")
            return nil
        }
        watcher?.activated(processID: display.activeWindowProcess)
        // Qt and Firefox speak to the bus only while the session says accessibility is on.
        accessibilityStatus = AccessibilityStatus()
        if accessibilityStatus?.enable() != true {
            warn("cannot turn on org.a11y.Status IsEnabled; Qt applications and Firefox may not say where the focus is")
        }
        // Keys of physical keyboards hide the keyboard.
        display.watchPhysicalKeys()
        policy.showOn = keyboard.configuration.autoShow ?? (display.hasTouchscreen ? .touch : .focus)
        sources = SourceGroup([bus, fieldLeft, fieldReturn, contextRead])
    }

    public func prepare(now: Double) -> Interest { sources?.prepare(now: now) ?? .nothing }
    public func turn(_ ready: [Readiness], now: Double) { sources?.turn(ready, now: now) }

    /// Gives the session's accessibility switch back as it was.
    func stop() { accessibilityStatus?.restore() }

    /// Which fields show the keyboard, changed while it runs (nil: for touch while there is a touchscreen,
    /// else for any focus).
    func show(on mode: AutoShow?) {
        policy.showOn = mode ?? (display.hasTouchscreen ? .touch : .focus)
    }

    /// Touch screens plugged in or out: the keyboard shows for touch while there is one, unless told.
    public func touchscreensChanged() {
        guard keyboard.configuration.autoShow == nil else { return }
        policy.showOn = display.hasTouchscreen ? .touch : .focus
    }

    /// Another window became active.
    func windowActivated(processID: Int?) { watcher?.activated(processID: processID) }

    /// A key went down on a physical keyboard (not a synthesized one).
    public func physicalKeyPressed() {
        guard !keyboard.isTouched else { return }
        act(policy.physicalKey(keyboardVisible: display.isShown))
    }

    /// A click or touch anywhere.
    public func pressedAnywhere(by press: FocusPolicy.Press) { act(policy.pressed(by: press)) }

    private func act(_ action: FocusPolicy.Action) {
        switch action {
        case .show(let choice):
            // On screen first: the questions to the application (its text, its place) come after.
            keyboard.choose(choice)
            showForField()
            readContext()
            keepFieldInSight()
        case .showAgain:
            showForField()
        case .choose(let choice):
            keyboard.choose(choice)
            readContext()
        case .hideSoon:
            fieldReturn.cancel()
            if display.isShown { fieldLeft.set(at: EventLoop.monotonicNow() + Self.hideDelay) }
        case .hideNow:
            fieldLeft.cancel()
            keyboard.hide()
        case .showSoon:
            fieldReturn.set(at: EventLoop.monotonicNow() + Self.returnDelay)
        case .none:
            break
        }
    }

    private func showForField() {
        fieldLeft.cancel()
        fieldReturn.cancel()
        display.stayAboveFullScreenWindow()
        keyboard.show()
    }

    /// A field the keyboard would cover (a full-screen window ignores the space a docked keyboard reserves,
    /// and a window that is not maximized keeps its place) is scrolled above it, where its page or view
    /// can scroll.
    private func keepFieldInSight() {
        guard display.isShown else { return }
        watcher?.keepFieldInSight { [weak self] frame in
            guard let self, display.isShown else { return nil }
            return frame.scrollTarget(clearOf: display.frame)
        }
    }

    /// The moment after the focus left text: hidden, unless a finger is on the keys.
    private func focusLeftText() {
        if keyboard.isTouched {
            fieldLeft.set(at: EventLoop.monotonicNow() + Self.hideDelay)
        } else {
            keyboard.hide()
        }
    }

    // MARK: - The text before the caret

    /// The caret moved in the focused field: where the keyboard's own keystrokes put it there, nothing is
    /// to be read (a read already due for an earlier move is no longer needed); otherwise its text is read
    /// once caret and keyboard rest.
    private func caretMoved(to offset: Int) {
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
    func typed(_ action: KeyAction) {
        watcher?.endSelection()
        caretPrediction.sent(action)
        if contextRead.deadline != nil || contextReads.isUnderWay { readContextSoon() }
        contextReads.outdate()
    }

    /// Moves the focused field's caret (or its selection's moving end) through the accessibility bus, where
    /// it can be set so; false where it cannot (keys do it then). The caret's event of the move is the
    /// keyboard's own.
    func moveCaret(by characters: Int, selecting: Bool) -> Bool {
        guard watcher?.moveCaret(by: characters, selecting: selecting) == true else { return false }
        caretPrediction.sent(.moveCaret(by: characters, selecting: selecting))
        return true
    }

    /// A click elsewhere or another window may have moved the caret: where the field can be read, the
    /// caret's own event says whether it did; elsewhere, the record starts afresh.
    public func caretMayHaveMoved() {
        if watcher?.canRead != true { keyboard.resetContext() }
    }

    /// The field's text before the caret decides capitals and punctuation (not a password's: those are
    /// never read); the keyboard's own record stands where the field cannot be read or does not answer.
    private func readContext() {
        contextRead.cancel()
        guard let watcher, watcher.canRead else {
            caretPrediction.forget()
            return
        }
        let read = contextReads.start()
        watcher.readTextBeforeCaret { [weak self] answer in
            guard let self, contextReads.finish(read) else { return }
            caretPrediction.forget()
            guard let (text, caret) = answer else { return }
            caretPrediction.read(at: caret)
            keyboard.read(context: text)
        }
    }
}
