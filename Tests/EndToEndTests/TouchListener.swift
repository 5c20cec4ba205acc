import CX11
import CXInput2
import Foundation

/// A normal window over the screen's whole width, under the docked keyboard (as a kiosk's full-screen
/// browser is), that never takes the focus and counts the button and touch events it receives.
final class TouchListener {
    private let connection: OpaquePointer
    private let window: UInt
    private var opcode: Int32 = 0
    private var count = 0

    init(session: XSession) throws {
        guard let connection = XOpenDisplay(session.display) else { throw TestFailure("cannot open \(session.display)") }
        self.connection = connection
        let root = XDefaultRootWindow(connection)
        window = XCreateSimpleWindow(connection, root, 0, 0, UInt32(session.width), UInt32(session.height), 0, 0, 0)
        var hints = XWMHints()
        hints.flags = InputHint
        hints.input = 0
        XSetWMHints(connection, window, &hints)
        XSelectInput(connection, window, ButtonPressMask | ButtonReleaseMask)
        var event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(connection, "XInputExtension", &opcode, &event, &error) != 0 else {
            throw TestFailure("no XInput extension")
        }
        var bits = [UInt8](repeating: 0, count: 4)
        for type in [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd] { bits[Int(type >> 3)] |= UInt8(1 << (type & 7)) }
        bits.withUnsafeMutableBufferPointer { buffer in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            _ = XISelectEvents(connection, window, &mask, 1)
        }
        XMapWindow(connection, window)
        XSync(connection, 0)
        guard waitUntil(timeout: 5, {
            var attributes = XWindowAttributes()
            XGetWindowAttributes(connection, window, &attributes)
            return attributes.map_state == IsViewable
        }) else { throw TestFailure("the listening window did not map") }
    }

    deinit { XCloseDisplay(connection) }

    /// The button and touch events received so far.
    func events() -> Int {
        XSync(connection, 0)
        while XPending(connection) > 0 {
            var event = XEvent()
            XNextEvent(connection, &event)
            if event.type == ButtonPress || event.type == ButtonRelease { count += 1 }
            if event.type == GenericEvent && event.xcookie.extension == opcode { count += 1 }
        }
        return count
    }
}
