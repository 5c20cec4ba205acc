import KeyboardModel
import Testing
import Typing
import Words

/// Each language its own dictionary: the keyboard shown decides which one decodes the word and which the
/// learner files it under; words keep the dictionary's case, and accents come from the keys that offer them.
@Suite struct LanguageSuggestionTests {
    static func suggester(_ words: [String: UInt64]) throws -> Suggester {
        var builder = DictionaryBuilder()
        try builder.add(lines: words.map { "\($0.key) \($0.value)" }.joined(separator: "\n"), pairs: false, source: "test")
        return Suggester(decoder: Decoder(dictionary: try WordDictionary(bytes: builder.build())))
    }

    static func harness(_ enabled: [String]) throws -> SuggestionHarness {
        var s = try SuggestionHarness(enabled)
        s.others["de"] = try suggester(["Haus": 900, "hat": 500, "Straße": 300, "ich": 2000, "grüße": 50, "Grüße": 80])
        s.others["fr"] = try suggester(["café": 400, "cafés": 50, "car": 300, "et": 2000])
        s.harness.engine.dictionaryLanguages = ["en", "de", "fr"]
        return s
    }

    /// A German word is decoded with the German dictionary, and a noun gets its capital: "haus" becomes
    /// "Haus" on space, as the dictionary writes it; what is typed is learned as German.
    @Test func germanWordsComeFromTheGermanDictionaryInTheirCase() throws {
        var s = try Self.harness(["de", "default"])
        #expect(s.harness.engine.suggestionRequest()?.language == "de")
        s.type("haus")
        #expect(s.bar.map(\.text).contains("Haus"), "\(s.bar)")
        s.type(" ")
        #expect(s.text == "Haus ")
        #expect(s.wordLanguage == "de")
        // ß is held on s: "strase" tapped (ß where s is) reads as "Straße".
        s.type("strase")
        #expect(s.bar.map(\.text).contains("Straße"), "\(s.bar)")
    }

    /// French accents are on the keys held: "cafe" tapped offers "café".
    @Test func accentsAreReadFromTheKeysThatOfferThem() throws {
        var s = try Self.harness(["fr"])
        s.type("cafe")
        #expect(s.bar.map(\.text).contains("café"), "\(s.bar)")
        s.type(" ")
        #expect(s.text == "café ")
    }

    /// A language without a dictionary (Greek here) shows no bar and learns nothing; the next keyboard's
    /// language is used again at once.
    @Test func aLanguageWithoutADictionaryHasNoBar() throws {
        var s = try Self.harness(["el", "de"])
        #expect(s.harness.engine.wordLanguage == nil && !s.harness.engine.showsBar)
        #expect(s.harness.engine.suggestionRequest() == nil)
        s.harness.engine.select(keyboard: 1)
        #expect(s.harness.engine.wordLanguage == "de" && s.harness.engine.showsBar)
    }
}

@Suite struct DictionaryCaseTests {
    /// The file keeps a word's usual form (the one listed most), looked up in lower case.
    @Test func aWordKeepsItsUsualForm() throws {
        var builder = DictionaryBuilder()
        try builder.add(lines: "Haus 90\nhaus 10\nlaufen 50\nLaufen 5\nBerlin 20", pairs: false, source: "test")
        let dictionary = try WordDictionary(bytes: builder.build())
        let forms = ["haus", "laufen", "berlin"].map { dictionary.id(of: $0).flatMap { dictionary.word($0) } }
        #expect(forms == ["Haus", "laufen", "Berlin"])
        #expect(dictionary.id(of: "Haus") == nil)
    }
}
