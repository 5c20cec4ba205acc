internal import KeyboardModel
public import Words

/// What the keyboard tells the learner: a word typed (and where its taps fell), or a word the user
/// kept as typed.
public enum WordEvent: Equatable, Sendable {
    case typed(String, after: String?, taps: [Tap], plan: KeyPlan)
    case kept(String)
}

/// The word being typed, for suggestions and corrections: its taps, the generation that tells a fresh
/// result from a stale one, the latest result, and the last correction (which a delete takes back).
struct WordInProgress: Sendable {
    var taps: [Tap] = []
    var generation = 0
    var result: Suggestions?
    var lastCorrection: (typed: String, correction: String)?
    /// Where the letter keys of the geometry on screen are: made anew with each layout.
    var plan = KeyPlan()
    /// How far apart the rows of letters are, centre to centre (at least a key's height).
    var rowPitch = 1.0
    /// A stroke lifted and not yet decoded.
    var pendingStroke: PendingStroke?
    /// The length of the word a stroke typed last, while it is the last thing typed: a delete takes it whole.
    var swiped: Int?
    /// The bar offers cut, copy and paste (TypingEngine+EditBar.swift) until something is typed.
    var editBar = false
    /// A word a delete brought back from its correction or replacement: the separator after it keeps it.
    var keptAsTyped: String?
}

/// Suggestions and autocorrection (TypingEngine's part): the word's taps are kept as they are typed, a
/// request is made after each change (the host decodes it on a worker), and the result, if still fresh,
/// fills the bar, decides the correction space will make and widens the keys of likely next letters.
extension TypingEngine {
    /// Characters that belong to a word.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "'" || character == "’"
    }

    /// Characters that end a word and apply its correction.
    static let separators: Set<Character> = [" ", ".", ",", "!", "?", ";", ":", ")"]

    /// Whether the bar is on screen.
    public var showsBar: Bool { geometry.keys.contains { $0.function.isSuggestion } }
    /// Whether the bar is one of words (never a terminal's: its bar holds edit actions alone).
    var showsWords: Bool { showsBar && layout.type.hasSuggestionBar && !fieldIsTerminal }

    /// Whether what is typed here may be learned: not a password, not an address, only in the dictionary's
    /// language, and only where the bar is shown (with suggestions off there is no learner).
    public var learnsWords: Bool {
        !traits.secureEntry && showsBar && layout.type.hasSuggestionBar && layout.type != .namePhonePad && inDictionaryLanguage
    }

    /// The language words are suggested and learned in: the one the keyboard shown is written in (for a
    /// keyboard of no language, an address's, the language keyboard's), when there is a dictionary for it.
    public var wordLanguage: String? { dictionaryLanguage(of: layout) }

    /// The language a keyboard's words are suggested in, when there is a dictionary for it.
    func dictionaryLanguage(of layout: Layout) -> String? {
        let primary = Language.primary(layout.language ?? library[languageKeyboard]?.language ?? "en")
        return dictionaryLanguages.contains(primary) ? primary : nil
    }

    /// Whether there is a dictionary for the keyboard shown: other languages' keyboards show no bar and
    /// correct nothing, rather than turn Greek words into English ones.
    var inDictionaryLanguage: Bool { wordLanguage != nil }

    /// The phrase a typed word stands for, where replacements apply: where the bar shows (not in
    /// passwords, addresses or terminals).
    func replacement(for typed: String) -> String? {
        // Not where a delete just brought the shortcut back: the user meant it.
        guard showsWords, !traits.secureEntry, !typed.isEmpty, typed != word.keptAsTyped else { return nil }
        return replacements.phrase(for: typed)
    }

    /// Whether the word may be corrected here.
    var mayCorrect: Bool { autocorrectionEnabled && traits.autocorrection && !traits.secureEntry }

    /// Characters that join the parts of an address, a path, a handle or a tag ("jane@paulhastings",
    /// "com/intl", "#audiobooks").
    static let addressJoiners: Set<Character> = ["@", ".", "/", "\\", "_", "#", ":", "<", "=", "&", "~", "+", "%"]

    /// Whether the word being typed follows one of those with no space: a part of an address, which is
    /// never corrected ("@gmail" is not "@email").
    var continuesAddress: Bool {
        let before = composer.record.dropLast(word.taps.count)
        return before.last.map { Self.addressJoiners.contains($0) } ?? false
    }

    /// Changes with every change of the word or of the keys: the host asks again when it differs.
    public var suggestionGeneration: Int { word.generation }

    /// The decoder's answer for the word as it is now; nil while a tap waits for the decoder and the bar
    /// is still an earlier word's or letter's.
    var currentResult: Suggestions? {
        guard let result = word.result, result.generation == word.generation else { return nil }
        return result
    }

    /// Whether the bar shows the answer for the word as it is now (or no answer is asked for).
    public var barIsCurrent: Bool { suggestionRequest() == nil || currentResult != nil }

    /// What to decode now: the word's taps and the word before; nil where no bar is shown.
    public func suggestionRequest() -> SuggestionRequest? {
        guard showsWords else { return nil }
        if let stroke = word.pendingStroke {
            let context = contextWordsForStroke()
            return SuggestionRequest(generation: word.generation, taps: [], previous: context.previous, earlier: context.earlier,
                                     plan: keyPlan(), mayCorrect: mayCorrect, language: wordLanguage ?? "en",
                                     stroke: stroke.points, strokeIsShort: stroke.short)
        }
        // A stroke's word keeps the bar of the words the stroke may also have meant.
        guard word.swiped == nil, !word.editBar else { return nil }
        let context = contextWords()
        return SuggestionRequest(generation: word.generation, taps: word.taps, previous: context.previous,
                                 earlier: context.earlier, plan: keyPlan(), mayCorrect: mayCorrect && !continuesAddress,
                                 language: wordLanguage ?? "en")
    }

    /// A decoded result: shown when it is for the word as it is now, dropped when the word moved on.
    public mutating func receive(_ suggestions: Suggestions) -> Update {
        var update = Update()
        guard suggestions.generation == word.generation, showsWords, !word.editBar else { return update }
        if word.pendingStroke != nil {
            if let words = suggestions.strokeWords {
                receiveStroke(words, &update)
                if !heldInput.isEmpty { stopHoldingInput(&update) }
            }
            return update
        }
        var suggestions = suggestions
        if let phrase = replacement(for: String(word.taps.map(\.character))) {
            // The phrase is what space makes of a shortcut: offered as the correction.
            let typed = String(word.taps.map(\.character))
            suggestions.correction = phrase
            suggestions.slots = [Slot(text: typed, kind: .typed), Slot(text: phrase, kind: .word, isCorrection: true)]
                + suggestions.slots.filter { $0.kind != .typed && $0.text.lowercased() != typed.lowercased() }.prefix(1)
        }
        word.result = suggestions
        let capital = word.taps.isEmpty && composer.wantsCapital
        let curly = traits.smartQuotes
        let before = state.bar
        state.bar = suggestions.slots.map { slot in
            // Shown as it is typed: with curly apostrophes where smart quotes are on.
            var text = curly ? String(slot.text.map { $0 == "'" ? "’" : $0 }) : slot.text
            if capital, let first = text.first { text = first.uppercased() + text.dropFirst() }
            switch slot.kind {
            case .typed: return BarSlot(text: text, look: suggestions.correction == nil ? .plain : .typed)
            case .word: return BarSlot(text: text, look: slot.isCorrection ? .correction : .plain)
            case .prediction: return BarSlot(text: text)
            }
        }
        // Only the slots that look different are drawn again, and the one after a slot whose raised face
        // came or went (it draws the line between them).
        func shown(_ bar: [BarSlot], _ slot: Int) -> BarSlot? { bar.indices.contains(slot) ? bar[slot] : nil }
        update.changedKeys = keys { function in
            guard case .suggestion(let slot) = function else { return false }
            return shown(before, slot) != shown(state.bar, slot) || shown(before, slot - 1)?.look != shown(state.bar, slot - 1)?.look
        }
        return update
    }

    /// The word before the one being typed, within the sentence.
    func previousWord() -> String? {
        wordsBefore(Substring(composer.record.dropLast(word.taps.count))).last
    }

    /// The two words before the one being typed, within the sentence: the word before and the one before
    /// that, nil past the sentence's start.
    func contextWords() -> (earlier: String?, previous: String?) {
        let words = wordsBefore(Substring(composer.record.dropLast(word.taps.count)))
        return (words.count == 2 ? words[0] : nil, words.last)
    }

    /// Up to two words at the end of `text`, oldest first, back to the sentence's start (a full stop, a
    /// question or exclamation mark or a new line). It steps back through the text's indices and makes no
    /// string but the words: it runs for every request, on the tap's thread.
    func wordsBefore(_ text: Substring) -> [String] {
        var words: [String] = []
        var end = text.endIndex
        while words.count < 2 {
            // The gap before the word; a sentence's end in it ends the context.
            while end > text.startIndex {
                let before = text.index(before: end)
                if Self.isWordCharacter(text[before]) { break }
                if let scalar = text[before].unicodeScalars.first, Composer.endsSentence(scalar) { return words }
                end = before
            }
            var start = end
            while start > text.startIndex, Self.isWordCharacter(text[text.index(before: start)]) {
                start = text.index(before: start)
            }
            guard start < end else { break }
            words.insert(String(text[start..<end].map { $0 == "’" ? "'" : $0 }), at: 0)
            end = start
        }
        return words
    }

    /// The word starts afresh from the record (after a reset, a read, a delete into a word): its letters
    /// are known, not where they were tapped.
    mutating func restartWord(_ update: inout Update) {
        var letters: [Character] = []
        for character in composer.record.reversed() {
            guard Self.isWordCharacter(character) else { break }
            letters.insert(character, at: 0)
        }
        word.taps = letters.map { Tap(character: $0 == "’" ? "'" : $0) }
        word.lastCorrection = nil
        word.swiped = nil
        wordChanged(&update)
    }

    mutating func wordChanged(_ update: inout Update) {
        word.generation += 1
        update.wordChanged = true
    }

    /// A letter typed by a tap (at its point) or otherwise.
    mutating func typedIntoWord(_ text: String, point: (x: Double, y: Double)?, _ update: inout Update) {
        word.lastCorrection = nil
        word.swiped = nil
        word.editBar = false
        // Past 48 characters it is no word: the taps stop being kept (and decoded).
        if text.count == 1, let character = text.first, Self.isWordCharacter(character), word.taps.count < 48 {
            word.taps.append(Tap(x: point?.x, y: point?.y, character: character == "’" ? "'" : character))
        } else {
            word.taps = []
        }
        wordChanged(&update)
    }

    /// A separator ends the word: the correction, when the result for this word has one, goes in its
    /// place; the word goes to the learner. Returns the actions for the separator, or nil when it is
    /// typed as usual.
    mutating func endWord(with separator: String, at time: Double, correcting: Bool = true,
                          _ update: inout Update) -> [KeyAction]? {
        let taps = word.taps
        // Only the learner wants the word before, and finding it reads back through the text.
        let previous = learnsWords ? previousWord() : nil
        word.taps = []
        word.lastCorrection = nil
        word.swiped = nil
        word.editBar = false
        defer { wordChanged(&update) }
        guard !taps.isEmpty else { return nil }
        let typed = String(taps.map(\.character))
        let phrase = replacement(for: typed)
        word.keptAsTyped = nil
        // A shortcut becomes its phrase, as a correction, which a delete right after takes back.
        if correcting, let phrase {
            word.lastCorrection = (typed, phrase)
            return composer.correct(count: taps.count, typed: typed, with: phrase, then: separator, at: time)
        }
        if correcting, mayCorrect, showsWords, let result = currentResult,
           var correction = result.correction, !Suggester.isExempt(typed) {
            if traits.smartQuotes { correction = String(correction.map { $0 == "'" ? "’" : $0 }) }
            word.lastCorrection = (typed, correction)
            // Two words where one was typed ("of the") teach no word.
            if learnsWords, !correction.contains(" ") {
                update.learn(wordLanguage, .typed(correction, after: previous, taps: [], plan: keyPlan()))
            }
            return composer.correct(count: taps.count, typed: typed, with: correction, then: separator, at: time)
        }
        if learnsWords { update.learn(wordLanguage, .typed(typed, after: previous, taps: taps, plan: keyPlan())) }
        return nil
    }

    /// A delete: right after a correction, what was typed comes back (and is kept from now on);
    /// otherwise the word loses its last letter.
    mutating func deletedFromWord(reverted: Bool, _ update: inout Update) {
        if reverted, let (typed, _) = word.lastCorrection {
            if learnsWords { update.learn(wordLanguage, .kept(typed)) }
            restartWord(&update)
            word.keptAsTyped = typed
            return
        }
        word.lastCorrection = nil
        if word.taps.isEmpty { restartWord(&update) } else {
            word.taps.removeLast()
            wordChanged(&update)
        }
    }

    /// A slot of the bar tapped: its word in place of the one being typed (or after the space), then a
    /// space. The typed slot keeps the word as typed and teaches it. The word on the slot is the one
    /// typed even when the bar is a letter behind (a tap faster than the decoder): the person chose
    /// what they saw; the typed slot then keeps the word as it is now.
    mutating func chooseSuggestion(_ slot: Int, at time: Double, _ update: inout Update) {
        if word.editBar || fieldIsTerminal { return chooseEditAction(slot, &update) }
        guard slot < state.bar.count, let result = word.result, slot < result.slots.count else { return }
        let typed = String(word.taps.map(\.character))
        let chosen = result.slots[slot].kind == .typed && !typed.isEmpty ? typed : state.bar[slot].text
        let previous = previousWord()
        let count = word.taps.count
        if learnsWords {
            update.learn(wordLanguage, result.slots[slot].kind == .typed ? .kept(chosen) : .typed(chosen, after: previous, taps: [], plan: keyPlan()))
        }
        var text = chosen
        if traits.smartQuotes { text = String(text.map { $0 == "'" ? "’" : $0 }) }
        if let swiped = word.swiped {
            // In place of a stroke's word: no space (the next stroke puts one in); the word it replaced
            // takes its slot, and a delete still takes the word whole.
            let replaced = String(composer.record.suffix(swiped))
            update.actions += composer.replace(count: swiped, with: text, at: time)
            restartWord(&update)
            word.swiped = text.count
            state.bar[slot] = BarSlot(text: replaced)
            word.result?.slots[slot] = Slot(text: replaced, kind: .word)
            update.changedKeys.formUnion(keys { $0.isSuggestion })
            afterKey(&update)
            return
        }
        update.actions += composer.replace(count: count, with: text + " ", at: time)
        word.taps = []
        word.lastCorrection = nil
        wordChanged(&update)
        afterKey(&update)
    }
}
