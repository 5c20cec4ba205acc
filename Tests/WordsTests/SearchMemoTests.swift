import Foundation
import Testing
@testable import Words

/// The decoder's search extended tap by tap from its memo finds exactly what a search from the first tap
/// finds: while a word is typed, after deletes and retyped letters, across the short words' edit limit,
/// and when the touch model or the decoder's settings change.
@Suite struct SearchMemoTests {
    /// The 20,000 commonest words of the English list, as a dictionary.
    static let dictionary: WordDictionary = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let lines = (try? String(contentsOf: root.appendingPathComponent("Dictionaries/en/words.txt"), encoding: .utf8)) ?? ""
        var builder = DictionaryBuilder()
        for line in lines.split(separator: "\n").prefix(20_000) {
            let fields = line.split(separator: " ")
            if fields.count == 2, let count = UInt64(fields[1]) { builder.words[String(fields[0])] = count }
        }
        return try! WordDictionary(bytes: builder.build())
    }()

    /// Taps on a word's keys, each moved by a seeded Gaussian of a third of a key.
    static func noisyTaps(_ word: String, seed: inout UInt64) -> [Tap] {
        func uniform() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        func gaussian() -> Double { (-2 * log(max(uniform(), 1e-12))).squareRoot() * cos(2 * .pi * uniform()) }
        return Small.taps(word, offsets: word.map { _ in (gaussian() * 3.3, gaussian() * 3.3) })
    }

    func fresh(_ decoder: Decoder, _ taps: [Tap], model: TouchModel = TouchModel()) -> [Candidate] {
        decoder.decode(taps, plan: Small.plan, touch: model, context: .none)
    }

    @Test func extendingTheSearchFindsWhatAFreshSearchFinds() throws {
        let decoder = Decoder(dictionary: Self.dictionary)
        var seed: UInt64 = 7
        var memo = SearchMemo()
        for word in ["government", "always", "the", "morning", "thinking", "keyboard", "station", "unbelievable"] {
            let taps = Self.noisyTaps(word, seed: &seed)
            for count in 1...taps.count {
                let prefix = Array(taps.prefix(count))
                let extended = decoder.decode(prefix, plan: Small.plan, context: .none, memo: &memo)
                #expect(extended == fresh(decoder, prefix), "\(word), \(count) taps")
            }
            // Two deletes, then other letters typed in their place.
            for count in [taps.count - 1, taps.count - 2] where count > 0 {
                let prefix = Array(taps.prefix(count))
                #expect(decoder.decode(prefix, plan: Small.plan, context: .none, memo: &memo) == fresh(decoder, prefix), "\(word)")
            }
            let retyped = Array(taps.prefix(max(0, taps.count - 2))) + Self.noisyTaps("xs", seed: &seed)
            #expect(decoder.decode(retyped, plan: Small.plan, context: .none, memo: &memo) == fresh(decoder, retyped), "\(word)")
        }
    }

    @Test func aChangedTouchModelOrSettingSearchesAfresh() throws {
        let decoder = Decoder(dictionary: Self.dictionary)
        var seed: UInt64 = 11
        var memo = SearchMemo()
        let taps = Self.noisyTaps("morning", seed: &seed)
        _ = decoder.decode(Array(taps.prefix(4)), plan: Small.plan, context: .none, memo: &memo)
        var model = TouchModel()
        model.sigmaX = 0.3
        #expect(decoder.decode(taps, plan: Small.plan, touch: model, context: .none, memo: &memo) == fresh(decoder, taps, model: model))
        // So does a decoder with other settings.
        var narrow = decoder
        narrow.settings.beam = 12
        _ = narrow.decode(Array(taps.prefix(4)), plan: Small.plan, context: .none, memo: &memo)
        #expect(decoder.decode(taps, plan: Small.plan, context: .none, memo: &memo) == fresh(decoder, taps))
    }

    /// Two ways to one node at the same cost: what the layer keeps does not depend on which was offered
    /// first. Before, the first offered stayed, in the order of a hash table, which each process seeds its
    /// own way: the same taps gave other words from one run of the keyboard to the next.
    @Test func whatALayerKeepsDoesNotDependOnTheOrderOfOffers() {
        let fewer = Decoder.Hypothesis(node: 7, cost: 1.5, edits: 1)
        let more = Decoder.Hypothesis(node: 7, cost: 1.5, edits: 2)
        let cheaper = Decoder.Hypothesis(node: 7, cost: 1.0, edits: 2)
        for order in [[fewer, more, cheaper], [more, cheaper, fewer], [cheaper, fewer, more], [more, fewer]] {
            var layer = NodeTable()
            for hypothesis in order { layer.offer(hypothesis) }
            let kept = layer[7]
            #expect(layer.count == 1)
            #expect(kept?.edits == (order.count == 3 ? 2 : 1) && kept?.cost == (order.count == 3 ? 1.0 : 1.5))
        }
        // Hypotheses of other nodes at one cost come in the order of their nodes.
        let tied = [Decoder.Hypothesis(node: 9, cost: 2, edits: 0), Decoder.Hypothesis(node: 3, cost: 2, edits: 0)]
        #expect(tied.sorted { $0.precedes($1) }.map(\.node) == [3, 9])
        #expect(tied.reversed().sorted { $0.precedes($1) }.map(\.node) == [3, 9])
    }

    /// A layer holds what a dictionary of the same offers holds, through growth and reserved room.
    @Test func aLayerKeepsTheBestOfEachNodeAsItGrows() {
        var layer = NodeTable(minimumCapacity: 4)
        var best: [UInt32: Decoder.Hypothesis] = [:]
        var seed: UInt64 = 7
        for round in 0..<5_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let hypothesis = Decoder.Hypothesis(node: UInt32(seed >> 52), cost: Float(seed >> 60), edits: Int(seed >> 62))
            if round == 2_000 { layer.reserve(10_000) }
            let kept = layer.offer(hypothesis)
            let better = best[hypothesis.node].map { hypothesis.precedes($0) } ?? true
            #expect(kept == better)
            if better { best[hypothesis.node] = hypothesis }
        }
        #expect(layer.count == best.count)
        for (node, hypothesis) in best {
            #expect(layer[node]?.cost == hypothesis.cost && layer[node]?.edits == hypothesis.edits)
        }
        #expect(layer[5_000] == nil)
        #expect(Set(layer.all.map(\.node)) == Set(best.keys))
    }
}
