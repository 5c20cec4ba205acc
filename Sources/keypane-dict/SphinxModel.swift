#if canImport(Glibc)
import Glibc
#endif
import Words

/// A trigram language model in CMU Sphinx's binary trie format (`.lm.bin`, as pocketsphinx writes it),
/// read for its probabilities: the format is a header, quantisation tables, the unigrams, bit-packed
/// bigrams and trigrams, and the vocabulary. The trie is keyed backwards: a unigram's entries are the
/// bigrams that end with it, and a bigram's the trigrams that end with it.
struct SphinxModel {
    /// The vocabulary, by word id.
    var words: [String] = []
    /// Natural logs: each unigram's probability and backoff weight.
    var unigramLogProbability: [Double] = []
    var unigramBackoff: [Double] = []
    /// Each bigram, its probability and its backoff weight (natural logs).
    var bigrams: [(first: Int, second: Int, logProbability: Double, backoff: Double)] = []
    /// Each trigram and its probability (natural log).
    var trigrams: [(first: Int, second: Int, third: Int, logProbability: Double)] = []

    enum Failure: Error, CustomStringConvertible {
        case format(String, String)
        var description: String {
            switch self {
            case .format(let path, let reason): "\(path) is not a Sphinx trigram model that can be read: \(reason)"
            }
        }
    }

    /// Sphinx keeps log probabilities as integers' worth of its log base, 1.0001.
    static let logBase = log(1.0001)

    init(bytes: [UInt8], path: String) throws(Failure) {
        let header = Array("Trie Language Model".utf8)
        guard bytes.count > header.count + 1, Array(bytes[0..<header.count]) == header else {
            throw .format(path, "no \"Trie Language Model\" header")
        }
        var at = header.count
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        }
        func f32(_ offset: Int) -> Double { Double(Float(bitPattern: u32(offset))) }
        let order = Int(bytes[at])
        at += 1
        guard order == 3 else { throw .format(path, "order \(order), a trigram model is needed") }
        guard bytes.count > at + 16 else { throw .format(path, "cut short in its header") }
        let counts = (0..<3).map { Int(u32(at + 4 * $0)) }
        at += 12 + 4
        // Quantisation: 2^16 bigram probabilities, 2^16 bigram backoffs, 2^16 trigram probabilities.
        let tableSize = 65_536
        let tables = at
        at += 3 * tableSize * 4
        let unigrams = at
        at += 12 * (counts[0] + 1)
        func bitsFor(_ value: Int) -> Int { value == 0 ? 0 : Int.bitWidth - value.leadingZeroBitCount }
        let wordBits = bitsFor(counts[0]), nextBits = bitsFor(counts[2])
        let middleBits = wordBits + 32 + nextBits, longestBits = wordBits + 16
        let middle = at
        at += ((1 + counts[1]) * middleBits + 7) / 8 + 8
        let longest = at
        at += ((1 + counts[2]) * longestBits + 7) / 8 + 8
        guard bytes.count >= at + 4 else { throw .format(path, "cut short before its vocabulary") }
        let vocabularyBytes = Int(u32(at))
        at += 4
        guard bytes.count >= at + vocabularyBytes else { throw .format(path, "cut short in its vocabulary") }
        words = bytes[at..<(at + vocabularyBytes)].split(separator: 0, omittingEmptySubsequences: false)
            .prefix(counts[0]).map { String(decoding: $0, as: UTF8.self) }
        guard words.count == counts[0] else { throw .format(path, "\(words.count) words where it says \(counts[0])") }

        func bits(_ base: Int, _ offset: Int, _ count: Int) -> Int {
            let byte = base + offset >> 3
            guard byte + 4 <= bytes.count else { return 0 }
            return Int(u32(byte) >> UInt32(offset & 7)) & (1 << count - 1)
        }
        func table(_ index: Int, _ entry: Int) -> Double { f32(tables + 4 * (index * tableSize + entry)) * Self.logBase }
        for word in 0..<counts[0] {
            unigramLogProbability.append(f32(unigrams + 12 * word) * Self.logBase)
            unigramBackoff.append(f32(unigrams + 12 * word + 4) * Self.logBase)
            let begin = Int(u32(unigrams + 12 * word + 8)), end = Int(u32(unigrams + 12 * (word + 1) + 8))
            guard begin <= end, end <= counts[1] else { throw .format(path, "a unigram's bigrams lie outside the file") }
            for entry in begin..<end {
                let offset = entry * middleBits
                let first = bits(middle, offset, wordBits)
                let backoff = table(1, bits(middle, offset + wordBits, 16))
                let probability = table(0, bits(middle, offset + wordBits + 16, 16))
                guard first < counts[0] else { throw .format(path, "a bigram names word \(first) of \(counts[0])") }
                bigrams.append((first, word, probability, backoff))
                let next = bits(middle, offset + wordBits + 32, nextBits)
                let nextEnd = bits(middle, offset + middleBits + wordBits + 32, nextBits)
                guard next <= nextEnd, nextEnd <= counts[2] else { throw .format(path, "a bigram's trigrams lie outside the file") }
                for trigram in next..<nextEnd {
                    let earliest = bits(longest, trigram * longestBits, wordBits)
                    guard earliest < counts[0] else { throw .format(path, "a trigram names word \(earliest) of \(counts[0])") }
                    trigrams.append((earliest, first, word, table(2, bits(longest, trigram * longestBits + wordBits, 16))))
                }
            }
        }
    }

    /// The counts of `wanted` as the model weighs them, on the scale of `counts`: the counts of the words
    /// both know, summed, against the model's probabilities of them, summed. Words the model lacks are left
    /// out.
    func counts(of wanted: [String], scaledTo counts: [String: UInt64]) -> [String: UInt64] {
        var probability: [String: Double] = [:]
        for (id, word) in words.enumerated() { probability[word.lowercased()] = exp(unigramLogProbability[id]) }
        var counted = 0.0, weighed = 0.0
        for (word, count) in counts {
            guard let p = probability[word] else { continue }
            counted += Double(count)
            weighed += p
        }
        guard weighed > 0 else { return [:] }
        var result: [String: UInt64] = [:]
        for word in wanted {
            if let p = probability[word] { result[word] = max(1, UInt64(p * counted / weighed)) }
        }
        return result
    }

    /// Each word's followers by the bigrams, as counts in proportion to their probabilities (sentence
    /// marks left out).
    func followers() -> [String: [String: UInt64]] {
        var result: [String: [String: UInt64]] = [:]
        for bigram in bigrams {
            let first = words[bigram.first], second = words[bigram.second]
            guard !first.hasPrefix("<"), !second.hasPrefix("<") else { continue }
            result[first.lowercased(), default: [:]][second.lowercased(), default: 0] += UInt64(exp(bigram.logProbability) * 1e9)
        }
        return result
    }

    /// The model's continuations, for a dictionary: what follows each two words, and what begins a
    /// sentence (the two words before it are both the sentence's start, "").
    func continuations() -> [WordPair: (backoff: Double, next: [String: Double])] {
        func name(_ id: Int) -> String? {
            let word = words[id]
            if word == "<s>" { return "" }
            return word.hasPrefix("<") ? nil : word.lowercased()
        }
        var backoffs: [Int: [Int: Double]] = [:]
        var result: [WordPair: (backoff: Double, next: [String: Double])] = [:]
        let start = words.firstIndex(of: "<s>")
        for bigram in bigrams {
            backoffs[bigram.first, default: [:]][bigram.second] = bigram.backoff
            guard bigram.first == start, let next = name(bigram.second), !next.isEmpty else { continue }
            result[WordPair("", ""), default: (unigramBackoff[bigram.first], [:])].next[next] = bigram.logProbability
        }
        for trigram in trigrams {
            guard let first = name(trigram.first), let second = name(trigram.second), let next = name(trigram.third),
                  !second.isEmpty, !next.isEmpty else { continue }
            let backoff = backoffs[trigram.first]?[trigram.second] ?? 0
            result[WordPair(first, second), default: (backoff, [:])].next[next] = trigram.logProbability
        }
        return result
    }
}
