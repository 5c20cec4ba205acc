import KeyboardModel
import TestSupport
import Testing
import Typing
import Words

/// Completions and corrections with the English dictionary the keyboard ships, taps on the key centres.
@Suite struct CompletionTests {
    static func englishHarness() throws -> SuggestionHarness? { try shippedHarness("en") }

    /// The keyboard of a language (named `keyboard` where that is not the language's tag) with the
    /// dictionary Keypane ships for it.
    static func shippedHarness(_ language: String, keyboard: String? = nil) throws -> SuggestionHarness? {
        let path = packageRoot + "/Assets/dictionaries/\(language).dict"
        guard let dictionary = try? WordDictionary(path: path) else {
            Issue.record("\(path) is missing: run make")
            return nil
        }
        let suggester = Suggester(decoder: Decoder(dictionary: dictionary))
        guard language != "en" else {
            var harness = try SuggestionHarness()
            harness.suggester = suggester
            return harness
        }
        var harness = try SuggestionHarness([keyboard ?? language])
        harness.others[language] = suggester
        harness.harness.engine.dictionaryLanguages = [language]
        return harness
    }

    /// A common word the taps begin beats a rare word they misspell, and what was typed, no word, takes no
    /// slot ("alwa" showed alwa | laws | award).
    @Test func theLikeliestWordsTheTapsBeginFillTheBar() throws {
        guard var harness = try Self.englishHarness() else { return }
        for (context, prefix, expected) in [("i will ", "alwa", "always"), ("the ", "gover", "government"),
                                            ("good ", "morni", "morning")] {
            harness.type(context + prefix)
            let bar = harness.bar.map(\.text)
            #expect(bar.first == expected, "\(prefix): \(bar)")
            #expect(!bar.contains(prefix), "\(prefix): \(bar)")
            harness.type(" ")
        }
    }

    /// Space after an unfinished word that a completion explains leaves it as typed: "gover" is not "hover".
    @Test func noCorrectionWhileACompletionIsFarLikelier() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("the gover ")
        #expect(harness.text == "the gover ")
        // A plain misspelling is still corrected; a known word, which space keeps, gives its slots to others.
        harness.type("teh ")
        #expect(harness.text == "the gover the ")
        harness.type("hous")
        #expect(harness.bar.first?.text == "house")
        harness.type("e")
        #expect(!harness.bar.map(\.text).contains("house"), "\(harness.bar.map(\.text))")
        #expect(harness.bar.map(\.text).contains("houses"), "\(harness.bar.map(\.text))")
        harness.type(" ")
        #expect(harness.text == "the gover the house ")
    }

    /// Tapping a completion types the rest of it and a space.
    @Test func aCompletionTappedTypesTheRestAndASpace() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("i will alwa")
        #expect(harness.bar.first?.text == "always")
        harness.tap("suggestion 1")
        #expect(harness.text == "I will always ")
    }

    /// A word the user kept (tapping it as typed, in its slot) is completed from its first letters.
    @Test func aLearnedWordIsCompleted() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("keypane")
        #expect(harness.bar.first?.text == "keypane")
        harness.tap("suggestion 1")
        harness.type("keyp")
        #expect(harness.bar.map(\.text).contains("keypane"), "\(harness.bar.map(\.text))")
    }

    /// "dont" gets its apostrophe on space (and "i" its capital).
    @Test func aMissingApostropheIsPutIn() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("i dont ")
        #expect(harness.text == "I don't ")
    }

    /// A contraction typed without its apostrophe gets it back, where the shorter word is likelier ("youd"
    /// was "you"d), the word capitalised within a sentence ("Im" was kept as a name), or the spelling without
    /// it a rare word ("whats"); a word as common as the contraction stays ("its", "lets", "well").
    @Test func aContractionGetsItsApostropheBack() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("youd know ")
        #expect(harness.text == "you'd know ")
        harness.type("and ")
        harness.tap("shift")
        harness.type("Im sure whats next ")
        #expect(harness.text == "you'd know and I'm sure what's next ")
        harness.type("its name lets us ")
        #expect(harness.text == "you'd know and I'm sure what's next its name lets us ")
        harness.type("as well ")
        #expect(harness.text.hasSuffix(" as well "), "\(harness.text)")
    }
}

extension CompletionTests {
    /// A name the dictionary lacks, capitalised within a sentence, is left as typed, neither corrected nor
    /// split ("Newsfeed" is not "News feed", though "ofthe" is "of the"); one it spells with a capital
    /// ("walter", as "paris") gets it.
    @Test func aNameWithinASentenceIsNotCorrected() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("said walter ")
        harness.tap("shift")
        harness.type("Kistler ")
        #expect(harness.text == "said Walter Kistler ")
        harness.type("in paris ")
        #expect(harness.text == "said Walter Kistler in Paris ")
        harness.type("via ")
        harness.tap("shift")
        harness.type("Newsfeed ")
        #expect(harness.text == "said Walter Kistler in Paris via Newsfeed ")
        harness.type("ofthe ")
        #expect(harness.text == "said Walter Kistler in Paris via Newsfeed of the ")
    }
}

extension CompletionTests {
    /// Two words run together are split where the pair is likelier than the word a correction would give:
    /// "towhat" is "to what", not "that"; "theyear" is "the year", not "they're".
    @Test func aSpaceLeftOutBeatsAWordAFewLettersAway() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("it is comparable towhat ")
        #expect(harness.text == "it is comparable to what ")
        harness.type("they did in some part of theyear ")
        #expect(harness.text == "it is comparable to what they did in some part of the year ")
        harness.type("let me know when youget ")
        #expect(harness.text == "it is comparable to what they did in some part of the year let me know when you get ")
    }
}

extension CompletionTests {
    /// A misspelt word's possessive is corrected as the word is, its apostrophe and s kept ("comapny's":
    /// company's); a name's possessive is left as typed.
    @Test func aMisspeltPossessiveIsCorrected() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("the comapny")
        harness.typeSymbol("'")
        harness.type("s ")
        #expect(harness.text == "the company's ")
        harness.tap("shift")
        harness.type("Kistler")
        harness.typeSymbol("'")
        harness.type("s ")
        #expect(harness.text == "the company's Kistler's ")
    }
}

extension CompletionTests {
    /// A capitalised word within a sentence that is a known word with a slip of typing (a letter doubled, two
    /// swapped, one left out) is corrected; a name a letter away from a word ("Kang", "Hazem") is not, nor a
    /// short one that is a slip away ("Egan", "Began").
    @Test func aSlipInACapitalisedWordIsCorrectedButNotAName() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("we met")
        var expected = "we met"
        for (typed, kept) in [("Wednedsay", "Wednesday"), ("Statess", "States"), ("Katrna", "Katrina"),
                              ("Kang", "Kang"), ("Hazem", "Hazem"), ("Egan", "Egan")] {
            harness.type(" ")
            harness.tap("shift")
            harness.type(typed)
            expected += " " + kept
        }
        harness.type(" ")
        #expect(harness.text == expected + " ")
    }
}

extension CompletionTests {
    /// The start of a common word is not taken for a rare word the dictionary spells with a capital: "th"
    /// offers the, that and this, not "Th" (an abbreviation), and space leaves it as typed; "i" still
    /// becomes "I".
    @Test func aWordsStartIsNotCapitalisedAsARareWord() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("so th")
        let bar = harness.bar.map(\.text)
        #expect(!bar.contains("Th") && bar.contains("the"), "\(bar)")
        harness.type(" i ")
        #expect(harness.text == "so th I ")
    }

    /// A first letter typed takes no slot of its own: the bar offers three words it begins ("o": of, on,
    /// or), and space still keeps the letter.
    @Test func aFirstLetterLeavesTheBarToWords() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("one o")
        let bar = harness.bar.map(\.text)
        #expect(bar.count == 3 && !bar.contains("o") && bar.allSatisfy { $0.hasPrefix("o") }, "\(bar)")
        harness.type(" ")
        #expect(harness.text == "one o ")
    }

    /// A first letter tapped near its neighbour still leads with words it begins: "s" tapped toward "a"
    /// offers so, some, she before "a" or "as".
    @Test func aFirstLetterOffTheCentreLeadsWithWordsItBegins() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("and ")
        harness.tap("s", dx: -14)
        let bar = harness.bar.map(\.text)
        #expect(bar.count == 3 && bar.allSatisfy { $0.hasPrefix("s") }, "\(bar)")
    }

    /// A digit typed leads to no word of letters: "2" is not "a" or "the".
    @Test func aDigitOffersNoWordsOfLetters() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("in ")
        harness.typeSymbol("2")
        let bar = harness.bar.map(\.text)
        #expect(!bar.contains { $0.contains(where: \.isLetter) }, "\(bar)")
        harness.type(" ")
        #expect(harness.text == "in 2 ")
    }
}

extension CompletionTests {
    /// Two words run together get their space; a word that happens to hold two ("nowhere") is kept.
    @Test func aMissingSpaceIsPutIn() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("one ofthe ")
        #expect(harness.text == "one of the ")
        harness.type("nowhere ")
        #expect(harness.text == "one of the nowhere ")
        // A delete right after takes the space back out, as for any correction.
        harness.type("inthe ")
        harness.tap("delete")
        #expect(harness.text == "one of the nowhere inthe")
    }
}

extension CompletionTests {
    /// A known word's possessive is a word, though the dictionary lists none; a compound written with
    /// capitals inside is a name, neither corrected nor split.
    @Test func possessivesAndCompoundsAreLeftAsTyped() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("the company")
        harness.typeSymbol("'")
        harness.type("s story ")
        #expect(harness.text == "the company's story ")
        harness.type("see ")
        harness.tap("shift")
        harness.type("Unleaded")
        harness.tap("shift")
        harness.type("Stocks ")
        #expect(harness.text == "the company's story see UnleadedStocks ")
    }
}

extension CompletionTests {
    /// American spellings and words the frequency list lacks are known: never corrected to another word.
    @Test func americanSpellingsAreKept() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("it was rumored the theater colors ")
        #expect(harness.text == "it was rumored the theater colors ")
    }
}

extension CompletionTests {
    /// A word typed right after "@", "." or "/" is a part of an address and is not corrected ("@gmail" is
    /// not "@email"); the same word after a space is.
    @Test func aPartOfAnAddressIsNotCorrected() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("mail jane")
        harness.typeSymbol("@")
        harness.type("gmail ")
        #expect(harness.text == "mail jane@gmail ")
        harness.type("or explorer")
        harness.typeSymbol("/")
        harness.type("msn ")
        #expect(harness.text == "mail jane@gmail or explorer/msn ")
        harness.type("msn ")
        #expect(harness.text != "mail jane@gmail or explorer/msn msn ")
    }
}

extension CompletionTests {
    /// After an apostrophe the bar offers the words that have one: the contractions it begins ("who'":
    /// who's first, as the language model counts it), or a known word's possessive ("company'":
    /// company's). Space never takes the apostrophe away ("students'" is a plural's possessive).
    @Test func anApostropheTypedLeadsToContractionsAndPossessives() throws {
        guard var harness = try Self.englishHarness() else { return }
        for (word, expected) in [("who", "who's"), ("company", "company's")] {
            harness.type("and " + word)
            harness.typeSymbol("'")
            let bar = harness.bar.map(\.text)
            #expect(bar.first == expected, "\(word)': \(bar)")
            #expect(bar.allSatisfy { $0.contains("'") }, "\(word)': \(bar)")
            harness.type(" ")
        }
        harness.type("the students")
        harness.typeSymbol("'")
        harness.type(" ")
        #expect(harness.text.hasSuffix(" the students' "), "\(harness.text)")
    }
}

extension CompletionTests {
    /// Words people write that the book counts and hunspell lack (web.txt) are known, so typed right they
    /// stay ("tradeoff" was split, "oolong" became cooling); a misspelling is still corrected.
    @Test func wordsOfTheWebListAreKept() throws {
        guard var harness = try Self.englishHarness() else { return }
        harness.type("a bad tradeoff for oolong audiobooks ")
        #expect(harness.text == "a bad tradeoff for oolong audiobooks ")
        harness.type("teh ")
        #expect(harness.text == "a bad tradeoff for oolong audiobooks the ")
    }
}

extension CompletionTests {
    /// Words the subtitles' counts lack, inflections among them, are known from the language's web list,
    /// so typed right they stay ("weiterempfehlen" was split, "idyllischen" lost its ending, "marocaines"
    /// and "coordinados" their plural, "riunirle" became "riunire", "несчастливых" "несчастлив").
    @Test func otherLanguagesWordsOfTheWebListAreKept() throws {
        for (language, keyboard, text) in [("de", "de", "ich kann es weiterempfehlen in einer idyllischen "),
                                           ("fr", "fr", "les femmes marocaines "), ("es", "es", "fueron coordinados por ellos "),
                                           ("it", "it", "voglio riunirle e la attributiva "), ("pt", "pt-br", "a ciumeira "),
                                           ("sv", "sv", "och regeländringarna "), ("ru", "ru", "несчастливых бесов ")] {
            guard var harness = try Self.shippedHarness(language, keyboard: keyboard) else { return }
            harness.type(text)
            #expect(harness.text == text, "\(language)")
        }
    }
}
