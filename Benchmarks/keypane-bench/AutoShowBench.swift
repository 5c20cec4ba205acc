// The keyboard following the focus: from a click into a GTK text field, and into a Firefox input, to the
// keyboard on screen; idle wake-ups with the accessibility bus connected and five applications open; and the
// memory the bus adds.

import CX11
import CXTest
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

/// A private session bus at a path of its own; the accessibility bus starts on it on demand.
struct BenchBus {
    let daemon: Child
    let path: String
    var address: String { "unix:path=\(path)" }

    init() throws {
        path = "/tmp/keypane-bench-bus-\(getpid())"
        unlink(path)
        guard let child = Child.spawn(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=unix:path=\(path)"])
        else { throw BenchError("cannot start dbus-daemon") }
        daemon = child
        let started = now()
        while access(path, F_OK) != 0 && now() < started + 3 { usleep(10_000) }
        guard access(path, F_OK) == 0 else { throw BenchError("dbus-daemon did not listen at \(path)") }
    }

    /// Stops the accessibility bus's launcher (which takes its bus and registry with it) and the bus.
    func stop() {
        let launchers = (try? readText("/proc/\(daemon.pid)/task/\(daemon.pid)/children")) ?? ""
        for pid in launchers.split(separator: " ").compactMap({ Int32($0) }) { Child(pid: pid).stop() }
        daemon.stop()
        unlink(path)
    }
}

extension LiveBench {
    func click(x: Int, y: Int) {
        XTestFakeMotionEvent(dpy, -1, Int32(x), Int32(y), 0)
        XTestFakeButtonEvent(dpy, 1, 1, 0)
        XTestFakeButtonEvent(dpy, 1, 0, 0)
        XSync(dpy, 0)
    }

    /// Starts the GTK window of Tests/Fixtures/gtk-fields.py and reads where its widgets are.
    func gtkFields(script: String, environment: [String], output: String) throws -> (Child, [String: (Int, Int)]) {
        unlink(output)
        guard let child = Child.spawn(["/bin/sh", "-c", "exec /usr/bin/python3 \"$0\" > \"$1\"", script, output],
                                      environment: ["DISPLAY=\(display)"] + environment) else {
            throw BenchError("cannot start \(script)")
        }
        var centres: [String: (Int, Int)] = [:]
        let started = now()
        while centres.count < 5 && now() < started + 10 {
            usleep(10_000)
            for line in ((try? readText(output)) ?? "").split(separator: "\n") where line.contains("\"at\"") {
                // {"at": "plain", "x": 241, "y": 49}
                let parts = line.split(whereSeparator: { "{}\":, ".contains($0) })
                if parts.count == 6, let x = Int(parts[3]), let y = Int(parts[5]) { centres[String(parts[1])] = (x, y) }
            }
        }
        guard centres.count == 5 else { throw BenchError("\(script) did not report its widgets") }
        return (child, centres)
    }
}

func runAutoShowBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let script = "Tests/Fixtures/gtk-fields.py"
    guard access("/usr/bin/dbus-daemon", X_OK) == 0, access(script, R_OK) == 0 else {
        print("auto-show: no dbus-daemon or no \(script) here (make bench runs from the package's folder)")
        return
    }
    let bench = try LiveBench()
    defer { bench.close() }
    let bus = try BenchBus()
    defer { bus.stop() }
    let environment = ["DBUS_SESSION_BUS_ADDRESS=\(bus.address)"]
    let arguments = [keypane, "--keyboards", "default", "--height", "320", "--no-sound", "--layouts", layouts]

    // Memory: the same keyboard without and with the bus, two seconds after it is mapped.
    var rss: [Bool: Int] = [:]
    for autoShow in [false, true] {
        let (child, _, _) = try bench.startAndWaitForMap(arguments + [autoShow ? "--auto-show=focus" : "--no-auto-show"],
                                                         className: "keypane", environment: environment)
        usleep(2_000_000)
        rss[autoShow] = child.rssKiB
        child.stop()
    }
    print("keypane RSS without the bus \(rss[false]!) KiB, with it \(rss[true]!) KiB (+\(rss[true]! - rss[false]!) KiB)")

    let (child, _, window) = try bench.startAndWaitForMap(arguments + ["--auto-show=focus"], className: "keypane",
                                                           environment: environment)
    // Map and unmap of the keyboard's own window, as events: no polling of the window tree.
    XSelectInput(bench.dpy, window, StructureNotifyMask)
    XSync(bench.dpy, 0)
    defer { child.stop() }
    var apps: [Child] = []
    defer { apps.forEach { $0.stop() } }
    let (app, centres) = try bench.gtkFields(script: script, environment: environment, output: "/tmp/keypane-bench-fields-\(getpid())")
    apps.append(app)
    // A click into the entry (the keyboard hidden before it by a click on the button) to the keyboard viewable.
    var shows: [Double] = []
    /// Waits for the keyboard's window to be mapped (or unmapped); the time it happened, or nil.
    func waitFor(_ type: Int32, since start: Double, timeout: Double = 5) -> Double? {
        var event = XEvent()
        while now() < start + timeout {
            while XPending(bench.dpy) > 0 {
                XNextEvent(bench.dpy, &event)
                if event.type == type && event.xany.window == window { return now() }
            }
            usleep(100)
        }
        return nil
    }
    var event = XEvent()
    for _ in 0..<30 {
        let (bx, by) = centres["button"]!
        bench.click(x: bx, y: by)
        guard waitFor(UnmapNotify, since: now()) != nil else { throw BenchError("the keyboard did not hide") }
        usleep(100_000)
        while XPending(bench.dpy) > 0 { XNextEvent(bench.dpy, &event) }
        let (fx, fy) = centres[shows.count % 2 == 0 ? "plain" : "password"]!
        let start = now()
        bench.click(x: fx, y: fy)
        guard let mapped = waitFor(MapNotify, since: start) else { throw BenchError("the keyboard did not show") }
        shows.append(mapped - start)
    }
    print("keypane auto-show, click into a GTK field to the keyboard mapped: \(stats(shows))")

    // Typing into the GTK entry, where every caret move has the entry's text read back (once the caret
    // rests 50 ms): keypane's CPU per tap with taps 80 ms apart (a read after each) and 20 ms apart (reads
    // put off until the taps stop).
    bench.click(x: centres["plain"]!.0, y: centres["plain"]!.1)
    usleep(300_000)
    guard bench.viewableWindow(className: "keypane") != nil else { throw BenchError("the keyboard did not show for the entry") }
    let (ox, oy) = bench.origin(of: window)
    let (w, h) = bench.size(of: window)
    let letters = try KeyboardLayoutEngine.layout(library.layout(for: .default)!, width: w, height: h,
                                                  options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
    let key = letters.keys.first { $0.function == .text("a") }!.rect
    for gap in [0.08, 0.02] {
        let taps = 100
        let cpuBefore = child.cpuSeconds
        for _ in 0..<taps {
            bench.click(x: ox + key.x + key.width / 2, y: oy + key.y + key.height / 2)
            usleep(useconds_t(gap * 1_000_000))
        }
        usleep(200_000)
        print("keypane typing into a GTK entry with auto-show, taps \(Int(gap * 1000)) ms apart: CPU per tap "
              + "\(Int((child.cpuSeconds - cpuBefore) / Double(taps) * 1e6)) µs")
    }

    /// The trackpad's moves in the focused field to the caret moved as the accessibility bus announces it
    /// (Benchmarks/caret-events.py listening): the space bar held, then half a key every 80 ms, left and
    /// right by turns, ten times.
    func caretReadBack(in field: String) throws {
        let output = "/tmp/keypane-bench-carets-\(getpid())"
        unlink(output)
        guard let listener = Child.spawn(["/bin/sh", "-c", "exec /usr/bin/python3 \"$0\" > \"$1\"", "Benchmarks/caret-events.py", output],
                                         environment: ["DISPLAY=\(bench.display)"] + environment) else {
            throw BenchError("cannot start Benchmarks/caret-events.py")
        }
        defer { listener.stop() }
        let started = now()
        while ((try? readText(output)) ?? "").isEmpty && now() < started + 5 { usleep(10_000) }
        let space = letters.keys.first { $0.function.isSpace }!
        let (sx, sy) = (ox + space.rect.x + space.rect.width / 2, oy + space.rect.y + space.rect.height / 2)
        let unit = Double(letters.keys.first { $0.function == .text("w") }!.rect.x - key.x)
        var latencies: [Double] = []
        var total = 0
        for round in 0..<10 {
            XTestFakeMotionEvent(bench.dpy, -1, Int32(sx), Int32(sy), 0)
            XTestFakeButtonEvent(bench.dpy, 1, 1, 0)
            XFlush(bench.dpy)
            usleep(400_000)
            var moves: [Double] = []
            for step in 1...8 {
                let x = sx + Int(Double(step) * 0.5 * unit) * (round % 2 == 0 ? -1 : 1)
                XTestFakeMotionEvent(bench.dpy, -1, Int32(x), Int32(sy), 0)
                XFlush(bench.dpy)
                moves.append(now())
                usleep(80_000)
            }
            XTestFakeButtonEvent(bench.dpy, 1, 0, 0)
            XFlush(bench.dpy)
            usleep(300_000)
            let announced = ((try? readText(output)) ?? "").split(separator: "\n").compactMap { Double($0.split(separator: " ")[0]) }
            for (index, moved) in moves.enumerated() {
                let next = index + 1 < moves.count ? moves[index + 1] : moved + 0.08
                total += 1
                if let caret = announced.first(where: { $0 > moved && $0 < next }) { latencies.append(caret - moved) }
            }
        }
        // The baseline: an arrow key pressed (XTest, as a physical key) to the caret moved, 80 ms apart.
        var arrows: [Double] = []
        for index in 0..<40 {
            let code = XKeysymToKeycode(bench.dpy, XStringToKeysym(index % 2 == 0 ? "Left" : "Right"))
            let pressed = now()
            XTestFakeKeyEvent(bench.dpy, UInt32(code), 1, 0)
            XTestFakeKeyEvent(bench.dpy, UInt32(code), 0, 0)
            XFlush(bench.dpy)
            usleep(80_000)
            let announced = ((try? readText(output)) ?? "").split(separator: "\n").compactMap { Double($0.split(separator: " ")[0]) }
            if let caret = announced.first(where: { $0 > pressed }) { arrows.append(caret - pressed) }
        }
        print("keypane trackpad in \(field): finger move to the caret moved, as the bus announces it \(stats(latencies)) "
              + "(\(latencies.count) of \(total) moves); baseline, an arrow key pressed to the caret moved \(stats(arrows))")
    }
    try caretReadBack(in: "a GTK entry")

    // The same in Firefox ESR, full screen on the test page, whose first answers to the bus are slow.
    if access("/usr/bin/firefox-esr", X_OK) == 0 {
        let home = "/tmp/keypane-bench-firefox-\(getpid())"
        mkdir(home, 0o700)
        mkdir(home + "/profile", 0o700)
        defer { Child.spawn(["/bin/rm", "-rf", home])?.stop() }
        let preferences = ["browser.shell.checkDefaultBrowser", "datareporting.policy.dataSubmissionEnabled",
                           "toolkit.telemetry.reportingpolicy.firstRun", "browser.aboutwelcome.enabled", "app.update.enabled"]
        guard let file = fopen(home + "/profile/user.js", "w") else { throw BenchError("cannot write Firefox's profile") }
        for name in preferences { fputs("user_pref(\"\(name)\", false);\n", file) }
        fclose(file)
        let page = "file://" + String(cString: getcwd(nil, 0)) + "/Tests/Fixtures/fields.html"
        guard let firefox = Child.spawn(["/bin/sh", "-c", "exec /usr/bin/firefox-esr --kiosk --no-remote --profile \"$0/profile\" \"$1\" >/dev/null 2>&1",
                                         home, page], environment: environment + ["HOME=\(home)", "XDG_CACHE_HOME=\(home)/cache"])
        else { throw BenchError("cannot start firefox-esr") }
        apps.append(firefox)
        // The page's inputs are at (170, 35 + 50 i), its button at (170, 435). Ready when the button hides
        // the keyboard; then the document's own focus settles.
        var ready = false
        for _ in 0..<60 where !ready {
            bench.click(x: 170, y: 435)
            ready = waitFor(UnmapNotify, since: now(), timeout: 1) != nil
        }
        guard ready else { throw BenchError("Firefox did not hide the keyboard for its button") }
        usleep(1_500_000)
        var browserShows: [Double] = []
        for round in 0..<30 {
            while XPending(bench.dpy) > 0 { XNextEvent(bench.dpy, &event) }
            let start = now()
            bench.click(x: 170, y: 35 + 50 * (round % 2))
            guard let mapped = waitFor(MapNotify, since: start) else { throw BenchError("the keyboard did not show for Firefox") }
            browserShows.append(mapped - start)
            usleep(100_000)
            bench.click(x: 170, y: 435)
            guard waitFor(UnmapNotify, since: now()) != nil else { throw BenchError("the keyboard did not hide for Firefox") }
            usleep(100_000)
        }
        print("keypane auto-show, click into a Firefox input to the keyboard mapped: \(stats(browserShows))")
        // Text in the first input, then the trackpad in it.
        bench.click(x: 170, y: 35)
        usleep(500_000)
        for _ in 0..<30 {
            bench.click(x: ox + key.x + key.width / 2, y: oy + key.y + key.height / 2)
            usleep(40_000)
        }
        usleep(300_000)
        try caretReadBack(in: "a Firefox input")
    }

    // Idle with the bus connected and five applications open.
    for index in 1..<5 {
        let (other, _) = try bench.gtkFields(script: script, environment: environment,
                                             output: "/tmp/keypane-bench-fields-\(getpid())-\(index)")
        apps.append(other)
    }
    usleep(1_000_000)
    let wakeBefore = child.wakeups, cpuBefore = child.cpuSeconds
    usleep(5_000_000)
    print("keypane idle for 5 s with the bus and 5 applications: \(child.wakeups - wakeBefore) wake-ups, "
          + "\(format((child.cpuSeconds - cpuBefore) * 1000)) ms CPU")
}
