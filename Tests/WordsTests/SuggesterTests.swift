import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Words

@Suite struct SuggesterTests {
    let suggester = Suggester(decoder: Decoder(dictionary: Small.english))

    func request(_ typed: String, previous: String? = nil, mayCorrect: Bool = true,
                 offsets: [(Double, Double)] = []) -> SuggestionRequest {
        SuggestionRequest(generation: 1, taps: Small.taps(typed, offsets: offsets), previous: previous, plan: Small.plan,
                          mayCorrect: mayCorrect)
    }

    @Test func aConfidentCorrectionIsOfferedForSpace() {
        let result = suggester.suggest(request("statoin"))
        #expect(result.correction == "station")
        #expect(result.slots.first == Slot(text: "statoin", kind: .typed))
        #expect(result.slots[1] == Slot(text: "station", kind: .word, isCorrection: true))
    }

    @Test func aKnownWordStaysUnlessTheOtherIsFarLikelier() {
        // "form" is a word; "from" is likelier, but not by the margin a known word needs.
        #expect(suggester.suggest(request("form")).correction == nil)
        #expect(suggester.suggest(request("cat")).correction == nil)
    }

    @Test func exemptWordsAndFieldsAreNeverCorrected() {
        #expect(suggester.suggest(request("statoin", mayCorrect: false)).correction == nil)
        for word in ["stat0in", "STATOIN", "a@b", "statoin.com"] { #expect(Suggester.isExempt(word), "\(word)") }
        #expect(!Suggester.isExempt("Statoin"))
    }

    @Test func shortWordsChangeLittleAndIGetsItsCapital() {
        // A single letter is never changed ("c" might be meant); "i" becomes "I".
        #expect(suggester.suggest(request("c")).correction == nil)
        #expect(suggester.suggest(request("i")).correction == nil || Small.english.id(of: "i") == nil)
        #expect(!Suggester.mayBecome("qu", "a") && Suggester.mayBecome("yoi", "you") && !Suggester.mayBecome("ab", "abcd"))
        let withI = Suggester(decoder: Decoder(dictionary: Small.dictionary(["i": 100, "i'll": 10, "ill": 5])))
        #expect(withI.suggest(request("i")).correction == "I")
        #expect(withI.suggest(request("i'll")).correction == "I'll")
    }

    @Test func aKnownWordTypedHasNoSlotOfItsOwn() {
        // "go" is a word, and space keeps it: the bar offers the likeliest other words, "going" and "good".
        let words = Suggester(decoder: Decoder(dictionary: Small.dictionary(["go": 5, "going": 900, "good": 800, "gone": 700])))
        let result = words.suggest(request("go"))
        #expect(result.correction == nil)
        #expect(result.slots.map(\.text) == ["going", "good", "gone"])
        // So too where "go" is far likelier than they are.
        let common = Suggester(decoder: Decoder(dictionary: Small.dictionary(["go": 900, "going": 20, "good": 10])))
        #expect(common.suggest(request("go")).slots.map(\.text) == ["going", "good"])
    }

    @Test func aCapitalPutInTakesTheTypedWordsSlot() {
        // "i" becomes "I" on space: the same word, so the bar shows it once, as the correction, and two others.
        let words = Suggester(decoder: Decoder(dictionary: Small.dictionary(["i": 900, "in": 800, "is": 700, "it": 600])))
        let result = words.suggest(request("i"))
        #expect(result.correction == "I")
        #expect(result.slots.first == Slot(text: "I", kind: .word, isCorrection: true))
        #expect(result.slots.map(\.text) == ["I", "in", "is"])
    }

    @Test func nothingCloseMeansNoCorrection() {
        // Nothing in the dictionary is near "zqxv": no correction, the typed word first.
        let result = suggester.suggest(request("zqxv"))
        #expect(result.correction == nil)
        #expect(result.slots.first == Slot(text: "zqxv", kind: .typed))
    }

    @Test func casesFollowWhatWasTyped() {
        #expect(Suggester.cased("station", like: "Statoin") == "Station")
        #expect(Suggester.cased("station", like: "STATOIN") == "STATION")
        #expect(Suggester.cased("i'll", like: "ill") == "I'll")
        let result = suggester.suggest(request("Statoin"))
        #expect(result.correction == "Station")
    }

    @Test func theUsersOwnWordsAreOfferedAndNotCorrected() {
        var user = UserWords()
        #expect(suggester.suggest(request("zorb"), user: user).correction == nil)
        // "stqtion" would be station; kept by the user, it stays.
        #expect(suggester.suggest(request("stqtion"), user: user).correction == "station")
        user.keep("stqtion")
        #expect(suggester.suggest(request("stqtion"), user: user).correction == nil)
        // A learned word not in the dictionary is found from sloppy taps too.
        user.keep("keypane")
        let result = suggester.suggest(request("keypame"), user: user)
        #expect(result.slots.contains { $0.text == "keypane" })
        // More taps than a learned word has letters (the bench once crashed here).
        user.keep("ok")
        _ = suggester.suggest(request("okayyyyy"), user: user)
    }

    @Test func afterASpaceTheBarOffersNextWords() {
        let result = suggester.suggest(SuggestionRequest(generation: 4, taps: [], previous: "meet", plan: Small.plan,
                                                         mayCorrect: true))
        #expect(result.generation == 4)
        #expect(result.slots.first == Slot(text: "you", kind: .prediction))
        #expect(result.slots.count == 3)
    }
}

@Suite struct UserWordsTests {
    @Test func wordsBecomeKnownByUseOrByKeeping() {
        var user = UserWords()
        user.learn("zorb", after: nil)
        #expect(!user.knows("zorb"))
        user.learn("Zorb", after: "the")
        #expect(user.knows("zorb"))
        #expect(user.count(of: "the", "zorb") == 1)
        user.keep("blorp")
        #expect(user.knows("blorp"))
    }

    @Test func countsFadeAndTheStoreStaysBounded() {
        var user = UserWords()
        user.keep("old")
        for index in 0..<Int(UserWords.halfLife) { user.learn("w\(index % 50)", after: nil) }
        #expect(abs(user.count(of: "old") - 1) < 0.01)
        #expect(!user.knows("old"))
        for index in 0..<(UserWords.maxWords + 500) { user.learn("n\(index)", after: "p\(index)") }
        #expect(user.serialized().split(separator: "\n").filter { $0.hasPrefix("word\t") }.count <= UserWords.maxWords)
    }

    @Test func theFileRoundTripsIsPrivateAndIsReplacedWhole() throws {
        let folder = "/tmp/keypane-words-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        defer {
            _ = try? LearnedFile(path: folder + "/keypane/learned-en").remove()
            rmdir(folder + "/keypane")
            rmdir(folder)
        }
        let file = try #require(LearnedFile.standard(language: "en", environment: ["XDG_DATA_HOME": folder]))
        #expect(file.path == folder + "/keypane/learned-en")
        #expect(try file.load() == UserWords())
        var user = UserWords()
        user.learn("zorb", after: "the")
        user.keep("blorp")
        user.touch.rowOffsets[1] = TouchModel.Offset(x: 0.1, y: 0.2, taps: 9)
        try file.save(user)
        #expect(try file.load() == user)
        var info = stat()
        stat(file.path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        stat(folder + "/keypane", &info)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(access(file.path + ".new", F_OK) != 0)
        #expect(try file.remove())
        #expect(try !file.remove())
    }

    @Test func aFileThatIsNotLearnedWordsIsRefusedNotOverwritten() throws {
        #expect(throws: UserWordsError.notLearnedWords) { try UserWords(serialized: "something else\n") }
        let text = UserWords.header + "\nclock\t3\nword\tzorb\t2\t3\nword\tbroken\nrow\t1\tx\t0\t1\n"
        let user = try UserWords(serialized: text)
        #expect(user.knows("zorb") && user.skipped == 2)
    }
}

extension SuggesterTests {
    /// A word in German's spelling before 1996 ("daß" for "dass") is known: kept as typed, not made another
    /// word a letter away ("da").
    @Test func theOldGermanSpellingIsKeptAsTyped() {
        let german = Suggester(decoder: Decoder(dictionary: Small.dictionary(["dass": 500, "da": 800, "lässt": 50, "lädt": 40])))
        for word in ["daß", "läßt"] {
            let taps = Small.taps(word)
            #expect(german.suggest(SuggestionRequest(generation: 1, taps: taps, previous: "so", plan: Small.plan,
                                                     mayCorrect: true)).correction == nil, "\(word)")
        }
    }

    /// A German word with its umlauts written out ("fuer", "Muenchen") is given them, in the dictionary's case;
    /// in another language that has the same letters (Swedish "bär", Turkish "gül") "ae" and "ue" are left as
    /// typed.
    @Test func umlautsWrittenOutAreGivenBackInGerman() {
        let suggester = Suggester(decoder: Decoder(dictionary: Small.dictionary(["für": 900, "der": 1000, "münchen": 50])))
        func correction(_ typed: String, _ language: String) -> String? {
            suggester.suggest(SuggestionRequest(generation: 1, taps: Small.taps(typed), previous: "so", plan: Small.plan,
                                                mayCorrect: true, language: language)).correction
        }
        for (typed, expected) in [("fuer", "für"), ("Fuer", "Für"), ("Muenchen", "München")] {
            #expect(correction(typed, "de") == expected, "\(typed)")
            #expect(correction(typed, "sv") != expected, "\(typed) in Swedish")
            #expect(correction(typed, "tr") != expected, "\(typed) in Turkish")
        }
    }

    /// In a language that writes compounds as one word, two words run together are split only into a pair the
    /// language model knows ("ichbin"), not into any two words ("supernetten" is not "super netten"); in
    /// English into any two ("ofthe").
    @Test func aCompoundIsNotSplitInALanguageThatWritesThem() {
        let german = Suggester(decoder: Decoder(dictionary: Small.dictionary(
            ["ich": 1000, "bin": 800, "super": 300, "netten": 200], pairs: ["ich": ["bin": 500]])))
        func request(_ typed: String, _ language: String) -> SuggestionRequest {
            SuggestionRequest(generation: 1, taps: Small.taps(typed), previous: "so", plan: Small.plan, mayCorrect: true,
                              language: language)
        }
        #expect(german.suggest(request("ichbin", "de")).correction == "ich bin")
        #expect(german.suggest(request("supernetten", "de")).correction == nil)
        #expect(german.suggest(request("supernetten", "en")).correction == "super netten")
    }
}

extension SuggesterTests {
    /// A word the dictionary lacks that is a known word with a letter more at its end is taken for an ending
    /// the dictionary lacks ("counterparty", Swedish "tumörers") and kept; its last letter typed twice is a
    /// slip and corrected ("counterpartt").
    @Test func aLetterMoreAtTheEndIsAnEndingNotASlip() {
        let suggester = Suggester(decoder: Decoder(dictionary: Small.dictionary(["counterpart": 50, "the": 1000])))
        #expect(suggester.suggest(request("counterparty", previous: "the")).correction == nil)
        #expect(suggester.suggest(request("counterpartt", previous: "the")).correction == "counterpart")
    }
}
