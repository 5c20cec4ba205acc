import Foundation
import Testing
@testable import Words

/// A small dictionary made in the test, and a QWERTY plan of 10-pixel keys: row r's key i has its centre
/// at x = 10 i + 5 (+ 5 r for the staggered rows), y = 10 r + 5.
enum Small {
    static let rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]

    static let plan: KeyPlan = {
        var keys: [UInt16: KeyPlan.Key] = [:]
        for (row, letters) in rows.enumerated() {
            for (index, letter) in letters.utf16.enumerated() {
                keys[letter] = KeyPlan.Key(x: Double(10 * index + 5 + 5 * row), y: Double(10 * row + 5), row: row)
            }
        }
        return KeyPlan(keys: keys, keyWidth: 10, keyHeight: 10)
    }()

    static func dictionary(_ words: [String: UInt64], pairs: [String: [String: UInt64]] = [:]) -> WordDictionary {
        var builder = DictionaryBuilder()
        builder.words = words
        builder.pairs = pairs
        return try! WordDictionary(bytes: builder.build())
    }

    static let english = dictionary(
        ["the": 1000, "station": 40, "statin": 1, "tomorrow": 30, "you": 800, "gourds": 1, "your": 300, "at": 600,
         "meet": 50, "i'll": 20, "ill": 10, "form": 60, "from": 500, "cat": 50, "car": 60, "don't": 40],
        pairs: ["the": ["station": 50, "cat": 10], "meet": ["you": 90]])

    /// Taps at the centres of a word's keys, moved by (dx, dy) pixels each.
    static func taps(_ word: String, offsets: [(Double, Double)] = []) -> [Tap] {
        word.enumerated().map { index, character in
            let key = plan.keys[character.lowercased().utf16.first!]
            let offset = index < offsets.count ? offsets[index] : (0, 0)
            return Tap(x: key.map { $0.x + offset.0 }, y: key.map { $0.y + offset.1 }, character: character)
        }
    }
}

@Suite struct DictionaryFormatTests {
    @Test func wordsCostsAndFollowersReadBack() throws {
        let dictionary = Small.english
        #expect(dictionary.wordCount == 16)
        let the = try #require(dictionary.id(of: "the"))
        #expect(dictionary.word(the) == "the")
        #expect(dictionary.id(of: "th") == nil)
        #expect(dictionary.id(of: "zebra") == nil)
        // The commonest word costs least.
        #expect(dictionary.cost(the)! < dictionary.cost(dictionary.id(of: "gourds")!)!)
        let followers = dictionary.followers(of: the).compactMap { dictionary.word($0.word) }
        #expect(followers == ["station", "cat"])
    }

    @Test func damagedFilesAreNamedNotRead() {
        var bytes = { var b = DictionaryBuilder(); b.words = ["a": 1, "be": 2]; return b.build() }()
        #expect(throws: DictionaryError.corrupt("x", reason: "\(bytes.count - 3) bytes where its header says \(bytes.count): cut short?")) {
            try WordDictionary(bytes: Array(bytes.dropLast(3)), path: "x")
        }
        #expect(throws: DictionaryError.corrupt("x", reason: "not a Keypane dictionary")) {
            try WordDictionary(bytes: Array("hello world, this is not a dictionary at all, just some text!!!".utf8), path: "x")
        }
        bytes[20] ^= 0xFF
        #expect(throws: DictionaryError.corrupt("x", reason: "its header does not add up")) {
            try WordDictionary(bytes: bytes, path: "x")
        }
    }

    @Test func scribbledNodesGiveWrongWordsNeverACrash() throws {
        var builder = DictionaryBuilder()
        builder.words = ["station": 5, "stop": 3, "the": 9]
        builder.continuations = [WordPair("", ""): (-1, ["the": -0.5]), WordPair("the", "stop"): (-1, ["station": -0.1])]
        var bytes = builder.build()
        // Every byte past the header set to 0xFF: out of bounds everywhere.
        for index in DictionaryFormat.headerSize..<bytes.count { bytes[index] = 0xFF }
        let dictionary = try WordDictionary(bytes: bytes)
        let decoder = Decoder(dictionary: dictionary)
        _ = decoder.decode(Small.taps("the"), plan: Small.plan, previous: "stop", earlier: "the")
        _ = decoder.predictions(after: "the", count: 3)
        _ = decoder.predictions(after: nil, count: 3)
        _ = decoder.nextCharacters(after: "st")
    }

    @Test func theBuilderSaysWhichLineIsWrong() {
        var builder = DictionaryBuilder()
        #expect(throws: DictionaryError.badLine("words.txt", line: 2)) {
            try builder.add(lines: "the 10\nbroken\n", pairs: false, source: "words.txt")
        }
    }
}

@Suite struct TouchModelTests {
    @Test func aTapCostsMoreTheFurtherItFallsAndCapsAtASlip() {
        let model = TouchModel()
        let g = UInt16(UInt8(ascii: "g")), h = UInt16(UInt8(ascii: "h")), p = UInt16(UInt8(ascii: "p"))
        let centre = Small.taps("g")[0]
        let nearH = Tap(x: centre.x! + 4, y: centre.y, character: "g")
        #expect(model.cost(centre, g, plan: Small.plan) == 0)
        #expect(model.cost(nearH, g, plan: Small.plan) < model.cost(nearH, h, plan: Small.plan))
        #expect(model.cost(centre, h, plan: Small.plan) > model.cost(nearH, h, plan: Small.plan))
        #expect(model.cost(centre, p, plan: Small.plan) == model.substitution)
        // Without a point, only the character typed is free.
        #expect(model.cost(Tap(character: "g"), g, plan: Small.plan) == 0)
        #expect(model.cost(Tap(character: "g"), h, plan: Small.plan) == model.substitution)
    }

    @Test func learningMovesTheRowsOffsetTowardWhereTheUserTaps() {
        var model = TouchModel()
        let g = UInt16(UInt8(ascii: "g"))
        let low = Tap(x: Small.plan.keys[g]!.x, y: Small.plan.keys[g]!.y + 3, character: "g")
        let before = model.cost(low, g, plan: Small.plan)
        for _ in 0..<200 { model.learn(low, meant: g, plan: Small.plan) }
        #expect(abs(model.rowOffsets[1]!.y - 0.3) < 0.02)
        #expect(model.cost(low, g, plan: Small.plan) < before / 10)
        // A slip far off teaches nothing.
        let far = Tap(x: 0, y: 0, character: "g")
        let offset = model.rowOffsets[1]
        model.learn(far, meant: g, plan: Small.plan)
        #expect(model.rowOffsets[1] == offset)
    }
}

@Suite struct DecoderTests {
    let decoder = Decoder(dictionary: Small.english)

    @Test func tapsOffTheirKeysStillFindTheWord() {
        // "tje": the j is 4 px right of the h's centre.
        var taps = Small.taps("the")
        taps[1] = Tap(x: taps[1].x! + 6, y: taps[1].y, character: "j")
        #expect(decoder.decode(taps, plan: Small.plan).first?.word == "the")
    }

    @Test func swappedSkippedAndDoubledLettersAreFound() {
        #expect(decoder.decode(Small.taps("statoin"), plan: Small.plan).first?.word == "station")
        #expect(decoder.decode(Small.taps("tomorow"), plan: Small.plan).first?.word == "tomorrow")
        #expect(decoder.decode(Small.taps("sttation"), plan: Small.plan).first?.word == "station")
        #expect(decoder.decode(Small.taps("dont"), plan: Small.plan).first?.word == "don't")
    }

    @Test func completionsComeFromTheSameSearch() {
        let candidates = decoder.decode(Small.taps("tomo"), plan: Small.plan)
        #expect(candidates.contains { $0.word == "tomorrow" && $0.isCompletion })
    }

    @Test func thePreviousWordFavoursItsFollowers() {
        // "cat" and "car" are one key apart; after "the", "cat" is the known pair.
        var taps = Small.taps("cat")
        taps[2] = Tap(x: (Small.plan.keys[UInt16(UInt8(ascii: "t"))]!.x + Small.plan.keys[UInt16(UInt8(ascii: "r"))]!.x) / 2,
                      y: taps[2].y, character: "t")
        #expect(decoder.decode(taps, plan: Small.plan, previous: "the").first?.word == "cat")
        #expect(decoder.decode(taps, plan: Small.plan, previous: nil).first?.word == "car")
    }

    /// A dictionary with a trigram model: after "meet the", "car" is likelier than the pair model's "cat".
    static let withTrigrams: Decoder = {
        var builder = DictionaryBuilder()
        builder.words = ["the": 1000, "you": 800, "at": 600, "meet": 50, "cat": 50, "car": 60, "tomorrow": 30, "i'll": 20]
        builder.pairs = ["the": ["cat": 10, "car": 1], "meet": ["you": 90]]
        builder.continuations = [
            WordPair("meet", "the"): (log(0.5), ["car": log(0.6)]),
            WordPair("meet", "you"): (log(0.5), ["tomorrow": log(0.4), "at": log(0.3)]),
            WordPair("", ""): (log(0.5), ["i'll": log(0.3)]),
            WordPair("", "meet"): (log(0.5), ["you": log(0.5)]),
        ]
        return Decoder(dictionary: try! WordDictionary(bytes: builder.build()))
    }()

    @Test func theTwoWordsBeforeOutweighThePair() {
        let decoder = Self.withTrigrams
        var taps = Small.taps("cat")
        taps[2] = Tap(x: (Small.plan.keys[UInt16(UInt8(ascii: "t"))]!.x + Small.plan.keys[UInt16(UInt8(ascii: "r"))]!.x) / 2,
                      y: taps[2].y, character: "t")
        #expect(decoder.decode(taps, plan: Small.plan, previous: "the").first?.word == "cat")
        #expect(decoder.decode(taps, plan: Small.plan, previous: "the", earlier: "meet").first?.word == "car")
        // A word before them the model does not know leaves the pair model to decide.
        #expect(decoder.decode(taps, plan: Small.plan, previous: "the", earlier: "zebra").first?.word == "cat")
    }

    @Test func theContextCompletesItsWordsBelowThePrefixTyped() throws {
        // Five commoner words begin with "to" than "tomorrow", which the search's four completions of the
        // prefix leave out; after "meet you", the trigram model offers it.
        var builder = DictionaryBuilder()
        builder.words = ["to": 5000, "today": 900, "top": 800, "took": 700, "town": 600, "tomorrow": 30, "meet": 50, "you": 800]
        builder.continuations = [WordPair("meet", "you"): (log(0.5), ["tomorrow": log(0.4)])]
        let decoder = Decoder(dictionary: try WordDictionary(bytes: builder.build()))
        let inContext = decoder.decode(Small.taps("to"), plan: Small.plan, previous: "you", earlier: "meet").sorted(by: Decoder.order)
        #expect(inContext.prefix(2).contains { $0.word == "tomorrow" && $0.isCompletion })
        let alone = decoder.decode(Small.taps("to"), plan: Small.plan, previous: "you", earlier: "zebra").sorted(by: Decoder.order)
        #expect(!alone.prefix(3).contains { $0.word == "tomorrow" })
    }

    @Test func nextWordsComeFromTheTwoWordsBeforeAndTheSentencesStart() {
        let decoder = Self.withTrigrams
        #expect(decoder.predictions(after: "you", earlier: "meet", count: 2) == ["tomorrow", "at"])
        // Without the word before, "you" has no followers: the commonest words.
        #expect(decoder.predictions(after: "you", earlier: "zebra", count: 2) == ["the", "you"])
        // A sentence's first word, and its second.
        #expect(decoder.predictions(after: nil, count: 1) == ["i'll"])
        #expect(decoder.predictions(after: "meet", earlier: nil, count: 1) == ["you"])
        // A word the trigrams leave out pays the context's backoff: ln 2 over the pair model.
        let context = LanguageContext(dictionary: decoder.dictionary, earlier: "meet", previous: "you")
        let plain = LanguageContext(dictionary: decoder.dictionary, earlier: "zebra", previous: "you")
        let the = decoder.dictionary.id(of: "the")!
        #expect(abs(decoder.languageCost(the, in: context) - decoder.languageCost(the, in: plain) - 0.7) < 0.06)
    }

    @Test func predictionsFollowThePreviousWord() {
        #expect(decoder.predictions(after: "meet", count: 3).first == "you")
        #expect(decoder.predictions(after: nil, count: 2) == ["the", "you"])
    }

    /// The beam keeps exactly the best hypotheses: the selection moves the least to the front, whatever the
    /// order, the duplicates of rank or the count asked.
    @Test func theSelectionKeepsTheLeast() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let size = Int.random(in: 0...400, using: &generator)
            // Few distinct ranks, so that ties are common; the second field breaks them, as a node does.
            var items = (0..<size).map { (rank: Int.random(in: 0..<(round % 3 == 0 ? 4 : 1000), using: &generator), node: $0) }
                .shuffled(using: &generator)
            let less = { (a: (rank: Int, node: Int), b: (rank: Int, node: Int)) in a.rank != b.rank ? a.rank < b.rank : a.node < b.node }
            let count = Int.random(in: 0...(size + 2), using: &generator)
            let expected = items.sorted(by: less).prefix(count).map(\.node)
            Decoder.moveLeast(count, of: &items, by: less)
            #expect(items.count == size)
            #expect(Set(items.prefix(count).map(\.node)) == Set(expected), "\(size) items, \(count) least")
            // The least in order, as sorting them all and taking the first would give.
            #expect(Decoder.least(count, of: items.shuffled(using: &generator), by: less).map(\.node) == expected)
        }
    }

    @Test func nextCharactersWeighTheWordsBelow() {
        let next = decoder.nextCharacters(after: "yo")
        #expect(next[UInt16(UInt8(ascii: "u"))]! > 0.99)
        let afterT = decoder.nextCharacters(after: "t")
        #expect(afterT[UInt16(UInt8(ascii: "h"))]! > afterT[UInt16(UInt8(ascii: "o"))]!)
    }
}
