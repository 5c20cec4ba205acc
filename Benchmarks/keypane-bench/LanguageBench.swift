import CX11
import CXTest
import Foundation
import KeyboardModel

/// Languages, live: tap to keystroke for a Latin letter and for a Cyrillic one under the US keymap (which
/// has no Cyrillic: a spare keycode), in one run; the Globe key's switch from one language to the next,
/// from the tap's release to the new keyboard on screen; memory with all sixteen languages enabled.
func runLanguageBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    let bench = try LiveBench()
    defer { bench.close() }
    let languages = ["en-US", "en-GB", "de", "fr", "es", "it", "pt-BR", "nl", "sv", "da", "nb", "pl", "ru", "uk", "el", "tr"]
    let arguments = [keypane, "--layouts", layouts, "--no-sound", "--no-suggestions", "--height", "320",
                     "--languages", languages.joined(separator: ",")]

    do {
        let (child, _, _) = try bench.startAndWaitForMap(arguments, className: "keypane")
        defer { child.stop() }
        sleep(2)
        let (rss, pss, own) = child.memory
        print("keypane memory 2 s after map, sixteen languages enabled: RSS \(format(Double(rss) / 1024)) / PSS "
              + "\(format(Double(pss) / 1024)) / private \(format(Double(own) / 1024)) MiB")
    }
    // For the switches, languages whose top rows differ, so that each switch shows: English, German,
    // French, Russian, Greek, Turkish, and round again.
    let cycle = ["default", "de", "fr", "ru", "el", "tr"]
    let (child, _, window) = try bench.startAndWaitForMap(
        [keypane, "--layouts", layouts, "--no-sound", "--no-suggestions", "--height", "320", "--keyboards",
         cycle.joined(separator: ",")], className: "keypane")
    defer { child.stop() }
    usleep(300_000)
    let (ox, oy) = bench.origin(of: window)
    let (w, h) = bench.size(of: window)
    func centre(_ layout: String, _ match: (PlacedKey) -> Bool) throws -> (Int, Int) {
        let geometry = try KeyboardLayoutEngine.layout(library[layout]!, width: w, height: h,
                                                       options: LayoutOptions(showsGlobe: true, showsSuggestions: false))
        let key = geometry.keys.first(where: match)!.rect
        return (ox + key.x + key.width / 2, oy + key.y + key.height / 2)
    }

    // The Globe key: each tap shows the next language; the time is from the release to the first row of
    // keys showing other pixels.
    let globe = try centre("default") { $0.function == .globe }
    let (_, gy) = try centre("default") { $0.function == .text("q") }
    var first: [Double] = [], later: [Double] = []
    for round in 0..<6 {
        for _ in 0..<cycle.count {
            guard let changed = bench.redrawAfterTap(at: globe, window: window, row: gy - oy, width: w) else { continue }
            if round == 0 { first.append(changed) } else { later.append(changed) }
        }
    }
    print("keypane Globe switch to the next language, release to redrawn: first visit of each \(stats(first)); "
          + "later visits \(stats(later))")

    // Back on the first keyboard (the rounds end where they began): a Latin letter, then a Cyrillic one.
    let a = try centre("default") { $0.function == .text("a") }
    var latin: [Double] = []
    for _ in 0..<300 { if let l = bench.tapLatency(x: a.0, y: a.1) { latin.append(l) } }
    // Russian is the fourth keyboard: three taps on from English.
    for _ in 0..<3 { _ = bench.tapLatency(x: globe.0, y: globe.1); usleep(30_000) }
    let zhe = try centre("ru") { $0.function == .text("ж") }
    var cyrillic: [Double] = []
    for _ in 0..<300 { if let l = bench.tapLatency(x: zhe.0, y: zhe.1) { cyrillic.append(l) } }
    print("keypane tap to keystroke under the US keymap, same run: Latin a \(stats(latin)); Cyrillic ж (spare keycode) \(stats(cyrillic))")
}
