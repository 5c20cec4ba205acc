import CX11
import CXTest
import Foundation
import KeyboardModel
import Render

/// The emoji keyboard, live: the Globe key's switch to it and the ABC key's back, from the release to the
/// new keys on screen; paging through every group with the next-page key, first visits and later ones; tap to
/// keystroke for an emoji against a Latin letter, same run.
func runEmojiBench(keypane: String, layouts: String, library: LayoutLibrary) throws {
    // Reading Unicode's list, as a person new to emoji waits for it on a first switch.
    var reads: [Double] = []
    for _ in 0..<20 {
        let start = now()
        _ = try EmojiCatalog()
        reads.append(now() - start)
    }
    print("keypane emoji list read (\(EmojiCatalog.standardPath)): \(stats(reads))")
    let board = EmojiBoard(catalog: try EmojiCatalog())
    let emoji = board.layout()
    // A page drawn with nothing cached, in process, on an image: each emoji's bitmap decoded, made smaller
    // and painted, what a page turn not drawn ahead costs.
    let page = try KeyboardLayoutEngine.layout(emoji, layer: "smileys", width: 1024, height: 320)
    let glyphs = page.keys.filter { if case .text = $0.function { true } else { false } }.count
    var draws: [Double] = []
    for _ in 0..<20 {
        let renderer = KeyboardRenderer()
        let surface = try Surface(width: 1024, height: 320)
        let start = now()
        try renderer.draw(page, on: surface)
        draws.append(now() - start)
    }
    print("keypane emoji page drawn with nothing cached (\(glyphs) emoji, 1024x320 image): \(stats(draws))")
    // The same page drawn ahead key by key, as the host draws it while the Globe key is held: each bitmap
    // decoded in the drawing, or named first to the decoder's thread (`decodeAhead`), as the host does.
    let keys = page.keys.indices.map { (geometry: page, key: $0) }
    var alone: [Double] = [], shared: [Double] = []
    for round in 0..<40 {
        let renderer = KeyboardRenderer()
        let surface = try Surface(width: 1024, height: 320)
        try renderer.draw(try KeyboardLayoutEngine.layout(emoji, layer: "symbols", width: 1024, height: 320), on: surface)
        let start = now()
        if round % 2 == 1 { renderer.decodeAhead(keys) }
        for key in page.keys.indices { renderer.prepareKey(key, of: page, state: KeyboardState(), on: surface) }
        if round % 2 == 1 { shared.append(now() - start) } else { alone.append(now() - start) }
    }
    print("keypane emoji page drawn ahead key by key, nothing cached: bitmaps decoded in the drawing \(stats(alone)); "
          + "decoded on the decoder's thread meanwhile \(stats(shared))")
    let bench = try LiveBench()
    defer { bench.close() }
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("keypane-bench-emoji-\(getpid())")
    defer { try? FileManager.default.removeItem(at: state) }
    // The keyboards named (the emoji list read at start), or as a person gets them by default (read when
    // first wanted: while the Globe key toward them is held).
    func start(named: Bool = true) throws -> (Child, UInt) {
        let keyboards = named ? ["--keyboards", "default,emoji"] : ["--languages", "en-US"]
        let (child, _, window) = try bench.startAndWaitForMap(
            [keypane, "--layouts", layouts, "--no-sound", "--no-suggestions", "--height", "320"] + keyboards,
            className: "keypane", environment: ["XDG_STATE_HOME=\(state.path)"])
        usleep(300_000)
        return (child, window)
    }
    // The first switch of a new keyboard: with the Globe key held as long as a finger's tap lasts (100 ms),
    // or 20 ms, and, held 20 ms, for a person who has used emoji before (the first page is drawn ahead at
    // once).
    func firstSwitch(held: Double) throws -> Double? {
        let (child, window) = try start(named: false)
        defer { child.stop() }
        let (ox, oy) = bench.origin(of: window)
        let (w, h) = bench.size(of: window)
        let options = LayoutOptions(showsGlobe: true, showsSuggestions: false)
        let globe = try KeyboardLayoutEngine.layout(library["default"]!, layer: nil, width: w, height: h, options: options)
            .keys.first { $0.function == .globe }!.rect
        let top = try KeyboardLayoutEngine.layout(emoji, layer: "smileys", width: w, height: h, options: options)
            .keys.first { $0.function == .text("😀") }!.rect
        return bench.redrawAfterTap(at: (ox + globe.x + globe.width / 2, oy + globe.y + globe.height / 2), window: window,
                                    row: top.y + top.height / 2, width: w, held: held)
    }
    let fingerFirst = try (0..<10).compactMap { _ in try firstSwitch(held: 0.1) }
    // A quick tap (20 ms) by a person new to emoji: the least time drawing ahead has. Forty of them, so
    // that a slow one in fifty shows.
    let quickFirst = try (0..<40).compactMap { _ in try firstSwitch(held: 0.02) }
    let memory = state.appendingPathComponent("keypane/emoji")
    try FileManager.default.createDirectory(at: memory.deletingLastPathComponent(), withIntermediateDirectories: true)
    try "recent 👋\n".write(to: memory, atomically: true, encoding: .utf8)
    let returningFirst = try (0..<3).compactMap { _ in try firstSwitch(held: 0.02) }
    try FileManager.default.removeItem(at: memory)
    print("keypane Globe key to the emoji keyboard, first switch of a new keyboard (default keyboards), release to redrawn: Globe held 100 ms "
          + "(a finger's tap) \(stats(fingerFirst)); held 20 ms \(stats(quickFirst)); held 20 ms by a person who has used emoji "
          + "\(stats(returningFirst))")
    let (child, window) = try start()
    defer { child.stop() }
    let (ox, oy) = bench.origin(of: window)
    let (w, h) = bench.size(of: window)
    func centre(_ layout: Layout, layer: String? = nil, _ match: (PlacedKey) -> Bool) throws -> (Int, Int) {
        let geometry = try KeyboardLayoutEngine.layout(layout, layer: layer, width: w, height: h,
                                                       options: LayoutOptions(showsGlobe: true, showsSuggestions: false))
        let key = geometry.keys.first(where: match)!.rect
        return (ox + key.x + key.width / 2, oy + key.y + key.height / 2)
    }
    func redrawAfterTap(_ point: (Int, Int), row y: Int) -> Double? {
        bench.redrawAfterTap(at: point, window: window, row: y - oy, width: w)
    }
    let letters = library["default"]!
    let globe = try centre(letters) { $0.function == .globe }
    let abc = try centre(emoji, layer: "smileys") { $0.function == .languageKeyboard }
    let (_, topRow) = try centre(emoji, layer: "smileys") { $0.function == .text("😀") }
    var firstSwitch: [Double] = [], laterSwitch: [Double] = [], back: [Double] = []
    for round in 0..<20 {
        if let t = redrawAfterTap(globe, row: topRow) { round == 0 ? firstSwitch.append(t) : laterSwitch.append(t) }
        if let t = redrawAfterTap(abc, row: topRow) { back.append(t) }
    }
    print("keypane Globe key to the emoji keyboard, release to redrawn: first \(stats(firstSwitch)); later \(stats(laterSwitch)); "
          + "ABC back to the letters \(stats(back))")

    // Every page in turn with the next-page key, twice round: the first round draws each page's emoji for
    // the first time.
    _ = redrawAfterTap(globe, row: topRow)
    let beforePages = child.memory
    let next = try centre(emoji, layer: "smileys") { $0.label == "›" }
    let pages = emoji.layers.count - 1  // all but search, recent included
    var firstPages: [Double] = [], laterPages: [Double] = []
    for round in 0..<2 {
        for _ in 0..<pages {
            if let t = redrawAfterTap(next, row: topRow) { round == 0 ? firstPages.append(t) : laterPages.append(t) }
        }
    }
    let slow = firstPages.enumerated().filter { $0.element > 0.016 }.map { "\(emoji.layers[($0.offset + 1) % pages])" }
    print("keypane emoji next page, release to redrawn, \(pages) pages: first visits \(stats(firstPages)) "
          + "(over 16 ms: \(slow.isEmpty ? "none" : slow.joined(separator: ", "))); later visits \(stats(laterPages))")
    // What seeing every page leaves in memory (the glyphs' images are not kept).
    usleep(2_500_000)
    let afterPages = child.memory
    func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
    print("keypane memory, before and 2.5 s after every emoji page seen twice: RSS \(mib(beforePages.rss)) -> \(mib(afterPages.rss)), "
          + "PSS \(mib(beforePages.pss)) -> \(mib(afterPages.pss)), private \(mib(beforePages.private)) -> \(mib(afterPages.private)) MiB")

    // Back on the first page: an emoji (a spare keycode), then the letters' a, same run.
    let grinning = try centre(emoji, layer: "smileys") { $0.function == .text("😀") }
    var emojiTaps: [Double] = []
    for _ in 0..<300 { if let l = bench.tapLatency(x: grinning.0, y: grinning.1) { emojiTaps.append(l) } }
    _ = redrawAfterTap(abc, row: topRow)
    let a = try centre(letters) { $0.function == .text("a") }
    var latin: [Double] = []
    for _ in 0..<300 { if let l = bench.tapLatency(x: a.0, y: a.1) { latin.append(l) } }
    print("keypane tap to keystroke, same run: emoji 😀 (spare keycode) \(stats(emojiTaps)); Latin a \(stats(latin))")
}
