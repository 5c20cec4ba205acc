import Foundation
import KeyboardModel
import Typing
import Words

/// keypane-words: the keyboard's own typing engine and suggester behind a line protocol, for benchmarks
/// such as kebbie. It prints the keyboard's letter keys, space and shift as one JSON line, then answers
/// each request line (correct, complete, next, or swipe: a gesture the engine slides along) with the
/// candidates the keyboard would show or type.
/// Nothing is learned between requests: every request is a fresh user's first.
struct Options {
    var language = "en"
    var width = 390
    var height = 300
    var layouts = "Assets/layouts"
    var dictionary: String?
    /// Suggester settings to try, by name (for tuning on text other than the held-out set).
    var tuning: [String: Float] = [:]

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(name) needs a value") }
            switch name {
            case "--language": language = value
            case "--width": width = pixels(name, value)
            case "--height": height = pixels(name, value)
            case "--layouts": layouts = value
            case "--dictionary": dictionary = value
            case "--tune":
                let parts = value.split(separator: "=").map(String.init)
                guard parts.count == 2, let number = Float(parts[1]), Tuning.names.contains(parts[0]) else {
                    fail("bad --tune '\(value)': expected NAME=NUMBER, NAME one of \(Tuning.names.joined(separator: ", "))")
                }
                tuning[parts[0]] = number
            default: fail("unknown option \(name): expected --language, --width, --height, --layouts, --dictionary or --tune")
            }
        }
    }
}

func pixels(_ name: String, _ value: String) -> Int {
    guard let number = Int(value), number > 0 else { fail("bad \(name) '\(value)': expected pixels") }
    return number
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("keypane-words: \(message)\n".utf8))
    exit(1)
}

/// The suggester's settings that `--tune` may change.
enum Tuning {
    static let names = ["unknown-threshold", "known-margin", "ambiguity", "completion-lead", "completion-touch",
                        "swipe-reach", "swipe-end-reach", "swipe-location", "swipe-shape", "swipe-ends", "swipe-language", "swipe-short-cost", "swipe-short-language", "swipe-max-scored", "swipe-warp", "swipe-warped", "swipe-anchor",
                        "language-weight", "pair-share", "beam"]

    static func apply(_ tuning: [String: Float], to suggester: inout Suggester) {
        for (name, value) in tuning {
            switch name {
            case "unknown-threshold": suggester.unknownThreshold = value
            case "known-margin": suggester.knownMargin = value
            case "ambiguity": suggester.ambiguity = value
            case "completion-lead": suggester.completionLead = value
            case "completion-touch": suggester.completionTouch = value
            case "swipe-reach": suggester.swipe.reach = Double(value)
            case "swipe-end-reach": suggester.swipe.endReach = Double(value)
            case "swipe-location": suggester.swipe.location = value
            case "swipe-shape": suggester.swipe.shape = value
            case "swipe-ends": suggester.swipe.ends = value
            case "swipe-language": suggester.swipe.languageWeight = value
            case "swipe-short-cost": suggester.swipe.shortStrokeCost = value
            case "swipe-short-language": suggester.swipe.shortStrokeLanguage = value
            case "swipe-max-scored": suggester.swipe.maxScored = Int(value)
            case "swipe-warp": suggester.swipe.warp = Int(value)
            case "swipe-warped": suggester.swipe.warped = Int(value)
            case "swipe-anchor": suggester.swipe.anchor = value
            case "language-weight": suggester.decoder.settings.languageWeight = value
            case "pair-share": suggester.decoder.settings.pairShare = value
            case "beam": suggester.decoder.settings.beam = Int(value)
            default: break
            }
        }
    }
}

/// One request line.
struct Request: Decodable {
    var op: String
    var context: String?
    /// Each character's tap, or nil for a character typed as a person would (its key's centre).
    var keystrokes: [[Double]?]?
    var word: String?
    /// A stroke across the keys, in the keyboard's pixels.
    var gesture: [[Double]]?
}

struct Answer: Encodable {
    var candidates: [String]
}

struct KeyDescription: Encodable {
    var text: String
    var x: Int, y: Int, width: Int, height: Int
}

/// A keyboard that types one request's word after its context, as the keyboard does.
struct Typist {
    var engine: TypingEngine
    var suggester: Suggester
    /// The decoder's search of the word typed, as the keyboard's worker keeps it.
    var search = SearchMemo()
    let fresh: TypingEngine
    /// What the engine typed since the request began.
    var output = ""
    var time = 1000.0

    init(library: LayoutLibrary, keyboard: String, language: String, dictionary: WordDictionary, width: Int, height: Int) throws {
        // Plain text out: the benchmark takes its sentences as their writers meant them, a sentence begun in
        // lower case ("i think") included, so no capital is added at a sentence's start; straight quotes.
        let traits = TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none, smartQuotes: false,
                                          smartDashes: false)
        var engine = try TypingEngine(library: library, enabled: [keyboard], traits: traits, width: width, height: height)
        engine.dictionaryLanguages = [language]
        engine.suggestionsEnabled = true
        self.engine = engine
        fresh = engine
        suggester = Suggester(decoder: Decoder(dictionary: dictionary))
    }

    var geometry: KeyboardGeometry { engine.geometry }

    /// Starts a request: the field holds `context` before the caret.
    mutating func begin(context: String) {
        engine = fresh
        output = ""
        settle(engine.read(context: context), force: true)
    }

    /// Asks the suggester about the word as it is now, as the keyboard's worker does.
    mutating func settle(_ update: Update, force: Bool = false) {
        guard update.wordChanged || force, let request = engine.suggestionRequest() else { return }
        // A stroke's word is typed when its answer comes.
        KeyAction.apply(engine.receive(suggester.suggest(request, memo: &search)).actions, to: &output)
    }

    mutating func tap(x: Double, y: Double) {
        send(.began, x: x, y: y)
        send(.ended, x: x, y: y)
    }

    /// The centre of the key that types `character` on the layer shown, if one does.
    func centre(of character: Character) -> (Double, Double)? {
        // Shifted, the letter keys show (and type) capitals.
        let texts = [String(character), String(character).lowercased(), String(character).uppercased()]
        guard let key = geometry.keys.first(where: { key in texts.contains { key.function == .text($0) } }) else { return nil }
        return Self.centre(key.rect)
    }

    static func centre(_ rect: Rect) -> (Double, Double) {
        (Double(rect.x) + Double(rect.width) / 2, Double(rect.y) + Double(rect.height) / 2)
    }

    /// Types a character as a person would: its key, else the key that offers it held (é on e), else
    /// through the layer keys (123, #+=), then back to the letters where the layer does not return by
    /// itself. A character on no layer is left out.
    mutating func type(_ character: Character) {
        if let (x, y) = centre(of: character) { return tap(x: x, y: y) }
        if typeHeld(character) { return }
        for layer in ["numbers", "symbols"] {
            tapLayerKey(layer)
            if let (x, y) = centre(of: character) {
                tap(x: x, y: y)
                break
            }
        }
        if centre(of: "a") == nil { tapLayerKey("letters") }
    }

    /// Types a character a key offers held (é on e, ß on s): the key held until its alternates open, the
    /// finger moved onto the character and lifted. False where no key of the layer offers it.
    mutating func typeHeld(_ character: Character) -> Bool {
        let forms = [String(character), String(character).lowercased()]
        guard let index = geometry.keys.firstIndex(where: { key in forms.contains { key.alternates.contains($0) } })
        else { return false }
        var (x, y) = Self.centre(geometry.keys[index].rect)
        send(.began, x: x, y: y)
        let start = time
        while alternatesShown() == nil, let deadline = engine.nextDeadline, deadline < start + 2 {
            time = max(time, deadline)
            let update = engine.tick(at: time)
            KeyAction.apply(update.actions, to: &output)
            settle(update)
        }
        if let popup = alternatesShown(), case .alternates(_, let options, _) = popup,
           let chosen = options.firstIndex(where: { forms.contains($0) || forms.contains($0.lowercased()) }) {
            (x, y) = PopupLayout.centre(ofAlternate: chosen, in: PopupLayout.rect(for: popup, in: geometry), count: options.count)
            send(.moved, x: x, y: y)
        }
        send(.ended, x: x, y: y)
        return true
    }

    /// The long-press alternates open, if any.
    func alternatesShown() -> Popup? {
        engine.state.popups.first { popup in
            if case .alternates = popup { return true }
            return false
        }
    }

    mutating func send(_ phase: InputEvent.Phase, x: Double, y: Double) {
        let update = engine.handle(InputEvent(phase: phase, x: x, y: y, time: time))
        time += 0.08
        KeyAction.apply(update.actions, to: &output)
        settle(update)
    }

    mutating func tapLayerKey(_ layer: String) {
        guard let key = geometry.keys.first(where: { $0.function == .layer(layer) }) else { return }
        tap(key.rect)
    }

    /// A tap on a key's centre.
    mutating func tap(_ rect: Rect) {
        let (x, y) = Self.centre(rect)
        tap(x: x, y: y)
    }

    mutating func type(_ word: String, keystrokes: [[Double]?]) {
        for (index, character) in word.enumerated() {
            // A capital: shift first, as a person types one.
            if character.isUppercase, engine.state.shift == .off,
               let shift = geometry.keys.first(where: { $0.function == .shift }) {
                tap(shift.rect)
            }
            if index < keystrokes.count, let point = keystrokes[index], point.count == 2 {
                tap(x: point[0], y: point[1])
            } else {
                type(character)
            }
        }
    }

    /// A finger slides along `points` (one every 10 ms) and lifts, as on the keyboard.
    mutating func slide(_ points: [[Double]]) {
        let valid = points.filter { $0.count == 2 }
        guard let first = valid.first, let last = valid.last else { return }
        var updates = [engine.handle(InputEvent(phase: .began, x: first[0], y: first[1], time: time))]
        for point in valid.dropFirst() {
            time += 0.01
            updates.append(engine.handle(InputEvent(phase: .moved, x: point[0], y: point[1], time: time)))
        }
        time += 0.01
        updates.append(engine.handle(InputEvent(phase: .ended, x: last[0], y: last[1], time: time)))
        for update in updates {
            KeyAction.apply(update.actions, to: &output)
            settle(update)
        }
    }

    /// The bar's words, in order.
    var bar: [String] { engine.state.bar.map(\.text).filter { !$0.isEmpty } }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let library: LayoutLibrary
do { library = try LayoutLibrary(directory: options.layouts) } catch { fail("\(error)") }
// Typing a language's words on another language's keys would measure nothing: a language without a
// keyboard of its own is refused.
guard let keyboard = Language.keyboard(for: options.language, among: library.available) else {
    fail("no keyboard for the language '\(options.language)': expected one of \(Language.named.map(\.tag).joined(separator: ", "))")
}
let dictionaryPath = options.dictionary ?? "Assets/dictionaries/\(Language.primary(options.language)).dict"
let dictionary: WordDictionary
do { dictionary = try WordDictionary(path: dictionaryPath) } catch { fail("\(error)") }
var typist: Typist
do {
    typist = try Typist(library: library, keyboard: keyboard, language: Language.primary(options.language),
                        dictionary: dictionary, width: options.width, height: options.height)
} catch { fail("\(error)") }
Tuning.apply(options.tuning, to: &typist.suggester)

let encoder = JSONEncoder()
func say<T: Encodable>(_ value: T) {
    var line = (try? encoder.encode(value)) ?? Data("{}".utf8)
    line.append(0x0A)
    FileHandle.standardOutput.write(line)
}

// The keys, first: letters, space and shift, in the keyboard's pixels.
let described = typist.geometry.keys.compactMap { key -> KeyDescription? in
    let text: String
    switch key.function {
    case .text(let t) where t.count == 1 && (t.first!.isLetter || t == " "): text = t
    case .shift: text = "shift"
    default: return nil
    }
    return KeyDescription(text: text, x: key.rect.x, y: key.rect.y, width: key.rect.width, height: key.rect.height)
}
say(["keys": described])

let decoder = JSONDecoder()
while let line = readLine(strippingNewline: true) {
    guard !line.isEmpty else { continue }
    guard let request = try? decoder.decode(Request.self, from: Data(line.utf8)) else {
        fail("cannot read the request '\(line.prefix(80))': expected {\"op\": ..., \"context\": ..., ...}")
    }
    typist.begin(context: request.context ?? "")
    switch request.op {
    case "next":
        say(Answer(candidates: typist.bar))
    case "complete":
        typist.type(request.word ?? "", keystrokes: request.keystrokes ?? [])
        say(Answer(candidates: typist.bar))
    case "correct":
        typist.type(request.word ?? "", keystrokes: request.keystrokes ?? [])
        let offered = typist.bar
        typist.tap(typist.geometry.keys.first { $0.function.isSpace }!.rect)
        // What space left of the word (two words where it put a space in), then the others the bar offered.
        let left = typist.output.trimmingCharacters(in: .whitespaces)
        say(Answer(candidates: [left] + offered.filter { $0 != left }))
    case "swipe":
        // Letters tapped first (a word begun), then the stroke.
        typist.type(request.word ?? "", keystrokes: request.keystrokes ?? [])
        let before = typist.output.count
        typist.slide(request.gesture ?? [])
        // What the stroke typed (after the space it put in), then the others the bar offers.
        let typed = typist.output.dropFirst(before).trimmingCharacters(in: .whitespaces)
        say(Answer(candidates: (typed.isEmpty ? [] : [typed]) + typist.bar.filter { $0 != typed }))
    default:
        fail("unknown op '\(request.op)': expected correct, complete, next or swipe")
    }
}
