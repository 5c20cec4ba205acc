import KeyboardModel
import Testing
import Typing

/// The actions' effect on a text field: text inserted, BackSpace deleting the character before it.
func applying(_ actions: [KeyAction], to text: String = "") -> String {
    var result = text
    KeyAction.apply(actions, to: &result)
    return result
}

extension Harness {
    /// Taps the keys for each character of `text` (shifted letters through the shifted layer only when
    /// shift is not on already), a tenth of a second apart.
    mutating func type(_ text: String) {
        for character in text {
            let label = character == " " ? "space" : String(character)
            if character.isUppercase && engine.state.shift == .off { tap("shift") }
            if character.isLowercase && engine.state.shift == .on { tap("shift") }
            tap(engine.state.shift == .off ? label : label.uppercased())
        }
    }

    /// What the field holds after everything typed so far.
    var field: String { applying(actions) }
}

@Suite struct ComposerTests {
    let prose = TextTraits()

    @Test func doubleSpaceAfterAWordIsAPeriod() {
        var composer = Composer(traits: prose)
        var actions: [KeyAction] = []
        for (index, text) in ["h", "i", " ", " "].enumerated() { actions += composer.type(text, at: Double(index) * 0.2) }
        #expect(applying(actions) == "hi. ")
        // Too slow, or after punctuation, or at the start: two spaces stay two spaces.
        var slow = Composer(traits: prose)
        actions = slow.type("a", at: 0) + slow.type(" ", at: 1) + slow.type(" ", at: 2)
        #expect(applying(actions) == "a  ")
        var afterComma = Composer(traits: prose)
        actions = afterComma.type(",", at: 0) + afterComma.type(" ", at: 0.1) + afterComma.type(" ", at: 0.2)
        #expect(applying(actions) == ",  ")
        // Three quick spaces: one period.
        var three = Composer(traits: prose)
        actions = three.type("a", at: 0) + three.type(" ", at: 0.1) + three.type(" ", at: 0.2) + three.type(" ", at: 0.3)
        #expect(applying(actions) == "a.  ")
    }

    @Test func quotesOpenAndCloseByTheirPlace() {
        var composer = Composer(traits: prose)
        var actions: [KeyAction] = []
        for text in ["\"", "i", "t", "'", "s", "\"", " ", "(", "'", "x", "'", ")"] { actions += composer.type(text, at: 0) }
        #expect(applying(actions) == "“it’s” (‘x’)")
    }

    /// Each language's marks: „…“ in German, « … » in French with narrow no-break spaces inside (a delete
    /// right after takes back the mark and its space together), «…» in Russian.
    @Test func quotesAreTheLanguages() {
        func typed(_ language: String?, _ texts: [String]) -> (String, Composer) {
            var composer = Composer(traits: prose)
            composer.quotes = Quotes(language: language)
            var actions: [KeyAction] = []
            for text in texts { actions += composer.type(text, at: 0) }
            return (applying(actions), composer)
        }
        let sentence = ["\"", "j", "a", "\"", " ", "'", "x", "'"]
        #expect(typed("de", sentence).0 == "„ja“ ‚x’")
        #expect(typed("ru", sentence).0 == "«ja» ‘x’")
        #expect(typed("en-GB", sentence).0 == "“ja” ‘x’" && typed(nil, sentence).0 == "“ja” ‘x’")
        var (text, composer) = typed("fr", ["\"", "o", "u", "i", "\""])
        #expect(text == "«\u{202F}oui\u{202F}»")
        text = applying(composer.delete() ?? [], to: text)
        #expect(text == "«\u{202F}oui\"")
        // A quote opens after another language's opening mark too: nested quotes.
        #expect(typed("de", ["\"", "'", "a"]).0 == "„‚a")
    }

    /// While the Globe key switches between languages, the space bar names the one shown (in both width
    /// classes); with one language (the desktop keyboard is none), it says "space" on a phone's keyboard.
    @Test func theSpaceBarNamesTheLanguage() throws {
        func spaceLabel(_ harness: Harness) -> String? {
            harness.engine.geometry.keys.first { $0.function == .text(" ") }?.label
        }
        var two = try Harness(["default", "ru", "desktop"])
        #expect(spaceLabel(two) == "English (US)")
        two.engine.select(keyboard: 1)
        #expect(spaceLabel(two) == "Русский")
        let wide = try Harness(["de", "fr"], width: 1024, height: 320)
        #expect(spaceLabel(wide) == "Deutsch")
        let one = try Harness(["default", "desktop"])
        #expect(spaceLabel(one) == "space")
        // The email keyboard inherits English's letters; it is no language of its own.
        let typed = try Harness(["default", "email"])
        #expect(spaceLabel(typed) == "space")
    }

    /// The function keys speak the language shown: its space bar, the Return key of the field's job (the web
    /// search keyboard made on its letters says go in German), a number pad's keys (no language of its own)
    /// and the Globe list's "Hide keyboard"; an English keyboard keeps its English words.
    @Test func theFunctionKeysSpeakTheLanguageShown() throws {
        func label(_ harness: Harness, _ function: KeyFunction) -> String? {
            harness.engine.geometry.keys.first { $0.function == function }?.label
        }
        var german = try Harness(["de", "desktop"])
        #expect(label(german, .text(" ")) == "Leerzeichen" && label(german, .keysym("Return")) == "Eingabe")
        let search = german.engine.keyboard(for: .webSearch), numbers = german.engine.keyboard(for: .numbersPunctuation)
        german.engine.show(layout: try #require(search), returnKey: .default)
        #expect(label(german, .keysym("Return")) == "Öffnen")
        german.engine.show(layout: try #require(numbers), returnKey: .send)
        #expect(label(german, .keysym("Return")) == "Senden")
        german.engine.show(layout: "ascii", returnKey: .done)
        #expect(label(german, .keysym("Return")) == "Fertig", "a keyboard of no language speaks the language shown last")
        german.engine.show(layout: "de", returnKey: .default)
        german.send(.began, "globe")
        german.wait(0.5)
        guard case .keyboards(_, let titles, _)? = german.engine.state.popups.last else {
            Issue.record("no list: \(german.engine.state.popups)"); return
        }
        #expect(titles == ["Deutsch", "Desktop (US)", "Tastatur ausblenden"])
        var english = try Harness(["default", "desktop"])
        english.engine.show(layout: "web-search", returnKey: .search)
        #expect(label(english, .keysym("Return")) == "search" && label(english, .text(" ")) == "space")
    }

    /// A field is typed in the language last shown: a text field gets that language's keyboard, an email or
    /// URL field the email or URL keyboard with its letters; US English's are the usual ones.
    @Test func fieldsGetTheirKeyboardsInTheLanguageShown() throws {
        func texts(_ harness: Harness) -> [String] {
            harness.engine.geometry.keys.compactMap { if case .text(let text) = $0.function { return text } else { return nil } }
        }
        var german = try Harness(["de", "ru", "desktop"])
        #expect(german.engine.keyboard(for: .default) == "de")
        let chosen = german.engine.keyboard(for: .email)
        let email = try #require(chosen)
        #expect(email == "email@de")
        german.engine.show(layout: email, returnKey: .default)
        #expect(german.engine.layout.type == .email && german.engine.layout.title == "Email address")
        #expect(texts(german).prefix(6) == ["q", "w", "e", "r", "t", "z"] && texts(german).contains("@"), "\(texts(german))")
        #expect(german.engine.composer.quotes == Quotes(language: "de"))
        // Russian shown with the Globe key: the next URL field gets Cyrillic letters.
        german.engine.show(layout: "ru", returnKey: .default)
        let url = german.engine.keyboard(for: .url), text = german.engine.keyboard(for: .default)
        #expect(url == "url@ru" && text == "ru")
        var english = try Harness(["default", "desktop"])
        let plainEmail = english.engine.keyboard(for: .email), plainText = english.engine.keyboard(for: .default)
        #expect(plainEmail == "email" && plainText == "default")
        // A pad is no language's.
        let pad = german.engine.keyboard(for: .numberPad)
        #expect(pad == "number-pad")
    }

    /// The dictionary is English: a German or Russian keyboard shows no bar and learns nothing, rather than
    /// turn its words into English ones; back on English, the bar returns.
    @Test func otherLanguagesGetNoEnglishSuggestions() throws {
        var harness = try Harness(["de", "default"])
        harness.engine.suggestionsEnabled = true
        #expect(!harness.engine.showsBar && !harness.engine.learnsWords && harness.engine.suggestionRequest() == nil)
        harness.engine.select(keyboard: 1)
        #expect(harness.engine.showsBar && harness.engine.learnsWords)
    }

    @Test func twoHyphensAreADash() {
        var composer = Composer(traits: prose)
        var actions: [KeyAction] = []
        for text in ["a", " ", "-", "-", " ", "b"] { actions += composer.type(text, at: 0) }
        #expect(applying(actions) == "a — b")
    }

    @Test func anImmediateDeleteRestoresWhatWasTyped() {
        for (keys, typed) in [(["a", "-", "-"], "a--"), (["'"], "'"), (["\""], "\""), (["a", " ", " "], "a  ")] {
            var composer = Composer(traits: prose)
            var actions: [KeyAction] = []
            for key in keys { actions += composer.type(key, at: 0) }
            #expect(applying(actions) != typed)
            actions += composer.delete() ?? [.keysym("BackSpace", modifiers: [])]
            #expect(applying(actions) == typed, "\(keys)")
            // A second delete is a plain one.
            #expect(composer.delete() == nil)
        }
        // Not immediate: another key came between.
        var composer = Composer(traits: prose)
        _ = composer.type("'", at: 0)
        _ = composer.type("s", at: 0)
        #expect(composer.delete() == nil)
        #expect(composer.delete() == nil)
        #expect(composer.record == "")
    }

    @Test func eachBehaviourSwitchesOff() {
        var plain = Composer(traits: .plain)
        var actions: [KeyAction] = []
        for (index, text) in ["a", "'", "\"", "-", "-", " ", " "].enumerated() {
            actions += plain.type(text, at: Double(index) * 0.1)
        }
        #expect(applying(actions) == "a'\"--  ")
        #expect(!plain.wantsCapital)
        var noDashes = Composer(traits: TextTraits(smartDashes: false))
        #expect(applying(noDashes.type("-", at: 0) + noDashes.type("-", at: 0)) == "--")
        var noQuotes = Composer(traits: TextTraits(smartQuotes: false))
        #expect(applying(noQuotes.type("'", at: 0)) == "'")
        var noCorrection = Composer(traits: TextTraits(autocorrection: false))
        #expect(applying(noCorrection.type("a", at: 0) + noCorrection.type(" ", at: 0.1) + noCorrection.type(" ", at: 0.2)) == "a  ")
    }

    @Test func capitalsFollowTheAutocapitalizationMode() {
        func wants(_ mode: TextTraits.Autocapitalization, after text: String) -> Bool {
            var composer = Composer(traits: TextTraits(autocapitalization: mode, autocorrection: false))
            for character in text {
                if character == "\n" { composer.keysym("Return", modifiers: []) } else { _ = composer.type(String(character), at: 0) }
            }
            return composer.wantsCapital
        }
        #expect(wants(.sentences, after: ""))
        #expect(wants(.sentences, after: "Hi. "))
        #expect(wants(.sentences, after: "Really?  "))
        #expect(wants(.sentences, after: "(Yes!) "))
        #expect(wants(.sentences, after: "Line\n"))
        #expect(!wants(.sentences, after: "Hi, "))
        #expect(!wants(.sentences, after: "Hi."))
        #expect(!wants(.sentences, after: "e.g"))
        #expect(wants(.words, after: ""))
        #expect(wants(.words, after: "New "))
        #expect(!wants(.words, after: "New Y"))
        #expect(wants(.allCharacters, after: "ABC"))
        #expect(!wants(.none, after: ""))
        #expect(!wants(.none, after: "Hi. "))
    }

    @Test func secureEntryKeepsNothingAndChangesNothing() {
        var composer = Composer(traits: TextTraits(secureEntry: true))
        var actions: [KeyAction] = []
        for (index, text) in ["p", "'", "-", "-", " ", " ", "w"].enumerated() {
            actions += composer.type(text, at: Double(index) * 0.1)
        }
        #expect(applying(actions) == "p'--  w")
        #expect(composer.record == "")
        #expect(!composer.wantsCapital)
    }

    @Test func keysThatMayMoveTheCaretStartAfresh() {
        var composer = Composer(traits: prose)
        _ = composer.type("a", at: 0)
        _ = composer.type("'", at: 0)
        composer.keysym("Left", modifiers: [])
        #expect(composer.record == "" && composer.delete() == nil)
        _ = composer.type("b", at: 0)
        composer.keysym("v", modifiers: ["Control_L"])
        #expect(composer.record == "")
        _ = composer.type("c", at: 0)
        composer.keysym("Return", modifiers: [])
        #expect(composer.record == "c\n" && composer.wantsCapital)
    }

    /// The field's own text before the caret: where it ends with the record, the caret is where the
    /// keyboard left it and a smart change can still be undone; otherwise it replaces the record.
    @Test func theFieldsTextReplacesTheRecordWhereTheyDiffer() {
        var composer = Composer(traits: prose)
        composer.read("Dear Sam. It was")
        #expect(!composer.wantsCapital)
        _ = composer.type(" ", at: 0)
        _ = composer.type(" ", at: 0.1)
        #expect(composer.record == "Dear Sam. It was. ")
        // The application reports the same text: the period can still be undone.
        composer.read("Dear Sam. It was. ")
        #expect(applying(composer.delete() ?? [], to: "Dear Sam. It was. ") == "Dear Sam. It was  ")
        // A click moved the caret to just after "Sam. ": a capital there, nothing to undo.
        composer.read("Dear Sam. ")
        #expect(composer.wantsCapital)
        #expect(composer.delete() == nil)
        // To the start of the text.
        composer.read("")
        #expect(composer.record == "" && composer.wantsCapital)
        // More than the memory: the end of it is kept.
        composer.read(String(repeating: "x", count: 100) + " q")
        #expect(composer.record.count == Composer.memory && composer.record.hasSuffix(" q"))
    }

    @Test func aSecretFieldIsNeverRead() {
        var composer = Composer(traits: TextTraits(secureEntry: true))
        _ = composer.type("p", at: 0)
        composer.read("hunter2")
        #expect(composer.record == "")
    }
}

@Suite struct AutocapitalizationTests {
    @Test func shiftEngagesAtTheStartAndAfterASentence() throws {
        var k = try Harness(traits: .init())
        #expect(k.engine.state.shift == .on && k.engine.layer == "shifted")
        k.type("Hello")
        #expect(k.engine.state.shift == .off)
        k.tap("space")
        k.tap("space")
        #expect(k.field == "Hello. ")
        #expect(k.engine.state.shift == .on)
        k.type("World ok")
        #expect(k.field == "Hello. World ok")
    }

    @Test func aTapOnShiftOverridesIt() throws {
        var k = try Harness(traits: .init())
        k.tap("shift")
        #expect(k.engine.state.shift == .off)
        k.tap("i")
        k.tap("space")
        #expect(k.field == "i ")
        // After the next sentence it engages again.
        k.tap("123")
        k.tap(".")
        k.tap("ABC")
        k.tap("space")
        #expect(k.engine.state.shift == .on)
    }

    @Test func holdingShiftThatWasOnByItselfTypesCapitals() throws {
        var k = try Harness(traits: .init())
        k.send(.began, "shift", touch: 1)
        k.tap("A", touch: 2)
        k.tap("B", touch: 2)
        k.send(.ended, "shift", touch: 1)
        #expect(k.field == "AB")
        #expect(k.engine.state.shift == .off)
    }

    @Test func deletingBackToASentenceStartEngagesShift() throws {
        var k = try Harness(traits: .init())
        k.type("Hi")
        k.tap("space")
        k.tap("space")
        k.type("A")
        #expect(k.engine.state.shift == .off)
        k.tap("delete")
        #expect(k.field == "Hi. ")
        #expect(k.engine.state.shift == .on)
    }

    @Test func modesWordsAndAllAndNone() throws {
        var words = try Harness(traits: .init(autocapitalization: .words))
        words.type("New York")
        #expect(words.field == "New York")
        var all = try Harness(traits: .init(autocapitalization: .allCharacters))
        all.type("ABC")
        #expect(all.field == "ABC" && all.engine.state.shift == .on)
        var none = try Harness(traits: .init(autocapitalization: TextTraits.Autocapitalization.none))
        #expect(none.engine.state.shift == .off)
        none.type("abc")
        #expect(none.field == "abc")
    }

    @Test func aResetStartsInputAfresh() throws {
        var k = try Harness(traits: .init())
        k.type("Hello")
        #expect(k.engine.state.shift == .off)
        let update = k.engine.resetContext()
        #expect(update.redrawAll)
        #expect(k.engine.state.shift == .on)
    }

    @Test func theFieldsTextDecidesTheShift() throws {
        var k = try Harness(traits: .init())
        #expect(k.engine.state.shift == .on)
        #expect(k.engine.read(context: "Hello").redrawAll)
        #expect(k.engine.state.shift == .off)
        _ = k.engine.read(context: "Hello. ")
        #expect(k.engine.state.shift == .on)
        k.tap("X")
        #expect(k.field == "X")
    }

    @Test func eachKeyboardHasItsOwnDefaults() throws {
        var k = try Harness(["default", "email", "desktop"], traits: TextTraits.Overrides())
        #expect(k.engine.traits == TextTraits())
        k.tap("globe")
        k.engine.select(keyboard: 1)
        #expect(k.engine.traits == .plain && k.engine.state.shift == .off)
        k.engine.select(keyboard: 2)
        #expect(k.engine.traits == .plain)
        // An override holds on every keyboard.
        let quiet = try Harness(["default", "email"], traits: .init(smartQuotes: false))
        #expect(quiet.engine.traits == TextTraits(smartQuotes: false))
    }
}

@Suite struct FieldTraitsTests {
    /// A password field's traits win over the command line's and hold through keyboard switches; the next
    /// field's replace them, and the record starts afresh with each field.
    @Test func aFieldsTraitsHoldUntilAnotherFieldIsShown() throws {
        var harness = try Harness(["default", "email"], traits: TextTraits.Overrides(autocapitalization: .sentences))
        let secure = TextTraits.Overrides(autocapitalization: TextTraits.Autocapitalization.none, autocorrection: false,
                                          smartQuotes: false, smartDashes: false, secureEntry: true)
        harness.engine.show(layout: "default", returnKey: .go, traits: secure)
        #expect(harness.engine.composer.traits.secureEntry)
        #expect(harness.engine.state.shift == .off)
        harness.type("ab  c")
        #expect(applying(harness.actions) == "ab  c")
        harness.engine.select(keyboard: 1)
        harness.engine.select(keyboard: 0)
        #expect(harness.engine.composer.traits.secureEntry)
        harness.engine.show(layout: "default", returnKey: .default)
        #expect(!harness.engine.composer.traits.secureEntry)
        #expect(harness.engine.composer.traits.autocapitalization == .sentences)
        #expect(harness.engine.state.shift == .on)
    }
}
