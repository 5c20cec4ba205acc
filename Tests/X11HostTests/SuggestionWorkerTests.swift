import KeyboardCore
import Foundation
import KeyboardModel
import TestSupport
import Testing
import Typing
import Words
import X11Host

/// The suggestion worker's learning across languages: words go into each language's own file, and where the
/// person's fingers land is one model for all of them.
@Suite struct SuggestionWorkerTests {
    @Test func wordsArePerLanguageAndTheTouchModelIsShared() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keypane-worker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dictionaries = ["en": packageRoot + "/Assets/dictionaries/en.dict", "de": packageRoot + "/Assets/dictionaries/de.dict"]
        for path in dictionaries.values {
            guard FileManager.default.fileExists(atPath: path) else { Issue.record("\(path) is missing: run make"); return }
        }
        // One row of keys 40 px apart; every tap lands 8 px below its key's centre.
        let letters = Array("qwertzuiopasdfghjklyxcvbnm".utf16)
        var keys: [UInt16: KeyPlan.Key] = [:]
        for (index, unit) in letters.enumerated() { keys[unit] = KeyPlan.Key(x: Double(index) * 40 + 20, y: 20, row: 0) }
        let plan = KeyPlan(keys: keys, keyWidth: 40, keyHeight: 40)
        func taps(_ word: String) -> [Tap] {
            word.map { Tap(x: keys[$0.utf16.first!]!.x, y: 28, character: $0) }
        }
        let made = SuggestionWorker(files: .init(dictionaries: dictionaries, learnedFolder: folder.path),
                                    report: { @Sendable message in Issue.record("said: \(message)") })
        let worker = try #require(made)
        for _ in 0..<20 {
            worker.tell(.typed("haus", after: nil, taps: taps("haus"), plan: plan), language: "de")
        }
        for _ in 0..<4 {
            worker.tell(.typed("house", after: nil, taps: taps("house"), plan: plan), language: "en")
        }
        worker.stop()
        let german = try UserWords(serialized: String(contentsOf: folder.appendingPathComponent("learned-de"), encoding: .utf8))
        let english = try UserWords(serialized: String(contentsOf: folder.appendingPathComponent("learned-en"), encoding: .utf8))
        #expect(german.count(of: "haus") > 0 && german.count(of: "house") == 0)
        #expect(english.count(of: "house") > 0 && english.count(of: "haus") == 0)
        // German's 80 taps and English's 20 taught one model, which both files keep.
        let taught = german.touch.rowOffsets[0]?.taps ?? 0
        #expect(taught == 100, "\(german.touch.rowOffsets)")
        #expect(english.touch == german.touch)
        #expect((german.touch.rowOffsets[0]?.y ?? 0) > 0.1, "fingers land below the keys' centres")
    }

    /// Once typing rests, the worker lets go of the dictionary pages its lookups read (they would count in
    /// the keyboard's memory all day), and the next request maps what it reads again.
    @Test func aRestingWorkerLetsGoOfItsDictionaryPages() throws {
        let bundled = packageRoot + "/Assets/dictionaries/en.dict"
        guard FileManager.default.fileExists(atPath: bundled) else { Issue.record("\(bundled) is missing: run make"); return }
        // A copy of its own, so that no other test's mapping of the file is counted.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("keypane-rest-\(UUID().uuidString).dict").path
        try FileManager.default.copyItem(atPath: bundled, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        /// KiB of the copy's mapping resident in this process.
        func resident() -> Int {
            // Read to its end (its size says 0, which Foundation's reading trusts).
            guard let smaps = try? LayoutLibrary.readFile("/proc/self/smaps") else { return -1 }
            var inMapping = false, total = 0
            for line in smaps.split(separator: "\n") {
                if let first = line.first, first.isHexDigit, line.contains("-") { inMapping = line.hasSuffix(copy) }
                if inMapping, line.hasPrefix("Rss:") { total += Int(line.split(separator: " ")[1]) ?? 0 }
            }
            return total
        }
        func eventually(_ condition: () -> Bool) -> Bool {
            for _ in 0..<200 {
                if condition() { return true }
                usleep(50_000)
            }
            return false
        }
        let made = SuggestionWorker(files: .init(dictionaries: ["en": copy], learnedFolder: nil),
                                    report: { @Sendable message in Issue.record("said: \(message)") })
        let worker = try #require(made)
        defer { worker.stop() }
        let plan = KeyPlan(keys: [:], keyWidth: 40, keyHeight: 40)
        worker.ask(SuggestionRequest(generation: 1, taps: [], previous: "the", plan: plan, mayCorrect: false))
        #expect(eventually { resident() > 0 }, "a request reads the dictionary")
        #expect(eventually { resident() == 0 }, "at rest its pages are let go: \(resident()) KiB")
        worker.ask(SuggestionRequest(generation: 2, taps: [], previous: "of", plan: plan, mayCorrect: false))
        #expect(eventually { resident() > 0 }, "the next request reads it again")
    }

    /// The German, French, Spanish, Italian, Russian, Portuguese, Norwegian, Swedish, Danish, Dutch,
    /// Polish, Turkish and Greek dictionaries know which words follow which: after a space, the word that
    /// usually comes next is offered, which the commonest words alone would not give.
    @Test(arguments: [("de", "zum", "Beispiel"), ("fr", "peut", "être"), ("es", "sin", "embargo"),
                      ("it", "ad", "esempio"), ("ru", "потому", "что"), ("pt", "são", "paulo"),
                      ("nb", "regjeringen", "vil"), ("sv", "grund", "av"), ("da", "stedet", "for"),
                      ("nl", "deel", "van"), ("pl", "takich", "jak"), ("tr", "söz", "konusu"), ("el", "πριν", "από")])
    func theBundledDictionariesKnowTheNextWord(language: String, previous: String, next: String) throws {
        let path = packageRoot + "/Assets/dictionaries/\(language).dict"
        guard FileManager.default.fileExists(atPath: path) else { Issue.record("\(path) is missing: run make"); return }
        let suggester = Suggester(decoder: Decoder(dictionary: try WordDictionary(path: path)))
        let plan = KeyPlan(keys: [:], keyWidth: 40, keyHeight: 40)
        let offered = suggester.suggest(SuggestionRequest(generation: 1, taps: [], previous: previous, plan: plan,
                                                          mayCorrect: false, language: language)).slots.map(\.text)
        #expect(offered.contains(next), "after '\(previous)': \(offered)")
    }
}
