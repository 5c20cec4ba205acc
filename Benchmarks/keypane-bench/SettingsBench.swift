// The settings panel on the live keyboard: the Globe list's Keyboard Settings let go to the panel drawn, a
// switch tapped to its row drawn anew, and the keyboard's memory before the panel and once it was closed.

import CX11
import CXTest
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

func runSettingsBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let bench = try LiveBench()
    defer { bench.close() }
    // Its own settings file, which the panel writes.
    let config = "/tmp/keypane-bench-settings-\(getpid())"
    defer { _ = system("rm -rf '\(config)'") }
    let argv = [keypane, "--keyboards", "default,desktop", "--height", "320", "--no-sound", "--no-auto-show",
                "--layouts", layouts]
    let (child, _, window) = try bench.startAndWaitForMap(argv, className: "keypane", environment: ["XDG_CONFIG_HOME=\(config)"])
    defer { child.stop() }
    usleep(800_000)
    let (ox, oy) = bench.origin(of: window)
    let (w, h) = bench.size(of: window)
    let keys = try KeyboardLayoutEngine.layout(library.layout(for: .default)!, width: w, height: h,
                                               options: LayoutOptions(showsGlobe: true, showsSuggestions: true))
    let panel = SettingsPanel(values: [:], keyboards: SettingsPanel.offeredKeyboards(available: library.available, emoji: true))
    let home = try KeyboardLayoutEngine.layout(panel.layout(), layer: SettingsPanel.home, width: w, height: h)
    let typing = try KeyboardLayoutEngine.layout(panel.layout(), layer: "typing", width: w, height: h)
    func centre(_ rect: Rect) -> (x: Int, y: Int) { (ox + rect.x + rect.width / 2, oy + rect.y + rect.height / 2) }
    func move(_ point: (x: Int, y: Int)) {
        XTestFakeMotionEvent(bench.dpy, -1, Int32(point.x), Int32(point.y), 0)
        XFlush(bench.dpy)
    }
    func button(_ down: Bool) {
        XTestFakeButtonEvent(bench.dpy, 1, down ? 1 : 0, 0)
        XFlush(bench.dpy)
    }
    func tap(_ point: (x: Int, y: Int)) {
        move(point)
        usleep(20_000)
        button(true)
        usleep(60_000)
        button(false)
    }
    /// Seconds from now until the region's pixels change (nil: not within a second).
    func changed(_ rect: Rect, from before: UInt, since start: Double) -> Double? {
        while now() < start + 1 {
            if bench.checksum(window, rect) != before { return now() - start }
            usleep(300)
        }
        return nil
    }
    func settle() { usleep(2_500_000) }

    let globe = keys.keys.first { $0.function == .globe }!
    // The list's last entry: the list's rows stand over the Globe key, a row each (PopupLayout).
    let entries = 3
    let list = PopupLayout.rect(for: .keyboards(key: keys.keys.firstIndex { $0.function == .globe }!,
                                                titles: Array(repeating: "", count: entries), selected: 0), in: keys)
    let last = (x: ox + list.x + list.width / 2, y: oy + list.y + list.height * (2 * entries - 1) / (2 * entries))
    // A strip of the first row, where the panel's first title is drawn.
    let first = home.keys[0].rect
    let strip = Rect(x: first.x + 8, y: first.y + 4, width: min(160, first.width / 3), height: first.height - 8)
    let done = home.keys.first { $0.function == .closeSettings }!.rect
    let typingRow = home.keys.first { if case .setting(let row) = $0.function { row.name == "page:typing" } else { false } }!.rect
    let slideRow = typing.keys.first { if case .setting(let row) = $0.function { row.name == "slide-to-type" } else { false } }!.rect
    let knob = Rect(x: slideRow.maxX - 90, y: slideRow.y + 4, width: 80, height: slideRow.height - 8)

    // The baseline, in the same run: the 123 key tapped to the numbers drawn in place of the letters (a
    // whole keyboard drawn anew, as the panel is), and back.
    let numbers = keys.keys.first { $0.function == .layer("numbers") }!
    let q = keys.keys.first { $0.function == .text("q") }!.rect
    var switched: [Double] = []
    for round in 0..<12 {
        let letters = bench.checksum(window, q)
        tap(centre(numbers.rect))
        if let drawn = changed(q, from: letters, since: now()), round > 0 { switched.append(drawn) }
        usleep(200_000)
        tap(centre(numbers.rect))   // ABC, in the same place
        usleep(300_000)
    }

    settle()
    let before = child.memory
    var opened: [Double] = [], toggled: [Double] = []
    var afterOne = before
    for round in 0..<12 {
        move(centre(globe.rect))
        let shown = bench.checksum(window, strip)
        button(true)
        usleep(650_000)
        move(last)
        usleep(50_000)
        button(false)
        let released = now()
        if let drawn = changed(strip, from: shown, since: released), round > 0 { opened.append(drawn) }
        usleep(200_000)
        tap(centre(typingRow))
        usleep(200_000)
        for _ in 0..<4 {
            let look = bench.checksum(window, knob)
            move(centre(slideRow))
            usleep(20_000)
            button(true)
            usleep(60_000)
            button(false)
            let tapped = now()
            if let drawn = changed(knob, from: look, since: tapped) { toggled.append(drawn) }
            usleep(150_000)
        }
        tap(centre(done))
        usleep(300_000)
        if round == 0 {
            settle()
            afterOne = child.memory
        }
    }
    settle()
    let after = child.memory
    print("keypane settings: baseline, the 123 key tapped to the numbers drawn \(stats(switched))")
    print("keypane settings: Keyboard Settings let go to the panel drawn \(stats(opened))")
    print("keypane settings: a switch tapped to its row drawn anew \(stats(toggled))")
    print("keypane settings: memory before the panel RSS \(before.rss) KiB, private \(before.private) KiB; "
          + "after one opening, closed: RSS \(afterOne.rss) KiB, private \(afterOne.private) KiB; "
          + "after 12: RSS \(after.rss) KiB, private \(after.private) KiB")
}
