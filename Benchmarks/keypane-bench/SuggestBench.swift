// The suggest figures: sentences typed by a touch noise model through the real typing engine and
// suggester (decoded synchronously here, as the worker would), against the literal taps and against
// hunspell's first suggestion; and the decoder's time per tap.

#if canImport(Glibc)
import Glibc
#endif
import KeyboardModel
import Typing
import Words

/// A small deterministic generator (xorshift64*), so every run draws the same taps.
struct Noise {
    var state: UInt64
    mutating func next() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 53)
    }
    mutating func gaussian() -> Double {
        let u = max(next(), 1e-12), v = next()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// Figures of one run of the corpus.
struct SuggestFigures {
    var words = 0, literalErrors = 0, outputErrors = 0
    var truePositives = 0, falsePositives = 0, falseNegatives = 0
    var correctWords = 0, correctChanged = 0
    var completionTried = 0, completionHit = 0, nextTried = 0, nextHit = 0
    var decodeTimes: [Double] = []

    var precision: Double { Double(truePositives) / Double(max(truePositives + falsePositives, 1)) }
    var recall: Double { Double(truePositives) / Double(max(truePositives + falseNegatives, 1)) }
    var fScore: Double { precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0 }

    mutating func count(expected: String, literal: String, output: String) {
        words += 1
        let typo = literal != expected
        if typo { literalErrors += 1 } else { correctWords += 1 }
        if output != expected { outputErrors += 1 }
        if typo {
            if output == expected { truePositives += 1 } else {
                falseNegatives += 1
                if output != literal { falsePositives += 1 }
            }
        } else if output != literal {
            falsePositives += 1
            correctChanged += 1
        }
    }

    func line(_ name: String) -> String {
        func pct(_ a: Int, _ b: Int) -> String { format(100 * Double(a) / Double(max(b, 1))) + "%" }
        return "\(name): literal WER \(pct(literalErrors, words)), WER after \(pct(outputErrors, words)); "
            + "precision \(format(precision)), recall \(format(recall)), F \(format(fScore)); "
            + "correct words changed \(pct(correctChanged, correctWords)) (\(words) words)"
    }
}

/// Types the corpus with taps drawn around key centres: Gaussian with `sigma` key sizes, and `typo`
/// of the letters a typo event (a letter left out, one added, a neighbour's, two swapped).
func typeCorpus(_ sentences: [[String]], suggester: Suggester, library: LayoutLibrary, keyboard: String = "default",
                sigma: Double, typo: Double, seed: UInt64) throws -> (figures: SuggestFigures, literals: [[String]]) {
    var noise = Noise(state: seed)
    var figures = SuggestFigures()
    var literals: [[String]] = []
    let traits = TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none, smartQuotes: false,
                                      smartDashes: false)
    var engine = try TypingEngine(library: library, enabled: [keyboard], traits: traits, width: 390, height: 300)
    engine.dictionaryLanguages = [engine.layout.language.map(Language.primary) ?? "en"]
    engine.suggestionsEnabled = true
    let geometry = engine.geometry
    let letterKeys = geometry.keys.filter { if case .text(let t) = $0.function { t.count == 1 && t.first!.isLetter } else { false } }
    var centres = Dictionary(uniqueKeysWithValues: letterKeys.map { key -> (Character, (Double, Double, Double, Double)) in
        guard case .text(let t) = key.function else { fatalError() }
        return (t.first!, (Double(key.rect.x) + Double(key.rect.width) / 2, Double(key.rect.y) + Double(key.rect.height) / 2,
                           Double(key.rect.width), Double(key.rect.height)))
    })
    // A letter with no key of its own (ß, é) is typed as people in a hurry type it: the key that offers it.
    let neighbours = centres.keys.sorted()
    for key in letterKeys {
        guard case .text(let t) = key.function, let own = centres[t.first!] else { continue }
        for alternate in key.alternates where alternate.count == 1 && centres[alternate.first!] == nil {
            centres[alternate.first!] = own
        }
    }
    let top = Double(letterKeys.map(\.rect.y).min()!), bottom = Double(letterKeys.map(\.rect.maxY).max()!)
    let space = geometry.keys.first { $0.function.isSpace }!.rect
    var time = 1000.0
    var user = UserWords()

    func settle(_ update: Update) {
        for event in update.words {
            if case .typed(let word, let previous, _, _) = event { user.learn(word, after: previous) }
            if case .kept(let word) = event { user.keep(word) }
        }
        guard update.wordChanged, let request = engine.suggestionRequest() else { return }
        let start = now()
        let result = suggester.suggest(request, user: user)
        figures.decodeTimes.append(now() - start)
        _ = engine.receive(result)
    }
    var output = ""
    func tap(_ x: Double, _ y: Double) {
        for phase in [InputEvent.Phase.began, .ended] {
            let update = engine.handle(InputEvent(phase: phase, x: x, y: y, time: time))
            time += 0.06
            KeyAction.apply(update.actions, to: &output)
            settle(update)
        }
    }
    /// A tap meant for a letter, drawn by the noise model. Taps are kept to letter keys (one that would
    /// land on shift, delete or the bar is drawn again): the figures are about words, not stray keys.
    func noisyTap(_ letter: Character) -> Character? {
        guard let (cx, cy, w, h) = centres[letter] else { return nil }
        var x = cx, y = cy
        for _ in 0..<20 {
            x = cx + noise.gaussian() * sigma * w
            y = min(max(cy + noise.gaussian() * sigma * h, top), bottom - 1)
            if let index = geometry.keyIndex(atX: x, y: y), case .text(let t) = geometry.keys[index].function,
               t.first?.isLetter == true { break }
            (x, y) = (cx, cy)
        }
        tap(x, y)
        return geometry.keyIndex(atX: x, y: y).flatMap {
            if case .text(let t) = geometry.keys[$0].function { t.first } else { nil }
        }
    }

    for sentence in sentences {
        _ = engine.resetContext()
        output = ""
        var literalWords: [String] = []
        for (index, word) in sentence.enumerated() {
            // After a space: is the next word offered?
            if index > 0 {
                figures.nextTried += 1
                if engine.state.bar.contains(where: { $0.text.lowercased() == word }) { figures.nextHit += 1 }
            }
            var letters = Array(word)
            // Typo events, at most one a word.
            if noise.next() < typo * Double(letters.count), letters.count > 1 {
                let at = Int(noise.next() * Double(letters.count))
                switch Int(noise.next() * 4) {
                case 0: letters.remove(at: at)
                case 1: letters.insert(neighbours[Int(noise.next() * Double(neighbours.count))], at: at)
                case 2: letters[at] = neighbours[Int(noise.next() * Double(neighbours.count))]
                default: if at + 1 < letters.count { letters.swapAt(at, at + 1) }
                }
            }
            var literal = ""
            for (position, letter) in letters.enumerated() {
                if let typed = noisyTap(letter) { literal.append(typed) }
                if word.count >= 4 && position + 1 == (word.count + 1) / 2 {
                    figures.completionTried += 1
                    if engine.state.bar.contains(where: { $0.text.lowercased() == word }) { figures.completionHit += 1 }
                }
            }
            literalWords.append(literal)
            tap(Double(space.x) + Double(space.width) / 2, Double(space.y) + Double(space.height) / 2)
        }
        let typed = output.lowercased().split(separator: " ").map(String.init)  // capitals are not what is measured
        for (index, expected) in sentence.enumerated() {
            if getenv("KEYPANE_BENCH_SHOW") != nil, literalWords[index] == expected, index < typed.count, typed[index] != expected {
                print("  changed: \(expected) -> \(typed[index])")
            }
            if getenv("KEYPANE_BENCH_SHOW") != nil, literalWords[index] != expected, index < typed.count, typed[index] != expected {
                print("  missed: \(expected) typed \(literalWords[index]) -> \(typed[index])")
            }
            figures.count(expected: expected, literal: literalWords[index], output: index < typed.count ? typed[index] : "")
        }
        literals.append(literalWords)
    }
    return (figures, literals)
}

/// hunspell's first suggestion for every word it does not know, as an X11 user's spell checker would
/// apply it; nil when hunspell or its English dictionary is missing.
func hunspellFirstSuggestions(_ words: [String], dictionary: String = "en_US") -> [String: String]? {
    let input = "/tmp/keypane-bench-hunspell-in", outputPath = "/tmp/keypane-bench-hunspell-out"
    let unique = Array(Set(words)).sorted()
    guard let file = fopen(input, "w") else { return nil }
    for word in unique { fputs("^" + word + "\n", file) }
    fclose(file)
    guard system("hunspell -d \(dictionary) -i utf-8 -a < \(input) > \(outputPath) 2>/dev/null") == 0,
          let text = try? readText(outputPath) else { return nil }
    var result: [String: String] = [:]
    var index = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
        if line.isEmpty { index += 1; continue }
        guard index < unique.count else { break }
        if line.hasPrefix("&"), let colon = line.firstIndex(of: ":") {
            let first = line[line.index(after: colon)...].split(separator: ",").first.map { $0.trimmingCharacters(in: " ") }
            if let first { result[unique[index]] = first }
        }
    }
    return result
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

/// The suggest figures of one language: its sentences typed on its keyboard with its dictionary, against
/// hunspell with that language's dictionary.
func runSuggestBench(library: LayoutLibrary, dictionary: String, sentencesPath: String, keyboard: String = "default",
                     hunspell hunspellDictionary: String = "en_US") throws {
    let sentences = try readText(sentencesPath).split(separator: "\n")
        .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { $0.split(separator: " ").map(String.init) }
    let suggester = Suggester(decoder: Decoder(dictionary: try WordDictionary(path: dictionary)))
    print("suggest: \(sentences.count) sentences, \(sentences.reduce(0) { $0 + $1.count }) words, 390 px \(keyboard) keyboard")
    for (name, sigma, typo) in [("sigma 1/6 + 12% typos", 1.0 / 6, 0.12 / 5), ("harsh sigma 0.34 + 12% typos", 0.34, 0.12 / 5)] {
        let (figures, literals) = try typeCorpus(sentences, suggester: suggester, library: library, keyboard: keyboard,
                                                 sigma: sigma, typo: typo, seed: 42)
        print(figures.line("keypane \(keyboard), \(name)"))
        print("keypane \(keyboard), \(name): completion top-3 \(format(100 * Double(figures.completionHit) / Double(max(figures.completionTried, 1))))% "
              + "(\(figures.completionTried) half-typed words), next word top-3 \(format(100 * Double(figures.nextHit) / Double(max(figures.nextTried, 1))))% (\(figures.nextTried))")
        let times = figures.decodeTimes.map { $0 * 1000 }
        print("keypane \(keyboard), \(name): decode per tap (the worker's time): median \(format(percentile(times, 0.5))) ms, p99 \(format(percentile(times, 0.99))) ms, \(times.count) requests")
        guard let hunspell = hunspellFirstSuggestions(literals.joined().map { $0 }, dictionary: hunspellDictionary) else {
            print("hunspell: not installed (hunspell and its \(hunspellDictionary) dictionary), no baseline")
            continue
        }
        var baseline = SuggestFigures()
        for (sentence, literal) in zip(sentences, literals) {
            for (expected, typed) in zip(sentence, literal) {
                baseline.count(expected: expected, literal: typed, output: hunspell[typed]?.lowercased() ?? typed)
            }
        }
        print(baseline.line("hunspell first suggestion, \(name)"))
    }
}
