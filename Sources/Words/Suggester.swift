#if canImport(Glibc)
import Glibc
#endif
import Basics

/// What the keyboard asks for after each tap: the word so far, its taps, the word before, and whether
/// the field lets the word be corrected.
public struct SuggestionRequest: Equatable, Sendable {
    /// Counts up with every change of the word; a result for an older one is stale.
    public var generation: Int
    /// The taps of the word being typed; none after a space (then the bar offers next words).
    public var taps: [Tap]
    /// The word before it; nil at a sentence's start.
    public var previous: String?
    /// The word before that; nil when `previous` starts a sentence.
    public var earlier: String?
    public var plan: KeyPlan
    /// The field and the settings allow autocorrection.
    public var mayCorrect: Bool
    /// The language of the dictionary to decode with (a primary tag: en, de).
    public var language: String
    /// A stroke across the keys to decode (slide to type) instead of taps.
    public var stroke: [StrokePoint]?
    /// The stroke is a slide to a neighbouring key at a word's start: a word only where one fits it closely.
    public var strokeIsShort: Bool

    public init(generation: Int, taps: [Tap], previous: String?, earlier: String? = nil, plan: KeyPlan, mayCorrect: Bool,
                language: String = "en", stroke: [StrokePoint]? = nil, strokeIsShort: Bool = false) {
        self.generation = generation
        self.taps = taps
        self.previous = previous
        self.earlier = earlier
        self.plan = plan
        self.mayCorrect = mayCorrect
        self.language = language
        self.stroke = stroke
        self.strokeIsShort = strokeIsShort
    }

    /// The word as typed.
    public var typed: String { String(taps.map(\.character)) }
}

/// One slot of the suggestion bar.
public struct Slot: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The word as typed: tapping it keeps it (and teaches it).
        case typed
        /// A word from the search: a correction or a completion.
        case word
        /// A word offered after a space.
        case prediction
    }
    public var text: String
    public var kind: Kind
    /// This is what space will put in place of the typed word.
    public var isCorrection: Bool

    public init(text: String, kind: Kind, isCorrection: Bool = false) {
        self.text = text
        self.kind = kind
        self.isCorrection = isCorrection
    }
}

/// The answer to a request: the bar's slots, the correction space would make, and how likely each next
/// letter is (for the keys' hit areas).
public struct Suggestions: Equatable, Sendable {
    public var generation: Int
    public var slots: [Slot]
    /// The word space (or punctuation) puts in place of the typed one, when confident.
    public var correction: String?
    /// The likelihood of each next character (lower case, UTF-16 units), given the word so far.
    public var nextCharacters: [UInt16: Float]
    /// For a stroke: the words it may mean, likeliest first (none: it means no word).
    public var strokeWords: [String]?

    public init(generation: Int, slots: [Slot] = [], correction: String? = nil, nextCharacters: [UInt16: Float] = [:],
                strokeWords: [String]? = nil) {
        self.generation = generation
        self.slots = slots
        self.correction = correction
        self.nextCharacters = nextCharacters
        self.strokeWords = strokeWords
    }
}

/// Turns a request into suggestions: the decoder's candidates, the user's own words, and the rules of
/// when to correct.
public struct Suggester: Sendable {
    public var decoder: Decoder
    /// Correct a typed word the dictionary lacks when the best candidate's taps cost at most this.
    public var unknownThreshold: Float = 11
    /// Correct a typed word the dictionary has only when the candidate is this much likelier (nats).
    public var knownMargin: Float = 4.5
    /// The best candidate must beat the next by this much to be applied without asking.
    public var ambiguity: Float = 0.3
    /// No correction while a completion is this much likelier than it (nats): the word is not finished.
    public var completionLead: Float = 2
    /// A completion whose taps cost at most this (a prefix typed with at most one slip) explains an unknown
    /// word well enough that what was typed needs no slot of its own.
    public var completionTouch: Float = 5.5

    /// How strokes across the keys (slide to type) are decoded.
    public var swipe = SwipeSettings()

    public init(decoder: Decoder) {
        self.decoder = decoder
    }

    /// Whether a word is never corrected: digits, '@' or '.', mostly capitals.
    public static func isExempt(_ word: String) -> Bool {
        if word.contains(where: { $0.isNumber || $0 == "@" || $0 == "." || $0 == "/" || $0 == "_" }) { return true }
        let letters = word.filter(\.isLetter)
        let capitals = letters.filter(\.isUppercase).count
        return letters.count >= 2 && capitals * 2 > letters.count
    }

    /// Whether a word has a capital after a small letter: a name or a compound ("iPhone", "UnleadedStocks"),
    /// never corrected nor split, though it may be learned.
    static func hasInnerCapital(_ word: String) -> Bool {
        zip(word, word.dropFirst()).contains { $0.isLowercase && $1.isUppercase }
    }

    public func suggest(_ request: SuggestionRequest, user: UserWords = UserWords()) -> Suggestions {
        var memo = SearchMemo()
        return suggest(request, user: user, memo: &memo)
    }

    /// The same, extending the decoder's search of the word's earlier taps that `memo` keeps.
    public func suggest(_ request: SuggestionRequest, user: UserWords = UserWords(), memo: inout SearchMemo) -> Suggestions {
        if let stroke = request.stroke {
            // The user's own words come a little likelier, the more they were typed.
            var strokes = SwipeDecoder(decoder: decoder)
            strokes.settings = swipe
            // The user's words the dictionary lacks, likelier the more they were typed (as for taps).
            let own = user.knownWords.filter { decoder.dictionary.id(of: $0) == nil }
                .map { (word: $0, language: max(4, 9 - Float(log(user.count(of: $0))))) }
            let words = strokes.decode(stroke, plan: request.plan, previous: request.previous, earlier: request.earlier, limit: 4,
                                       short: request.strokeIsShort, others: own) { Float(log(1 + user.count(of: $0))) }
            return Suggestions(generation: request.generation, strokeWords: words.map(\.word))
        }
        var result = Suggestions(generation: request.generation)
        let previous = request.previous?.lowercased()
        let context = LanguageContext(dictionary: decoder.dictionary, earlier: request.earlier, previous: previous)
        guard !request.taps.isEmpty else {
            var words = decoder.predictions(in: context, count: 6)
            if let previous {
                // The user's own pairs first.
                let own = user.knownWords.filter { user.count(of: previous, $0) >= 1 }
                words = own + words.filter { !own.contains($0) }
            }
            result.slots = words.prefix(3).map { Slot(text: Self.cased($0, like: ""), kind: .prediction) }
            return result
        }
        let typed = request.typed
        let lower = typed.lowercased()
        var candidates = decoder.decode(request.taps, plan: request.plan, touch: user.touch, context: context, memo: &memo)
        // The user's own words: aligned with the taps directly, and likelier the more they were typed.
        for word in user.knownWords where decoder.dictionary.id(of: word) == nil {
            guard let touch = Self.align(request.taps, word, model: user.touch, plan: request.plan, settings: decoder.settings)
            else { continue }
            let language = max(4, 9 - Float(log(user.count(of: word)))) * decoder.settings.languageWeight
            candidates.append(Candidate(word: word, touch: touch.cost, language: language, isCompletion: touch.isCompletion))
        }
        // A known word and an apostrophe that begins no contraction ("we'": we're, we've): its possessive is
        // what comes ("company'": company's), as likely as the word itself.
        if lower.count > 1, lower.hasSuffix("'"), decoder.dictionary.node(for: lower.utf16) == nil,
           let stem = candidates.first(where: { $0.word.lowercased() == lower.dropLast() }) {
            candidates.append(Candidate(word: stem.word + "'s", touch: stem.touch, language: stem.language, isCompletion: true))
        }
        candidates = candidates.map { candidate in
            var candidate = candidate
            let count = user.count(of: candidate.word)
            if count > 0 { candidate.language = max(0, candidate.language - Float(log(1 + count))) }
            return candidate
        }.sorted(by: Decoder.order)
        result.nextCharacters = decoder.nextCharacters(after: lower)

        // The word as the dictionary writes it: "Haus" for "haus" in German. A capitalised word the
        // dictionary lacks, within a sentence, is a name ("Walter Kistler"): never split, and corrected only for
        // a slip of typing.
        let literal = decoder.dictionary.id(of: lower).flatMap { decoder.dictionary.word($0) }
        let literalKnown = literal != nil || user.knows(lower) || isPossessive(lower) || isOldSpelling(lower)
        let rules = WritingRules(language: request.language)
        let whole = candidates.filter { !$0.isCompletion }
        let exempt = Self.isExempt(typed) || Self.hasInnerCapital(typed)
        let isName = request.previous != nil && !literalKnown && typed.first?.isUppercase == true
        // Looked up only where the word may be corrected: the worker asks on every tap.
        let mayContract = request.mayCorrect && !exempt && rules.dropsApostrophes && !user.knows(lower)
        let contracted = mayContract ? contraction(lower) : nil
        // The capital the dictionary gives ("i": I, "paris": Paris), unless the taps are far likelier another
        // word or its start ("th": the, this; not Th, a rare abbreviation).
        let literalCost = candidates.first { $0.word.lowercased() == lower }?.cost
        let capitalLikeliest = literalCost.map { cost in
            !candidates.contains { $0.word.lowercased() != lower && cost - $0.cost >= knownMargin }
        } ?? true
        if let contracted {
            // "youd": you'd, "Im": I'm, capitalised within a sentence too, as iOS puts the apostrophe back.
            result.correction = Self.cased(contracted, like: typed)
        } else if request.mayCorrect, !exempt, literalKnown, capitalLikeliest, Self.cased(literal ?? lower, like: typed) != typed {
            // "i" and "i'm" get their capital, as on iOS, and a noun in German.
            result.correction = Self.cased(literal ?? lower, like: typed)
        } else if request.mayCorrect, !exempt, !literalKnown, rules.writesOutUmlauts, let spelled = umlautsWrittenOut(lower) {
            // "fuer": für, "Muenchen": München, as where a keyboard lacks the umlauts.
            result.correction = Self.cased(spelled, like: typed)
        } else if request.mayCorrect, !exempt,
                  let best = whole.first, best.word.lowercased() != lower,
                  Self.mayBecome(lower, best.word) {
            let runnerUp = whole.dropFirst().first { $0.word.lowercased() != lower }
            let clear = runnerUp.map { $0.cost - best.cost >= ambiguity } ?? true
            let confident: Bool
            if literalKnown {
                let literal = candidates.first { $0.word.lowercased() == lower }
                confident = literal.map { $0.cost - best.cost >= knownMargin } ?? false
            } else {
                // A name the dictionary lacks ("Kang", "Hazem") is not taken for a word a letter away ("Lang",
                // "Haze"), only for the slips that leave a word unknown ("Wednedsay", "Energyy", "Katrna"), and
                // not when short: "Doss" and "Egan" are names more often than slips of "Dos" and "Megan".
                let slip = lower.count >= 5 && Self.isSlip(lower, of: best.word.lowercased())
                confident = best.touch <= unknownThreshold && clear && (!isName || slip)
                    && !Self.hasEndingAdded(lower, to: best.word.lowercased())
            }
            // A word the taps begin ("gover": government) is likelier than one they misspell ("hover").
            let completing = candidates.first { $0.isCompletion }.map { $0.cost + completionLead < best.cost } ?? false
            if confident && !completing { result.correction = Self.cased(best.word, like: typed) }
        }

        // Two words run together ("ofthe", "towhat"): the space goes in when the pair is likelier than any one
        // word, a correction's too ("that").
        if request.mayCorrect, !literalKnown, !exempt, !isName, contracted == nil,
           let split = split(lower, in: context, onlyKnownPairs: rules.writesCompounds),
           split.cost + ambiguity < (whole.first?.cost ?? .infinity) {
            result.correction = Self.cased(split.words, like: typed)
        }

        // A misspelt word's possessive ("comapny's"): the dictionary has no possessives, so the word before the
        // apostrophe is corrected on its own taps and given it back ("company's").
        if result.correction == nil, request.mayCorrect, !literalKnown, !exempt, lower.count > 3, lower.hasSuffix("'s") {
            var stem = request
            stem.taps.removeLast(2)
            if let word = suggest(stem, user: user).correction, !word.contains(" ") {
                result.correction = word + typed.suffix(2)
            }
        }

        var offered = candidates.map(\.word).filter { $0.lowercased() != lower }
        var seen = Set<String>()
        offered = offered.filter { seen.insert($0.lowercased()).inserted }
        // After an apostrophe typed, the words that have one ("who'": who's, who'd, who'll, not who).
        if lower.dropFirst().contains("'") { offered = offered.filter { $0.contains("'") } }
        // After a first letter, words it begins first ("s": so, some, still, not "a"); after a digit, only
        // those ("2" is not "a" or "the").
        if let first = lower.first, lower.count == 1 {
            let begun = offered.filter { $0.lowercased().hasPrefix(lower) }
            offered = first.isNumber ? begun : begun + offered.filter { !$0.lowercased().hasPrefix(lower) }
        }
        if let correction = result.correction {
            let others = offered.filter { $0.lowercased() != correction.lowercased() }
                .map { Slot(text: Self.cased($0, like: typed), kind: .word) }
            let corrected = Slot(text: correction, kind: .word, isCorrection: true)
            // Only a capital put in ("i": I, "paris": Paris): the word is the same, so the typed form takes no
            // slot; a delete after the space still gives it back.
            result.slots = correction.lowercased() == lower ? [corrected] + others.prefix(2)
                : [Slot(text: typed, kind: .typed), corrected] + others.prefix(1)
        } else if literalKnown {
            // A known word typed, and nothing to correct: space keeps it, so the bar offers the three likeliest
            // other words ("go": going, good, got; "o": of, on, or), as iOS gives it no slot of its own.
            result.slots = offered.prefix(3).map { Slot(text: Self.cased($0, like: typed), kind: .word) }
        } else if !candidates.contains(where: { $0.isCompletion && $0.touch <= completionTouch }) {
            // A new word keeps its slot, first, when no word the taps begin explains it.
            result.slots = [Slot(text: typed, kind: .typed)]
                + offered.prefix(2).map { Slot(text: Self.cased($0, like: typed), kind: .word) }
        } else {
            // Not a word yet: the three likeliest words the taps may be, completions and corrections alike.
            result.slots = offered.prefix(3).map { Slot(text: Self.cased($0, like: typed), kind: .word) }
        }
        return result
    }

    /// The likeliest two known words a typed word splits into, with their cost in nats: a space left out
    /// (an omission) and the pair's language cost. Single letters only where they are words of their own.
    /// In a language that writes compounds as one word, only into a pair the language model knows: there a
    /// word the dictionary lacks is more often a compound ("supernetten") than two words run together.
    func split(_ typed: String, in context: LanguageContext, onlyKnownPairs: Bool = false) -> (words: String, cost: Float)? {
        let characters = Array(typed)
        guard characters.count >= 4, characters.count < 48 else { return nil }
        let dictionary = decoder.dictionary
        var best: (words: String, cost: Float)?
        for cut in 1..<characters.count {
            let left = String(characters[..<cut]), right = String(characters[cut...])
            guard left.count > 1 || left == "a" || left == "i", right.count > 1 || right == "a",
                  let leftID = dictionary.id(of: left), let rightID = dictionary.id(of: right),
                  let leftWord = dictionary.word(leftID), let rightWord = dictionary.word(rightID),
                  !onlyKnownPairs || dictionary.pairCost(leftID, rightID) != nil else { continue }
            let cost = decoder.settings.omission + decoder.languageCost(leftID, in: context)
                + decoder.languageCost(rightID, after: leftID)
            if cost < best?.cost ?? .infinity { best = (leftWord + " " + rightWord, cost) }
        }
        return best
    }

    /// A dictionary word in the case the user typed: a capital first letter, or all capitals; "I" and its
    /// contractions always have theirs.
    public static func cased(_ word: String, like typed: String) -> String {
        var word = word
        if word == "i" || word.hasPrefix("i'") { word = "I" + word.dropFirst() }
        let letters = typed.filter(\.isLetter)
        if letters.count >= 2, letters.allSatisfy(\.isUppercase) { return word.uppercased() }
        if let first = typed.first, first.isUppercase, let head = word.first { return head.uppercased() + word.dropFirst() }
        return word
    }

    /// The cost of taps meaning a word, by a weighted edit distance: a tap against a letter by the touch
    /// model, letters skipped, doubled or swapped as edits. A word longer than the taps is a completion.
    static func align(_ taps: [Tap], _ word: String, model: TouchModel, plan: KeyPlan,
                      settings: DecoderSettings) -> (cost: Float, isCompletion: Bool)? {
        let units = Array(word.utf16)
        let n = taps.count, m = units.count
        guard n > 0, m > 0, m <= 48 else { return nil }
        let infinity = Float.infinity
        var d = [[Float]](repeating: [Float](repeating: infinity, count: m + 1), count: n + 1)
        d[0][0] = 0
        for i in 0...n {
            for j in 0...m {
                var best = d[i][j]
                if i > 0, j > 0 { best = min(best, d[i - 1][j - 1] + model.cost(taps[i - 1], units[j - 1], plan: plan)) }
                if i > 1 { best = min(best, d[i - 1][j] + settings.insertion) }
                if j > 0 { best = min(best, d[i][j - 1] + settings.omission) }
                if i > 1, j > 1, units[j - 1] != units[j - 2] {
                    best = min(best, d[i - 2][j - 2] + model.cost(taps[i - 1], units[j - 2], plan: plan)
                               + model.cost(taps[i - 2], units[j - 1], plan: plan) + settings.transposition)
                }
                d[i][j] = best
            }
        }
        // The whole word, or a completion of a prefix at least as long as the taps.
        let whole = d[n][m]
        let prefix = n < m ? (n..<m).map { d[n][$0] }.min().map { $0 + settings.completion } ?? infinity : infinity
        if whole <= prefix { return whole.isFinite ? (whole, false) : nil }
        return prefix.isFinite && n >= 2 ? (prefix, true) : nil
    }
}
