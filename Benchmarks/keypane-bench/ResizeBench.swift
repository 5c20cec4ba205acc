// How long the keyboard takes to fit a changed screen: from the last screen-change event the X server
// sends to the keyboard shown at its new size.

import CX11
import CXRandR
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

extension LiveBench {
    /// Runs xrandr on the bench's display and waits for it.
    func xrandr(_ arguments: [String]) throws {
        guard let child = Child.spawn(["/usr/bin/xrandr", "-display", display] + arguments) else {
            throw BenchError("cannot run xrandr")
        }
        guard child.wait() == 0 else { throw BenchError("xrandr \(arguments.joined(separator: " ")) failed") }
    }

    /// Adds a mode of the given size to Xvfb's one output.
    func addMode(width: Int, height: Int) throws {
        let mode = "\(width)x\(height)"
        try xrandr(["--newmode", mode, "0", "\(width)", "0", "0", "0", "\(height)", "0", "0", "0"])
        try xrandr(["--addmode", "screen", mode])
    }

    /// One pixel row of a window.
    func row(_ window: UInt, y: Int, width: Int) -> [UInt]? {
        guard let image = XGetImage(dpy, window, 0, Int32(y), UInt32(width), 1, UInt.max, ZPixmap) else { return nil }
        defer { _ = image.pointee.f.destroy_image(image) }
        return (0..<Int32(width)).map { image.pointee.f.get_pixel(image, $0, 0) }
    }

    /// Whether the window shows a geometry's keys: just inside the top of every key the pixel is not the
    /// background, and in the gap above every row but the first it is. The suggestion bar's slots
    /// and flat keys, drawn without a face as iOS draws them, show the background inside.
    func shows(_ geometry: KeyboardGeometry, in window: UInt) -> Bool {
        guard let first = row(window, y: 0, width: geometry.width) else { return false }
        let background = first[0]
        for top in Set(geometry.keys.map(\.rect.y)) {
            guard let inside = row(window, y: top + 3, width: geometry.width) else { return false }
            for key in geometry.keys where key.rect.y == top && !key.flat && !key.function.isSuggestion {
                if inside[key.rect.x + key.rect.width / 2] == background { return false }
            }
            if top > geometry.gap.y {
                guard let gap = row(window, y: top - 1 - geometry.gap.y / 2, width: geometry.width) else { return false }
                for key in geometry.keys where key.rect.y == top {
                    if gap[key.rect.x + key.rect.width / 2] != background { return false }
                }
            }
        }
        return true
    }
}

/// Changes the screen between two sizes many times and prints, for each direction, the time from the last
/// RandR or root configure event to the keyboard at its new frame with the new layout on screen.
func runResizeBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let bench = try LiveBench(width: 1920, height: 1920)
    defer { bench.close() }
    let pairs = [((1920, 1080), (1080, 1920)), ((1280, 800), (800, 600))]
    for ((w1, h1), (w2, h2)) in pairs {
        try bench.addMode(width: w1, height: h1)
        try bench.addMode(width: w2, height: h2)
    }
    var eventBase: Int32 = 0, errorBase: Int32 = 0
    XRRQueryExtension(bench.dpy, &eventBase, &errorBase)
    let root = XDefaultRootWindow(bench.dpy)
    XRRSelectInput(bench.dpy, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
    XSelectInput(bench.dpy, root, SubstructureNotifyMask | StructureNotifyMask)
    try bench.xrandr(["--output", "screen", "--mode", "\(pairs[0].0.0)x\(pairs[0].0.1)"])
    let (child, _, window) = try bench.startAndWaitForMap(
        [keypane, "--keyboards", "default", "--no-sound", "--layouts", layouts], className: "keypane")
    defer { child.stop() }
    usleep(300_000)
    let layout = library.layout(for: .default)!
    let changes = 20

    for ((w1, h1), (w2, h2)) in pairs {
        var times: [String: [Double]] = [:]
        try bench.xrandr(["--output", "screen", "--mode", "\(w1)x\(h1)"])
        usleep(300_000)
        for change in 0..<(2 * changes) {
            let (width, height) = change % 2 == 0 ? (w2, h2) : (w1, h1)
            let name = change % 2 == 0 ? "\(w1)x\(h1) -> \(w2)x\(h2)" : "\(w2)x\(h2) -> \(w1)x\(h1)"
            var event = XEvent()
            while XPending(bench.dpy) > 0 { XNextEvent(bench.dpy, &event) }
            try bench.xrandr(["--output", "screen", "--mode", "\(width)x\(height)"])
            var lastEvent = 0.0
            let deadline = now() + 5
            var done = false
            while now() < deadline && !done {
                while XPending(bench.dpy) > 0 {
                    XNextEvent(bench.dpy, &event)
                    let type = event.type
                    if type == eventBase + RRScreenChangeNotify || type == eventBase + RRNotify
                        || (type == ConfigureNotify && event.xconfigure.window == root) {
                        lastEvent = now()
                    }
                }
                let (w, h) = bench.size(of: window)
                let (_, y) = bench.origin(of: window)
                if lastEvent > 0 && w == width && y + h == height,
                   let geometry = try? KeyboardLayoutEngine.layout(layout, width: w, height: h,
                                                                   options: LayoutOptions(showsGlobe: false, showsSuggestions: true)),
                   bench.shows(geometry, in: window) {
                    times[name, default: []].append(now() - lastEvent)
                    done = true
                } else {
                    usleep(250)
                }
            }
            if !done { throw BenchError("the keyboard did not fit \(width)x\(height)") }
            usleep(100_000)
        }
        for (name, values) in times.sorted(by: { $0.key < $1.key }) {
            print("keypane resize \(name), last screen event to new layout shown: \(stats(values))")
        }
    }
}
