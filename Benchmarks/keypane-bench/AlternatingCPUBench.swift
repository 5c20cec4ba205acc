// CPU a tap costs keypane against matchbox-keyboard, each on an X server of its own, in alternating blocks.

import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

/// On this shared machine either keyboard's CPU a tap moves by half from one run to the next, with what
/// else the machine does. Typed in alternating blocks, both see the same load, so their ratio holds.
/// keypane types prose with suggestions off; matchbox-keyboard taps one key, as in the other figures.
func runAlternatingCPUBench(_ bench: LiveBench, arguments keypaneArguments: [String], layout: Layout,
                            hold: Double) throws {
    guard access(matchboxPath, X_OK) == 0 else { return }
    let peerBench = try LiveBench()
    defer { peerBench.close() }
    let (typist, _, window) = try bench.startAndWaitForMap(keypaneArguments + ["--no-suggestions"], className: "keypane")
    defer { typist.stop() }
    let (peer, _, peerWindow) = try peerBench.startAndWaitForMap([matchboxPath], className: "Keyboard")
    defer { peer.stop() }
    usleep(500_000)
    let places = try bench.letterPlaces(of: window, layout: layout, showsSuggestions: false)
    let target = peerBench.matchboxLetter(of: peerWindow)
    let (blocks, tapsPerBlock) = (12, 40)
    var text = (0..<20).flatMap { _ in prose }.compactMap { places[$0] }.makeIterator()
    for held in [0, hold] {
        var own = 0.0, other = 0.0, ratios: [Double] = []
        var faults = (own: 0, other: 0), wakeups = (own: 0, other: 0)
        for _ in 0..<blocks {
            let (ownBefore, ownFaults, ownWakeups) = (typist.cpuSeconds, typist.minorFaults, typist.wakeups)
            for _ in 0..<tapsPerBlock {
                guard let (x, y) = text.next() else { break }
                _ = bench.tapLatency(x: x, y: y, hold: held)
            }
            let ownBlock = typist.cpuSeconds - ownBefore
            faults.own += typist.minorFaults - ownFaults
            wakeups.own += typist.wakeups - ownWakeups
            let (otherBefore, otherFaults, otherWakeups) = (peer.cpuSeconds, peer.minorFaults, peer.wakeups)
            for _ in 0..<tapsPerBlock { _ = peerBench.tapLatency(x: target.0, y: target.1, hold: held) }
            let otherBlock = peer.cpuSeconds - otherBefore
            faults.other += peer.minorFaults - otherFaults
            wakeups.other += peer.wakeups - otherWakeups
            own += ownBlock
            other += otherBlock
            ratios.append(ownBlock / otherBlock)
        }
        let taps = Double(blocks * tapsPerBlock)
        let how = held > 0 ? "taps held \(Int(held * 1000)) ms" : "quick taps"
        print("CPU per tap in alternating blocks of \(tapsPerBlock), \(how): keypane (prose, suggestions off) \(Int(own / taps * 1e6)) µs, matchbox-keyboard (one key) \(Int(other / taps * 1e6)) µs; ratio \(format(own / other)), blocks' ratios \(format(ratios.min()!)) to \(format(ratios.max()!)), median \(format(percentile(ratios, 0.5))); page faults per tap \(format(Double(faults.own) / taps)) and \(format(Double(faults.other) / taps)); wake-ups per tap \(format(Double(wakeups.own) / taps)) and \(format(Double(wakeups.other) / taps))")
    }
}
