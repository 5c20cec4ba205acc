import Foundation
import KeyboardModel
import TestSupport
import Testing
import Typing
@testable import Words

/// The stroke decoder on strokes drawn by `StrokeGenerator` over the default keyboard, with the English
/// dictionary the keyboard ships.
@Suite struct SwipeDecoderTests {
    static func english() throws -> (decoder: SwipeDecoder, plan: KeyPlan)? {
        guard let harness = try CompletionTests.englishHarness(), let request = harness.harness.engine.suggestionRequest()
        else { return nil }
        return (SwipeDecoder(decoder: harness.suggester.decoder), request.plan)
    }

    static func stroke(_ word: String, plan: KeyPlan, jitter: Double, using random: inout Fuzz) -> [StrokePoint] {
        let centres = word.lowercased().utf16.compactMap { plan.keys[$0] }.map { (x: $0.x, y: $0.y) }
        return StrokeGenerator(jitter: jitter).stroke(through: centres, keyWidth: plan.keyWidth, using: &random)
            .map { StrokePoint(x: $0.x, y: $0.y) }
    }

    @Test func strokesThroughTheKeyCentresGiveTheirWords() throws {
        guard let (decoder, plan) = try Self.english() else { return }
        var random = Fuzz(seed: 1)
        for word in ["hello", "world", "keyboard", "the", "typing", "letter", "quick", "pizza"] {
            let words = decoder.decode(Self.stroke(word, plan: plan, jitter: 0, using: &random), plan: plan).map(\.word)
            #expect(words.first == word, "\(word): \(words)")
        }
    }

    /// Strokes for the words of held-out prose (the first 200 the dictionary has), drawn with a fifth of a
    /// key's jitter: the word is first nearly always, and among the first three all but never.
    @Test func sloppyStrokesOfProseGiveTheirWords() throws {
        guard let (decoder, plan) = try Self.english() else { return }
        var random = Fuzz(seed: 7)
        let text = try String(contentsOfFile: packageRoot + "/Benchmarks/data/held-out-en.txt", encoding: .utf8)
        let words = text.split(whereSeparator: { !$0.isLetter && $0 != "'" }).map { $0.lowercased() }
            .filter { $0.count >= 2 && decoder.decoder.dictionary.id(of: $0) != nil }.prefix(200)
        var first = 0, firstThree = 0
        for word in words {
            let found = decoder.decode(Self.stroke(word, plan: plan, jitter: 0.2, using: &random), plan: plan).map(\.word)
            if found.first == word { first += 1 }
            if found.prefix(3).contains(word) { firstThree += 1 }
        }
        #expect(Double(first) / Double(words.count) >= 0.9, "top 1: \(first) of \(words.count)")
        #expect(Double(firstThree) / Double(words.count) >= 0.97, "top 3: \(firstThree) of \(words.count)")
    }

    /// The word before decides between words the stroke fits alike: from between "i" and "o" to "f",
    /// "of" after "one", "if" after "even".
    @Test func theWordBeforeDecides() throws {
        guard let (decoder, plan) = try Self.english() else { return }
        let i = plan.keys[UInt16(UInt8(ascii: "i"))]!, o = plan.keys[UInt16(UInt8(ascii: "o"))]!
        let f = plan.keys[UInt16(UInt8(ascii: "f"))]!
        let stroke = [StrokePoint(x: (i.x + o.x) / 2, y: i.y), StrokePoint(x: f.x, y: f.y)]
        #expect(decoder.decode(stroke, plan: plan, previous: "one").first?.word == "of")
        #expect(decoder.decode(stroke, plan: plan, previous: "even").first?.word == "if")
    }

    /// A stroke far from every key, or of one point, gives nothing rather than a guess.
    /// A short stroke (a slide to a neighbouring key) means a word only where a common one runs from the key
    /// it began on to the key it ended on: "as", "we"; none from g to h, nor the rare "qa" from q to a.
    @Test func aShortStrokeMeansOnlyACommonWordFromKeyToKey() throws {
        guard let (decoder, plan) = try Self.english() else { return }
        func slide(_ from: Character, _ to: Character) -> [String] {
            let a = plan.keys[UInt16(from.asciiValue!)]!, b = plan.keys[UInt16(to.asciiValue!)]!
            let stroke = (0...6).map { StrokePoint(x: a.x + (b.x - a.x) * Double($0) / 6, y: a.y + (b.y - a.y) * Double($0) / 6) }
            return decoder.decode(stroke, plan: plan, short: true).map(\.word)
        }
        #expect(slide("a", "s").first == "as")
        #expect(slide("w", "e").first == "we")
        #expect(slide("g", "h") == [])
        #expect(slide("q", "a") == [])
        #expect(slide("a", "s").allSatisfy { $0.first == "a" && $0.last == "s" })
    }

    /// A touchscreen's ghost point (one sample a few keys away, between two close ones) changes nothing:
    /// the stroke of "will" with one gives "will". A sharp turn drawn sample by sample is no spike.
    @Test func aGhostPointInAStrokeIsIgnored() throws {
        guard let (decoder, plan) = try Self.english() else { return }
        var random = Fuzz(seed: 3)
        for word in ["will", "all", "see", "address"] {
            var stroke = Self.stroke(word, plan: plan, jitter: 0, using: &random)
            let clean = decoder.decode(stroke, plan: plan).map(\.word)
            let middle = stroke.count * 2 / 3
            let ghost = StrokePoint(x: stroke[middle].x + 4 * plan.keyWidth, y: stroke[middle].y + plan.keyWidth)
            stroke.insert(ghost, at: middle)
            let words = decoder.decode(stroke, plan: plan).map(\.word)
            #expect(words.first == word && words.first == clean.first, "\(word): \(words)")
        }
        let turn = [(0.0, 0.0), (1, 0), (2, 0), (3, 0), (2.2, 0.3), (1.4, 0.6), (0.6, 0.9)].map { StrokePoint(x: $0.0, y: $0.1) }
        #expect(SwipeDecoder.withoutSpikes(turn) == turn)
        let spiked = [turn[0], turn[1], StrokePoint(x: 1, y: 3), turn[2], turn[3]]
        #expect(SwipeDecoder.withoutSpikes(spiked) == [turn[0], turn[1], turn[2], turn[3]])
    }

    @Test func noWordsForNoStroke() throws {
        guard let (decoder, plan) = try Self.english() else { return }
        #expect(decoder.decode([StrokePoint(x: 10, y: 10)], plan: plan).isEmpty)
        #expect(decoder.decode([StrokePoint(x: -5000, y: -5000), StrokePoint(x: -4000, y: -5000)], plan: plan).isEmpty)
    }
}
