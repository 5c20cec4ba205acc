// Instructions a tap costs, counted by callgrind: keypane and matchbox-keyboard in the same run, and the code
// those instructions come from.

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
        // The copy runs from /tmp: it finds its data folder through KEYPANE_DATA_DIR, set for every keypane
        // the bench starts.
        let counted = [valgrindPath, "--tool=callgrind", "--instr-atstart=no", "--dump-instr=yes",
                       "--callgrind-out-file=\(outFile)", program]
            + argv.dropFirst()
        let (child, _, window) = try bench.startAndWaitForMap(counted, className: className, limit: 60)
        return CountedProgram(child: child, window: window, outFile: outFile)
    }

    func startCounting() throws { try control(["--instr=on"]) }

    /// What was run since `startCounting` or the last call (callgrind's dump of it).
    func dump() throws -> CallgrindDump {
        try control(["--dump"])
        dumps += 1
        let dump = "\(outFile).\(dumps)"
        // KEYPANE_BENCH_KEEP_PROFILES=1 keeps the dumps, for callgrind_annotate.
        defer { if getenv("KEYPANE_BENCH_KEEP_PROFILES") == nil { unlink(dump) } else { print("kept \(dump)") } }
        let read = CallgrindDump(try readText(dump))
        guard read.instructions > 0 else { throw BenchError("no totals in \(dump)") }
        return read
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
        guard process.wait() == 0 else { throw BenchError("\(argv.joined(separator: " ")) failed") }
    }
}

/// CPU time on a shared machine varied by half from one run to the next (the other core's load, the host's);
/// instructions counted in user space vary little, so a change of a tenth shows. The kernel's part (a tap's
/// wake-ups and socket reads, about as many for both keyboards) is not counted.
/// Keypane types prose (quick and held taps) and taps one key; matchbox-keyboard taps one of its letter keys as
/// often, quick and held. Beside the instructions, the code they ran: between two taps the other processes
/// push a keyboard's code out of the caches, so each tap fetches every line of code it runs again, and the
/// number of lines, more than the instructions, sets what a tap costs.
func runInstructionBench(_ bench: LiveBench, arguments keypaneArguments: [String], layout: Layout, hold: Double = 0.03) throws {
    guard access(valgrindPath, X_OK) == 0, access(callgrindControlPath, X_OK) == 0 else {
        print("instructions per tap: valgrind is not installed")
        return
    }
    let (typist, places) = try startCountedTypist(bench, keypaneArguments + ["--no-suggestions"], layout: layout,
                                                  suggestions: false, hold: hold)
    defer { typist.stop() }
    let counted = typeProse(bench, places)
    let quick = try typist.dump()
    let a = places["a"]!
    for _ in 0..<counted { _ = bench.tapLatency(x: a.0, y: a.1) }
    let oneKey = try typist.dump()
    // Held as a finger holds a key: the press and the release come in rounds of their own, and the press
    // shows the key's balloon.
    for character in prose + prose {
        if let (x, y) = places[character] { _ = bench.tapLatency(x: x, y: y, hold: hold) }
    }
    let proseHeld = try typist.dump()
    print("keypane instructions per tap (callgrind), suggestions off: typing prose \(quick.instructions / counted), one key \(oneKey.instructions / counted), prose held \(Int(hold * 1000)) ms \(proseHeld.instructions / counted) (\(counted) taps each)")
    print("keypane code run by those taps: typing prose \(quick.code), one key \(oneKey.code), prose held \(proseHeld.code)")
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
    let peerQuick = try peer.dump()
    for _ in 0..<counted { _ = bench.tapLatency(x: target.0, y: target.1, hold: hold) }
    let peerHeld = try peer.dump()
    print("matchbox-keyboard instructions per tap (callgrind): one key \(peerQuick.instructions / counted), held \(peerHeld.instructions / counted) (\(counted) taps each); ratio keypane/matchbox: prose \(format(Double(quick.instructions) / Double(peerQuick.instructions))), one key \(format(Double(oneKey.instructions) / Double(peerQuick.instructions))), held \(format(Double(proseHeld.instructions) / Double(peerHeld.instructions)))")
    print("matchbox-keyboard code run by those taps: one key \(peerQuick.code), held \(peerHeld.code); ratio of lines keypane/matchbox: prose \(format(Double(quick.codeLines) / Double(peerQuick.codeLines))), held \(format(Double(proseHeld.codeLines) / Double(peerHeld.codeLines)))")
}

/// The totals of a callgrind dump made with `--dump-instr=yes`, and the code its instructions came from: the
/// distinct 64-byte lines (a cache's unit) and 4 KiB pages of code run, over all the objects mapped.
struct CallgrindDump {
    private(set) var instructions = 0
    private(set) var codeLines = 0
    private(set) var codePages = 0

    var code: String { "\(codeLines) lines of 64 bytes (\(codeLines / 16) KiB) on \(codePages) pages" }

    init(_ text: String) {
        // Addresses are given within their object (the lines after "ob="), absolute ("0x1a2b") or relative to
        // the address before ("+3", "-12", "*").
        var object = 0
        var address = 0
        var lines = Set<Int>()
        var pages = Set<Int>()
        for line in text.split(separator: "\n") {
            if line.hasPrefix("ob=(") {
                object = Int(line.dropFirst(4).prefix { $0 != ")" }) ?? 0
            } else if line.hasPrefix("totals:") || line.hasPrefix("summary:") {
                instructions = line.split(separator: " ").last.flatMap { Int($0) } ?? 0
            } else if let first = line.first, first.isNumber || "+-*".contains(first) {
                let position = line.prefix { $0 != " " }
                switch first {
                case "+": address += Self.number(position.dropFirst())
                case "-": address -= Self.number(position.dropFirst())
                case "*": break
                default: address = Self.number(position)
                }
                lines.insert(object << 40 | address >> 6)
                pages.insert(object << 40 | address >> 12)
            }
        }
        codeLines = lines.count
        codePages = pages.count
    }

    private static func number(_ text: Substring) -> Int {
        text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) ?? 0 : Int(text) ?? 0
    }
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
    let total = try typist.dump().instructions
    print("keypane instructions per tap (callgrind, every thread), suggestions on: typing prose \(total / counted) (\(counted) taps)")
}
