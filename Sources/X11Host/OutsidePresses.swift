internal import CX11
internal import CXInput2
internal import EventLoop
internal import XDisplay

/// Clicks and touches anywhere, seen as XInput 2 raw events (`CaretWatch` tells which were outside the
/// keyboard), read from an X connection of their own.
///
/// A tap on the keyboard sends its raw press at once, and its own press only after the window manager's
/// grab lets it go: read from the main connection, the raw press cost every tap a wake-up of its own. This
/// connection is not waited on while the keyboard is being typed on (until `pause` after its last press or
/// release); what came on it meanwhile is read at the start of the main connection's turn, which the
/// tap's own press wakes, or when the typing pauses.
final class OutsidePresses: EventSource {
    struct Press {
        enum Kind { case click, touch }
        let kind: Kind
        /// The server's time of the press, in milliseconds.
        let stamp: UInt
        /// Whether the keyboard's own press with the same stamp came before this one was read.
        let isKeyboards: Bool
    }

    /// How long after the keyboard's last press or release its typing counts as paused.
    static let pause = 1.0

    /// Called with each press read.
    var pressed: (Press) -> Void = { _ in }
    private let connection: DisplayConnection
    private let opcode: Int32
    private var typingUntil = -Double.infinity
    /// The stamps of the keyboard's last presses whose raw events have not been read, a ring written in
    /// place (a press's raw event has its stamp; X never stamps an event 0, the mark of a slot used up). A
    /// keyboard that lags reads a burst of its own presses before their raw events: under load, sixteen
    /// in 3 ms, several with one stamp, were seen; a ring of four took the rest for presses outside.
    private var keyboardStamps = [UInt](repeating: 0, count: 32)
    private var nextStamp = 0
    private var display: OpaquePointer { connection.display }

    /// Opens the connection and selects raw presses and touches on the root window, from the master devices
    /// (from all devices each press would come again from the slave that made it). Nil without XInput 2.2
    /// or a second connection.
    init?(display name: String) {
        guard let connection = try? DisplayConnection(name: name),
              let opcode = XInput2.opcode(connection.display) else { return nil }
        self.connection = connection
        self.opcode = opcode
        XInput2.select(connection.display, window: connection.rootWindow,
                       [(XIAllMasterDevices, [XI_RawButtonPress, XI_RawTouchBegin])])
        XFlush(connection.display)
    }

    /// The keyboard's own press (a click or a touch), stamped by the server: no need to wait on this
    /// connection until the typing pauses.
    func keyboardPressed(stamp: UInt, now: Double) {
        keyboardStamps[nextStamp] = stamp
        nextStamp = (nextStamp + 1) % keyboardStamps.count
        typingUntil = now + Self.pause
    }

    /// A release on the keyboard: the typing goes on.
    func keyboardReleased(now: Double) {
        typingUntil = now + Self.pause
    }

    func prepare(now: Double) -> Interest {
        now >= typingUntil ? .reading(connection.fileDescriptor) : .at(typingUntil)
    }

    func turn(_ ready: [Readiness], now: Double) {
        read()
    }

    /// Passes on each press that has come, without waiting for more.
    func read() {
        var queued = XEventsQueued(display, QueuedAfterReading)
        while queued > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if let press = decode(&event) { pressed(press) }
            queued = XQLength(display)
        }
    }

    /// Whether the keyboard's own press with this stamp came already; its slot is used up, so that each
    /// of several presses with one stamp matches one raw event.
    private func takeKeyboardStamp(_ stamp: UInt) -> Bool {
        guard let slot = keyboardStamps.firstIndex(of: stamp) else { return false }
        keyboardStamps[slot] = 0
        return true
    }

    /// A click of buttons 1-3 (the wheel and side buttons only scroll) or a touch; a touch's emulated click
    /// is no click, the touch has been seen.
    private func decode(_ event: inout XEvent) -> Press? {
        guard event.type == GenericEvent, event.xcookie.extension == opcode,
              XGetEventData(display, &event.xcookie) != 0 else { return nil }
        defer { XFreeEventData(display, &event.xcookie) }
        let raw = event.xcookie.data.assumingMemoryBound(to: XIRawEvent.self).pointee
        switch event.xcookie.evtype {
        case XI_RawTouchBegin:
            return Press(kind: .touch, stamp: raw.time, isKeyboards: takeKeyboardStamp(raw.time))
        case XI_RawButtonPress where (1...3).contains(raw.detail) && raw.flags & XIPointerEmulated == 0:
            return Press(kind: .click, stamp: raw.time, isKeyboards: takeKeyboardStamp(raw.time))
        default:
            return nil
        }
    }
}
