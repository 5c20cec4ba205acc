import TestSupport
import Foundation
import Testing
import X11Host

/// Real touches, from the X.Org inputtest driver's touch screen on a test's own Xorg: what XI2 gives the
/// keyboard when fingers type on a touchscreen, which XTest cannot make. The check is what reaches xterm.
@Suite(.serialized) struct TouchEndToEndTests {
    /// A session on Xorg with the inputtest devices, xterm with the focus, and the keyboard.
    final class Bed {
        let session: XSession
        let touch: InputTestDevices
        let terminal: Terminal
        let keyboard: LiveKeyboard

        init(arguments: [String] = ["--keyboards", "default"], plainText: Bool = true) throws {
            session = try XSession(realInput: true)
            touch = try #require(session.inputDevices)
            terminal = try Terminal(session: session)
            keyboard = try LiveKeyboard(session: session, arguments: arguments, plainText: plainText)
        }

        func stop() { session.stop() }

        func letters(_ layer: String? = nil) throws -> Geometry { try keyboard.geometry(type: "default", layer: layer) }

        /// A key's centre on the screen.
        func point(_ key: GeometryKey) -> (x: Int, y: Int) {
            (keyboard.frame.x + key.centre.0, keyboard.frame.y + key.centre.1)
        }

        func key(_ label: String) throws -> GeometryKey { try #require(try letters().key(label: label), "no key \(label)") }

        /// Taps each letter with one finger, at a person's pace.
        func tap(_ text: String) throws {
            for letter in text {
                let at = point(try key(String(letter)))
                touch.tap(x: at.x, y: at.y, hold: 0.06)
                usleep(60_000)
            }
        }

        /// The focus is still the terminal's: no touch on the keyboard took it.
        func expectFocusKept() {
            #expect(session.focusedWindowFamily().contains(terminal.window), "the terminal lost the focus")
        }

        func finish() {
            let (status, messages) = keyboard.terminate()
            #expect(status == 0 && messages.isEmpty, "\(messages)")
            #expect(session.keysDown().isEmpty)
        }
    }

    @Test func tapsType() throws {
        let bed = try Bed()
        defer { bed.stop() }
        try bed.tap("hello")
        expectArrived(bed.terminal, "hello", "touch taps")
        bed.expectFocusKept()
        bed.finish()
    }

    /// Two thumbs: the second finger lands before the first lifts. Both letters arrive, in the order the
    /// fingers landed, at once (each down before the last up) and at a typing pace with long overlaps.
    @Test func overlappingFingersTypeBothInOrder() throws {
        let bed = try Bed()
        defer { bed.stop() }
        let a = bed.point(try bed.key("a")), s = bed.point(try bed.key("s"))
        bed.touch.touch(1, .begin, x: a.x, y: a.y)
        bed.touch.touch(2, .begin, x: s.x, y: s.y)
        bed.touch.touch(1, .end, x: a.x, y: a.y)
        bed.touch.touch(2, .end, x: s.x, y: s.y)
        expectArrived(bed.terminal, "as", "two fingers at once")
        // "thumbs": each finger lingers 120 ms and the next lands 60 ms after it, alternating ids.
        var expected = "as"
        var previous: (id: UInt32, at: (x: Int, y: Int))?
        for (index, letter) in "thumbs".enumerated() {
            let at = bed.point(try bed.key(String(letter)))
            let id = UInt32(10 + index)
            bed.touch.touch(id, .begin, x: at.x, y: at.y)
            usleep(60_000)
            if let previous { bed.touch.touch(previous.id, .end, x: previous.at.x, y: previous.at.y) }
            previous = (id, at)
            usleep(60_000)
        }
        if let previous { bed.touch.touch(previous.id, .end, x: previous.at.x, y: previous.at.y) }
        expected += "thumbs"
        expectArrived(bed.terminal, expected, "overlapping thumbs")
        bed.expectFocusKept()
        bed.finish()
    }

    /// Shift held by one finger gives capitals from another; lifted, letters are small again.
    @Test func shiftHeldByOneFingerGivesCapitals() throws {
        let bed = try Bed()
        defer { bed.stop() }
        let shift = bed.point(try #require(try bed.letters().key(action: "shift")))
        bed.touch.touch(1, .begin, x: shift.x, y: shift.y)
        usleep(100_000)
        for (index, letter) in "hi".enumerated() {
            let at = bed.point(try bed.key(String(letter)))
            bed.touch.tap(x: at.x, y: at.y, hold: 0.06, id: UInt32(2 + index))
            usleep(80_000)
        }
        bed.touch.touch(1, .end, x: shift.x, y: shift.y)
        usleep(100_000)
        try bed.tap("a")
        expectArrived(bed.terminal, "HIa", "shift held by one finger")
        bed.finish()
    }

    /// A finger that slides from one key to its neighbour types the key it lifts on, once.
    @Test func aSlideTypesTheKeyItLiftsOn() throws {
        let bed = try Bed()
        defer { bed.stop() }
        bed.touch.slide(from: bed.point(try bed.key("e")), to: bed.point(try bed.key("r")), seconds: 0.2)
        usleep(100_000)
        try bed.tap("t")
        expectArrived(bed.terminal, "rt", "a slide from e to r")
        bed.finish()
    }

    /// On the 123 layer a finger that rolls a few pixels as it taps the space bar types a space, as on the
    /// letters; the caret does not run off.
    @Test func aRollingTapOnTheNumbersSpaceBarTypesASpace() throws {
        let bed = try Bed()
        defer { bed.stop() }
        let numbers = try bed.letters("numbers")
        func at(_ key: GeometryKey?) throws -> (x: Int, y: Int) { bed.point(try #require(key)) }
        let one = try at(numbers.key(label: "1")), two = try at(numbers.key(label: "2"))
        let space = try at(numbers.keys.first { $0.text == " " })
        let toNumbers = try at(try bed.letters().key(action: "layer:numbers"))
        bed.touch.tap(x: toNumbers.x, y: toNumbers.y, hold: 0.06)
        usleep(150_000)
        bed.touch.tap(x: one.x, y: one.y, hold: 0.06)
        usleep(100_000)
        bed.touch.slide(from: space, to: (space.x + 3, space.y + 1), seconds: 0.08, steps: 3)
        usleep(100_000)
        bed.touch.tap(x: two.x, y: two.y, hold: 0.06)
        expectArrived(bed.terminal, "1 2", "a rolling tap on the 123 layer's space bar")
        bed.finish()
    }

    /// A long touch on e opens its accents; sliding to the third cell and lifting types é.
    @Test func aLongTouchOpensTheAccents() throws {
        let bed = try Bed()
        defer { bed.stop() }
        let e = try bed.key("e")
        let from = bed.point(e)
        bed.touch.touch(1, .begin, x: from.x, y: from.y)
        usleep(700_000)
        let cell = bed.keyboard.alternateCell(e, index: 2)
        let to = (x: bed.keyboard.frame.x + cell.x, y: bed.keyboard.frame.y + cell.y)
        for step in 1...5 {
            bed.touch.touch(1, .update, x: from.x + (to.x - from.x) * step / 5, y: from.y + (to.y - from.y) * step / 5)
            usleep(20_000)
        }
        bed.touch.touch(1, .end, x: to.x, y: to.y)
        expectArrived(bed.terminal, "é", "an accent by a long touch")
        bed.expectFocusKept()
        bed.finish()
    }

    /// A suggestion slot touched types its word: "tomo" gives "tomorrow " (the keyboard's default
    /// settings, suggestions on).
    @Test func aSuggestionSlotWorksByTouch() throws {
        let bed = try Bed(arguments: ["--keyboards", "default", "--autocapitalization", "none"], plainText: false)
        defer { bed.stop() }
        try bed.tap("tomo")
        let bar = SuggestionsEndToEndTests.waitForBar(bed.session) { $0.contains("tomorrow") }
        let slot = try #require(bar.firstIndex(of: "tomorrow"), "the bar shows \(bar)")
        let at = bed.point(try #require(try bed.letters().key(action: "suggestion:\(slot)")))
        bed.touch.tap(x: at.x, y: at.y)
        #expect(bed.terminal.waitFor(text: "tomorrow ") == "tomorrow ")
        bed.expectFocusKept()
        bed.finish()
    }

    /// The dismiss key hides the keyboard, the show button brings it back, both by touch; a long touch on the
    /// Globe key opens the list of keyboards, and the finger lifted on one chooses it.
    @Test func dismissShowButtonAndGlobeByTouch() throws {
        let bed = try Bed(arguments: ["--languages", "en,de"])
        defer { bed.stop() }
        let session = bed.session
        let letters = try bed.letters()
        let dismiss = bed.point(try #require(letters.key(action: "dismiss")))
        bed.touch.tap(x: dismiss.x, y: dismiss.y)
        #expect(waitUntil { !ControlEndToEndTests.visible(session) })
        var found: UInt?
        #expect(waitUntil { found = ShowButtonEndToEndTests.button(session); return found != nil })
        let button = session.frame(try #require(found))
        bed.touch.tap(x: button.x + button.width / 2, y: button.y + button.height / 2)
        #expect(waitUntil { ControlEndToEndTests.visible(session) })
        bed.expectFocusKept()

        // The Globe key held: its list, above it, one row per keyboard and Keyboard Settings last; lifted on
        // German's row.
        let status = { ControlEndToEndTests.fields((try? session.run(keypanePath, ["status"]).output) ?? "") }
        #expect(status()["type"] != "de")
        let enabled = (status()["keyboards"] ?? "").split(separator: ",").map(String.init)
        let globeKey = try #require(letters.key(action: "globe"))
        let globe = bed.point(globeKey)
        bed.touch.touch(1, .begin, x: globe.x, y: globe.y)
        usleep(700_000)
        let row = bed.keyboard.keyboardListRow(globeKey, index: try #require(enabled.firstIndex(of: "de")),
                                                  count: enabled.count + 1)
        let to = (x: bed.keyboard.frame.x + row.x, y: bed.keyboard.frame.y + row.y)
        for step in 1...5 {
            bed.touch.touch(1, .update, x: globe.x + (to.x - globe.x) * step / 5, y: globe.y + (to.y - globe.y) * step / 5)
            usleep(30_000)
        }
        bed.touch.touch(1, .end, x: to.x, y: to.y)
        #expect(waitUntil { status()["type"] == "de" })
        bed.finish()
    }

    /// The floating keyboard's handle dragged by a finger moves it; the keys type where it went.
    @Test func theFloatingKeyboardDragsByTouch() throws {
        let bed = try Bed(arguments: ["--keyboards", "default", "--floating"])
        defer { bed.stop() }
        bed.keyboard.handle = FloatingPlacement.handleHeight
        let start = bed.keyboard.frame
        let handle = (x: start.x + start.width / 2, y: start.y + start.height - FloatingPlacement.handleHeight / 2)
        bed.touch.slide(from: handle, to: (handle.x - 200, handle.y - 150), seconds: 0.4, steps: 12)
        #expect(bed.keyboard.waitForFrame { $0.x == start.x - 200 && $0.y == start.y - 150 }, "\(bed.keyboard.frame)")
        try bed.tap("ok")
        expectArrived(bed.terminal, "ok", "typed on the dragged keyboard")
        bed.expectFocusKept()
        bed.finish()
    }

    /// A window under the keyboard (a full-screen one, as a kiosk's browser) sees none of the touches on
    /// the keyboard: no button, no touch event.
    @Test func noTouchReachesTheWindowUnder() throws {
        let bed = try Bed()
        defer { bed.stop() }
        let listener = try TouchListener(session: bed.session)
        try bed.tap("hi")
        expectArrived(bed.terminal, "hi", "taps over a listening window")
        #expect(listener.events() == 0, "the window under the keyboard got \(listener.events()) events")
        // The same finger above the keyboard reaches it: it does listen.
        bed.touch.tap(x: 600, y: 300)
        #expect(waitUntil { listener.events() > 0 })
        bed.finish()
    }

    /// With a touchscreen the keyboard shows for fields focused by touch, as GNOME's does: a GTK field
    /// touched shows it, one clicked with the mouse does not (it is chosen for, and left hidden), and a
    /// touch on the same field then shows it.
    @Test func withATouchscreenTheKeyboardShowsForTouch() throws {
        let rig = try AutoShowRig(session: try XSession(realInput: true))
        defer { rig.stop() }
        let devices = try #require(rig.session.inputDevices)
        #expect(rig.status(["auto-show": "touch"]) == ["auto-show": "touch"])
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "gtk-fields.py",
                                   widgets: 5, arguments: [rig.session.directory.appendingPathComponent("t.out").path])
        func touch(_ name: String) { devices.tap(x: app.centres[name]!.x, y: app.centres[name]!.y) }
        func click(_ name: String) { devices.click(x: app.centres[name]!.x, y: app.centres[name]!.y) }
        touch("button")
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])
        click("plain")
        usleep(800_000)
        #expect(rig.status()["visible"] == "no", "a field clicked with the mouse showed the keyboard")
        touch("password")
        #expect(rig.status(["visible": "yes", "secure": "yes"]) == ["visible": "yes", "secure": "yes"])
        click("button")
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])
        click("multiline")
        usleep(800_000)
        #expect(rig.status()["visible"] == "no", "a field clicked with the mouse showed the keyboard")
        touch("plain")
        #expect(rig.status(["visible": "yes", "secure": "no"]) == ["visible": "yes", "secure": "no"])
        rig.finish()
    }

    /// Told `--auto-show focus`, a field clicked with the mouse shows it on a touchscreen too.
    @Test func toldToFollowAnyFocusAClickShowsIt() throws {
        let rig = try AutoShowRig(session: try XSession(realInput: true), arguments: ["--keyboards", "default", "--auto-show", "focus"])
        defer { rig.stop() }
        let devices = try #require(rig.session.inputDevices)
        #expect(rig.status(["auto-show": "focus"]) == ["auto-show": "focus"])
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "gtk-fields.py",
                                   widgets: 5, arguments: [rig.session.directory.appendingPathComponent("t.out").path])
        devices.click(x: app.centres["button"]!.x, y: app.centres["button"]!.y)
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])
        devices.click(x: app.centres["plain"]!.x, y: app.centres["plain"]!.y)
        #expect(rig.status(["visible": "yes"]) == ["visible": "yes"])
        rig.finish()
    }
}
