internal import CX11
internal import EventLoop
internal import Typing
internal import XDisplay

/// The switches of switch scanning: keys or mouse buttons the user names, grabbed on the root window so
/// that their presses come to Keypane and never reach the focused application.
public struct ScanSwitch: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case key(keysym: String)
        case button(UInt32)
    }
    var kind: Kind

    /// `F12`, `space`, `Pause` (an X keysym name) or `button:N` (a mouse button, 1-9).
    public init?(_ text: String) {
        if text.hasPrefix("button:") {
            guard let number = UInt32(text.dropFirst(7)), (1...9).contains(number) else { return nil }
            kind = .button(number)
        } else {
            guard !text.isEmpty, XStringToKeysym(text) != 0 else { return nil }
            kind = .key(keysym: text)
        }
    }
}

/// The grabbed switches, and which of them picks.
final class ScanSwitches {
    let connection: DisplayConnection
    /// Keycodes and buttons grabbed, each with whether it picks (else it moves the highlight on).
    private(set) var keys: [UInt8: Bool] = [:]
    private(set) var buttons: [UInt32: Bool] = [:]
    /// Switch keys down now: a key held down repeats its presses, which are not new presses.
    private var down: Set<UInt8> = []
    /// Switch buttons down now.
    private var buttonsDown: Set<UInt32> = []
    /// Keystrokes picked while a switch was down, typed once it is up.
    private var waiting: [KeyAction] = []

    /// Whether a switch is down. While a switch key is down its passive grab is active and the server sends
    /// every key event to Keypane instead of the focused window, so a keystroke made then would be lost.
    var isHeld: Bool { !down.isEmpty || !buttonsDown.isEmpty }

    /// Keeps a keystroke picked while a switch is down, for `takeWaiting` once every switch is up.
    func wait(_ action: KeyAction) { waiting.append(action) }

    /// The keystrokes kept while a switch was down, once none is; they leave the queue.
    func takeWaiting() -> [KeyAction] {
        guard !isHeld else { return [] }
        defer { waiting = [] }
        return waiting
    }

    /// Grabs the switches: with one, it picks; with two (step scanning), the first moves on and the second
    /// picks. Throws when the server refuses a grab (another program holds it).
    init(connection: DisplayConnection, switches: [ScanSwitch]) throws(ScanSwitchError) {
        self.connection = connection
        let display = connection.display, root = connection.rootWindow
        // A held key then repeats as presses alone, with one release at the end.
        var supported: Int32 = 0
        XkbSetDetectableAutoRepeat(display, 1, &supported)
        _ = connection.takeLastError()
        for (index, item) in switches.enumerated() {
            let picks = switches.count == 1 || index == 1
            switch item.kind {
            case .key(let name):
                let keycode = XKeysymToKeycode(display, XStringToKeysym(name))
                guard keycode != 0 else { throw ScanSwitchError("no key of the keymap sends '\(name)'") }
                keys[keycode] = picks
                XGrabKey(display, Int32(keycode), UInt32(AnyModifier), root, 0, GrabModeAsync, GrabModeAsync)
            case .button(let number):
                buttons[number] = picks
                XGrabButton(display, number, UInt32(AnyModifier), root, 0,
                            UInt32(ButtonPressMask | ButtonReleaseMask), GrabModeAsync, GrabModeAsync, 0, 0)
            }
            if connection.takeLastError() != nil {
                throw ScanSwitchError("cannot take the switch '\(item.name)': another program has it")
            }
        }
    }

    /// Lets the switches go.
    func release() {
        let display = connection.display, root = connection.rootWindow
        for keycode in keys.keys { XUngrabKey(display, Int32(keycode), UInt32(AnyModifier), root) }
        for button in buttons.keys { XUngrabButton(display, button, UInt32(AnyModifier), root) }
        keys = [:]
        buttons = [:]
        down = []
        buttonsDown = []
    }

    /// For a key or button press on the root: nil when it is no switch (or a held key's repeat), else
    /// whether it picks.
    func switchPressed(_ event: XEvent) -> Bool? {
        switch event.type {
        case KeyPress:
            let keycode = UInt8(truncatingIfNeeded: event.xkey.keycode)
            guard let picks = keys[keycode], down.insert(keycode).inserted else { return nil }
            return picks
        case ButtonPress:
            guard let picks = buttons[event.xbutton.button] else { return nil }
            buttonsDown.insert(event.xbutton.button)
            return picks
        default: return nil
        }
    }

    /// For a key or button release on the root: nil when it is no switch, else whether it picks.
    func switchReleased(_ event: XEvent) -> Bool? {
        switch event.type {
        case KeyRelease:
            let keycode = UInt8(truncatingIfNeeded: event.xkey.keycode)
            down.remove(keycode)
            return keys[keycode]
        case ButtonRelease:
            buttonsDown.remove(event.xbutton.button)
            return buttons[event.xbutton.button]
        default: return nil
        }
    }

    /// Whether a key event or raw key is one of the switches.
    func isSwitch(keycode: Int) -> Bool { keys[UInt8(truncatingIfNeeded: keycode)] != nil }
}

extension ScanSwitch {
    var name: String {
        switch kind {
        case .key(let keysym): keysym
        case .button(let number): "button:\(number)"
        }
    }
}

/// Why the scanning switches cannot be used.
struct ScanSwitchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
