#if canImport(Glibc)
import Glibc
#endif

/// A word the taps may have meant, with what it costs: how far the taps fell from its letters (and the
/// letters missed, doubled or swapped), and how unlikely the word is where it goes.
public struct Candidate: Equatable, Sendable {
    /// The word as the dictionary has it (lower case, but for words that only have capitals there).
    public var word: String
    /// The taps' cost, in nats.
    public var touch: Float
    /// The language model's cost, in nats.
    public var language: Float
    /// Longer than the taps: a completion.
    public var isCompletion: Bool

    public var cost: Float { touch + language }
}

/// How the search weighs what it finds.
public struct DecoderSettings: Equatable, Sendable {
    /// A tap that belongs to no letter of the word (a letter typed twice, a stray touch).
    public var insertion: Float = 4.5
    /// A letter of the word with no tap (a letter skipped).
    public var omission: Float = 4.5
    /// An apostrophe with no tap: "dont" for "don't".
    public var apostropheOmission: Float = 1.0
    /// Two letters typed the other way round.
    public var transposition: Float = 3.5
    /// A tap this close to a letter (in nats) may be one of a swapped pair.
    public var nearMiss: Float = 4
    /// The most edits (insertions, omissions, transpositions) in a word, and in words of 3 letters or fewer.
    public var maxEdits = 2
    public var maxEditsShort = 1
    /// Hypotheses kept after each tap.
    public var beam = 40
    /// How much the language model counts against the taps.
    public var languageWeight: Float = 0.7
    /// The share of the word-pair model where the previous word has known followers.
    public var pairShare: Float = 0.6
    /// A completion's extra cost: a word longer than the taps is a guess about what comes.
    public var completion: Float = 1.0

    public init() {}
}

/// Finds the words a sequence of taps may have meant, by a beam search through the dictionary's trie:
/// each tap is scored against each letter by the touch model, with letters skipped, doubled and swapped
/// as edits of fixed cost, and each word by the word and word-pair model. Completions come from the same
/// search, below the nodes the taps reached.
public struct Decoder: Sendable {
    public let dictionary: WordDictionary
    public var settings = DecoderSettings()

    public init(dictionary: WordDictionary) {
        self.dictionary = dictionary
    }

    struct Hypothesis {
        var node: UInt32
        var cost: Float
        var edits: Int

        /// A total order, cheapest first: at the same cost fewer edits (which may go on further), then by
        /// node, so that what the search keeps never depends on the order hypotheses come in (it followed
        /// hash tables that each process seeds its own way: the same taps gave other words after a restart).
        func precedes(_ other: Hypothesis) -> Bool {
            if cost != other.cost { return cost < other.cost }
            if edits != other.edits { return edits < other.edits }
            return node < other.node
        }
    }

    /// The likeliest candidates, cheapest first: whole words of the taps' length (give or take edits),
    /// and `completions` completions of the likeliest prefixes.
    public func decode(_ taps: [Tap], plan: KeyPlan, touch model: TouchModel = TouchModel(), previous: String? = nil,
                       earlier: String? = nil, limit: Int = 8, completions completionCount: Int = 4) -> [Candidate] {
        decode(taps, plan: plan, touch: model, context: LanguageContext(dictionary: dictionary, earlier: earlier, previous: previous),
               limit: limit, completions: completionCount)
    }

    /// The same, in a context read once for the request.
    public func decode(_ taps: [Tap], plan: KeyPlan, touch model: TouchModel = TouchModel(), context: LanguageContext,
                       limit: Int = 8, completions completionCount: Int = 4) -> [Candidate] {
        var memo = SearchMemo()
        return decode(taps, plan: plan, touch: model, context: context, limit: limit, completions: completionCount, memo: &memo)
    }

    /// The same, extending the search `memo` kept of the word's earlier taps (see `SearchMemo`).
    public func decode(_ taps: [Tap], plan: KeyPlan, touch model: TouchModel = TouchModel(), context: LanguageContext,
                       limit: Int = 8, completions completionCount: Int = 4, memo: inout SearchMemo) -> [Candidate] {
        guard !taps.isEmpty, taps.count < 48 else { return [] }
        let layers = search(taps, plan: plan, touch: model, memo: &memo)
        var found: [UInt32: Candidate] = [:]
        func add(_ id: UInt32, touch: Float, completion: Bool) {
            let language = languageCost(id, in: context) * settings.languageWeight
            if let old = found[id], old.cost <= touch + language { return }
            guard let word = dictionary.word(id) else { return }
            found[id] = Candidate(word: word, touch: touch, language: language, isCompletion: completion)
        }
        let last = layers[taps.count].all
        for hypothesis in last {
            guard let node = dictionary.node(hypothesis.node), node.word < dictionary.wordCount else { continue }
            add(node.word, touch: hypothesis.cost, completion: false)
        }
        // Completions, each word at its cheapest: the likeliest words below the cheapest prefixes.
        var completions: [UInt32: Candidate] = [:]
        func complete(_ id: UInt32, _ word: String, touch: Float) {
            let language = languageCost(id, in: context) * settings.languageWeight
            if let old = completions[id], old.cost <= touch + language { return }
            completions[id] = Candidate(word: word, touch: touch, language: language, isCompletion: true)
        }
        for hypothesis in Self.least(8, of: last, by: { $0.precedes($1) }) {
            guard let node = dictionary.node(hypothesis.node) else { continue }
            for id in likeliestWords(below: node, count: completionCount, skippingSelf: true) {
                guard let word = dictionary.word(id) else { continue }
                complete(id, word, touch: hypothesis.cost + settings.completion)
            }
        }
        // The words the context makes likely, below any prefix the taps reached, though commoner words
        // share the prefix ("thank you for your inf": information).
        let reached = layers[taps.count]
        for id in context.likelyWords {
            guard let word = dictionary.word(id) else { continue }
            var node = dictionary.root, touch = Float.infinity
            for unit in word.lowercased().utf16 {
                guard node.word != id, let child = dictionary.child(of: node, unit) else { break }
                if let hypothesis = reached[node.index], node.index != 0 { touch = min(touch, hypothesis.cost) }
                node = child
            }
            guard touch.isFinite, node.word == id else { continue }
            complete(id, word, touch: touch + settings.completion)
        }
        // A word reached both ways counts at its cheaper: "always" from "alwa" is a completion, not two
        // letters skipped.
        var whole: [Candidate] = []
        for (id, candidate) in found {
            if let completion = completions[id] {
                if completion.cost <= candidate.cost { continue }
                completions[id] = nil
            }
            whole.append(candidate)
        }
        return Self.least(limit, of: whole, by: Self.order)
            + Self.least(completionCount, of: Array(completions.values), by: Self.order)
    }

    /// The `count` least of `items` by `less` (a strict total order), in order: the rest is only
    /// partitioned away, where sorting all of a decode's hundreds of words took a tenth of its time.
    static func least<T>(_ count: Int, of items: [T], by less: (T, T) -> Bool) -> [T] {
        var items = items
        moveLeast(count, of: &items, by: less)
        return items.prefix(count).sorted(by: less)
    }

    static func order(_ a: Candidate, _ b: Candidate) -> Bool { a.cost != b.cost ? a.cost < b.cost : a.word < b.word }

    /// The language model's cost of a word after the previous one, in nats: the pair model mixed with the
    /// word model where the previous word has known followers.
    public func languageCost(_ id: UInt32, after previous: UInt32?) -> Float {
        languageCost(id, in: LanguageContext(dictionary: dictionary, previous: previous))
    }

    /// The language model's cost of a word in a context, in nats.
    public func languageCost(_ id: UInt32, in context: LanguageContext) -> Float {
        context.cost(of: id, wordCost: dictionary.cost(id) ?? 255, pairShare: settings.pairShare)
    }

    /// The words likeliest to follow `previous` (nil: a sentence's first word) and `earlier` before it,
    /// best first.
    public func predictions(after previous: String?, earlier: String? = nil, count: Int) -> [String] {
        predictions(in: LanguageContext(dictionary: dictionary, earlier: earlier, previous: previous), count: count)
    }

    /// The likeliest next words in a context, best first: what the trigram model lists, the followers
    /// the pair model knows and the commonest words, each at its cost in the context.
    public func predictions(in context: LanguageContext, count: Int) -> [String] {
        var candidates = Set(context.ranked.prefix(count).map(\.word))
        if let previous = context.previous {
            candidates.formUnion(dictionary.followers(of: previous).prefix(count).map(\.word))
        }
        candidates.formUnion(likeliestWords(below: dictionary.root, count: count, skippingSelf: true))
        return candidates.map { ($0, languageCost($0, in: context)) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .prefix(count).compactMap { dictionary.word($0.0) }
    }

    /// How likely each next character is after a prefix, by the words below it (for the keys' hit areas).
    public func nextCharacters(after prefix: String) -> [UInt16: Float] {
        guard let node = dictionary.node(for: prefix.lowercased().utf16) else { return [:] }
        var weights: [UInt16: Float] = [:]
        var sum: Float = 0
        forEachChild(of: node) { child in
            let weight = expf(-Float(child.best) / DictionaryFormat.costScale)
            weights[child.character, default: 0] += weight
            sum += weight
        }
        guard sum > 0 else { return [:] }
        return weights.mapValues { $0 / sum }
    }

    /// The `count` likeliest words at or below a node, best first: a best-first search (on a binary heap)
    /// where a node stands for its subtree's best cost and a word for its own.
    func likeliestWords(below start: WordDictionary.Node, count: Int, skippingSelf: Bool) -> [UInt32] {
        struct Item { var priority: UInt8; var node: UInt32; var isWord: Bool }
        var heap = [Item(priority: start.best, node: start.index, isWord: false)]
        func push(_ item: Item) {
            heap.append(item)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].priority < heap[parent].priority else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
        func pop() -> Item {
            let top = heap[0]
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < heap.count && heap[left].priority < heap[smallest].priority { smallest = left }
                    if right < heap.count && heap[right].priority < heap[smallest].priority { smallest = right }
                    if smallest == parent { break }
                    heap.swapAt(parent, smallest)
                    parent = smallest
                }
            }
            return top
        }
        var result: [UInt32] = []
        var visits = 0
        while !heap.isEmpty, result.count < count, visits < 3000 {
            visits += 1
            let item = pop()
            if item.isWord {
                result.append(item.node)
                continue
            }
            guard let node = dictionary.node(item.node) else { continue }
            if node.word < dictionary.wordCount, !(skippingSelf && node.index == start.index) {
                push(Item(priority: dictionary.cost(node.word) ?? 255, node: node.word, isWord: true))
            }
            forEachChild(of: node) { push(Item(priority: $0.best, node: $0.index, isWord: false)) }
        }
        return result
    }

    func forEachChild(of node: WordDictionary.Node, _ body: (WordDictionary.Node) -> Void) {
        guard node.childCount > 0 else { return }
        var index = node.firstChild
        let end = UInt64(node.firstChild) + UInt64(node.childCount)
        while UInt64(index) < end, let child = dictionary.node(index) {
            body(child)
            index += 1
        }
    }

    func prune(_ layer: NodeTable) -> NodeTable {
        guard layer.count > settings.beam else { return layer }
        // Ranked by cost and the best word still reachable, so a likely prefix outlives a dead end. Each
        // hypothesis is ranked once (a rank reads the trie; ranked inside the sort's comparisons, pruning
        // was half the decoder's time), and ties go by node, so that a decode does not depend on the
        // order of the hash table.
        var ranked = layer.all.map { (rank: rank($0), hypothesis: $0) }
        Self.moveLeast(settings.beam, of: &ranked) { $0.rank != $1.rank ? $0.rank < $1.rank : $0.hypothesis.node < $1.hypothesis.node }
        var kept = NodeTable(minimumCapacity: settings.beam)
        for entry in ranked.prefix(settings.beam) { kept.offer(entry.hypothesis) }
        return kept
    }

    /// Moves the `count` least elements of `items` (by `less`, a strict total order) to its front, in no
    /// particular order: a quickselect, which only partitions, where a sort would order all of them.
    static func moveLeast<T>(_ count: Int, of items: inout [T], by less: (T, T) -> Bool) {
        guard count > 0, count < items.count else { return }
        var low = 0, high = items.count - 1
        while low < high {
            // The median of three as the pivot, moved to the end.
            let middle = low + (high - low) / 2
            if less(items[middle], items[low]) { items.swapAt(middle, low) }
            if less(items[high], items[low]) { items.swapAt(high, low) }
            if less(items[middle], items[high]) { items.swapAt(middle, high) }
            let pivot = items[high]
            var store = low
            for index in low..<high where less(items[index], pivot) {
                items.swapAt(index, store)
                store += 1
            }
            items.swapAt(store, high)
            // items[store] is now where it would be sorted: everything before it is less.
            if store == count || store == count - 1 { return }
            if store < count { low = store + 1 } else { high = store - 1 }
        }
    }

    private func rank(_ hypothesis: Hypothesis) -> Float {
        let best = dictionary.node(hypothesis.node).map { Float($0.best) } ?? 255
        return hypothesis.cost + settings.languageWeight * best / DictionaryFormat.costScale
    }
}
