// Start-up and memory, keypane beside matchbox-keyboard, under the live bench's Xvfb and openbox.

#if canImport(Glibc)
import Glibc
#endif

let matchboxPath = "/usr/bin/matchbox-keyboard"

/// A home folder of the bench's own, as a person's session has: a keyboard started in it writes its font
/// record (LabelFonts), its first frame's picture (FrameSnapshot) and state there, and every later start
/// reads them, as every start after a person's first does. A start in a new, empty one is a person's first start. (The bench's own home is never
/// the keyboard's: what the developer's keyboards left there would change the figures.)
struct BenchHome {
    let path: String
    var environment: [String] { ["HOME=\(path)", "XDG_CACHE_HOME=\(path)/.cache", "XDG_CONFIG_HOME=\(path)/.config"] }

    /// An empty home.
    init() throws {
        var template = Array("/tmp/keypane-bench-home-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a home folder") }
        path = String(cString: made)
    }

    /// Starts the keyboard in it once, until it has written its font record and its first frame's picture
    /// (once its first frame is out).
    func prime(_ keypane: [String], bench: LiveBench) throws {
        let (child, _, _) = try bench.startAndWaitForMap(keypane, className: "keypane", environment: environment)
        let record = path + "/.cache/keypane/fonts", picture = path + "/.cache/keypane/frame"
        for _ in 0..<200 where access(record, R_OK) != 0 || access(picture, R_OK) != 0 { usleep(10_000) }
        usleep(200_000)
        child.stop()
        guard access(record, R_OK) == 0 else { throw BenchError("keypane wrote no font record in \(path)") }
    }

    func remove() { _ = system("rm -rf '\(path)'") }
}

/// Start-up (exec to window mapped and to first frame), each a first start (an
/// empty home) and a usual one (a home an earlier start wrote its record in), beside matchbox-keyboard. Returns
/// the first frames of keypane's usual starts and matchbox-keyboard's, in seconds.
@discardableResult
func runStartBench(_ bench: LiveBench, keypane: String, layouts: String) throws -> (keypane: [Double], peer: [Double]) {
    // Sound off, as matchbox-keyboard has none: runSoundBench measures keypane with sound against without.
    let keypaneArguments = [keypane, "--keyboards", "default", "--height", "320", "--no-sound", "--layouts", layouts]
    let hasPeer = access(matchboxPath, X_OK) == 0
    if !hasPeer { print("matchbox-keyboard: not installed, no comparison") }
    let home = try BenchHome()
    defer { home.remove() }
    try home.prime(keypaneArguments, bench: bench)
    var first: [(mapped: Double, frame: Double)] = [], usual = first, peer = first
    // Twenty of each, taken in turn, so the load of a shared machine falls on all alike.
    for _ in 0..<20 {
        let empty = try BenchHome()
        first.append(try bench.startUp(keypaneArguments, className: "keypane", environment: empty.environment))
        empty.remove()
        usleep(100_000)
        usual.append(try bench.startUp(keypaneArguments, className: "keypane", environment: home.environment))
        usleep(100_000)
        if hasPeer {
            peer.append(try bench.startUp([matchboxPath], className: "Keyboard", environment: home.environment))
            usleep(100_000)
        }
    }
    print("keypane exec to window mapped, a usual start: \(stats(usual.map(\.mapped)))")
    print("keypane exec to first frame, a usual start: \(stats(usual.map(\.frame)))")
    print("keypane exec to window mapped, a first start (an empty home): \(stats(first.map(\.mapped)))")
    print("keypane exec to first frame, a first start (an empty home): \(stats(first.map(\.frame)))")
    if hasPeer {
        print("matchbox-keyboard exec to window mapped: \(stats(peer.map(\.mapped)))")
        print("matchbox-keyboard exec to first frame: \(stats(peer.map(\.frame)))")
    }

    return (usual.map(\.frame), peer.map(\.frame))
}

/// Memory two seconds after the window is mapped: keypane with its default settings (no sound server
/// here, so its sound thread has given up), five usual starts and a first one, and with sound and
/// suggestions off, beside matchbox-keyboard. The figures count what the program shares with no other
/// process: a library the bench maps too (it draws keyboards itself) is shared, as it is on a desktop whose
/// applications use it.
func runMemoryBench(_ bench: LiveBench, keypane: String, layouts: String) throws {
    func memory(_ argv: [String], className: String, environment: [String] = []) throws -> (rss: Int, pss: Int, private: Int) {
        let (child, _, _) = try bench.startAndWaitForMap(argv, className: className, environment: environment)
        defer { child.stop() }
        sleep(2)
        return child.memory
    }
    func mib(_ kib: Int) -> String { format(Double(kib) / 1024) }
    func line(_ figures: (rss: Int, pss: Int, private: Int)) -> String {
        "RSS \(mib(figures.rss)) / PSS \(mib(figures.pss)) / private \(mib(figures.private)) MiB"
    }
    /// Several starts: the highest of each figure, as the target holds for every start, and the others.
    func lines(_ runs: [(rss: Int, pss: Int, private: Int)]) -> String {
        let most = (runs.map(\.rss).max()!, runs.map(\.pss).max()!, runs.map(\.private).max()!)
        return "at most " + line(most) + " (PSS " + runs.map { mib($0.pss) }.joined(separator: ", ")
            + "; private " + runs.map { mib($0.private) }.joined(separator: ", ") + ")"
    }
    // A usual start is one with the settings of the start before, in a home that start wrote its font
    // record and its first frame's picture in.
    func usualMemory(_ argv: [String], runs: Int) throws -> String {
        let home = try BenchHome()
        defer { home.remove() }
        try home.prime(argv, bench: bench)
        let figures = try (0..<runs).map { _ in try memory(argv, className: "keypane", environment: home.environment) }
        return runs == 1 ? line(figures[0]) : lines(figures)
    }
    let defaults = [keypane, "--layouts", layouts]
    print("keypane memory 2 s after map, default settings, 5 starts: " + (try usualMemory(defaults, runs: 5)))
    let empty = try BenchHome()
    print("keypane memory 2 s after map, default settings, a first start: "
          + line(try memory(defaults, className: "keypane", environment: empty.environment)))
    empty.remove()
    print("keypane memory 2 s after map, no sound, no suggestions: "
          + (try usualMemory(defaults + ["--no-sound", "--no-suggestions"], runs: 1)))
    if access(matchboxPath, X_OK) == 0 {
        let home = try BenchHome()
        defer { home.remove() }
        print("matchbox-keyboard memory 2 s after map: "
              + line(try memory([matchboxPath], className: "Keyboard", environment: home.environment)))
    }
}
