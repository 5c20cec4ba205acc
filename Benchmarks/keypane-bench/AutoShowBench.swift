// The keyboard following the focus: from a click into a GTK text field to the keyboard on screen, idle
// wake-ups with the accessibility bus connected and five applications open, and the memory the bus adds.

import CX11
import CXTest

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

func runAutoShowBench(keypane: String, layouts: String) throws {
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
        let (child, _, _) = try bench.startAndWaitForMap(arguments + [autoShow ? "--auto-show" : "--no-auto-show"],
                                                         className: "keypane", environment: environment)
        usleep(2_000_000)
        rss[autoShow] = child.rssKiB
        child.stop()
    }
    print("keypane RSS without the bus \(rss[false]!) KiB, with it \(rss[true]!) KiB (+\(rss[true]! - rss[false]!) KiB)")

    let (child, _, window) = try bench.startAndWaitForMap(arguments + ["--auto-show"], className: "keypane",
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
    func waitFor(_ type: Int32, since start: Double) -> Double? {
        var event = XEvent()
        while now() < start + 5 {
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
