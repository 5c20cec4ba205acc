import CX11
import Foundation
import KeyboardModel
import Testing
import X11Host

/// How many rows of keys the default keyboard has at a width.
func defaultRows(width: Int) throws -> Int {
    Set(try geometry(type: "default", width: width, height: 400).keys.map(\.y)).count
}

/// Checks that the keyboard is docked at the bottom of a monitor, full width, at the policy's height, and
/// that its struts reserve exactly that, measured from the root window's edges.
func expectDocked(_ keyboard: LiveKeyboard, on monitor: Rect, rootHeight: Int, _ what: String) throws {
    let height = DockPlacement.height(for: monitor, rows: try defaultRows(width: monitor.width))
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
