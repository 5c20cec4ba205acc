// The suggest figures of the live keyboard: start-up, tap to keystroke and memory with suggestions on
// against off in the same run, and tap to the bar redrawn on screen.

import CX11
import CXTest
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

/// PSS and private memory (clean + dirty), in KiB, from /proc/PID/smaps_rollup.
func memory(of pid: pid_t) -> (pss: Int, privateKiB: Int, privateDirty: Int) {
    guard let text = try? readText("/proc/\(pid)/smaps_rollup") else { return (0, 0, 0) }
    var fields: [String: Int] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count >= 2, parts[0].hasSuffix(":") { fields[String(parts[0].dropLast())] = Int(parts[1]) }
    }
    return (fields["Pss"] ?? 0, (fields["Private_Clean"] ?? 0) + (fields["Private_Dirty"] ?? 0), fields["Private_Dirty"] ?? 0)
}

extension LiveBench {
    /// A checksum of a window's region, to see it change.
    func checksum(_ window: UInt, _ rect: Rect) -> UInt {
        guard let image = XGetImage(dpy, window, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height),
                                    UInt.max, ZPixmap) else { return 0 }
        defer { _ = image.pointee.f.destroy_image(image) }
        var sum: UInt = 0
        for y in stride(from: 0, to: Int32(rect.height), by: 2) {
            for x in stride(from: 0, to: Int32(rect.width), by: 2) {
                sum = sum &* 31 &+ image.pointee.f.get_pixel(image, x, y)
            }
        }
        return sum
    }

    /// Taps at (x, y) and returns, from the release, the time to the key press at the receiver and the
    /// time to the bar's pixels changing (nil when it did not change within 300 ms). Without `waitingForBar`
    /// it reads the bar's area back all the same, until the keystroke has come.
    func tapAndWatchBar(x: Int, y: Int, window: UInt, bar: Rect, waitingForBar: Bool) -> (keystroke: Double?, bar: Double?) {
        XTestFakeMotionEvent(dpy, -1, Int32(x), Int32(y), 0)
        XSync(dpy, 0)
        var event = XEvent()
        while XPending(dpy) > 0 { XNextEvent(dpy, &event) }
        let before = checksum(window, bar)
        XTestFakeButtonEvent(dpy, 1, 1, 0)
        XTestFakeButtonEvent(dpy, 1, 0, 0)
        XFlush(dpy)
        let released = now()
        var keystroke: Double?, barTime: Double?
        while now() < released + 0.3 && (keystroke == nil || (waitingForBar && barTime == nil)) {
            while XPending(dpy) > 0 {
                XNextEvent(dpy, &event)
                if event.type == KeyPress && event.xkey.window == receiver && keystroke == nil { keystroke = now() - released }
            }
            if barTime == nil && checksum(window, bar) != before { barTime = now() - released }
            usleep(200)
        }
        for _ in 0..<500 where buttonDown() { usleep(1000) }
        usleep(20_000)
        return (keystroke, barTime)
    }
}

func runSuggestLive(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let bench = try LiveBench()
    defer { bench.close() }
    let base = [keypane, "--keyboards", "default", "--height", "320", "--no-sound", "--no-auto-show", "--layouts", layouts,
                "--autocapitalization", "none"]
    let variants = [("suggestions on", base), ("suggestions off", base + ["--no-suggestions"])]

    // Start-up, the two in turn.
    var starts: [String: [Double]] = [:]
    for _ in 0..<6 {
        for (name, argv) in variants {
            starts[name, default: []].append(try bench.startUp(argv, className: "keypane").frame)
            usleep(100_000)
        }
    }
    for (name, _) in variants { print("keypane \(name): exec to first frame \(stats(starts[name]!))") }

    let text = Array("i will meet you at the station tomorrow and we can talk about the plans ")
    for (name, argv) in variants {
        let (child, _, window) = try bench.startAndWaitForMap(argv, className: "keypane")
        defer { child.stop() }
        usleep(500_000)
        let before = memory(of: child.pid)
        let (ox, oy) = bench.origin(of: window)
        let (w, h) = bench.size(of: window)
        let showsBar = name == "suggestions on"
        let options = LayoutOptions(showsGlobe: false, showsSuggestions: showsBar)
        let letters = try KeyboardLayoutEngine.layout(library.layout(for: .default)!, width: w, height: h, options: options)
        // Both variants read back the same area after each tap (the bar's, or where it would be), so that
        // the reading, which delays the receiver's events, costs the two the same.
        let withBar = showsBar ? letters : try KeyboardLayoutEngine.layout(
            library.layout(for: .default)!, width: w, height: h, options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
        let watched = Rect(x: 0, y: 0, width: w, height: withBar.keys.filter { $0.function.isSuggestion }.map(\.rect.maxY).max() ?? 1)
        var keystrokes: [Double] = [], bars: [Double] = []
        var unchanged = 0
        for round in 0..<4 {
            for character in text {
                guard let key = letters.keys.first(where: { $0.function == .text(String(character)) }) else { continue }
                let (x, y) = (ox + key.rect.x + key.rect.width / 2, oy + key.rect.y + key.rect.height / 2)
                let result = bench.tapAndWatchBar(x: x, y: y, window: window, bar: watched, waitingForBar: showsBar)
                if let k = result.keystroke { keystrokes.append(k) }
                if showsBar {
                    if let b = result.bar { bars.append(b) } else if round > 0 { unchanged += 1 }
                }
            }
        }
        let after = memory(of: child.pid)
        print("keypane \(name): tap to keystroke \(stats(keystrokes))")
        if showsBar { print("keypane \(name): tap to bar redrawn on screen \(stats(bars)); \(unchanged) taps left it as it was") }
        print("keypane \(name): PSS \(before.pss) KiB, private \(before.privateKiB) KiB (dirty \(before.privateDirty)) after start; "
              + "PSS \(after.pss) KiB, private \(after.privateKiB) KiB (dirty \(after.privateDirty)) after \(keystrokes.count) taps")
    }
}
