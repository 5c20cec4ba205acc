/// What the suggester does differently by language, in one place.
struct WritingRules {
    /// Compounds are written as one word ("Innenstadt", "regeländringarna"): two words run together are split
    /// only into a pair the language model knows.
    let writesCompounds: Bool
    /// Umlauts may come written out as two letters ("fuer" for "für"), as German writes them where a keyboard
    /// lacks them. Elsewhere "ae" or "ue" is no umlaut: a Swedish or Turkish word is left as typed.
    let writesOutUmlauts: Bool
    /// Contractions come typed without their apostrophe ("youd", "Im"), a layer away on a phone's keyboard:
    /// English. Elsewhere a word list's apostrophes are fewer, and some are no contraction (Italian's "e'o").
    let dropsApostrophes: Bool

    /// The rules of a language, by its primary tag (en, de).
    init(language: String) {
        writesCompounds = ["de", "nl", "sv", "da", "nb", "no", "fi"].contains(language)
        writesOutUmlauts = language == "de"
        dropsApostrophes = language == "en"
    }
}
