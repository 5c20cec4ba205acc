#if canImport(Glibc)
import Glibc
#endif

/// What the language model knows of the text before a word, read from the dictionary once for a request:
/// the followers of the word before (the pair model) and the continuations of the two words before (the
/// trigram model, where the dictionary has one).
public struct LanguageContext: Sendable {
    /// The word before, when the dictionary knows it.
    public let previous: UInt32?
    let pairs: [UInt32: Float]
    let continuations: [UInt32: Float]
    /// In nats: what a word the continuations do not list pays over the pair model.
    let backoff: Float
    /// The continuations, likeliest first (for predictions).
    let ranked: [(word: UInt32, cost: UInt8)]

    /// The words this context makes likely: the trigram model's continuations and the pair model's
    /// followers.
    var likelyWords: [UInt32] { ranked.map(\.word) + pairs.keys.filter { continuations[$0] == nil } }

    /// No context: the word model alone.
    public static let none = LanguageContext(previous: nil, pairs: [:], continuations: [:], backoff: 0, ranked: [])

    init(previous: UInt32?, pairs: [UInt32: Float], continuations: [UInt32: Float], backoff: Float,
         ranked: [(word: UInt32, cost: UInt8)]) {
        self.previous = previous
        self.pairs = pairs
        self.continuations = continuations
        self.backoff = backoff
        self.ranked = ranked
    }

    /// The context of a word after `previous` (nil: at a sentence's start) and `earlier`, the word before it
    /// (nil: `previous` starts a sentence). Words are looked up in lower case; an unknown word leaves the
    /// trigram model out.
    public init(dictionary: WordDictionary, earlier: String?, previous: String?) {
        let previousID = previous.flatMap { dictionary.id(of: $0.lowercased()) }
        let earlierID = earlier.flatMap { dictionary.id(of: $0.lowercased()) }
        var pairs: [UInt32: Float] = [:]
        if let previousID {
            for follower in dictionary.followers(of: previousID) where pairs[follower.word] == nil {
                pairs[follower.word] = Float(follower.cost) / DictionaryFormat.costScale
            }
        }
        let start = DictionaryFormat.sentenceStart
        let key: (UInt32, UInt32)? = switch (earlier, previous) {
        case (_, nil): (start, start)
        case (nil, .some): previousID.map { (start, $0) }
        case (.some, .some): earlierID.flatMap { first in previousID.map { (first, $0) } }
        }
        let found = key.flatMap { dictionary.continuations(after: $0.0, $0.1) }
        var continuations: [UInt32: Float] = [:]
        for next in found?.next ?? [] where continuations[next.word] == nil {
            continuations[next.word] = Float(next.cost) / DictionaryFormat.costScale
        }
        self.init(previous: previousID, pairs: pairs, continuations: continuations,
                  backoff: Float(found?.backoff ?? 0) / DictionaryFormat.costScale, ranked: found?.next ?? [])
    }

    /// The context of a word after one known word, with no trigram (two words split from one typed).
    init(dictionary: WordDictionary, previous: UInt32?) {
        var pairs: [UInt32: Float] = [:]
        if let previous {
            for follower in dictionary.followers(of: previous) where pairs[follower.word] == nil {
                pairs[follower.word] = Float(follower.cost) / DictionaryFormat.costScale
            }
        }
        self.init(previous: previous, pairs: pairs, continuations: [:], backoff: 0, ranked: [])
    }

    /// A word's cost in nats: the trigram model's where it lists the word, else its backoff and the pair
    /// model mixed with the word model (where the word before has known followers).
    func cost(of id: UInt32, wordCost: UInt8, pairShare: Float) -> Float {
        if let cost = continuations[id] { return cost }
        let unigram = expf(-Float(wordCost) / DictionaryFormat.costScale)
        guard !pairs.isEmpty else { return backoff - logf(max(unigram, 1e-12)) }
        let pair = pairs[id].map { expf(-$0) } ?? 0
        return backoff - logf(max(pairShare * pair + (1 - pairShare) * unigram, 1e-12))
    }
}
