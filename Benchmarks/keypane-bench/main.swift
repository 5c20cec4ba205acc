// keypane-bench: the figures `make bench` prints.
//
//   layout+render  lay out and fully draw a 1920x420 default keyboard (median of many runs)
//   redraw-key     redraw one pressed key (median of many runs)
//   render-rss     peak resident memory of `keypane render` at 1920x420 (max of several runs)
//   live           under a private Xvfb and openbox: exec to window, tap to keystroke at a receiving
//                  client, CPU per tap, RSS, idle wake-ups; and matchbox-keyboard through the same taps
//   resize         screen size changes to the keyboard redrawn at the new width
//   auto-show      with a private session bus: a click into a GTK field, and into a Firefox input, to the
//                  keyboard shown; CPU per tap into the GTK entry; idle wake-ups with the bus and five
//                  applications; the memory the bus adds
//   access         switch scanning's step timing and CPU per step, wake-ups while it is paused, and dwell's
//                  press timing
//   suggest        sentences typed by a touch noise model through the typing engine and suggester: word
//                  error rates, autocorrection precision, recall and F-score, completion and next-word
//                  top-3, hunspell's first suggestion as the baseline, and the decoder's time per tap
//   touch          on Xorg with the inputtest devices: touch lifted and click released to keystroke, two thumbs
//                  at 10 characters a second, a held scanning switch to the highlight moved and the key typed
//   sound          through a private PulseAudio null sink: key press to the click's first audible sample,
//                  20 taps a second, and tap to keystroke with sound on against sound off
//   editing        slide to type and the space bar trackpad live: stroke lifted to the word's first
//                  keystroke, trackpad latencies (`--only slide` runs it too; make bench then adds kebbie's
//                  strokes through keypane-words, Benchmarks/kebbie/evaluate.py)

#if canImport(Glibc)
import Glibc
#endif
import KeyboardModel
import Render

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func report(_ name: String, _ samples: [Double]) {
    let ms = samples.map { $0 * 1000 }
    print("\(name): median \(format(percentile(ms, 0.5))) ms, p99 \(format(percentile(ms, 0.99))) ms, runs \(ms.count)")
}

func format(_ value: Double) -> String {
    let scaled = Int((value * 1000).rounded())
    let fraction = String(scaled % 1000)
    return "\(scaled / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

func argument(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let index = args.firstIndex(of: name), index + 1 < args.count else { return nil }
    return args[index + 1]
}

Child.stopChildrenOnSignals()

let parts = ["start", "memory", "live", "prose", "instructions", "cpu", "resize", "sound", "auto-show", "suggest", "languages", "emoji",
             "access", "touch", "editing", "slide", "settings"]
if let only = argument("--only"), !parts.contains(only) {
    print("keypane-bench: unknown part '\(only)' for --only; the parts: \(parts.joined(separator: ", "))")
    exit(2)
}

/// Runs a program and returns its peak resident set size in KiB.
func peakRSS(_ argv: [String]) -> Int? {
    guard let child = Child.spawn(argv) else { return nil }
    var usage = rusage()
    guard child.wait(usage: &usage) == 0 else { return nil }
    return usage.ru_maxrss
}

let layoutsDirectory = argument("--layouts") ?? "Assets/layouts"
// Every keypane the bench starts reads the data folder of these layouts (dictionaries, sounds), wherever the
// program lies: a baseline build copied elsewhere would find none, and measure a keyboard without suggestions.
if getenv("KEYPANE_DATA_DIR") == nil, let data = realpath(layoutsDirectory + "/..", nil) {
    setenv("KEYPANE_DATA_DIR", data, 1)
    free(data)
}
let library: LayoutLibrary
do { library = try LayoutLibrary(directory: layoutsDirectory) } catch {
    print("keypane-bench: \(error)")
    exit(1)
}
let layout = library.layout(for: .default)!
let (width, height) = (1920, 420)
let surface = try Surface(width: width, height: height)
let renderer = KeyboardRenderer()

// Warm up fonts and caches, as a running keyboard would be.
for _ in 0..<10 {
    try renderer.draw(try KeyboardLayoutEngine.layout(layout, width: width, height: height), on: surface)
}

var full: [Double] = []
for _ in 0..<300 {
    let start = now()
    let geometry = try KeyboardLayoutEngine.layout(layout, width: width, height: height)
    try renderer.draw(geometry, on: surface)
    full.append(now() - start)
}
report("layout+render 1920x420", full)

let geometry = try KeyboardLayoutEngine.layout(layout, width: width, height: height)
let letter = geometry.keys.firstIndex { $0.function == .text("g") }!
var redraw: [Double] = []
for i in 0..<4000 {
    let state = KeyboardState(pressed: i % 2 == 0 ? [letter] : [])
    let start = now()
    try renderer.redrawKey(letter, of: geometry, state: state, on: surface)
    redraw.append(now() - start)
}
report("redraw one key", redraw)

// A press as the live keyboard draws it: the key pressed with its balloon over the keys above, then
// released with the balloon gone; each redraws the key's and the balloon's areas.
if let balloon = Popup.preview(of: letter, in: geometry) {
    let areas = [KeyboardRenderer.keyArea(geometry.keys[letter].rect),
                 KeyboardRenderer.keyArea(PopupLayout.rect(for: balloon, in: geometry))]
    var press: [Double] = [], release: [Double] = []
    for _ in 0..<2000 {
        var start = now()
        try renderer.redraw(areas, of: geometry, state: KeyboardState(pressed: [letter], popups: [balloon]), on: surface)
        press.append(now() - start)
        start = now()
        try renderer.redraw(areas, of: geometry, state: KeyboardState(), on: surface)
        release.append(now() - start)
    }
    report("press with balloon", press)
    report("release, balloon gone", release)
}

// The keyboards start as a new user's would, and learn into a folder of the bench's own: recent emoji,
// a language chosen or words learned in the person's own state would change the figures.
func freshStateFolder() -> String { "/tmp/keypane-bench-state-\(getpid())" }
let freshState = freshStateFolder()
mkdir(freshState, 0o700)
setenv("XDG_STATE_HOME", freshState, 1)
setenv("XDG_DATA_HOME", freshState, 1)
// Removed however the bench ends: a part that fails exits at once.
atexit { _ = system("rm -rf '\(freshStateFolder())'") }

if let keypane = argument("--keypane") {
    var peaks: [Int] = []
    for _ in 0..<5 {
        guard let peak = peakRSS([keypane, "render", "--width", "1920", "--height", "420", "--layouts",
                                  layoutsDirectory, "--output", "/tmp/keypane-bench.png"]) else {
            print("keypane-bench: \(keypane) render failed")
            exit(1)
        }
        peaks.append(peak)
    }
    print("keypane render peak RSS: \(format(Double(peaks.max()!) / 1024)) MiB (max of \(peaks.count) runs)")
}

if argument("--only") == "suggest" || argument("--only") == nil {
    do {
        try runSuggestBench(library: library, dictionary: argument("--dictionary") ?? "Assets/dictionaries/en.dict",
                            sentencesPath: argument("--sentences") ?? "Benchmarks/data/suggest-sentences.txt")
        // German, French and Portuguese with their own dictionaries and keyboards, hunspell's as the baseline.
        for (language, keyboard, hunspell) in [("de", "de", "de_DE"), ("fr", "fr", "fr_FR"), ("pt", "pt-br", "pt_BR")] {
            try runSuggestBench(library: library, dictionary: "Assets/dictionaries/\(language).dict",
                                sentencesPath: "Benchmarks/data/suggest-sentences-\(language).txt", keyboard: keyboard,
                                hunspell: hunspell)
        }
    } catch {
        print("keypane-bench: suggest: \(error)")
    }
}

if let keypane = argument("--keypane") {
    do {
        let only = argument("--only")
        if only == nil || only == "start" || only == "memory" || only == "live" || only == "prose" || only == "instructions"
            || only == "cpu" {
            try runLiveBench(keypane: keypane, layouts: layoutsDirectory, library: library, only: only)
        }
        if only == nil || only == "resize" {
            try runResizeBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "sound" {
            try runSoundBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "auto-show" {
            try runAutoShowBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "suggest" {
            try runSuggestLive(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "languages" {
            try runLanguageBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "emoji" {
            try runEmojiBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "access" {
            try runAccessBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "touch" {
            try runTouchBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "editing" || only == "slide" {
            try runEditingBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
        if only == nil || only == "settings" {
            try runSettingsBench(keypane: keypane, layouts: layoutsDirectory, library: library)
        }
    } catch {
        print("keypane-bench: live figures: \(error)")
        exit(1)
    }
}
