// The live keyboard's figures, measured under a private Xvfb and openbox, at a receiving X client.

import CX11
import TestSupport
import CXTest
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

extension Child {
    /// CPU seconds so far, of all its threads, to the nanosecond: the scheduler's run time of each thread
    /// (/proc/PID/task/*/schedstat). /proc/PID/stat counts 10 ms ticks, 30 µs a tap over 300 taps.
    var cpuSeconds: Double {
        guard let tasks = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(tasks) }
        var seconds = 0.0
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.first?.isNumber == true { seconds += Self.runTime("/proc/\(pid)/task/\(name)/schedstat") }
        }
        return seconds
    }

    /// Minor page faults so far, of all its threads (/proc/PID/stat's tenth field): pages touched afresh.
    var minorFaults: Int {
        guard let text = try? readText("/proc/\(pid)/stat"), let end = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: end)...].split(separator: " ")
        return fields.count > 7 ? Int(fields[7]) ?? 0 : 0
    }

    /// CPU seconds of the main thread, to the nanosecond (/proc/PID/schedstat), for costs below the clock tick.
    var mainThreadCPUSeconds: Double { Self.runTime("/proc/\(pid)/schedstat") }

    /// The run time a schedstat file gives (its first field, nanoseconds), in seconds.
    private static func runTime(_ path: String) -> Double {
        guard let text = try? readText(path), let first = text.split(separator: " ").first,
              let nanoseconds = Double(first) else { return 0 }
        return nanoseconds / 1e9
    }

    func status(_ field: String) -> Int {
        guard let text = try? readText("/proc/\(pid)/status") else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    var rssKiB: Int { status("VmRSS") }

    /// RSS, PSS and private memory (clean and dirty), in KiB, from /proc/PID/smaps_rollup.
    var memory: (rss: Int, pss: Int, private: Int) {
        guard let text = try? readText("/proc/\(pid)/smaps_rollup") else { return (0, 0, 0) }
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, parts[0].hasSuffix(":") { fields[String(parts[0].dropLast())] = Int(parts[1]) }
        }
        return (fields["Rss"] ?? 0, fields["Pss"] ?? 0, (fields["Private_Clean"] ?? 0) + (fields["Private_Dirty"] ?? 0))
    }
    var wakeups: Int { status("voluntary_ctxt_switches") + status("nonvoluntary_ctxt_switches") }
}

func readText(_ path: String) throws -> String {
    guard let file = fopen(path, "r") else { throw BenchError("cannot read \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { bytes += buffer[0..<count] }
    return String(decoding: bytes, as: UTF8.self)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An X session of the benchmark's own, and a focused window that records key presses.
final class LiveBench {
    let xvfb: Child
    let openbox: Child
    let display: String
    let dpy: OpaquePointer
    let receiver: UInt
    let width: Int, height: Int

    /// Real input devices (`realInput`): Xorg with the inputtest touch screen, pointer and keyboard.
    private(set) var devices: InputTestDevices?
    private var folder: String?

    /// `realInput`: Xorg with the dummy video driver and the inputtest devices (`devices`) in place of Xvfb.
    init(width: Int = 1280, height: Int = 800, realInput: Bool = false) throws {
        self.width = width
        self.height = height
        // Find a free display number.
        var number = 140
        while access("/tmp/.X11-unix/X\(number)", F_OK) == 0 || access("/tmp/.X\(number)-lock", F_OK) == 0 { number += 1 }
        display = ":\(number)"
        if realInput {
            var template = Array("/tmp/keypane-bench-xorg-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw BenchError("cannot make a folder for Xorg") }
            let directory = String(cString: made)
            folder = directory
            let arguments = try InputTestDevices.serverArguments(width: width, height: height, directory: directory)
            guard let server = Child.spawn(["/usr/lib/xorg/Xorg", display] + arguments) else { throw BenchError("cannot start Xorg") }
            xvfb = server
        } else {
            guard let server = Child.spawn(["/usr/bin/Xvfb", display, "-screen", "0", "\(width)x\(height)x24", "-noreset",
                                            "-nolisten", "tcp"]) else { throw BenchError("cannot start Xvfb") }
            xvfb = server
        }
        var opened: OpaquePointer?
        for _ in 0..<300 {
            opened = XOpenDisplay(display)
            if opened != nil { break }
            usleep(10_000)
        }
        guard let opened else { throw BenchError("the X server did not come up") }
        dpy = opened
        if let folder { devices = try InputTestDevices(directory: folder, width: width, height: height) }
        XSetErrorHandler { _, _ in 0 }
        guard let wm = Child.spawn(["/usr/bin/openbox", "--config-file", "/dev/null"], environment: ["DISPLAY=\(display)"])
        else { throw BenchError("cannot start openbox") }
        openbox = wm
        usleep(300_000)
        let root = XDefaultRootWindow(dpy)
        receiver = XCreateSimpleWindow(dpy, root, 0, 0, 400, 300, 0, 0, 0xFFFFFF)
        XSelectInput(dpy, receiver, KeyPressMask | KeyReleaseMask | FocusChangeMask)
        XSelectInput(dpy, root, SubstructureNotifyMask)
        XMapWindow(dpy, receiver)
        XSync(dpy, 0)
        usleep(200_000)
        XSetInputFocus(dpy, receiver, RevertToParent, 0)
        XSync(dpy, 0)
    }

    func close() {
        XCloseDisplay(dpy)
        openbox.stop()
        xvfb.stop()
        // After the server: the inputtest driver spins on a connection closed under it.
        devices?.close()
        if let folder { _ = system("rm -rf '\(folder)'") }
    }

    /// The next event of the bench's connection, read before `deadline`, or nil.
    func nextEvent(before deadline: Double) -> XEvent? {
        var event = XEvent()
        while now() < deadline {
            if XPending(dpy) == 0 {
                var fds = pollfd(fd: XConnectionNumber(dpy), events: Int16(POLLIN), revents: 0)
                _ = poll(&fds, 1, Int32(max(1, min(5, (deadline - now()) * 1000))))
                continue
            }
            XNextEvent(dpy, &event)
            return event
        }
        return nil
    }

    /// Waits up to `limit` seconds for the receiver's next key press; the moment it was read, or nil.
    func nextKeyPress(limit: Double) -> Double? {
        let deadline = now() + limit
        while let event = nextEvent(before: deadline) {
            if event.type == KeyPress && event.xkey.window == receiver { return now() }
        }
        return nil
    }

    /// The characters the receiver's key presses typed (through the keymap) in the next `limit` seconds.
    func typedSince(limit: Double) -> String {
        var text = ""
        let deadline = now() + limit
        while var event = nextEvent(before: deadline) {
            guard event.type == KeyPress, event.xkey.window == receiver else { continue }
            var buffer = [CChar](repeating: 0, count: 16)
            var keysym: KeySym = 0
            if XLookupString(&event.xkey, &buffer, 15, &keysym, nil) > 0 { text += String(cString: buffer) }
        }
        return text
    }

    /// Starts a program and returns it with the time from exec to its window mapped, told by the server:
    /// each new top-level window is watched from its CreateNotify, and the time is taken at its MapNotify.
    /// (Polling the window tree took several round trips a turn, which the figures used to include.)
    func startAndWaitForMap(_ argv: [String], className: String, environment: [String] = [],
                            limit: Double = 10) throws -> (Child, Double, UInt) {
        let root = XDefaultRootWindow(dpy)
        var rootAttributes = XWindowAttributes()
        XGetWindowAttributes(dpy, root, &rootAttributes)
        XSelectInput(dpy, root, rootAttributes.your_event_mask | SubstructureNotifyMask)
        XSync(dpy, 1)
        defer {
            XSelectInput(dpy, root, rootAttributes.your_event_mask)
            XSync(dpy, 0)
        }
        let start = now()
        guard let child = Child.spawn(argv, environment: ["DISPLAY=\(display)"] + environment) else { throw BenchError("cannot start \(argv[0])") }
        var watched: Set<UInt> = []
        var event = XEvent()
        func isTheProgram(_ window: UInt) -> Bool { windowClass(window) == className || windowName(window) == className }
        while now() < start + limit {
            while XPending(dpy) > 0 {
                XNextEvent(dpy, &event)
                if event.type == CreateNotify && event.xcreatewindow.parent == root {
                    let window = event.xcreatewindow.window
                    watched.insert(window)
                    XSelectInput(dpy, window, StructureNotifyMask)
                    // Mapped before it was watched: seen now.
                    var attributes = XWindowAttributes()
                    XGetWindowAttributes(dpy, window, &attributes)
                    if attributes.map_state != IsUnmapped && isTheProgram(window) { return (child, now() - start, window) }
                } else if event.type == MapNotify && watched.contains(event.xmap.window) && event.xmap.event == event.xmap.window
                            && isTheProgram(event.xmap.window) {
                    return (child, now() - start, event.xmap.window)
                }
            }
            usleep(100)
        }
        child.stop()
        throw BenchError("\(argv[0]) showed no window")
    }

    /// Starts a program and returns the times from exec to its window mapped and to its first frame: the
    /// window showing keys (a row of it with at least three colours, where an undrawn window has its
    /// background or the root's pattern). The program is stopped again.
    func startUp(_ argv: [String], className: String, environment: [String] = []) throws -> (mapped: Double, frame: Double) {
        let (child, mapped, window) = try startAndWaitForMap(argv, className: className, environment: environment)
        defer { child.stop() }
        let start = now() - mapped
        let (w, h) = size(of: window)
        while now() < start + 10 {
            // Rows an eighth of the height apart: one of them crosses keys, whatever the layout's gaps.
            for row in 1..<8 {
                guard let image = XGetImage(dpy, window, 0, Int32(h * row / 8), UInt32(w), 1, UInt.max, ZPixmap)
                else { continue }
                var colours = Set<UInt>()
                for x in 0..<Int32(w) where colours.count < 3 { colours.insert(image.pointee.f.get_pixel(image, x, 0)) }
                _ = image.pointee.f.destroy_image(image)
                if colours.count >= 3 { return (mapped, now() - start) }
            }
            usleep(500)
        }
        throw BenchError("\(argv[0]) drew nothing in its \(w)x\(h) window \(window)")
    }

    func viewableWindow(className: String, under parent: UInt? = nil) -> UInt? {
        var rootReturn: UInt = 0, parentReturn: UInt = 0
        var children: UnsafeMutablePointer<UInt>?
        var count: UInt32 = 0
        guard XQueryTree(dpy, parent ?? XDefaultRootWindow(dpy), &rootReturn, &parentReturn, &children, &count) != 0
        else { return nil }
        defer { if let children { XFree(children) } }
        for index in 0..<Int(count) {
            let window = children![index]
            var attributes = XWindowAttributes()
            XGetWindowAttributes(dpy, window, &attributes)
            if attributes.map_state == IsViewable && (windowClass(window) == className || windowName(window) == className) {
                return window
            }
            if let found = viewableWindow(className: className, under: window) { return found }
        }
        return nil
    }

    func windowName(_ window: UInt) -> String? {
        var name: UnsafeMutablePointer<CChar>?
        guard XFetchName(dpy, window, &name) != 0, let name else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    func windowClass(_ window: UInt) -> String? {
        var hint = XClassHint()
        guard XGetClassHint(dpy, window, &hint) != 0 else { return nil }
        defer {
            XFree(hint.res_name)
            XFree(hint.res_class)
        }
        return String(cString: hint.res_name)
    }

    func origin(of window: UInt) -> (Int, Int) {
        var x: Int32 = 0, y: Int32 = 0
        var child: UInt = 0
        XTranslateCoordinates(dpy, window, XDefaultRootWindow(dpy), 0, 0, &x, &y, &child)
        return (Int(x), Int(y))
    }

    func size(of window: UInt) -> (Int, Int) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(dpy, window, &attributes)
        return (Int(attributes.width), Int(attributes.height))
    }

    func buttonDown() -> Bool {
        var r: UInt = 0, c: UInt = 0
        var a: Int32 = 0, b: Int32 = 0, d: Int32 = 0, e: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(dpy, XDefaultRootWindow(dpy), &r, &c, &a, &b, &d, &e, &mask)
        return mask & UInt32(Button1Mask) != 0
    }

    /// Taps at a point and returns the time from the input event that typed to the key press at the
    /// receiver, or nil. A quick tap sends press and release together, timed from the release; otherwise
    /// the button is held `hold` seconds first, as a finger is: a keyboard that types on press (matchbox)
    /// is timed from the press, one that types on release (Keypane, like iOS) from the release.
    func tapLatency(x: Int, y: Int, hold: Double = 0) -> Double? {
        XTestFakeMotionEvent(dpy, -1, Int32(x), Int32(y), 0)
        XSync(dpy, 0)
        var event = XEvent()
        while XPending(dpy) > 0 { XNextEvent(dpy, &event) }
        var latency: Double?
        /// Reads events until `until`; true once the receiver has had both key press and release.
        func receive(since start: Double, until deadline: Double) -> Bool {
            while let event = nextEvent(before: deadline) {
                if event.type == KeyPress && event.xkey.window == receiver && latency == nil { latency = now() - start }
                if event.type == KeyRelease && event.xkey.window == receiver && latency != nil { return true }
            }
            return false
        }
        if hold > 0 {
            let pressed = now()
            XTestFakeButtonEvent(dpy, 1, 1, 0)
            XFlush(dpy)
            _ = receive(since: pressed, until: pressed + hold)
        } else {
            XTestFakeButtonEvent(dpy, 1, 1, 0)
        }
        let released = now()
        XTestFakeButtonEvent(dpy, 1, 0, 0)
        XFlush(dpy)
        _ = receive(since: released, until: released + 2)
        // The next tap starts with the button up, as a person's would.
        for _ in 0..<500 where buttonDown() { usleep(1000) }
        return latency
    }
}

func stats(_ values: [Double]) -> String {
    guard !values.isEmpty else { return "no samples" }
    let ms = values.map { $0 * 1000 }
    return "p50 \(format(percentile(ms, 0.5))) ms, p99 \(format(percentile(ms, 0.99))) ms, max \(format(ms.max()!)) ms (n=\(ms.count))"
}

/// The live measurements; prints one line per figure.
/// `only` "start" stops after start-up and memory, "memory" measures memory alone, "prose" the CPU of typing prose.
func runLiveBench(keypane: String, layouts: String, library: LayoutLibrary, only: String?) throws {
    let bench = try LiveBench()
    defer { bench.close() }
    let taps = 1000
    let heldTaps = 300, hold = 0.03

    if only == "memory" { return try runMemoryBench(bench, keypane: keypane, layouts: layouts) }
    // The keyboard the live figures are taken on, sound off.
    let keypaneArguments = [keypane, "--keyboards", "default", "--height", "320", "--no-sound", "--layouts", layouts]
    let layout = library.layout(for: .default)!
    if only == "instructions" { return try runInstructionBench(bench, arguments: keypaneArguments, layout: layout) }
    if only == "cpu" { return try runAlternatingCPUBench(bench, arguments: keypaneArguments, layout: layout, hold: hold) }
    if only == "prose" {
        try runProseBench(bench, arguments: keypaneArguments, layout: layout, hold: hold)
        _ = try runMatchboxTaps(bench, taps: heldTaps, heldTaps: heldTaps, hold: hold)
        try runAlternatingCPUBench(bench, arguments: keypaneArguments, layout: layout, hold: hold)
        try runInstructionBench(bench, arguments: keypaneArguments, layout: layout)
        return
    }
    let (starts, peerStarts) = try runStartBench(bench, keypane: keypane, layouts: layouts)
    try runMemoryBench(bench, keypane: keypane, layouts: layouts)
    if only == "start" { return }

    let (child, _, window) = try bench.startAndWaitForMap(keypaneArguments, className: "keypane")
    defer { child.stop() }
    usleep(300_000)
    let (ox, oy) = bench.origin(of: window)
    let (w, h) = bench.size(of: window)
    let letters = try KeyboardLayoutEngine.layout(layout, width: w, height: h, options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
    func centre(_ geometry: KeyboardGeometry, _ match: (PlacedKey) -> Bool) -> (Int, Int) {
        let key = geometry.keys.first(where: match)!.rect
        return (ox + key.x + key.width / 2, oy + key.y + key.height / 2)
    }
    let a = centre(letters) { $0.function == .text("a") }
    let rssStart = child.rssKiB
    let cpuBefore = child.cpuSeconds
    var latencies: [Double] = []
    for _ in 0..<taps { if let l = bench.tapLatency(x: a.0, y: a.1) { latencies.append(l) } }
    let cpuPerTap = (child.cpuSeconds - cpuBefore) / Double(taps)
    print("keypane tap to keystroke, mapped letter: \(stats(latencies))")
    print("keypane CPU per tap: \(Int(cpuPerTap * 1e6)) µs")
    print("keypane RSS: \(rssStart) KiB after start, \(child.rssKiB) KiB after \(taps) taps")
    let cpuBeforeHeld = child.cpuSeconds
    var held: [Double] = []
    for _ in 0..<heldTaps { if let l = bench.tapLatency(x: a.0, y: a.1, hold: hold) { held.append(l) } }
    print("keypane held tap (\(Int(hold * 1000)) ms), release to keystroke: \(stats(held)); CPU per tap, one ever longer word \(Int((child.cpuSeconds - cpuBeforeHeld) / Double(heldTaps) * 1e6)) µs")

    // A character no key of the US keymap has: € on the symbols layer, through a spare keycode.
    let numbersKey = centre(letters) { $0.function == .layer("numbers") }
    _ = bench.tapLatency(x: numbersKey.0, y: numbersKey.1)
    let numbers = try KeyboardLayoutEngine.layout(layout, layer: "numbers", width: w, height: h,
                                                  options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
    let symbolsKey = centre(numbers) { $0.function == .layer("symbols") }
    _ = bench.tapLatency(x: symbolsKey.0, y: symbolsKey.1)
    let symbols = try KeyboardLayoutEngine.layout(layout, layer: "symbols", width: w, height: h,
                                                  options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
    let euro = centre(symbols) { $0.function == .text("€") }
    var spare: [Double] = []
    for _ in 0..<200 { if let l = bench.tapLatency(x: euro.0, y: euro.1) { spare.append(l) } }
    print("keypane tap to keystroke, spare keycode (€): \(stats(spare))")

    // Idle: no wake-ups, no CPU.
    usleep(500_000)
    let wakeBefore = child.wakeups, idleCPU = child.cpuSeconds
    sleep(5)
    print("keypane idle for 5 s: \(child.wakeups - wakeBefore) wake-ups, \(format((child.cpuSeconds - idleCPU) * 1000)) ms CPU")
    child.stop()

    try runProseBench(bench, arguments: keypaneArguments, layout: layout, hold: hold)
    try runAlternatingCPUBench(bench, arguments: keypaneArguments, layout: layout, hold: hold)

    try runInstructionBench(bench, arguments: keypaneArguments, layout: layout)
    guard let (peerLatencies, peerHeld) = try runMatchboxTaps(bench, taps: taps, heldTaps: heldTaps, hold: hold) else { return }
    if !peerLatencies.isEmpty && !latencies.isEmpty && !held.isEmpty && !peerHeld.isEmpty && !peerStarts.isEmpty {
        print("ratio keypane/matchbox p50: tap \(format(percentile(latencies, 0.5) / percentile(peerLatencies, 0.5))), held tap \(format(percentile(held, 0.5) / percentile(peerHeld, 0.5))), first frame \(format(percentile(starts, 0.5) / percentile(peerStarts, 0.5)))")
    }
}

/// What the benches type: words and spaces as a person types them (one key tapped a thousand times is one
/// ever longer word for the suggestions).
let prose = Array("the quick brown fox jumps over the lazy dog and then runs back home ")

extension LiveBench {
    /// Where to tap each character of `prose` on a keypane window showing `layout`, in root coordinates.
    func letterPlaces(of window: UInt, layout: Layout, showsSuggestions: Bool) throws -> [Character: (Int, Int)] {
        let (x, y) = origin(of: window)
        let (width, height) = size(of: window)
        let keys = try KeyboardLayoutEngine.layout(layout, width: width, height: height,
                                                   options: LayoutOptions(showsGlobe: false, showsSuggestions: showsSuggestions))
        return Dictionary(uniqueKeysWithValues: Set(prose).compactMap { character -> (Character, (Int, Int))? in
            guard let key = keys.keys.first(where: { $0.function == .text(String(character)) })?.rect else { return nil }
            return (character, (x + key.x + key.width / 2, y + key.y + key.height / 2))
        })
    }

    /// A letter key of matchbox-keyboard's window: the second row's third key in its default layouts.
    func matchboxLetter(of window: UInt) -> (Int, Int) {
        let (x, y) = origin(of: window)
        let (width, height) = size(of: window)
        return (x + width * 25 / 100, y + height * 50 / 100)
    }
}

/// The CPU a tap costs typing prose, words and spaces as a person types them (one key tapped a thousand times
/// is one ever longer word for the suggestions), with suggestions on and off.
func runProseBench(_ bench: LiveBench, arguments keypaneArguments: [String], layout: Layout, hold: Double) throws {
    for suggestions in [true, false] {
        let arguments = keypaneArguments + (suggestions ? [] : ["--no-suggestions"])
        let (typist, _, typistWindow) = try bench.startAndWaitForMap(arguments, className: "keypane")
        defer { typist.stop() }
        usleep(300_000)
        let places = try bench.letterPlaces(of: typistWindow, layout: layout, showsSuggestions: suggestions)
        // Quick taps (press and release together), then taps held as a finger holds them.
        for held in suggestions ? [0] : [0, hold] {
            let cpuBeforeProse = typist.cpuSeconds
            var typed = 0, latencies: [Double] = []
            for character in (0..<8).flatMap({ _ in prose }) {
                guard let (x, y) = places[character] else { continue }
                if let latency = bench.tapLatency(x: x, y: y, hold: held) { latencies.append(latency) }
                typed += 1
            }
            let perTap = (typist.cpuSeconds - cpuBeforeProse) / Double(max(typed, 1))
            let how = held > 0 ? "taps held \(Int(held * 1000)) ms" : "quick taps"
            print("keypane CPU per tap typing prose, suggestions \(suggestions ? "on" : "off"), \(how): \(Int(perTap * 1e6)) µs (\(typed) taps); \(held > 0 ? "release" : "tap") to keystroke \(stats(latencies))")
        }
        if !suggestions {
            // One key tapped again and again, as matchbox-keyboard's taps below.
            let a = places["a"]!
            let cpuBefore = typist.cpuSeconds, wakeBefore = typist.wakeups
            for _ in 0..<300 { _ = bench.tapLatency(x: a.0, y: a.1) }
            print("keypane CPU per tap, suggestions off, one key: \(Int((typist.cpuSeconds - cpuBefore) / 300 * 1e6)) µs (300 taps), \(format(Double(typist.wakeups - wakeBefore) / 300)) wake-ups a tap")
        }
    }
}

/// matchbox-keyboard, quick and held taps on a letter key of its window; nil when it is not installed.
func runMatchboxTaps(_ bench: LiveBench, taps: Int, heldTaps: Int, hold: Double) throws -> (quick: [Double], held: [Double])? {
    let peerPath = matchboxPath
    guard access(peerPath, X_OK) == 0 else { return nil }
    let (peer, _, peerWindow) = try bench.startAndWaitForMap([peerPath], className: "Keyboard")
    defer { peer.stop() }
    usleep(500_000)
    let target = bench.matchboxLetter(of: peerWindow)
    let peerRSS = peer.rssKiB
    let peerCPU = peer.cpuSeconds, peerWakeups = peer.wakeups
    var peerLatencies: [Double] = []
    for _ in 0..<taps { if let l = bench.tapLatency(x: target.0, y: target.1) { peerLatencies.append(l) } }
    let peerCPUPerTap = (peer.cpuSeconds - peerCPU) / Double(taps)
    print("matchbox-keyboard tap to keystroke: \(stats(peerLatencies))")
    print("matchbox-keyboard CPU per tap: \(Int(peerCPUPerTap * 1e6)) µs, \(format(Double(peer.wakeups - peerWakeups) / Double(taps))) wake-ups a tap; RSS \(peerRSS) KiB after start, \(peer.rssKiB) KiB after")
    let peerCPUBeforeHeld = peer.cpuSeconds
    var peerHeld: [Double] = []
    for _ in 0..<heldTaps {
        if let l = bench.tapLatency(x: target.0, y: target.1, hold: hold) { peerHeld.append(l) }
    }
    print("matchbox-keyboard held tap (\(Int(hold * 1000)) ms), press to keystroke: \(stats(peerHeld)); CPU per tap \(Int((peer.cpuSeconds - peerCPUBeforeHeld) / Double(heldTaps) * 1e6)) µs")
    return (peerLatencies, peerHeld)
}
