import KeyboardCore
// Real input, on Xorg with the inputtest driver's devices: a touch lifted to the key press at a receiving
// window beside a mouse click's; two thumbs typing at 10 characters a second with overlapping touches;
// a scanning switch held like a switch to the highlight moved and to the key typed.

import CX11
import KeyboardModel
import TestSupport
import X11Host

#if canImport(Glibc)
import Glibc
#endif

func runTouchBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let bench = try LiveBench(realInput: true)
    defer { bench.close() }
    guard let devices = bench.devices else { throw BenchError("no inputtest devices") }
    let base = [keypane, "--keyboards", "default", "--height", "320", "--no-sound", "--no-auto-show", "--layouts", layouts]
    do {
        let (child, _, window) = try bench.startAndWaitForMap(base, className: "keypane")
        defer { child.stop() }
        usleep(300_000)
        let (ox, oy) = bench.origin(of: window)
        let (w, h) = bench.size(of: window)
        let letters = try KeyboardLayoutEngine.layout(library.layout(for: .default)!, width: w, height: h,
                                                      options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
        func centre(_ text: String) -> (x: Int, y: Int) {
            let key = letters.keys.first { $0.function == .text(text) }!.rect
            return (ox + key.x + key.width / 2, oy + key.y + key.height / 2)
        }
        let a = centre("a")

        // A finger on "a" for 40 ms, then lifted: from the lift (the driver's sync done) to the key press.
        var touches: [Double] = [], clicks: [Double] = []
        for round in 0..<200 {
            devices.touch(UInt32(round + 1), .begin, x: a.x, y: a.y)
            usleep(40_000)
            let lifted = now()
            devices.touch(UInt32(round + 1), .end, x: a.x, y: a.y)
            if let pressed = bench.nextKeyPress(limit: 2) { touches.append(pressed - lifted) }
            usleep(60_000)
        }
        for _ in 0..<200 {
            let clicked = now()
            devices.click(x: a.x, y: a.y, hold: 0.04)
            // Timed from the button's release, as the touch from its lift: Keypane types on release.
            if let pressed = bench.nextKeyPress(limit: 2) { clicks.append(pressed - clicked - 0.04) }
            usleep(60_000)
        }
        print("keypane touch lifted to keystroke: \(stats(touches))")
        print("keypane mouse click released to keystroke (inputtest pointer): \(stats(clicks))")

        // Two thumbs at 10 characters a second: each finger lands 100 ms after the last and stays 150 ms,
        // so the next is down before it lifts.
        let text = "the quick brown fox jumps over the lazy dog"
        var got = 0, runs = 0
        _ = bench.typedSince(limit: 0.2)
        for _ in 0..<5 {
            var down: (id: UInt32, at: (x: Int, y: Int))?
            for (index, character) in text.enumerated() {
                let at: (x: Int, y: Int)
                if character == " " {
                    let key = letters.keys.first { $0.function == .text(" ") }!.rect
                    at = (ox + key.x + key.width / 2, oy + key.y + key.height / 2)
                } else {
                    at = centre(String(character))
                }
                let id = UInt32(1000 + index)
                devices.touch(id, .begin, x: at.x, y: at.y, sync: false)
                usleep(50_000)
                if let previous = down { devices.touch(previous.id, .end, x: previous.at.x, y: previous.at.y, sync: false) }
                down = (id, at)
                usleep(50_000)
            }
            if let last = down { devices.touch(last.id, .end, x: last.at.x, y: last.at.y) }
            let typed = bench.typedSince(limit: 1)
            runs += 1
            if typed == text { got += 1 } else { print("keypane two thumbs: typed \(typed.debugDescription)") }
        }
        print("keypane two thumbs at 10 characters a second, overlapping: \(got) of \(runs) sentences exact "
              + "(\(text.count) characters each)")
    }

    // Step scanning with the keyboard device's F11 and F12 held 150 ms, as a person holds a switch: the move
    // switch's press to the highlight moved (the status asked every millisecond), and the pick's release to
    // the key typed.
    let socket = ControlSocket.path(display: bench.display)
    let (child, _, _) = try bench.startAndWaitForMap(base + ["--scan", "step", "--scan-switch", "F11,F12"], className: "keypane")
    defer { child.stop() }
    usleep(300_000)
    let f11 = Int32(XKeysymToKeycode(bench.dpy, XStringToKeysym("F11")))
    let f12 = Int32(XKeysymToKeycode(bench.dpy, XStringToKeysym("F12")))
    func scanned() -> Substring? {
        (try? ControlSocket.send(.status, to: socket, timeout: 1))?.split(separator: "\n").first { $0.hasPrefix("scanned:") }
    }
    var moves: [Double] = [], picks: [Double] = []
    for _ in 0..<60 {
        let before = scanned()
        let pressed = now()
        devices.key(f11, down: true)
        var moved: Double?
        while moved == nil && now() - pressed < 1 {
            if scanned() != before { moved = now() } else { usleep(1000) }
        }
        usleep(150_000)
        devices.key(f11, down: false)
        if let moved { moves.append(moved - pressed) }
        usleep(50_000)
    }
    // Picks: a row, a group, a key; the last pick's release to the key press at the receiver.
    _ = bench.typedSince(limit: 0.2)
    for _ in 0..<20 {
        for pick in 0..<3 {
            devices.key(f12, down: true)
            usleep(150_000)
            let released = now()
            devices.key(f12, down: false)
            if pick == 2, let pressed = bench.nextKeyPress(limit: 1) { picks.append(pressed - released) }
            usleep(100_000)
        }
    }
    print("keypane step scanning, switch held 150 ms: press to highlight moved \(stats(moves)); "
          + "release of the third pick to keystroke \(stats(picks))")
}
