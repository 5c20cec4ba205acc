import CX11
import CXTest
import Foundation

/// Input as a user gives it, through XTest: taps, presses and drags of the pointer, keys.
extension XSession {
    /// A tap with XTest at a point of the screen: move, press, release. XTest moves the pointer at once
    /// but queues button events, so each step waits until the server shows it done; otherwise the next
    /// move would happen with the button still down, which is a slide.
    func tap(x: Int, y: Int, hold: Double = 0) {
        move(x: x, y: y)
        XTestFakeButtonEvent(connection, 1, 1, 0)
        waitForButton(down: true)
        if hold > 0 { usleep(useconds_t(hold * 1_000_000)) }
        release()
    }

    /// The pointer's position and button state, as the server has them now.
    func pointer() -> (x: Int, y: Int, buttonDown: Bool) {
        var rootReturn: UInt = 0, child: UInt = 0
        var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(connection, root, &rootReturn, &child, &rx, &ry, &wx, &wy, &mask)
        return (Int(rx), Int(ry), mask & UInt32(Button1Mask) != 0)
    }

    private func waitForButton(down: Bool) {
        _ = waitUntil(timeout: 5) { pointer().buttonDown == down }
    }

    func press(x: Int, y: Int) {
        move(x: x, y: y)
        XTestFakeButtonEvent(connection, 1, 1, 0)
        waitForButton(down: true)
    }

    func move(x: Int, y: Int) {
        XTestFakeMotionEvent(connection, -1, Int32(x), Int32(y), 0)
        _ = waitUntil(timeout: 5) { let p = pointer(); return p.x == x && p.y == y }
    }

    func release() {
        XTestFakeButtonEvent(connection, 1, 0, 0)
        waitForButton(down: false)
    }

    /// A key of the keymap held down for a while, then let go.
    func holdKey(_ name: String, seconds: Double) {
        let code = XKeysymToKeycode(connection, XStringToKeysym(name))
        XTestFakeKeyEvent(connection, UInt32(code), 1, 0)
        XSync(connection, 0)
        usleep(useconds_t(seconds * 1_000_000))
        XTestFakeKeyEvent(connection, UInt32(code), 0, 0)
        XSync(connection, 0)
    }

    /// A mouse button held down for a while where the pointer is, then let go.
    func holdButton(_ button: UInt32, seconds: Double) {
        XTestFakeButtonEvent(connection, button, 1, 0)
        XSync(connection, 0)
        usleep(useconds_t(seconds * 1_000_000))
        XTestFakeButtonEvent(connection, button, 0, 0)
        XSync(connection, 0)
    }

    /// Alt+Tab, as a person switches windows: openbox gives the focus to the window used before.
    func altTab() {
        let alt = XKeysymToKeycode(connection, XStringToKeysym("Alt_L"))
        let tab = XKeysymToKeycode(connection, XStringToKeysym("Tab"))
        XTestFakeKeyEvent(connection, UInt32(alt), 1, 0)
        XSync(connection, 0)
        usleep(50_000)
        XTestFakeKeyEvent(connection, UInt32(tab), 1, 0)
        XTestFakeKeyEvent(connection, UInt32(tab), 0, 0)
        XSync(connection, 0)
        usleep(100_000)
        XTestFakeKeyEvent(connection, UInt32(alt), 0, 0)
        XSync(connection, 0)
    }

    /// A key of the keymap, pressed and released with XTest (as another program would, not Keypane).
    func key(_ name: String) {
        let code = XKeysymToKeycode(connection, XStringToKeysym(name))
        XTestFakeKeyEvent(connection, UInt32(code), 1, 0)
        XTestFakeKeyEvent(connection, UInt32(code), 0, 0)
        XSync(connection, 0)
    }
}
