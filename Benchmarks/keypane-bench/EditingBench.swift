// Slide to type and the space bar trackpad on the live keyboard: stroke lifted to the word's first
// keystroke, the space bar held to the keyboard drawn as a trackpad, a trackpad move to its arrow key, and
// the keyboard's CPU per move event.

import CX11
import CXTest
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

func runEditingBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let bench = try LiveBench()
    defer { bench.close() }
    let argv = [keypane, "--keyboards", "default", "--height", "320", "--no-sound", "--no-auto-show", "--layouts", layouts,
                "--autocapitalization", "none"]
    let (child, _, window) = try bench.startAndWaitForMap(argv, className: "keypane")
    defer { child.stop() }
    usleep(800_000)
    let (ox, oy) = bench.origin(of: window)
    let (w, h) = bench.size(of: window)
    let letters = try KeyboardLayoutEngine.layout(library.layout(for: .default)!, width: w, height: h,
                                                  options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
    func centre(_ text: String) -> (x: Int, y: Int) {
        let key = letters.keys.first { $0.function == .text(text) }!
        return (ox + key.rect.x + key.rect.width / 2, oy + key.rect.y + key.rect.height / 2)
    }
    func move(_ x: Int, _ y: Int) {
        XTestFakeMotionEvent(bench.dpy, -1, Int32(x), Int32(y), 0)
        XFlush(bench.dpy)
    }
    func drain() { while bench.nextEvent(before: now() + 0.05) != nil {} }

    // Strokes: "hello", "world", "keyboard", through the key centres at a point every 10 ms.
    var strokeLatencies: [Double] = []
    for round in 0..<10 {
        for word in ["hello", "world", "keyboard"] {
            let points = word.map { centre(String($0)) }
            move(points[0].x, points[0].y)
            XTestFakeButtonEvent(bench.dpy, 1, 1, 0)
            XFlush(bench.dpy)
            usleep(10_000)
            for (from, to) in zip(points, points.dropFirst()) where from != to {
                for step in 1...6 {
                    move(from.x + (to.x - from.x) * step / 6, from.y + (to.y - from.y) * step / 6)
                    usleep(10_000)
                }
            }
            drain()
            XTestFakeButtonEvent(bench.dpy, 1, 0, 0)
            XFlush(bench.dpy)
            let released = now()
            if let typed = bench.nextKeyPress(limit: 0.5), round > 0 { strokeLatencies.append(typed - released) }
            drain()
        }
    }
    print("keypane slide to type: stroke lifted to the word's first keystroke \(stats(strokeLatencies))")

    // The trackpad: hold the space bar, watch the keys lose their labels; then slow moves, each to its arrow.
    let space = letters.keys.first { $0.function.isSpace }!
    let (sx, sy) = (ox + space.rect.x + space.rect.width / 2, oy + space.rect.y + space.rect.height / 2)
    let q = letters.keys.first { $0.function == .text("q") }!.rect
    let unit = Double(letters.keys.first { $0.function == .text("w") }!.rect.x - q.x)
    var shown: [Double] = [], arrows: [Double] = []
    var moves = 0, cpu = 0.0
    for _ in 0..<20 {
        move(sx, sy)
        drain()
        let before = bench.checksum(window, q)
        XTestFakeButtonEvent(bench.dpy, 1, 1, 0)
        XFlush(bench.dpy)
        let pressed = now()
        while now() < pressed + 1 {
            if bench.checksum(window, q) != before {
                shown.append(now() - pressed - 0.3)
                break
            }
            usleep(300)
        }
        let cpuBefore = child.cpuSeconds
        for step in 1...8 {
            // Half a key each 60 ms: slow, one character a move (a third of a key a character).
            var event = XEvent()
            while XPending(bench.dpy) > 0 { XNextEvent(bench.dpy, &event) }
            move(sx - Int(Double(step) * 0.5 * unit), sy)
            let moved = now()
            moves += 1
            if let arrow = bench.nextKeyPress(limit: 0.2) { arrows.append(arrow - moved) }
            usleep(60_000)
        }
        cpu += child.cpuSeconds - cpuBefore
        XTestFakeButtonEvent(bench.dpy, 1, 0, 0)
        XFlush(bench.dpy)
        drain()
        usleep(200_000)
    }
    print("keypane trackpad: space held to keys drawn as a trackpad, after the 0.3 s hold \(stats(shown))")
    print("keypane trackpad: move to its arrow key at the window \(stats(arrows)); "
          + "CPU \(Int(cpu / Double(max(moves, 1)) * 1e6)) µs a move event (\(moves) moves, from /proc)")
}
