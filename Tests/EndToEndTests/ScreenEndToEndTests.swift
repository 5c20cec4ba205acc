import CX11
import Foundation
import KeyboardModel
import Testing
import X11Host

/// How many rows of keys the default keyboard has at a width.
/// The rows of keys of the default keyboard, the suggestion bar not counted.
func defaultRows(width: Int) throws -> Int {
    Set(keysBelowTheBar(try geometry(type: "default", width: width, height: 400)).map(\.y)).count
}

/// The keys, not the suggestion bar's slots nor the dismiss key a phone's bar holds.
func keysBelowTheBar(_ geometry: Geometry) -> [GeometryKey] {
    let barRow = geometry.keys.first { $0.action?.hasPrefix("suggestion:") == true }?.y
    return geometry.keys.filter { $0.y != barRow }
}

/// Checks that the keyboard is docked at the bottom of a monitor, full width, at the policy's height, and
/// that its struts reserve exactly that, measured from the root window's edges.
func expectDocked(_ keyboard: LiveKeyboard, on monitor: Rect, rootHeight: Int, _ what: String) throws {
    // Suggestions are on: the keyboard is taller by the bar.
    let height = DockPlacement.height(for: monitor, rows: try defaultRows(width: monitor.width), bar: true)
    let expected = (x: monitor.x, y: monitor.maxY - height, width: monitor.width, height: height)
    let docked = keyboard.waitForFrame { $0 == expected }
    #expect(docked, "\(what): frame \(keyboard.frame), expected \(expected)")
    let session = keyboard.session
    let bottom = rootHeight - expected.y
    #expect(session.property(keyboard.window, "_NET_WM_STRUT_PARTIAL", type: XA_CARDINAL)
            == [0, 0, 0, bottom, 0, 0, 0, 0, 0, 0, monitor.x, monitor.maxX - 1], "\(what): strut")
    #expect(session.property(keyboard.window, "_NET_WM_STRUT", type: XA_CARDINAL) == [0, 0, 0, bottom],
            "\(what): strut")
}

@Suite(.serialized) struct ScreenEndToEndTests {
    /// Landscape, portrait, smaller and larger screens, across the compact/regular threshold: each time the
    /// keyboard docks anew, reserves its space, and types; the layer and shift chosen before the change
    /// are still there after it.
    @Test func followsEverySizeAndOrientation() throws {
        // Xvfb starts at the largest size; xrandr modes make it smaller, as a rotation or a new monitor does.
        let session = try XSession(width: 1920, height: 1920)
        defer { session.stop() }
        try session.setScreenSize(width: 1280, height: 800)
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        try expectDocked(keyboard, on: Rect(x: 0, y: 0, width: 1280, height: 800), rootHeight: 800, "at start")
        var expected = ""
        let sizes = [(1920, 1080), (1080, 1920), (800, 600), (600, 1024), (1280, 800)]
        for (step, (width, height)) in sizes.enumerated() {
            let onNumbers = step % 2 == 1
            let letters = try keyboard.geometry(type: "default", layer: "letters")
            // Before the change: shift latched, or the numbers layer.
            keyboard.tap(letters.key(action: onNumbers ? "layer:numbers" : "shift")!)
            try session.setScreenSize(width: width, height: height)
            let what = "\(width)x\(height)"
            try expectDocked(keyboard, on: Rect(x: 0, y: 0, width: width, height: height), rootHeight: height, what)
            // After it, the same state, laid out for the new size.
            if onNumbers {
                let numbers = try keyboard.geometry(type: "default", layer: "numbers")
                keyboard.tap(numbers.keys.first { $0.text == "7" }!)
                keyboard.tap(numbers.key(action: "layer:letters")!)
                expected += "7"
            } else {
                keyboard.tap(try keyboard.geometry(type: "default", layer: "shifted").keys.first { $0.text == "K" }!)
                expected += "K"
            }
            let now = try keyboard.geometry(type: "default", layer: "letters")
            for letter in ["o", "k"] { keyboard.tap(now.keys.first { $0.text == letter }!) }
            expected += "ok"
            let arrived = String(decoding: terminal.waitFor(count: expected.utf8.count), as: UTF8.self)
            #expect(arrived == expected, "\(what)")
            expected = arrived
        }
        #expect(!session.focusedWindowFamily().contains(keyboard.window))
        #expect(keyboard.terminate().0 == 0)
    }

    /// Two monitors side by side: the keyboard docks on the one --monitor names, and when that one goes
    /// away it moves to another (with no primary, the first).
    /// A small dense screen (RandR says its 800 pixels are 68 mm tall): every key at least 7 mm tall, more
    /// than the usual share of the screen gives, and the keys type.
    @Test func keysStaySevenMillimetresOnADenseScreen() throws {
        let session = try XSession(width: 1280, height: 800)
        defer { session.stop() }
        try session.addMonitor("DSI-1", x: 0, y: 0, width: 1280, height: 800, millimetres: (108, 68))
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--monitor", "DSI-1"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        // Keys, not the bar's slots (a third of the width each, three quarters of a row tall).
        let heights = keysBelowTheBar(letters).map(\.height)
        let smallest = try #require(heights.min())
        #expect(Double(smallest) / (800.0 / 68) >= 7, "\(smallest) px")
        let usual = DockPlacement.height(for: Rect(x: 0, y: 0, width: 1280, height: 800), rows: try defaultRows(width: 1280),
                                         bar: true)
        #expect(keyboard.frame.height > usual)
        try tapText("ok", on: keyboard)
        #expect(terminal.waitFor(text: "ok") == "ok")
        _ = keyboard.terminate()
    }

    @Test func docksOnEitherOfTwoMonitorsAndMovesWhenOneGoes() throws {
        let session = try XSession(width: 1920, height: 1080)
        defer { session.stop() }
        let left = Rect(x: 0, y: 0, width: 960, height: 1080), right = Rect(x: 960, y: 0, width: 960, height: 1080)
        try session.addMonitor("left", x: left.x, y: left.y, width: left.width, height: left.height)
        try session.addMonitor("right", x: right.x, y: right.y, width: right.width, height: right.height)
        let terminal = try Terminal(session: session)
        var expected = ""
        for (name, monitor) in [("left", left), ("right", right)] {
            let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--monitor", name])
            try expectDocked(keyboard, on: monitor, rootHeight: 1080, name)
            let letters = try keyboard.geometry(type: "default", layer: "letters")
            for letter in name { keyboard.tap(letters.keys.first { $0.text == String(letter) }!) }
            expected += name
            #expect(String(decoding: terminal.waitFor(count: expected.utf8.count), as: UTF8.self) == expected)
            if name == "right" {
                try session.removeMonitor("right")
                try expectDocked(keyboard, on: left, rootHeight: 1080, "after the right monitor went")
                let moved = try keyboard.geometry(type: "default", layer: "letters")
                keyboard.tap(moved.keys.first { $0.text == "m" }!)
                expected += "m"
                #expect(String(decoding: terminal.waitFor(count: expected.utf8.count), as: UTF8.self) == expected)
            }
            #expect(keyboard.terminate().0 == 0)
        }
    }
}

@Suite(.serialized) struct FloatingEndToEndTests {
    /// Floating: a phone-sized keyboard that reserves no space, moves by its handle, types wherever it is,
    /// comes back where it was left, stays on screen when the screen shrinks, and docks and undocks when
    /// the dismiss key is held.
    @Test func floatsDragsRemembersAndDocks() throws {
        let session = try XSession(width: 1280, height: 800)
        defer { session.stop() }
        let state = session.directory.appendingPathComponent("state")
        let environment = ["XDG_STATE_HOME": state.path]
        let positionFile = state.appendingPathComponent("keypane/floating-position").path
        let terminal = try Terminal(session: session)
        let arguments = ["--floating", "--keyboards", "default"]
        var keyboard = try LiveKeyboard(session: session, arguments: arguments, environment: environment)
        let size = FloatingPlacement.size(on: Rect(x: 0, y: 0, width: 1280, height: 800), rows: 4, bar: true)
        // First: centred at the bottom, reserving nothing.
        #expect(keyboard.frame == ((1280 - size.width) / 2, 800 - size.height - 24, size.width, size.height))
        #expect(session.property(keyboard.window, "_NET_WM_STRUT_PARTIAL", type: XA_CARDINAL) == Array(repeating: 0, count: 12))
        var expected = ""
        func type(_ word: String) throws {
            let letters = try keyboard.geometry(type: "default", layer: "letters")
            for letter in word { keyboard.tap(letters.keys.first { $0.text == String(letter) }!) }
            expected += word
            #expect(String(decoding: terminal.waitFor(count: expected.utf8.count), as: UTF8.self) == expected)
        }
        keyboard.extra = ["--no-globe"]
        keyboard.handle = FloatingPlacement.handleHeight
        try type("float")

        // Dragged by its handle: the window follows, and the position is kept.
        let start = keyboard.frame
        let handle = (x: start.x + start.width / 2, y: start.y + start.height - FloatingPlacement.handleHeight / 2)
        session.press(x: handle.x, y: handle.y)
        session.move(x: handle.x - 150, y: handle.y - 100)
        session.move(x: handle.x - 300, y: handle.y - 200)
        session.release()
        #expect(keyboard.waitForFrame { $0.x == start.x - 300 && $0.y == start.y - 200 }, "\(keyboard.frame)")
        try type("moved")
        #expect(try String(contentsOfFile: positionFile, encoding: .utf8) == "\(start.x - 300) \(start.y - 200)\n")
        #expect(keyboard.terminate().0 == 0)

        // The next run starts where the last one was left.
        keyboard = try LiveKeyboard(session: session, arguments: arguments, environment: environment)
        keyboard.extra = ["--no-globe"]
        keyboard.handle = FloatingPlacement.handleHeight
        #expect(keyboard.frame.x == start.x - 300 && keyboard.frame.y == start.y - 200)

        // A smaller screen: moved just enough to stay wholly on it.
        try session.setScreenSize(width: 640, height: 480)
        #expect(keyboard.waitForFrame { $0.x + $0.width <= 640 && $0.y + $0.height <= 480 && $0.x >= 0 && $0.y >= 0 },
                "\(keyboard.frame)")
        try type("fits")

        // Holding the dismiss key docks it, full width with its struts; holding it again undocks it.
        let dismiss = try keyboard.geometry(type: "default", layer: "letters").key(action: "dismiss")!
        keyboard.tap(dismiss, hold: 0.8)
        #expect(keyboard.waitForFrame { $0.width == 640 && $0.y + $0.height == 480 }, "\(keyboard.frame)")
        #expect(session.property(keyboard.window, "_NET_WM_STRUT", type: XA_CARDINAL) == [0, 0, 0, keyboard.frame.height])
        keyboard.handle = 0
        try type("docked")
        let docked = try keyboard.geometry(type: "default", layer: "letters").key(action: "dismiss")!
        keyboard.tap(docked, hold: 0.8)
        #expect(keyboard.waitForFrame { $0.width == size.width }, "\(keyboard.frame)")
        keyboard.handle = FloatingPlacement.handleHeight
        try type("again")
        #expect(session.property(keyboard.window, "_NET_WM_STRUT", type: XA_CARDINAL) == [0, 0, 0, 0])
        #expect(!session.focusedWindowFamily().contains(keyboard.window))
        #expect(keyboard.terminate().0 == 0)
    }

    /// A position file that says something else is named in one warning, and the keyboard starts at the
    /// bottom as on a first run.
    /// The window manager crashes and a new one starts: meanwhile the keyboard keeps its place and its
    /// struts and types; under the new one it is docked again, with struts, and types.
    @Test func staysDockedWhenTheWindowManagerCrashesAndComesBack() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        let screen = Rect(x: 0, y: 0, width: 1280, height: 800)
        try expectDocked(keyboard, on: screen, rootHeight: 800, "at start")
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        keyboard.tap(letters.key(label: "a")!)
        expectArrived(terminal, "a", "before the crash")

        try session.killWindowManager()
        try expectDocked(keyboard, on: screen, rootHeight: 800, "with no window manager")
        // Where the focus goes when its manager dies is X's business, not the keyboard's: it is put on the
        // terminal, as a person would; the keyboard must type into it still.
        focus(terminal.window, in: session)
        keyboard.tap(letters.key(label: "b")!)
        expectArrived(terminal, "ab", "with no window manager")

        try session.startWindowManager()
        try expectDocked(keyboard, on: screen, rootHeight: 800, "under the new window manager")
        focus(terminal.window, in: session)
        keyboard.tap(letters.key(label: "c")!)
        expectArrived(terminal, "abc", "under the new window manager")
        let (status, message) = keyboard.terminate()
        #expect(status == 0, "\(message)")
    }

    private func focus(_ window: UInt, in session: XSession) {
        if !session.focusedWindowFamily().contains(window) {
            XSetInputFocus(session.connection, window, RevertToParent, UInt(CurrentTime))
            XSync(session.connection, 0)
        }
        #expect(waitUntil { session.focusedWindowFamily().contains(window) })
    }

    @Test func aBrokenPositionFileIsNamedAndSetAside() throws {
        let session = try XSession(width: 1280, height: 800)
        defer { session.stop() }
        let state = session.directory.appendingPathComponent("state")
        let file = state.appendingPathComponent("keypane/floating-position")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "left bottom\n".write(to: file, atomically: true, encoding: .utf8)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--floating"],
                                        environment: ["XDG_STATE_HOME": state.path])
        #expect(keyboard.frame.x == (1280 - FloatingPlacement.width) / 2)
        let (status, message) = keyboard.terminate()
        #expect(status == 0)
        #expect(message == "keypane: \(file.path):1: 'left bottom' is not a position: expected two whole numbers, x and y; the floating keyboard starts at the bottom of the screen\n")
    }
}
