#if canImport(Glibc)
import Glibc
#endif

/// The compiled dictionary: a file laid out to be mapped into memory and read in place, never copied.
///
/// All numbers are little-endian; every section starts at a multiple of 8 bytes.
///
///     header      magic "KPDICT02", then UInt32s: version, node count, word count, pair count,
///                 string bytes, then UInt64 total word count (for unigram costs), then the five
///                 section offsets (UInt32 each), the context count, the continuation count and the two
///                 sections' offsets, and a UInt32 check of the header's fields
///     nodes       12 bytes each, children of a node contiguous and sorted by character:
///                 first child (UInt32), word id (UInt32, none = 0xFFFF_FFFF), character (UInt16, a
///                 UTF-16 unit of the basic plane), child count (UInt8), best cost in the subtree (UInt8)
///     words       12 bytes each: string offset (UInt32), first pair (UInt32), pair count (UInt16),
///                 cost (UInt8), string length in bytes (UInt8)
///     pairs       4 bytes each, the words that follow a word, by descending likelihood:
///                 next word id (24 bits), cost (8 bits)
///     strings     the words in UTF-8, one after another, each in its usual case ("Haus"); the trie
///                 holds them in lower case, as they are looked up
///     contexts    16 bytes each, sorted by their two words: the two words before (UInt32 ids, or
///                 `sentenceStart`), first continuation (UInt32), continuation count (UInt16), backoff
///                 cost (UInt8), unused (UInt8)
///     continuations  4 bytes each, the words that follow two words, by descending likelihood: next
///                 word id (24 bits), cost (8 bits)
///
/// Costs are negative natural logarithms of probabilities in tenths (a cost of 23 is e^-2.3), capped at
/// 255: a word's cost is its share of all words; a pair's is the share of the next word among the
/// words that follow the first. A continuation's cost is a trigram language model's probability of the
/// word after the two; a word a context does not list costs the context's backoff more than the pair
/// model's. The two words before a sentence's first word are both `sentenceStart`.
public enum DictionaryFormat {
    public static let magic: [UInt8] = Array("KPDICT02".utf8)
    public static let version: UInt32 = 2
    public static let headerSize = 80
    /// The header's fields after the magic, before the check.
    static let fieldCount = 16
    public static let nodeSize = 12
    public static let wordSize = 12
    public static let pairSize = 4
    public static let contextSize = 16
    public static let continuationSize = 4
    /// The word id that stands for a sentence's start in a context.
    public static let sentenceStart: UInt32 = 0xFF_FFFE
    /// Continuations kept per context: the likeliest.
    public static let continuationsPerContext = 64
    public static let noWord: UInt32 = 0xFFFF_FFFF
    /// Costs are stored in tenths of a nat.
    public static let costScale: Float = 10
    /// Pairs per word kept in the file: the likeliest.
    public static let pairsPerWord = 64

    /// The cost byte of a probability.
    static func cost(_ probability: Double) -> UInt8 {
        guard probability > 0 else { return 255 }
        return UInt8(min(255, max(0, (-log(probability) * Double(costScale)).rounded())))
    }

    /// The header's check: a mix of its fields, so a file cut short or scribbled over is told.
    static func check(_ fields: [UInt32]) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for field in fields {
            hash = (hash ^ field) &* 16_777_619
        }
        return hash
    }
}

/// Word counts and word-pair counts made into a dictionary file.
public struct DictionaryBuilder {
    /// How often each word was seen.
    public var words: [String: UInt64] = [:]
    /// How often each pair of words was seen, the second after the first.
    public var pairs: [String: [String: UInt64]] = [:]
    /// A word's usual form where it is not lower case ("Haus" in German): the form listed with the
    /// largest count. The trie and lookups go by lower case; the form is the word's text.
    public var forms: [String: (form: String, count: UInt64)] = [:]
    /// What a trigram language model says follows two words (in lower case; "" stands for a sentence's
    /// start, and both are "" before its first word): the natural log of each next word's probability,
    /// and of the backoff weight of the words it does not list.
    public var continuations: [WordPair: (backoff: Double, next: [String: Double])] = [:]

    public init() {}

    /// Adds lines of "word count" (the word list) or "first second count" (the pair list). Lines that
    /// are not of that form are said by their number.
    public mutating func add(lines text: String, pairs isPairs: Bool, source: String) throws(DictionaryError) {
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let fields = line.split(separator: " ")
            if fields.isEmpty { continue }
            guard fields.count == (isPairs ? 3 : 2), let count = UInt64(fields.last!) else {
                throw .badLine(source, line: number)
            }
            let first = fields[0].lowercased()
            if isPairs {
                pairs[first, default: [:]][fields[1].lowercased(), default: 0] += count
            } else {
                words[first, default: 0] += count
                let form = String(fields[0])
                if form != first, form.lowercased() == first, count > (forms[first]?.count ?? 0) {
                    forms[first] = (form, count)
                }
            }
        }
    }

    /// The file's bytes.
    public func build() -> [UInt8] {
        // Words sorted by text, so ids follow the trie's order.
        let sorted = words.keys.filter { $0.utf16.allSatisfy { $0 < 0xD800 || $0 > 0xDFFF } && $0.utf8.count < 256 }
            .sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
        var ids: [String: UInt32] = [:]
        for (index, word) in sorted.enumerated() { ids[word] = UInt32(index) }
        let total = max(sorted.reduce(UInt64(0)) { $0 + words[$1]! }, 1)
        let wordCosts = sorted.map { DictionaryFormat.cost(Double(words[$0]!) / Double(total)) }

        // The trie, breadth first: each node's children contiguous.
        final class Node {
            var children: [UInt16: Node] = [:]
            var word: UInt32 = DictionaryFormat.noWord
            var best: UInt8 = 255
        }
        let root = Node()
        for (index, word) in sorted.enumerated() {
            var node = root
            node.best = min(node.best, wordCosts[index])
            for unit in word.utf16 {
                if let child = node.children[unit] { node = child } else {
                    let child = Node()
                    node.children[unit] = child
                    node = child
                }
                node.best = min(node.best, wordCosts[index])
            }
            node.word = UInt32(index)
        }
        var order: [(node: Node, character: UInt16)] = [(root, 0)]
        var firstChild: [UInt32] = []
        var head = 0
        while head < order.count {
            let node = order[head].node
            head += 1
            firstChild.append(UInt32(order.count))
            for unit in node.children.keys.sorted() { order.append((node.children[unit]!, unit)) }
        }

        var out = ByteWriter()
        out.bytes += DictionaryFormat.magic
        // Pairs: for each word, the likeliest followers.
        var pairBytes = ByteWriter(), pairStarts: [UInt32] = [], pairCounts: [UInt16] = []
        var pairTotal: UInt32 = 0
        for word in sorted {
            pairStarts.append(pairTotal)
            let followers = (pairs[word] ?? [:]).compactMap { next, count in ids[next].map { ($0, count) } }
                .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
                .prefix(DictionaryFormat.pairsPerWord)
            let sum = max(followers.reduce(UInt64(0)) { $0 + $1.1 }, 1)
            for (id, count) in followers {
                pairBytes.u32(id << 8 | UInt32(DictionaryFormat.cost(Double(count) / Double(sum))))
            }
            pairCounts.append(UInt16(followers.count))
            pairTotal += UInt32(followers.count)
        }
        var strings: [UInt8] = [], stringOffsets: [UInt32] = []
        for word in sorted {
            stringOffsets.append(UInt32(strings.count))
            strings += Array(text(of: word).utf8)
        }

        // Contexts: the likeliest words after two words, for the contexts whose words are all known.
        func contextID(_ word: String) -> UInt32? { word.isEmpty ? DictionaryFormat.sentenceStart : ids[word] }
        var contexts: [(first: UInt32, second: UInt32, backoff: UInt8, next: [(UInt32, Double)])] = []
        for (pair, entry) in continuations {
            guard let first = contextID(pair.first), let second = contextID(pair.second) else { continue }
            let next = entry.next.compactMap { word, logProbability in ids[word].map { ($0, logProbability) } }
                .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
                .prefix(DictionaryFormat.continuationsPerContext)
            guard !next.isEmpty else { continue }
            contexts.append((first, second, DictionaryFormat.cost(min(1, exp(entry.backoff))), Array(next)))
        }
        contexts.sort { ($0.first, $0.second) < ($1.first, $1.second) }
        let continuationTotal = contexts.reduce(0) { $0 + $1.next.count }

        let nodesOffset = DictionaryFormat.headerSize
        let wordsOffset = align(nodesOffset + order.count * DictionaryFormat.nodeSize)
        let pairsOffset = align(wordsOffset + sorted.count * DictionaryFormat.wordSize)
        let stringsOffset = align(pairsOffset + Int(pairTotal) * DictionaryFormat.pairSize)
        let contextsOffset = align(stringsOffset + strings.count)
        let continuationsOffset = contextsOffset + contexts.count * DictionaryFormat.contextSize
        let end = continuationsOffset + continuationTotal * DictionaryFormat.continuationSize
        let fields: [UInt32] = [DictionaryFormat.version, UInt32(order.count), UInt32(sorted.count), pairTotal,
                                UInt32(strings.count), UInt32(truncatingIfNeeded: total), UInt32(truncatingIfNeeded: total >> 32),
                                UInt32(nodesOffset), UInt32(wordsOffset), UInt32(pairsOffset), UInt32(stringsOffset),
                                UInt32(contexts.count), UInt32(continuationTotal), UInt32(contextsOffset),
                                UInt32(continuationsOffset), UInt32(end)]
        for field in fields { out.u32(field) }
        out.u32(DictionaryFormat.check(fields))
        out.pad(to: nodesOffset)
        for (index, entry) in order.enumerated() {
            out.u32(firstChild[index])
            out.u32(entry.node.word)
            out.u16(entry.character)
            out.u8(UInt8(entry.node.children.count))
            out.u8(entry.node.best)
        }
        out.pad(to: wordsOffset)
        for index in sorted.indices {
            out.u32(stringOffsets[index])
            out.u32(pairStarts[index])
            out.u16(pairCounts[index])
            out.u8(wordCosts[index])
            out.u8(UInt8(text(of: sorted[index]).utf8.count))
        }
        out.pad(to: pairsOffset)
        out.bytes += pairBytes.bytes
        out.pad(to: stringsOffset)
        out.bytes += strings
        out.pad(to: contextsOffset)
        var firstContinuation: UInt32 = 0
        for context in contexts {
            out.u32(context.first)
            out.u32(context.second)
            out.u32(firstContinuation)
            out.u16(UInt16(context.next.count))
            out.u8(context.backoff)
            out.u8(0)
            firstContinuation += UInt32(context.next.count)
        }
        for context in contexts {
            for (id, logProbability) in context.next {
                out.u32(id << 8 | UInt32(DictionaryFormat.cost(exp(logProbability))))
            }
        }
        return out.bytes
    }

    /// A word's text in the file: its usual form, when one was listed that fits.
    private func text(of word: String) -> String {
        guard let form = forms[word]?.form, form.utf8.count < 256, words[word].map({ forms[word]!.count * 2 > $0 }) ?? false
        else { return word }
        return form
    }

    private func align(_ offset: Int) -> Int { (offset + 7) & ~7 }
}

/// Two words one after the other, the context of a trigram.
public struct WordPair: Hashable, Sendable {
    public var first: String
    public var second: String

    public init(_ first: String, _ second: String) {
        self.first = first
        self.second = second
    }
}

/// Why a dictionary could not be built or read.
public enum DictionaryError: Error, Equatable, CustomStringConvertible {
    case badLine(String, line: Int)
    case unreadable(String, reason: String)
    case corrupt(String, reason: String)

    public var description: String {
        switch self {
        case .badLine(let source, let line): "\(source):\(line): expected a word (or two) and a count"
        case .unreadable(let path, let reason): "cannot read the dictionary \(path): \(reason)"
        case .corrupt(let path, let reason): "the dictionary \(path) is damaged (\(reason))"
        }
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
    mutating func u32(_ value: UInt32) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
    mutating func pad(to offset: Int) { bytes += Array(repeating: 0, count: max(0, offset - bytes.count)) }
}
