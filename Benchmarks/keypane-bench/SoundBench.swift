// The input click's figures: when the click is heard after the tap, whether sound slows typing, and what
// 20 taps a second sound like. The click is heard through a private PulseAudio server whose null sink is
// recorded through its monitor; keypane plays there through libcanberra, as on a desktop.

import CX11
import CXTest
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

/// A PulseAudio server of the benchmark's own (null sink "clicks", a socket in a folder of its own), and a
/// recorder of that sink whose samples arrive through a pipe, each read stamped with its arrival time.
final class SoundRecorder {
    static let rate = 48_000
    /// An audible sample: -30 dBFS; the clicks peak at -9 dBFS.
    static let threshold: Int16 = 1000
    let directory: String
    let server: Child
    let recorder: Child
    private let input: Int32
    /// Samples read so far, and how many of the newest were quiet.
    private(set) var samples = 0
    private var quietSamples = Int.max / 2
    private var buffer = [Int16](repeating: 0, count: 4096)

    var environment: [String] { ["PULSE_SERVER=unix:\(directory)/native", "CANBERRA_DRIVER=pulse"] }

    init() throws {
        var template = Array("/tmp/keypane-bench-pa-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a folder for pulseaudio") }
        directory = String(cString: made)
        let script = "\(directory)/server.pa"
        guard let file = fopen(script, "w") else { throw BenchError("cannot write \(script)") }
        fputs("""
            load-module module-null-sink sink_name=clicks rate=\(Self.rate) channels=1
            load-module module-native-protocol-unix socket=\(directory)/native auth-anonymous=1
            set-default-sink clicks

            """, file)
        fclose(file)
        guard let server = Child.spawn(["/usr/bin/pulseaudio", "-n", "-F", script, "--daemonize=no",
                                        "--exit-idle-time=-1", "--use-pid-file=no", "--disallow-exit=yes",
                                        "--log-level=0"],
                                       environment: ["HOME=\(directory)", "XDG_RUNTIME_DIR=\(directory)",
                                                     "PULSE_RUNTIME_PATH=\(directory)/runtime"]) else {
            throw BenchError("cannot start pulseaudio")
        }
        self.server = server
        for _ in 0..<500 where access("\(directory)/native", F_OK) != 0 { usleep(10_000) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw BenchError("cannot make a pipe") }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        input = ends[0]
        guard let recorder = Child.spawn(["/usr/bin/parec", "--server=unix:\(directory)/native",
                                          "--device=clicks.monitor", "--raw", "--format=s16le", "--rate=\(Self.rate)",
                                          "--channels=1", "--latency-msec=1"], output: ends[1]) else {
            server.stop()
            throw BenchError("cannot start parec")
        }
        Glibc.close(ends[1])
        self.recorder = recorder
        // Recording has begun when samples arrive.
        let start = now()
        while samples == 0 && now() < start + 5 { _ = listen(for: 0.01) }
        guard samples > 0 else { throw BenchError("parec recorded nothing") }
    }

    func close() {
        recorder.stop()
        Glibc.close(input)
        server.stop()
        Child.spawn(["/bin/rm", "-rf", directory])?.wait()
    }

    /// Reads what arrives for `duration` seconds, or until the first sound with `untilSound`, and returns
    /// the times the sounds in it began: a sound begins at an audible sample after `quiet` seconds of none,
    /// and its time is when the read that brought that sample arrived. (Not that time less the samples
    /// after it: a null sink mixes ahead of its clock, so that would date a sound before it was played.)
    func listen(for duration: Double, quiet: Double = 0.01, untilSound: Bool = false) -> [Double] {
        var onsets: [Double] = []
        let quietLength = Int(quiet * Double(Self.rate))
        let deadline = now() + duration
        while now() < deadline && !(untilSound && !onsets.isEmpty) {
            var fds = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, Int32(max(1, min(5, (deadline - now()) * 1000)))) > 0 else { continue }
            let bytes = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            let arrived = now()
            guard bytes > 0 else { continue }
            let count = bytes / 2
            for index in 0..<count {
                if abs(Int(buffer[index])) >= Int(Self.threshold) {
                    if quietSamples >= quietLength { onsets.append(arrived) }
                    quietSamples = 0
                } else {
                    quietSamples += 1
                }
            }
            samples += count
        }
        return onsets
    }
}

/// The sound figures; prints one line per figure.
func runSoundBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    guard access("/usr/bin/pulseaudio", X_OK) == 0, access("/usr/bin/parec", X_OK) == 0 else {
        print("input click: pulseaudio and parec are not installed, no sound figures")
        return
    }
    let sound = try SoundRecorder()
    defer { sound.close() }
    let bench = try LiveBench()
    defer { bench.close() }
    let arguments = [keypane, "--keyboards", "default", "--height", "320", "--layouts", layouts]

    /// Starts keypane, sound on or off, and returns it with the centre of its a key.
    func start(sound on: Bool) throws -> (Child, (Int, Int)) {
        let (child, _, window) = try bench.startAndWaitForMap(arguments + (on ? [] : ["--no-sound"]),
                                                              className: "keypane", environment: sound.environment)
        usleep(500_000)
        let (ox, oy) = bench.origin(of: window)
        let (w, h) = bench.size(of: window)
        let letters = try KeyboardLayoutEngine.layout(library.layout(for: .default)!, width: w, height: h,
                                                      options: LayoutOptions(showsGlobe: false, showsSuggestions: true))
        let a = letters.keys.first { $0.function == .text("a") }!.rect
        return (child, (ox + a.x + a.width / 2, oy + a.y + a.height / 2))
    }

    // Tap (press) to the first audible sample of its click, one tap at a time.
    var (keyboard, a) = try start(sound: true)
    XTestFakeMotionEvent(bench.dpy, -1, Int32(a.0), Int32(a.1), 0)
    XSync(bench.dpy, 0)
    _ = sound.listen(for: 0.3)
    var heard: [Double] = []
    var missed = 0
    let clicks = 200
    for _ in 0..<clicks {
        let pressed = now()
        XTestFakeButtonEvent(bench.dpy, 1, 1, 0)
        XFlush(bench.dpy)
        let onsets = sound.listen(for: 0.5, untilSound: true)
        _ = sound.listen(for: 0.03)
        XTestFakeButtonEvent(bench.dpy, 1, 0, 0)
        XFlush(bench.dpy)
        if let first = onsets.first { heard.append(first - pressed) } else { missed += 1 }
        // The click dies away before the next tap.
        _ = sound.listen(for: 0.12)
    }
    print("input click, key press to its first audible samples read from the sink's monitor: \(stats(heard)); \(missed) of \(clicks) taps unheard")

    // Twenty taps a second: a click for each tap, none late.
    let fastTaps = 100
    var presses: [Double] = []
    var onsets: [Double] = []
    let first = now()
    for index in 0..<fastTaps {
        let pressAt = first + Double(index) / 20
        onsets += sound.listen(for: max(0, pressAt - now()))
        presses.append(now())
        XTestFakeButtonEvent(bench.dpy, 1, 1, 0)
        XFlush(bench.dpy)
        onsets += sound.listen(for: 0.012)
        XTestFakeButtonEvent(bench.dpy, 1, 0, 0)
        XFlush(bench.dpy)
    }
    onsets += sound.listen(for: 0.5)
    // Each click belongs to the last press before it.
    let lateness = onsets.compactMap { onset in presses.last { $0 <= onset }.map { onset - $0 } }
    let lastClick = onsets.last.map { format(($0 - presses.last!) * 1000) + " ms" } ?? "none"
    print("input click at 20 taps a second: \(onsets.count) clicks for \(fastTaps) taps, press to click \(stats(lateness)); last tap to its click \(lastClick)")
    keyboard.stop()

    // Tap to keystroke, sound on against sound off, in alternate rounds so that both meet the same load.
    var latencies: [Bool: [Double]] = [true: [], false: []]
    var cpu: [Bool: Double] = [true: 0, false: 0]
    let rounds = 4, tapsPerRound = 150
    for round in 0..<rounds * 2 {
        let on = round % 2 == 0
        (keyboard, a) = try start(sound: on)
        let cpuBefore = keyboard.cpuSeconds
        for _ in 0..<tapsPerRound { if let l = bench.tapLatency(x: a.0, y: a.1) { latencies[on]!.append(l) } }
        cpu[on]! += keyboard.cpuSeconds - cpuBefore
        keyboard.stop()
    }
    let taps = Double(rounds * tapsPerRound)
    print("keypane tap to keystroke, sound on: \(stats(latencies[true]!)); CPU per tap \(Int(cpu[true]! / taps * 1e6)) µs")
    print("keypane tap to keystroke, sound off: \(stats(latencies[false]!)); CPU per tap \(Int(cpu[false]! / taps * 1e6)) µs")
}
