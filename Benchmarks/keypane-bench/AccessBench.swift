import KeyboardCore
// Switch scanning and dwell, timed: how close the highlight's steps and the dwell's presses come to their
// settings, what a scan step costs, and whether a paused scan wakes the keyboard at all.

import CX11
import CXTest
import KeyboardModel
import X11Host

#if canImport(Glibc)
import Glibc
#endif

func runAccessBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let bench = try LiveBench()
    defer { bench.close() }
    let base = [keypane, "--keyboards", "default", "--height", "320", "--no-sound", "--no-auto-show", "--layouts", layouts]
    let socket = ControlSocket.path(display: bench.display)

    // Auto scanning at 0.5 s: when the highlight moves, from the status over the control socket, asked
    // every 2 ms; then, asked nothing, the CPU it costs per step.
    let interval = 0.5
    do {
        let (child, _, _) = try bench.startAndWaitForMap(base + ["--scan", "auto", "--scan-interval", "\(interval)",
                                                                 "--scan-cycles", "100"], className: "keypane")
        defer { child.stop() }
        var last: Substring?
        var moves: [Double] = []
        let end = now() + 12
        while now() < end {
            let asked = now()
            if let answer = try? ControlSocket.send(.status, to: socket, timeout: 1) {
                let line = answer.split(separator: "\n").first { $0.hasPrefix("scanned:") }
                if line != last {
                    if last != nil { moves.append(asked) }
                    last = line
                }
            }
            usleep(2_000)
        }
        let errors = zip(moves.dropFirst(), moves).map { abs($0 - $1 - interval) }
        let mean = errors.reduce(0, +) / Double(max(errors.count, 1))
        print("keypane auto scanning at \(interval) s: step error mean \(format(mean * 1000)) ms, max "
              + "\(format((errors.max() ?? 0) * 1000)) ms (n=\(errors.count); status asked every 2 ms)")
        let cpuBefore = child.mainThreadCPUSeconds, quiet = 10.0
        usleep(useconds_t(quiet * 1_000_000))
        print("keypane auto scanning: CPU per step \(Int((child.mainThreadCPUSeconds - cpuBefore) / (quiet / interval) * 1e6)) µs "
              + "(main thread, schedstat)")
    }

    // Paused after one idle round at 0.2 s: nothing to wake for.
    do {
        let (child, _, _) = try bench.startAndWaitForMap(base + ["--scan", "auto", "--scan-interval", "0.2",
                                                                 "--scan-cycles", "1"], className: "keypane")
        defer { child.stop() }
        usleep(3_000_000)
        let wakeBefore = child.wakeups, cpuBefore = child.cpuSeconds
        usleep(5_000_000)
        print("keypane scanning paused, idle 5 s: \(child.wakeups - wakeBefore) wake-ups, "
              + "\(format((child.cpuSeconds - cpuBefore) * 1000)) ms CPU")
    }

    // Dwell at 0.5 s: the pointer moved onto a key, to its key press at the receiving window.
    let dwell = 0.5
    let (child, _, window) = try bench.startAndWaitForMap(base + ["--dwell", "\(dwell)"], className: "keypane")
    defer { child.stop() }
    usleep(300_000)
    let (ox, oy) = bench.origin(of: window)
    let (w, h) = bench.size(of: window)
    let geometry = try KeyboardLayoutEngine.layout(library.layout(for: .default)!, width: w, height: h,
                                                   options: LayoutOptions(showsGlobe: false, showsDwellPause: true, showsSuggestions: true))
    let key = geometry.keys.first { $0.function == .text("a") }!.rect
    var presses: [Double] = []
    var event = XEvent()
    for _ in 0..<20 {
        XTestFakeMotionEvent(bench.dpy, -1, 10, 10, 0)
        XSync(bench.dpy, 0)
        usleep(200_000)
        while XPending(bench.dpy) > 0 { XNextEvent(bench.dpy, &event) }
        let start = now()
        XTestFakeMotionEvent(bench.dpy, -1, Int32(ox + key.x + key.width / 2), Int32(oy + key.y + key.height / 2), 0)
        XFlush(bench.dpy)
        while now() < start + 3 {
            if XPending(bench.dpy) == 0 { usleep(200); continue }
            XNextEvent(bench.dpy, &event)
            if event.type == KeyPress && event.xkey.window == bench.receiver {
                presses.append(now() - start - dwell)
                break
            }
        }
    }
    print("keypane dwell at \(dwell) s, pointer on the key to the key press at the receiver, minus \(dwell) s: \(stats(presses))")
}
