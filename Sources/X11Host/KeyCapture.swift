internal import CX11
public import EventLoop
internal import XDisplay

/// The next key pressed anywhere, by its X name (F12, space): the settings panel's "Scanning Switch" row
/// asks for the switch to be pressed. The keyboard is grabbed meanwhile, so the key reaches no
/// application, and let go when the key comes up or after the time allowed. An event-loop source while
/// it waits.
final class KeyCapture: EventSource {
    private let connection: DisplayConnection
    private var waiting: (deadline: Double, keycode: UInt32?, done: (String?) -> Void)?

    init(connection: DisplayConnection) { self.connection = connection }

    /// Waiting for a key: the keys pressed now are the capture's, not typing on a physical keyboard.
    var isWaiting: Bool { waiting != nil }

    /// Grabs the keyboard and waits for a key; false when another program holds a grab.
    func start(until deadline: Double, _ done: @escaping (String?) -> Void) -> Bool {
        finish(nil)
        let display = connection.display
        guard XGrabKeyboard(display, connection.rootWindow, False, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
                == GrabSuccess else { return false }
        XFlush(display)
        waiting = (deadline, nil, done)
        return true
    }

    /// A key event while waiting: its press names the key, its release ends the grab (so that no release
    /// without its press reaches an application). True when the event was the capture's.
    func handle(_ event: XEvent) -> Bool {
        guard var waiting, event.type == KeyPress || event.type == KeyRelease else { return false }
        let keycode = event.xkey.keycode
        if event.type == KeyPress, waiting.keycode == nil {
            waiting.keycode = keycode
            self.waiting = waiting
        } else if event.type == KeyRelease, waiting.keycode == keycode {
            let keysym = XkbKeycodeToKeysym(connection.display, KeyCode(keycode), 0, 0)
            finish(XKeysymToString(keysym).map { String(cString: $0) })
        }
        return true
    }

    private func finish(_ name: String?) {
        guard let waiting else { return }
        self.waiting = nil
        XUngrabKeyboard(connection.display, UInt(CurrentTime))
        XFlush(connection.display)
        waiting.done(name)
    }

    func prepare(now: Double) -> Interest { .at(waiting?.deadline) }

    func turn(_ ready: [Readiness], now: Double) {
        if let waiting, now >= waiting.deadline { finish(nil) }
    }
}
