internal import Accessibility
internal import EventLoop
internal import KeyboardModel

/// The keyboard follows the focus, as iOS's does: a text field that gets the focus shows it, with the
/// keyboard, Return key and traits the field asks for; focus that moves to something that is not text hides
/// it a moment later (so going from one field to the next does not flicker), never while a finger is on it.
extension KeyboardHost {
    /// How long the focus must stay off text before the keyboard hides.
    static let hideDelay = 0.3

    /// Listens to the accessibility bus; returns the source that runs it in the loop, or nil (said once)
    /// when there is no bus.
    func followFocus() -> GLibContextSource? {
        guard let context = GLibContextSource() else {
            warn("GLib's main context is taken; the keyboard does not follow the focus (auto-show is off)")
            return nil
        }
        do {
            focusWatcher = try FocusWatcher { [unowned self] in focused($0) }
        } catch {
            warn("\(error); the keyboard does not follow the focus (auto-show is off)")
            return nil
        }
        // Qt and Firefox speak to the bus only while the session says accessibility is on.
        accessibilityStatus = AccessibilityStatus()
        if accessibilityStatus?.enable() != true {
            warn("cannot turn on org.a11y.Status IsEnabled; Qt applications and Firefox may not say where the focus is")
        }
        return context
    }

    func focused(_ field: TextField) {
        guard field.takesText else {
            if window.isMapped { fieldLeft.set(at: EventLoop.monotonicNow() + Self.hideDelay) }
            return
        }
        fieldLeft.cancel()
        let choice = field.choice
        // A type the layouts lack (user layouts replaced it) leaves the keyboard as it is.
        let name = engine.library[choice.type.rawValue] != nil ? choice.type.rawValue : engine.enabled[engine.current]
        engine.show(layout: name, returnKey: choice.returnKey, traits: choice.traits)
        painter.noteAll()
        show()
    }

    func focusLeftText() {
        if engine.isTouched {
            fieldLeft.set(at: EventLoop.monotonicNow() + Self.hideDelay)
        } else {
            hide()
        }
    }
}
