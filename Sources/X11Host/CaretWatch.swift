internal import CX11
internal import EventLoop
internal import XDisplay

/// Tells when the caret may have moved without the keyboard typing: another window became active, or a
/// click or touch landed outside the keyboard. The typing engine's record of what it typed (for
/// autocapitalization, the double-space period, undoing a smart quote) then starts afresh.
///
/// Clicks and touches anywhere are seen as XInput 2 raw events (`OutsidePresses`), which carry no position,
/// only the server's stamp. One is outside unless the keyboard's own press, with the same stamp, comes
/// within `samePress`, which a timer, `outsidePress`, waits for as one of the loop's sources; a keyboard's
/// press with a later stamp shows that one still waiting was outside (read late, while the keyboard was
/// typed on). A click whose own press is late is asked about (one round trip): the window manager's grab
/// can hold a click's core event back, but not where the pointer is.
final class CaretWatch {
    let connection: DisplayConnection
    let window: KeyboardWindow
    private var display: OpaquePointer { connection.display }
    /// Called when the caret may have moved.
    var moved: () -> Void = {}
    /// Called when another window became active, with its process (nil when it does not say).
    var activated: (Int?) -> Void = { _ in }
    private let activeWindowAtom: UInt
    /// The window the window manager last said was active.
    private(set) var activeWindow: UInt = 0
    /// Presses seen anywhere whose own press on the keyboard has not come: their stamps, and whether each
    /// was a click (a touch is not asked about: the pointer need not follow it).
    private var waiting: [(stamp: UInt, isClick: Bool)] = []
    /// Fires when a press seen anywhere counts as outside the keyboard, unless one on it comes first.
    private(set) lazy var outsidePress = TimerSource { [unowned self] in
        guard !waiting.isEmpty else { return }
        if waiting.contains(where: { !$0.isClick }) || !pointerIsOnKeyboard() {
            waiting = []
            moved()
        }
        // Else clicks with the pointer on the keyboard: the window manager holds their own presses back (each
        // until it has raised the window), and their stamps tell when those come.
    }
    /// How far apart the raw press and the keyboard's own press of one click or tap may arrive.
    static let samePress = 0.03
    /// The most presses kept waiting for the keyboard's own.
    static let mostWaiting = 8

    init(connection: DisplayConnection, window: KeyboardWindow) {
        self.connection = connection
        self.window = window
        activeWindowAtom = connection.atom("_NET_ACTIVE_WINDOW")
        activeWindow = readActiveWindow()
    }

    /// A PropertyNotify on the root: another active window means another caret. True when it was the
    /// active window's property.
    func propertyChanged(window: UInt, atom: UInt) -> Bool {
        guard window == connection.rootWindow && atom == activeWindowAtom else { return false }
        let active = readActiveWindow()
        if active != activeWindow {
            activeWindow = active
            activated(activeProcess)
            moved()
        }
        return true
    }

    /// A click (buttons 1-3) or touch anywhere, stamped by the server; none when the keyboard's own press
    /// with its stamp came already (`isKeyboards`).
    func pressedSomewhere(stamp: UInt, isClick: Bool, isKeyboards: Bool, now: Double) {
        guard !isKeyboards else { return }
        // A few at most: a switch user's button presses, with the pointer resting on the keyboard, wait for a
        // press of the keyboard's that may never come.
        if waiting.count == Self.mostWaiting { waiting.removeFirst() }
        waiting.append((stamp, isClick))
        if outsidePress.deadline == nil { outsidePress.set(at: now + Self.samePress) }
    }

    /// The keyboard's own press, a click or a touch: its raw event was not outside; one still waiting from
    /// before it was. One after it may be another finger's, still to come.
    func pressedKeyboard(stamp: UInt) {
        let earlier = waiting.contains { ServerClock.isBefore($0.stamp, stamp) }
        waiting.removeAll { $0.stamp == stamp || ServerClock.isBefore($0.stamp, stamp) }
        if waiting.isEmpty { outsidePress.cancel() }
        if earlier { moved() }
    }

    /// Whether the pointer is over the keyboard's window now.
    private func pointerIsOnKeyboard() -> Bool {
        var root: UInt = 0, child: UInt = 0
        var rootX: Int32 = 0, rootY: Int32 = 0, x: Int32 = 0, y: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(display, window.window, &root, &child, &rootX, &rootY, &x, &y, &mask) != 0 else { return false }
        return x >= 0 && y >= 0 && Int(x) < window.frame.width && Int(y) < window.frame.height
    }

    /// Whether the active window is full screen (_NET_WM_STATE_FULLSCREEN).
    var activeWindowIsFullScreen: Bool {
        guard activeWindow != 0 else { return false }
        let fullScreen = connection.atom("_NET_WM_STATE_FULLSCREEN")
        return connection.numbers(of: activeWindow, connection.atom("_NET_WM_STATE"), type: UInt(XA_ATOM), most: 64).contains(fullScreen)
    }

    /// The active window's process, as it says in _NET_WM_PID; nil when it does not say.
    var activeProcess: Int? {
        guard activeWindow != 0 else { return nil }
        return connection.numbers(of: activeWindow, connection.atom("_NET_WM_PID"), type: UInt(XA_CARDINAL), most: 1).first.map { Int($0) }
    }

    private func readActiveWindow() -> UInt {
        connection.numbers(of: connection.rootWindow, activeWindowAtom, type: UInt(XA_WINDOW), most: 1).first ?? 0
    }
}
