import KeyboardModel
import TestSupport
import Testing
import Typing
import Words

/// The typing engine's side of suggestions, with a small dictionary decoded in the test (the live keyboard
/// does this on its worker): the word's taps, fresh and stale results, the correction on space, its revert,
/// the bar's slots, the learner's events, and the keys' hit areas.
struct SuggestionHarness {
    var harness: Harness
    var suggester: Suggester
    /// Other languages' dictionaries, by primary tag; English is `suggester`.
    var others: [String: Suggester] = [:]
    var words: [WordEvent] = []
    /// The language the learner was last told words in.
    var wordLanguage: String?
    var user = UserWords()

    init(_ enabled: [String] = ["default"],
         traits: TextTraits.Overrides = TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none,
                                                             smartQuotes: false)) throws {
        harness = try Harness(enabled, traits: traits)
        harness.engine.suggestionsEnabled = true
        var builder = DictionaryBuilder()
        builder.words = ["the": 1000, "station": 40, "stations": 10, "tomorrow": 30, "you": 800, "your": 300, "at": 600,
                         "hello": 50, "help": 60, "cat": 50, "car": 60, "form": 60, "from": 500, "to": 700]
        builder.pairs = ["the": ["station": 50, "cat": 10]]
        suggester = Suggester(decoder: Decoder(dictionary: try WordDictionary(bytes: builder.build())))
    }

    /// What the host does after each update: tell the learner, ask, and hand the answer back.
    mutating func settle(_ update: Update) {
        words += update.words
        if !update.words.isEmpty { wordLanguage = update.wordLanguage }
        for event in update.words {
            switch event {
            case .typed(let word, let previous, _, _): user.learn(word, after: previous)
            case .kept(let word): user.keep(word)
            }
        }
        guard let request = harness.engine.suggestionRequest() else { return }
        let answer = harness.engine.receive((others[request.language] ?? suggester).suggest(request, user: user))
        // A stroke's word is typed when its answer comes, as the host applies it.
        harness.actions += answer.actions
        if !answer.words.isEmpty || answer.wordChanged {
            var learned = Update()
            learned.words = answer.words
            learned.wordLanguage = answer.wordLanguage
            settle(learned)
        }
    }

    mutating func tap(_ label: String, dx: Double = 0, dy: Double = 0) {
        let (x, y) = harness.centre(of: label)
        let began = harness.send(.began, x: x + dx, y: y + dy)
        harness.now += 0.05
        let ended = harness.send(.ended, x: x + dx, y: y + dy)
        harness.now += 0.05
        settle(began)
        settle(ended)
    }

    /// A character of the numbers layer, as a person types it: 123, the character, then back to ABC.
    mutating func typeSymbol(_ symbol: String) {
        tap("123")
        tap(symbol)
        tap("ABC")
    }

    mutating func type(_ text: String) {
        for character in text {
            // The space bar is named by its label: "space", or the language while Globe switches between them.
            let space = harness.engine.geometry.keys.first { $0.function == .text(" ") }?.name ?? "space"
            tap(character == " " ? space : String(character))
        }
    }

    /// What a text field would hold after the actions.
    var text: String {
        var result = ""
        KeyAction.apply(harness.actions, to: &result)
        return result
    }

    var bar: [BarSlot] { harness.engine.state.bar }
}

@Suite struct SuggestionEngineTests {
    /// A request names the two words before the one typed, back to the sentence's start: the language
    /// model's context.
    @Test func theRequestNamesTheTwoWordsBeforeBackToTheSentencesStart() throws {
        var s = try SuggestionHarness()
        s.type("hello")
        s.typeSymbol(".")
        s.type(" t")
        let first = try #require(s.harness.engine.suggestionRequest())
        #expect(first.previous == nil && first.earlier == nil)
        s.type("o cat")
        let second = try #require(s.harness.engine.suggestionRequest())
        #expect(second.previous == "to" && second.earlier == nil)
        s.type(" at the c")
        let third = try #require(s.harness.engine.suggestionRequest())
        #expect(third.previous == "the" && third.earlier == "at")
        // After a space, the words before the next one.
        s.type("at ")
        let next = try #require(s.harness.engine.suggestionRequest())
        #expect(next.taps.isEmpty && next.previous == "cat" && next.earlier == "the")
    }

    @Test func theBarSitsAboveTheKeysOnProseKeyboardsOnly() throws {
        var s = try SuggestionHarness()
        #expect(s.harness.engine.showsBar)
        let slots = s.harness.engine.geometry.keys.filter { $0.function.isSuggestion }
        #expect(slots.count == 3)
        let topKey = s.harness.engine.geometry.keys.filter { !$0.function.isSuggestion && !$0.flat }.map(\.rect.y).min()!
        #expect(slots.allSatisfy { $0.rect.maxY <= topKey })
        s.harness.engine.show(layout: "number-pad", returnKey: .default)
        #expect(!s.harness.engine.showsBar && s.harness.engine.suggestionRequest() == nil)
        s.harness.engine.show(layout: "default", returnKey: .default, traits: .init(secureEntry: true))
        #expect(!s.harness.engine.showsBar)
    }

    @Test func aMisspellingIsCorrectedOnSpaceAndADeleteTakesItBack() throws {
        var s = try SuggestionHarness()
        s.type("statoin")
        #expect(s.bar.map(\.text) == ["statoin", "station", "stations"])
        #expect(s.bar.map(\.look) == [.typed, .correction, .plain])
        s.type(" ")
        #expect(s.text == "station ")
        // The delete: what was typed comes back, and the learner is told to keep it.
        s.tap("delete")
        #expect(s.text == "statoin")
        #expect(s.words.last == .kept("statoin"))
        // Now the user's own word: not corrected again.
        s.type(" statoin ")
        #expect(s.text == "statoin statoin ")
    }

    @Test func aStaleResultIsDroppedAndCorrectsNothing() throws {
        var s = try SuggestionHarness()
        s.type("statoin")
        #expect(s.harness.engine.barIsCurrent)
        let request = try #require(s.harness.engine.suggestionRequest())
        let old = s.suggester.suggest(request, user: s.user)
        // The word moves on ("statoinx") before the result of "statoin" arrives.
        let (x, y) = s.harness.centre(of: "x")
        s.harness.send(.began, x: x, y: y)
        s.harness.send(.ended, x: x, y: y)
        #expect(!s.harness.engine.barIsCurrent)
        let update = s.harness.engine.receive(old)
        #expect(update.changedKeys.isEmpty)
        // The bar stays the earlier letter's until the word's own result comes.
        #expect(!s.harness.engine.barIsCurrent)
        s.harness.tap("space")
        #expect(s.text == "statoinx ")
        _ = s.harness.engine.receive(s.suggester.suggest(try #require(s.harness.engine.suggestionRequest()), user: s.user))
        #expect(s.harness.engine.barIsCurrent)
    }

    /// A result redraws only the slots it changes, and the slot after one whose raised face came or went.
    @Test func aResultRedrawsTheSlotsItChanges() throws {
        var s = try SuggestionHarness()
        s.type("th")
        let request = try #require(s.harness.engine.suggestionRequest())
        let slotKeys = s.harness.engine.geometry.keys.indices.filter { s.harness.engine.geometry.keys[$0].function.isSuggestion }
        func slots(_ texts: [String], correction: Int? = nil) -> Suggestions {
            Suggestions(generation: request.generation, slots: texts.enumerated().map {
                Slot(text: $1, kind: .word, isCorrection: $0 == correction)
            })
        }
        _ = s.harness.engine.receive(slots(["tho", "thy", "thud"]))
        #expect(s.harness.engine.receive(slots(["the", "to", "they"])).changedKeys == KeySet(slotKeys))
        // The same words again: nothing to draw.
        #expect(s.harness.engine.receive(slots(["the", "to", "they"])).changedKeys.isEmpty)
        // One word changed: its slot alone.
        #expect(s.harness.engine.receive(slots(["the", "this", "they"])).changedKeys == [slotKeys[1]])
        // The first slot raised as the correction: it and the slot after it, whose line goes.
        #expect(s.harness.engine.receive(slots(["the", "this", "they"], correction: 0)).changedKeys == [slotKeys[0], slotKeys[1]])
    }

    @Test func theKeystrokeLeavesBeforeAnyDecoding() throws {
        var s = try SuggestionHarness()
        let (x, y) = s.harness.centre(of: "t")
        s.harness.send(.began, x: x, y: y)
        let update = s.harness.send(.ended, x: x, y: y)
        // The letter is in the update that asks for decoding; the engine decodes nothing itself.
        #expect(update.actions == [.text("t")] && update.wordChanged)
    }

    @Test func aSlotReplacesTheWordAndNextWordsFollowASpace() throws {
        var s = try SuggestionHarness()
        s.type("the tomo")
        let slot = try #require(s.bar.firstIndex { $0.text == "tomorrow" })
        s.tap("suggestion \(slot + 1)")
        #expect(s.text == "the tomorrow ")
        #expect(s.words.last == .typed("tomorrow", after: "the", taps: [], plan: s.harness.engine.suggestionRequest()!.plan))
        // After "the ": its followers.
        s.type("the ")
        #expect(s.bar.first?.text == "station")
        s.tap("suggestion 1")
        #expect(s.text == "the tomorrow the station ")
    }

    /// A slot tapped while the bar is still a letter behind (the decoder slower than the finger): the word
    /// shown replaces the whole word as it is now; the typed slot keeps the word as it is now.
    @Test func aSlotTappedBeforeTheBarCatchesUpTypesWhatItShows() throws {
        var s = try SuggestionHarness()
        s.type("tom")
        let slot = try #require(s.bar.firstIndex { $0.text == "tomorrow" })
        // "o" typed; its result has not come back when the slot is tapped.
        s.harness.tap("o")
        s.harness.tap("suggestion \(slot + 1)")
        #expect(s.text == "tomorrow ")
        s.type("zor")
        s.harness.tap("b")
        #expect(s.bar.first?.text == "zor")
        s.tap("suggestion 1")
        #expect(s.text == "tomorrow zorb ")
        #expect(s.words.last == .kept("zorb"))
    }

    @Test func theTypedSlotKeepsTheWordAndTeachesIt() throws {
        var s = try SuggestionHarness()
        s.type("zorb")
        #expect(s.bar.first == BarSlot(text: "zorb", look: s.bar.first!.look))
        s.tap("suggestion 1")
        #expect(s.text == "zorb ")
        #expect(s.words.last == .kept("zorb"))
        #expect(s.user.knows("zorb"))
    }

    @Test func secureEntryAndAddressesTeachNothing() throws {
        var s = try SuggestionHarness(traits: TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none,
                                                                   secureEntry: true))
        s.type("hunter two ")
        #expect(s.words.isEmpty && s.bar.isEmpty)
        s.harness.engine.show(layout: "email", returnKey: .default)
        s.type("me")
        #expect(s.words.isEmpty)
    }

    @Test func noCorrectionWhereTheFieldOrTheSettingSaysNo() throws {
        var s = try SuggestionHarness()
        s.harness.engine.autocorrectionEnabled = false
        s.type("statoin ")
        #expect(s.text == "statoin ")
        var t = try SuggestionHarness(traits: TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none,
                                                                   autocorrection: false))
        t.type("statoin ")
        #expect(t.text == "statoin ")
    }

    @Test func hitAreasGrowTowardLikelyLettersButNeverAtTheCentreOrTheFirstLetter() throws {
        var s = try SuggestionHarness()
        s.harness.engine.autocorrectionEnabled = false
        let key = s.harness.engine.geometry.keys.first { $0.name == "u" }!
        let width = Double(key.rect.width)
        // The word's first letter: no help. A tap on y's right edge (toward u) types y.
        let (yx, yy) = s.harness.centre(of: "y")
        s.harness.send(.began, x: yx + width * 0.45, y: yy)
        s.harness.send(.ended, x: yx + width * 0.45, y: yy)
        #expect(s.text == "y")
        s.settle(Update())
        // After "yo", u is all but certain ("you", "your"): a tap just inside i's left edge types u.
        s.tap("o")
        let (ix, iy) = s.harness.centre(of: "i")
        s.harness.send(.began, x: ix - width * 0.45, y: iy)
        s.harness.send(.ended, x: ix - width * 0.45, y: iy)
        #expect(s.text == "you")
        s.settle(Update())
        // Dead centre of a key always types it, however unlikely: "you" + y.
        s.tap("y")
        #expect(s.text == "youy")
        // Past a quarter of a key beyond the key, no help reaches.
        s.type(" yo")
        s.harness.send(.began, x: ix + width * 0.2, y: iy)
        s.harness.send(.ended, x: ix + width * 0.2, y: iy)
        #expect(s.text == "youy yoi")
    }
}

@Suite struct DismissInBarTests {
    /// On a phone, the dismiss key moves from the bottom row to the bar's right end: the space bar takes
    /// its width; a tablet, a keyboard without a bar, or dwell keep it in the row.
    @Test func aPhonesDismissKeyGoesToTheBarAndSpaceGetsItsRoom() throws {
        let layout = bundledLayout(.default)
        let plain = try KeyboardLayoutEngine.layout(layout, width: 390, height: 300, options: LayoutOptions())
        let barred = try KeyboardLayoutEngine.layout(layout, width: 390, height: 300, options: LayoutOptions(showsSuggestions: true))
        let dismiss = try #require(barred.keys.first { $0.function == .dismiss })
        let slots = barred.keys.filter { $0.function.isSuggestion }
        #expect(dismiss.flat && dismiss.rect.y == slots[0].rect.y && dismiss.rect.x >= slots[2].rect.maxX)
        #expect(dismiss.rect.maxX <= 390)
        let space = { (g: KeyboardGeometry) in g.keys.first { $0.function.isSpace }!.rect.width }
        // Without the bar the key is in the Globe list instead: either way the space bar keeps its room.
        #expect(!plain.keys.contains { $0.function == .dismiss })
        #expect(abs(space(barred) - space(plain)) <= 1)
        for options in [LayoutOptions(showsSuggestions: true), LayoutOptions(showsDwellPause: true, showsSuggestions: true)] {
            let width = options.showsDwellPause ? 390 : 1024
            let geometry = try KeyboardLayoutEngine.layout(layout, width: width, height: 320, options: options)
            #expect(geometry.keys.first { $0.function == .dismiss }?.flat == false, "\(width)")
        }
        let email = try KeyboardLayoutEngine.layout(bundledLayout(.email), width: 390, height: 300,
                                                    options: LayoutOptions(showsSuggestions: true))
        #expect(!email.keys.contains { $0.function == .dismiss }, "no bar on email: the Globe list hides it")
    }

    @Test func theBarsDismissKeyHidesOnATapAndFloatsOnAHold() throws {
        var s = try SuggestionHarness()
        s.harness.tap("dismiss")
        #expect(s.harness.actions.last == .dismiss)
        s.harness.send(.began, "dismiss")
        s.harness.now += 1
        s.harness.actions += s.harness.engine.tick(at: s.harness.now).actions
        s.harness.send(.ended, "dismiss")
        #expect(s.harness.actions.contains(.toggleFloating))
    }
}
