import Foundation
import Testing

/// The way back by touch: after the dismiss key, a round button at the screen's edge, above other windows,
/// never focused, draggable, brings the keyboard back with a tap.
@Suite(.serialized) struct ShowButtonEndToEndTests {
    static func button(_ session: XSession) -> UInt? { session.window(classNamed: "keypane-show") }

    static func dismiss(_ keyboard: LiveKeyboard) throws {
        keyboard.tap(try #require(keyboard.geometry(type: "default", layer: nil).key(action: "dismiss")))
    }

    @Test func aTapOnTheButtonBringsTheDismissedKeyboardBack() throws {
        let session = try XSession(dpi: 96)
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        #expect(Self.button(session) == nil)
        try Self.dismiss(keyboard)
        #expect(waitUntil { !ControlEndToEndTests.visible(session) })
        var found: UInt?
        #expect(waitUntil { found = Self.button(session); return found != nil })
        let button = try #require(found)
        // 48 px at 96 dpi, at the right edge near the bottom, wholly on screen.
        let frame = session.frame(button)
        #expect(frame.width == 48 && frame.height == 48)
        #expect(frame.x + frame.width <= session.width && frame.x + frame.width >= session.width - 48)
        #expect(frame.y + frame.height <= session.height && frame.y + frame.height >= session.height - 48)

        // A window that comes over it (an on-screen display raising itself) does not cover it for long: the
        // button is raised above again.
        let cover = session.overlay(x: frame.x - 100, y: frame.y - 80, width: 200, height: 160)
        #expect(waitUntil {
            let order = session.stacking()
            return order.firstIndex(of: button)! > order.firstIndex(of: cover)!
        })
        session.destroy(cover)
        session.activate(terminal.window)
        #expect(waitUntil { session.focusedWindowFamily().contains(terminal.window) })

        // Dragged: it moves with the finger, and the keyboard stays hidden.
        session.press(x: frame.x + 24, y: frame.y + 24)
        for step in 1...10 { session.move(x: frame.x + 24 - 40 * step, y: frame.y + 24 - 30 * step) }
        session.release()
        #expect(waitUntil { session.frame(button).x == frame.x - 400 && session.frame(button).y == frame.y - 300 },
                "\(session.frame(button))")
        let moved = session.frame(button)
        usleep(200_000)
        #expect(!ControlEndToEndTests.visible(session))

        // Tapped: the keyboard is back, the button gone, and the focus still in the terminal, which the
        // keys type into.
        session.tap(x: moved.x + 24, y: moved.y + 24)
        #expect(waitUntil { ControlEndToEndTests.visible(session) })
        #expect(waitUntil { Self.button(session) == nil })
        #expect(session.focusedWindowFamily().contains(terminal.window))
        try tapText("ok", on: keyboard)
        #expect(terminal.waitFor(text: "ok") == "ok")

        // Dismissed again, it comes back where it was dragged.
        try Self.dismiss(keyboard)
        #expect(waitUntil { !ControlEndToEndTests.visible(session) })
        #expect(waitUntil { Self.button(session).map { session.frame($0).x == moved.x && session.frame($0).y == moved.y } ?? false })
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }

    /// It grows with the screen's density, and a kiosk that shows the keyboard itself turns it off.
    @Test func itScalesAndCanBeTurnedOff() throws {
        let dense = try XSession(dpi: 192)
        defer { dense.stop() }
        let keyboard = try LiveKeyboard(session: dense, arguments: ["--keyboards", "default"])
        try Self.dismiss(keyboard)
        var found: UInt?
        #expect(waitUntil { found = Self.button(dense); return found != nil })
        #expect(found.map { dense.frame($0).width } == 96)
        _ = keyboard.terminate()

        let kiosk = try XSession(dpi: 96)
        defer { kiosk.stop() }
        let plain = try LiveKeyboard(session: kiosk, arguments: ["--keyboards", "default", "--no-show-button"])
        try Self.dismiss(plain)
        #expect(waitUntil { !ControlEndToEndTests.visible(kiosk) })
        usleep(300_000)
        #expect(Self.button(kiosk) == nil)
        let (status, messages) = plain.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }
}
