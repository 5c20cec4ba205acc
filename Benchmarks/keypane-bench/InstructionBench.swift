// Instructions a tap costs, counted by callgrind: keypane and matchbox-keyboard in the same run.

import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

let valgrindPath = "/usr/bin/valgrind"
let callgrindControlPath = "/usr/bin/callgrind_control"

/// A program run under callgrind that counts nothing until `startCounting`, so that its start-up is left out.
final class CountedProgram {
    let child: Child
    let window: UInt
    private let outFile: String
    private var dumps = 0
    private var stopped = false

    private init(child: Child, window: UInt, outFile: String) {
        self.child = child
        self.window = window
        self.outFile = outFile
    }

    static func start(_ bench: LiveBench, _ argv: [String], className: String) throws -> CountedProgram {
        let outFile = "/tmp/keypane-bench-callgrind.\(getpid()).\(className)"
        // Valgrind 3.19 cannot read the DWARF 5 that Swift writes: a copy without it (symbols kept) runs.
        let program = "\(outFile).program"
        try run(["/usr/bin/objcopy", "--strip-debug", argv[0], program])
        defer { unlink(program) }
        // The copy runs from /tmp, where it would find no data folder (no dictionaries: no suggestions): it
        // is given the one its layouts are in.
        let layouts = argv.firstIndex(of: "--layouts").flatMap { argv.indices.contains($0 + 1) ? argv[$0 + 1] : nil }
        let data = layouts.map { ["KEYPANE_DATA_DIR=\($0)/.."] } ?? []
        let counted = ["/usr/bin/env"] + data + [valgrindPath, "--tool=callgrind", "--instr-atstart=no",
                                                 "--callgrind-out-file=\(outFile)", program] + argv.dropFirst()
        let (child, _, window) = try bench.startAndWaitForMap(counted, className: className, limit: 60)
        return CountedProgram(child: child, window: window, outFile: outFile)
    }

    func startCounting() throws { try control(["--instr=on"]) }

    /// The instructions counted since `startCounting` or the last call (callgrind's dump of them).
    func instructions() throws -> Int {
        try control(["--dump"])
        dumps += 1
        let dump = "\(outFile).\(dumps)"
        // KEYPANE_BENCH_KEEP_PROFILES=1 keeps the dumps, for callgrind_annotate.
        defer { if getenv("KEYPANE_BENCH_KEEP_PROFILES") == nil { unlink(dump) } else { print("kept \(dump)") } }
        for line in try readText(dump).split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let count = line.split(separator: " ").last.flatMap({ Int($0) }) { return count }
        }
        throw BenchError("no totals in \(dump)")
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        child.stop()
        unlink(outFile)
    }

    private func control(_ arguments: [String]) throws {
        try Self.run([callgrindControlPath] + arguments + ["\(child.pid)"])
    }

    private static func run(_ argv: [String]) throws {
        guard let process = Child.spawn(argv) else { throw BenchError("cannot run \(argv[0])") }
        var status: Int32 = 0
        waitpid(process.pid, &status, 0)
        guard status == 0 else { throw BenchError("\(argv.joined(separator: " ")) failed") }
    }
}

/// CPU time on a shared machine varied by half from one run to the next (the other core's load, the host's);
/// instructions counted in user space vary little, so a change of a tenth shows. The kernel's part (a tap's
/// wake-ups and socket reads, about as many for both keyboards) is not counted.
/// Keypane types prose (quick and held taps) and taps one key; matchbox-keyboard taps one of its letter keys as
/// often, quick and held.
func runInstructionBench(_ bench: LiveBench, arguments keypaneArguments: [String], layout: Layout, hold: Double = 0.03) throws {
    guard access(valgrindPath, X_OK) == 0, access(callgrindControlPath, X_OK) == 0 else {
        print("instructions per tap: valgrind is not installed")
        return
    }
    let (typist, places) = try startCountedTypist(bench, keypaneArguments + ["--no-suggestions"], layout: layout,
                                                  suggestions: false, hold: hold)
    defer { typist.stop() }
    let counted = typeProse(bench, places)
    let proseCount = try typist.instructions()
    let a = places["a"]!
    for _ in 0..<counted { _ = bench.tapLatency(x: a.0, y: a.1) }
    let oneKey = try typist.instructions()
    // Held as a finger holds a key: the press and the release come in rounds of their own, and the press
    // shows the key's balloon.
    for character in prose + prose {
        if let (x, y) = places[character] { _ = bench.tapLatency(x: x, y: y, hold: hold) }
    }
    let proseHeld = try typist.instructions()
    print("keypane instructions per tap (callgrind), suggestions off: typing prose \(proseCount / counted), one key \(oneKey / counted), prose held \(Int(hold * 1000)) ms \(proseHeld / counted) (\(counted) taps each)")
    typist.stop()
    try countProseWithSuggestions(bench, arguments: keypaneArguments, layout: layout, hold: hold)

    guard access(matchboxPath, X_OK) == 0 else { return }
    let peer = try CountedProgram.start(bench, [matchboxPath], className: "Keyboard")
    defer { peer.stop() }
    usleep(1_000_000)
    let target = bench.matchboxLetter(of: peer.window)
    for _ in 0..<10 { _ = bench.tapLatency(x: target.0, y: target.1) }
    try peer.startCounting()
    for _ in 0..<counted { _ = bench.tapLatency(x: target.0, y: target.1) }
    let peerCount = try peer.instructions()
    for _ in 0..<counted { _ = bench.tapLatency(x: target.0, y: target.1, hold: hold) }
    let peerHeld = try peer.instructions()
    print("matchbox-keyboard instructions per tap (callgrind): one key \(peerCount / counted), held \(peerHeld / counted) (\(counted) taps each); ratio keypane/matchbox: prose \(format(Double(proseCount) / Double(peerCount))), one key \(format(Double(oneKey) / Double(peerCount))), held \(format(Double(proseHeld) / Double(peerHeld)))")
}

/// Keypane started under callgrind, with the prose typed once, held, outside the count (the first taps draw
/// each key's images, pressed and with its balloon); counting from there.
private func startCountedTypist(_ bench: LiveBench, _ arguments: [String], layout: Layout, suggestions: Bool,
                                hold: Double) throws -> (CountedProgram, [Character: (Int, Int)]) {
    let typist = try CountedProgram.start(bench, arguments, className: "keypane")
    usleep(1_000_000)
    let places = try bench.letterPlaces(of: typist.window, layout: layout, showsSuggestions: suggestions)
    for character in prose { if let (x, y) = places[character] { _ = bench.tapLatency(x: x, y: y, hold: hold) } }
    try typist.startCounting()
    return (typist, places)
}

/// Types the prose twice in quick taps, `pause` seconds after each; returns the taps typed.
private func typeProse(_ bench: LiveBench, _ places: [Character: (Int, Int)], pause: Double = 0) -> Int {
    var counted = 0
    for character in prose + prose {
        guard let (x, y) = places[character] else { continue }
        _ = bench.tapLatency(x: x, y: y)
        counted += 1
        if pause > 0 { usleep(useconds_t(pause * 1_000_000)) }
    }
    return counted
}

/// Keypane typing the same prose with suggestions on: the taps' instructions on every thread (callgrind
/// follows the suggestion worker too), for the budget of a tap's CPU with suggestions on. At a person's
/// pace, so the worker answers each tap: under valgrind a word's decoding takes some 20 ms, and a tap that
/// comes first makes the worker drop it.
private func countProseWithSuggestions(_ bench: LiveBench, arguments: [String], layout: Layout, hold: Double) throws {
    let (typist, places) = try startCountedTypist(bench, arguments, layout: layout, suggestions: true, hold: hold)
    defer { typist.stop() }
    let counted = typeProse(bench, places, pause: 0.15)
    let total = try typist.instructions()
    print("keypane instructions per tap (callgrind, every thread), suggestions on: typing prose \(total / counted) (\(counted) taps)")
}
