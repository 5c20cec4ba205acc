import Basics

/// How a typed word relates to the dictionary's words, beside the decoder's costs: a possessive or an old
/// spelling of a known word, umlauts written out, a contraction without its apostrophe, and the slips and
/// endings that decide whether it may be corrected at all.
extension Suggester {
    /// Whether a word is a known word's possessive ("company's", "Arafat's"), which the dictionary does not
    /// list.
    func isPossessive(_ lower: String) -> Bool {
        guard lower.count > 3, lower.hasSuffix("'s") || lower.hasSuffix("’s") else { return false }
        return decoder.dictionary.id(of: String(lower.dropLast(2))) != nil
    }

    /// Whether a word is a known one in German's spelling before 1996, ß where it now has ss ("daß", "läßt"):
    /// written so on purpose, and no slip to correct ("daß" became "da").
    func isOldSpelling(_ lower: String) -> Bool {
        lower.contains("ß") && decoder.dictionary.id(of: lower.replacingAll("ß", with: "ss")) != nil
    }

    /// The known word a word is with its umlauts written out as two letters ("fuer": für), if any.
    func umlautsWrittenOut(_ lower: String) -> String? {
        let spelled = [("ae", "ä"), ("oe", "ö"), ("ue", "ü")].reduce(lower) { $0.replacingAll($1.0, with: $1.1) }
        guard spelled != lower else { return nil }
        return decoder.dictionary.id(of: spelled).flatMap { decoder.dictionary.word($0) }
    }

    /// The contraction a word is with its apostrophe left out ("youd": you'd, "im": I'm), if the dictionary
    /// has one; the commonest where it has several. A word the dictionary knows too ("cant", "whats") is one
    /// only where the contraction is `contractionLead` commoner: "its", "lets", "ill" and "well" stay.
    func contraction(_ lower: String) -> String? {
        guard lower.count > 1, !lower.contains("'") else { return nil }
        let dictionary = decoder.dictionary
        let cost = { (id: UInt32) in Float(dictionary.cost(id) ?? .max) / DictionaryFormat.costScale }
        let ids = lower.indices.dropFirst().compactMap { cut in
            dictionary.id(of: lower[..<cut] + "'" + lower[cut...])
        }
        guard let best = ids.min(by: { cost($0) < cost($1) }) else { return nil }
        if let known = dictionary.id(of: lower), cost(known) - cost(best) < Self.contractionLead { return nil }
        return dictionary.word(best)
    }

    /// How much commoner (in nats: some 30 times) a contraction must be than the word it is without its
    /// apostrophe: "can't" than "cant" and "what's" than "whats" are, "it's" than "its" is not.
    static let contractionLead: Float = 3.5

    /// Whether a typed word may be corrected to another at all: never a single letter (a variable, an
    /// initial) nor to one, a word of up to three letters only by a letter more or less, and never to a
    /// word without the apostrophe typed.
    static func mayBecome(_ typed: String, _ word: String) -> Bool {
        guard typed.count >= 2, word.count >= 2 else { return false }
        // An apostrophe is typed a layer away, on purpose: it stays ("students'" is not "students").
        if typed.contains("'") && !word.contains("'") { return false }
        return typed.count > 3 || abs(word.count - typed.count) <= 1
    }

    /// Whether `typed` is `word` with one of the slips of typing: a letter doubled, two neighbouring letters
    /// swapped, or a letter left out.
    static func isSlip(_ typed: String, of word: String) -> Bool {
        let typed = Array(typed), word = Array(word)
        switch typed.count - word.count {
        case 1:
            return typed.indices.dropFirst().contains { typed[$0] == typed[$0 - 1] && Array(typed[..<$0] + typed[($0 + 1)...]) == word }
        case 0:
            let differ = typed.indices.filter { typed[$0] != word[$0] }
            return differ.count == 2 && differ[1] == differ[0] + 1
                && typed[differ[0]] == word[differ[1]] && typed[differ[1]] == word[differ[0]]
        case -1:
            return word.indices.contains { Array(word[..<$0] + word[($0 + 1)...]) == typed }
        default:
            return false
        }
    }

    /// Whether `typed` is `word` with a letter more at its end, not its last again ("tumörers" for "tumörer",
    /// "counterparty" for "counterpart"): more often an ending the dictionary lacks than a slip.
    static func hasEndingAdded(_ typed: String, to word: String) -> Bool {
        typed.count == word.count + 1 && typed.hasPrefix(word) && typed.last != word.last
    }
}
