import Foundation
import Testing

/// Suggestions and autocorrection on the live keyboard, typing into xterm: taps off their keys, misspelled
/// words corrected on space, the bar's slots, a delete that takes a correction back, secure entry, and a
/// broken dictionary.
@Suite(.serialized) struct SuggestionsEndToEndTests {
    /// The bar's words, as `keypane status` says them ("[word]" is the correction space will make).
    static func bar(_ session: XSession) throws -> [String] {
        words(try ControlEndToEndTests.status(session))
    }

    /// The bar's words, and whether they answer the word as it is now (not while a tap waits for the
    /// decoder and the bar is still an earlier letter's, or an earlier word's on a busy machine).
    static func barStatus(_ session: XSession) throws -> (words: [String], current: Bool) {
        let status = try ControlEndToEndTests.status(session)
        return (words(status), status["suggestions-current"] == "yes")
    }

    private static func words(_ status: [String: String]) -> [String] {
        let line = status["suggestions"] ?? ""
        // An empty slot at the end leaves "Cut | Copy |" once the status line's spaces are trimmed.
        return line.isEmpty ? [] : line.components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Waits until the bar answers the word as it is now and shows what `check` wants; the bar it last saw.
    @discardableResult
    static func waitForBar(_ session: XSession, timeout: Double = 5, _ check: ([String]) -> Bool) -> [String] {
        var seen: [String] = []
        _ = waitUntil(timeout: timeout) {
            guard let bar = try? barStatus(session) else { return false }
            seen = bar.words
            return bar.current && check(seen)
        }
        return seen
    }

    /// Waits until the bar shows what `check` wants and has stayed the same for a moment, as a person
    /// reads a bar that has settled: the bar of a word's earlier letters can pass `check` for an instant
    /// ("tom" offers tomorrow too, in another slot than "tomo" does).
    @discardableResult
    static func waitForSettledBar(_ session: XSession, timeout: Double = 5, _ check: ([String]) -> Bool) -> [String] {
        var seen: [String] = [], since = Date()
        _ = waitUntil(timeout: timeout) {
            guard let bar = try? barStatus(session) else { return false }
            if bar.words != seen { (seen, since) = (bar.words, Date()) }
            return bar.current && check(seen) && Date().timeIntervalSince(since) >= 0.3
        }
        return seen
    }

    /// Whether the bar is the one of `typed` as a whole (its first slot is the word as typed), not of a
    /// letter before: what a space does depends on the word's own result.
    static func bar(_ bar: [String], isFor typed: String) -> Bool {
        guard let first = bar.first else { return false }
        let shown = first.replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "’", with: "'")
        return shown.lowercased() == typed.lowercased()
    }

    /// Taps a word's letters off their centres, a third of a key toward a neighbour in turn (left, right,
    /// up, down), still inside each key; an apostrophe from the numbers layer.
    static func tapSloppily(_ word: String, on keyboard: LiveKeyboard) throws {
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let offsets = [(-0.33, 0.0), (0.33, 0.0), (0.0, -0.3), (0.0, 0.3), (0.25, 0.25)]
        for (index, character) in word.enumerated() {
            guard let key = letters.keys.first(where: { $0.text == String(character) }) else {
                try tapText(String(character), on: keyboard)
                continue
            }
            let (dx, dy) = offsets[index % offsets.count]
            let (x, y) = key.centre
            keyboard.session.tap(x: keyboard.frame.x + x + Int(dx * Double(key.width)),
                                 y: keyboard.frame.y + y + Int(dy * Double(key.height)))
        }
    }

    /// Types each word with `tap`, waits for the bar to show the word meant for it (the space applies what
    /// the bar shows), taps space and checks what arrived; then the bar offers three next words.
    static func type(_ words: [(typed: String, meant: String)], session: XSession, terminal: Terminal,
                     keyboard: LiveKeyboard, space: GeometryKey, tap: (String) throws -> Void) throws {
        var expected = ""
        for (typed, meant) in words {
            // The bar before the word, the next words after the last space: not the word's own.
            let before = (try? bar(session)) ?? []
            try tap(typed)
            // A misspelling's bar shows the word as typed first and its correction; a word that only takes a
            // capital may show the correction alone; a known word, which space keeps, shows other words.
            let respelt = meant.replacingOccurrences(of: "’", with: "'").lowercased() != typed.lowercased()
            let ready: ([String]) -> Bool = { bar in
                bar.contains("[\(meant)]") && (!respelt || Self.bar(bar, isFor: typed))
                    || !respelt && bar != before && !bar.isEmpty && !bar.contains(typed) && !bar.contains(meant)
                        && !bar.contains { $0.hasPrefix("[") }
            }
            var shown = waitForBar(session, ready)
            // A bar of other words can still be a letter's before the word's own (the worker behind on a
            // busy machine): it is taken once it stays half a second.
            for _ in 0..<10 where !shown.contains("[\(meant)]") {
                usleep(500_000)
                let again = waitForBar(session, ready)
                if again == shown { break }
                shown = again
            }
            #expect(ready(shown), "\(typed): the bar shows \(shown)")
            keyboard.tap(space)
            expected += meant + " "
            #expect(terminal.waitFor(text: expected) == expected)
        }
        let next = waitForBar(session) { !$0.isEmpty }
        #expect(next.count == 3, "after a space the bar shows \(next)")
    }

    static func start(_ session: XSession, _ arguments: [String] = []) throws -> LiveKeyboard {
        try LiveKeyboard(session: session, arguments: ["--keyboards", "default"] + arguments, plainText: false)
    }

    /// At a person's pace (each key held 80 ms), with two busy loops on the machine: a part of an address
    /// and an apostrophe typed arrive as typed, while a misspelling beside them is still corrected, and a
    /// contraction typed without its apostrophe gets it.
    @Test func anAddressAndAnApostropheTypedOnABusyMachineArriveAsTyped() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try Self.start(session, ["--autocapitalization", "none"])
        keyboard.extra = ["--no-globe"]
        let busy = try BusyLoops()
        defer { busy.stop() }
        try tapText("mail jane@gmail or the students' teh whats ", on: keyboard, hold: 0.08)
        let expected = "mail jane@gmail or the students’ the what’s "  // smart quotes curl it
        #expect(terminal.waitFor(text: expected) == expected)
    }

    @Test func sloppyTapsAndMisspellingsComeOutAsTheWordsMeant() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try Self.start(session)
        keyboard.extra = ["--no-globe"]
        let space = try #require(try keyboard.geometry(type: "default", layer: "letters").keys.first { $0.text == " " })
        try Self.type([("i'll", "I’ll"), ("meet", "meet"), ("you", "you"), ("at", "at"), ("the", "the"),
                       ("statoin", "station"), ("tomorow", "tomorrow")],
                      session: session, terminal: terminal, keyboard: keyboard, space: space) { try Self.tapSloppily($0, on: keyboard) }
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
        // What was learned is the user's alone.
        let learned = session.dataDirectory.appendingPathComponent("keypane/learned-en")
        let attributes = try FileManager.default.attributesOfItem(atPath: learned.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOf: learned, encoding: .utf8).contains("word\tstation\t"))
        // keypane forget: gone.
        let forget = try session.run(keypanePath, ["forget"])
        #expect(forget.status == 0 && forget.output == "forgot the learned words (\(learned.deletingLastPathComponent().path)/learned-*)\n", "\(forget)")
        #expect(!FileManager.default.fileExists(atPath: learned.path))
    }

    @Test func aSuggestionTappedReplacesTheWordAndADeleteTakesACorrectionBack() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try Self.start(session, ["--autocapitalization", "none"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let space = try #require(letters.keys.first { $0.text == " " })
        let delete = try #require(letters.keys.first { $0.keysym == "BackSpace" })

        // "tomo": the bar offers "tomorrow"; its slot replaces the word and adds a space.
        try tapText("tomo", on: keyboard)
        let bar = Self.waitForSettledBar(session) { $0.contains("tomorrow") }
        let slot = try #require(bar.firstIndex(of: "tomorrow"), "the bar shows \(bar)")
        keyboard.tap(try #require(letters.key(action: "suggestion:\(slot)")))
        var expected = "tomorrow "
        #expect(terminal.waitFor(text: expected) == expected)

        // "statoin" is corrected on space; a delete right after brings back what was typed.
        // The space waits for the bar of the whole word: a correction comes from the word's own result.
        try tapText("statoin", on: keyboard)
        let corrected = Self.waitForBar(session) { Self.bar($0, isFor: "statoin") && $0.contains("[station]") }
        #expect(corrected.contains("[station]"), "the bar shows \(corrected)")
        keyboard.tap(space)
        #expect(terminal.waitFor(text: expected + "station ") == expected + "station ")
        keyboard.tap(delete)
        expected += "statoin"
        #expect(terminal.waitFor(text: expected) == expected)
        // ... and it is not corrected again: the word is the user's now.
        keyboard.tap(space)
        try tapText("statoin", on: keyboard)
        // Once xterm has the word, the keyboard has taken every tap; the bar then answers the whole word.
        expected += " statoin"
        #expect(terminal.waitFor(text: expected) == expected)
        let again = Self.waitForBar(session) { $0.first == "statoin" }
        #expect(!again.contains("[station]"), "the bar shows \(again)")
        keyboard.tap(space)
        expected += " "
        #expect(terminal.waitFor(text: expected) == expected)

        // The typed slot keeps a word as typed: "zorb" is not corrected after it is kept.
        try tapText("zorb", on: keyboard)
        Self.waitForBar(session) { $0.first == "\"zorb\"" || $0.first == "zorb" }
        keyboard.tap(try #require(letters.key(action: "suggestion:0")))
        expected += "zorb "
        #expect(terminal.waitFor(text: expected) == expected)
        try tapText("zorb", on: keyboard)
        // A word of the user's now, which space keeps: no correction, and no slot of its own.
        let kept = Self.waitForBar(session) { !$0.isEmpty && !$0.contains("\"zorb\"") && !$0.contains("zorb") }
        #expect(!kept.isEmpty && !kept.contains("zorb") && !kept.contains { $0.hasPrefix("[") }, "the bar shows \(kept)")
        keyboard.tap(space)
        expected += "zorb "
        #expect(terminal.waitFor(text: expected) == expected)
        _ = keyboard.terminate()
    }

    @Test func secureEntryShowsNoBarAndLearnsNothing() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try Self.start(session, ["--secure"])
        keyboard.extra = ["--no-globe", "--no-suggestions"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        #expect(letters.key(action: "suggestion:0") == nil)
        try tapText("hunter two", on: keyboard)
        #expect(terminal.waitFor(text: "hunter two") == "hunter two")
        #expect(try Self.bar(session).isEmpty)
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
        #expect(!FileManager.default.fileExists(atPath: session.dataDirectory.appendingPathComponent("keypane/learned-en").path))
    }

    /// Learning turned off in the settings panel's Privacy page: suggestions go on, nothing is learned or
    /// kept, and the settings file says so for the next start.
    @Test func learningTurnedOffInTheSettingsKeepsNothing() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try Self.start(session, ["--autocapitalization", "none"])
        _ = try session.run(keypanePath, ["settings", "privacy"])
        let privacy = try keyboard.geometry(type: "default", layer: nil, settings: "privacy")
        keyboard.tap(try #require(privacy.key(action: "setting:learning")), hold: 0.08)
        usleep(200_000)
        keyboard.tap(try #require(privacy.key(action: "close-settings")), hold: 0.08)
        #expect(waitUntil(timeout: 3) { (try? session.run(keypanePath, ["status"]).output.contains("settings:")) == false })
        keyboard.extra = ["--no-globe"]
        let space = try #require(try keyboard.geometry(type: "default", layer: "letters").keys.first { $0.text == " " })
        try tapText("station", on: keyboard)
        #expect(!Self.waitForBar(session) { $0.contains("station") || $0.contains("\"station\"") }.isEmpty)
        keyboard.tap(space)
        #expect(terminal.waitFor(text: "station ") == "station ")
        let (status, _) = keyboard.terminate()
        #expect(status == 0)
        #expect(!FileManager.default.fileExists(atPath: session.dataDirectory.appendingPathComponent("keypane/learned-en").path))
        let settings = try String(contentsOf: session.configDirectory.appendingPathComponent("keypane/config"), encoding: .utf8)
        #expect(settings == "learning = off\n")
    }

    @Test func aDamagedDictionaryIsNamedAndTypingGoesOn() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        // A real dictionary cut in half.
        let bad = session.directory.appendingPathComponent("cut.dict")
        let whole = try Data(contentsOf: URL(fileURLWithPath: dictionaryPath))
        try whole.prefix(whole.count / 2).write(to: bad)
        let keyboard = try Self.start(session, ["--dictionary", bad.path])
        keyboard.extra = ["--no-globe", "--no-suggestions"]
        #expect(waitUntil { (try? Self.bar(session)) == [] })
        try tapText("hello world", on: keyboard)
        #expect(terminal.waitFor(text: "Hello world") == "Hello world")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.contains("keypane: the dictionary \(bad.path) is damaged (") && messages.contains("cut short?); no suggestions in 'en', typing goes on"),
                "\(messages)")
    }

    /// A damaged German dictionary takes the German keyboard's bar only: English keeps its suggestions.
    @Test func aDamagedDictionaryLeavesTheOtherLanguagesTheirs() throws {
        let session = try XSession()
        defer { session.stop() }
        let bad = session.directory.appendingPathComponent("cut.dict")
        let whole = try Data(contentsOf: URL(fileURLWithPath: dictionaryPath))
        try whole.prefix(whole.count / 3).write(to: bad)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--languages", "de,en-US", "--dictionary", "de=\(bad.path)",
                                                                      "--autocapitalization", "none"], plainText: false)
        // German is shown first: its first request finds the dictionary damaged, and its bar goes.
        #expect(waitUntil { (try? ControlEndToEndTests.status(session)["type"]) == "de" })
        keyboard.extra = ["--languages", "de,en-US", "--no-suggestions"]
        #expect(waitUntil { (try? Self.bar(session)) == [] })
        let german = try keyboard.geometry(type: "de", layer: "letters")
        keyboard.tap(try #require(german.key(action: "globe")))
        #expect(waitUntil { (try? ControlEndToEndTests.status(session)["type"]) == "default" })
        keyboard.extra = ["--languages", "de,en-US"]
        let english = try keyboard.geometry(type: "default", layer: "letters")
        for letter in "statoin" { keyboard.tap(try #require(english.key(label: String(letter)))) }
        let bar = Self.waitForBar(session) { $0.contains { $0 == "station" || $0 == "[station]" } }
        #expect(bar.contains { $0 == "station" || $0 == "[station]" }, "English keeps its bar: \(bar)")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.contains("no suggestions in 'de', typing goes on"), "\(messages)")
    }

    /// Issue 18's writer of German: on the German keyboard the bar offers German words in their case, a
    /// noun typed in lower case becomes its capitalized self on space, a word only the web list knows
    /// ("weiterempfehlen", which was split) stays as typed, and what is typed is learned into German's own
    /// file, never into English's.
    @Test func germanIsSuggestedAndLearnedInGerman() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--languages", "de,en-US", "--autocapitalization", "none"],
                                        plainText: false)
        keyboard.extra = ["--languages", "de,en-US"]
        let german = try keyboard.geometry(type: "de", layer: "letters")
        #expect(german.keys.contains { $0.action == "suggestion:1" }, "the German keyboard has a bar")
        let space = try #require(german.keys.first { $0.text == " " })
        try Self.type([("ich", "ich"), ("habe", "habe"), ("das", "das"), ("haus", "Haus"), ("gesehen", "gesehen"),
                       ("und", "und"), ("kann", "kann"), ("es", "es"), ("weiterempfehlen", "weiterempfehlen")],
                      session: session, terminal: terminal, keyboard: keyboard, space: space) { word in
            for letter in word { keyboard.tap(try #require(german.key(label: String(letter)), "\(letter)")) }
        }
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
        let folder = session.dataDirectory.appendingPathComponent("keypane")
        let learned = try String(contentsOf: folder.appendingPathComponent("learned-de"), encoding: .utf8)
        #expect(learned.contains("word\thaus\t") && learned.contains("word\tgesehen\t"), "\(learned)")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("learned-de").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("learned-en").path))
    }
}
