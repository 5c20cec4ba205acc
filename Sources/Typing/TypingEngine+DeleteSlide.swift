public import KeyboardModel

/// Sliding left from delete (TypingEngine's part), as Gboard has it: the words before the caret are
/// selected one by one as the finger goes left (a key width a word), and back as it returns; lifting
/// deletes them, and a slide back to the start deletes nothing. The character the press deleted comes
/// back when the slide begins. Where a selection cannot be shown (the desktop keyboard: terminals), the
/// words are counted in what the keyboard typed and deleted on lifting.
struct DeleteSlide: Sendable {
    /// Words selected now.
    var words = 0
}

extension TypingEngine {
    /// How far left of where it went down (key widths) a delete press must go to slide, and how far
    /// each further word is.
    static let deleteSlideStart = 0.6
    static let deleteSlideWord = 0.8

    /// A press on delete moved: true when it slides (and moves from key to key no more).
    mutating func deleteSlid(_ touch: inout Touch, _ event: InputEvent, _ update: inout Update) -> Bool {
        guard touch.key < geometry.keys.count, geometry.keys[touch.key].function == .keysym("BackSpace"),
              !traits.secureEntry || touch.deleteSlide != nil else { return false }
        let left = (touch.start.x - event.x) / word.plan.keyWidth
        if touch.deleteSlide == nil {
            guard left >= Self.deleteSlideStart, touch.accepted, touch.repeats == 0 else { return false }
            touch.deleteSlide = DeleteSlide()
            touch.nextRepeat = nil
            // What the press deleted comes back: the slide decides what goes.
            if let deleted = touch.deleted {
                update.actions += composer.type(String(deleted), at: event.time)
                restartWord(&update)
            }
        }
        guard var slide = touch.deleteSlide else { return false }
        let available = selectableWords()
        let wanted = min(max(0, Int(((left - Self.deleteSlideStart) / Self.deleteSlideWord).rounded(.down)) + 1), available ?? .max)
        if layout.type != .desktop {
            // The selection grows or shrinks by words, where the application shows it.
            let key = wanted > slide.words ? "Left" : "Right"
            update.actions += Array(repeating: .keysym(key, modifiers: ["Control_L", "Shift_L"]), count: abs(wanted - slide.words))
        }
        slide.words = wanted
        touch.deleteSlide = slide
        return true
    }

    /// A delete slide lifted: the words selected go.
    mutating func deleteSlideEnded(_ slide: DeleteSlide, _ update: inout Update) {
        guard slide.words > 0 else { return }
        if layout.type == .desktop {
            // No selection in a terminal: the words' characters, counted in the record.
            let count = charactersOfLastWords(slide.words)
            update.actions += composer.erase(count: count)
        } else {
            update.actions.append(.keysym("BackSpace", modifiers: []))
            let count = charactersOfLastWords(slide.words)
            _ = composer.erase(count: count)
        }
        restartWord(&update)
        autoCapitalize(&update)
    }

    /// How many words the record holds (nil where it holds nothing known: as many as the finger asks).
    func selectableWords() -> Int? {
        let record = composer.record
        guard !record.isEmpty else { return layout.type == .desktop ? 0 : nil }
        return record.split(whereSeparator: { !Self.isWordCharacter($0) }).count
    }

    /// The characters of the last `words` words of the record with what follows each (as Ctrl+Left
    /// selects them).
    func charactersOfLastWords(_ words: Int) -> Int {
        let record = Array(composer.record)
        var count = 0
        for _ in 0..<words {
            while count < record.count, !Self.isWordCharacter(record[record.count - 1 - count]) { count += 1 }
            while count < record.count, Self.isWordCharacter(record[record.count - 1 - count]) { count += 1 }
        }
        return count
    }
}
