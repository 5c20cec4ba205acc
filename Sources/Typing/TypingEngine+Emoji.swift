public import KeyboardModel

/// The emoji keyboard in the engine: it is a layout like the others (`EmojiBoard.layout()`), made anew where
/// the user's doing changes it: the recent tab, a skin tone chosen, the search typed.
extension TypingEngine {
    /// Adds the emoji keyboard to the enabled keyboards, before the desktop keyboard (or last), unless it is
    /// there already.
    public mutating func addEmoji(_ board: EmojiBoard) {
        emoji = board
        library.add(board.layout())
        // A board read whole after its first page (or a first one): its pages are new.
        dropCachedGeometry(of: EmojiBoard.name)
        emojiRecentStale = false
        guard !configured.contains(EmojiBoard.name) else { return }
        let place = configured.firstIndex(of: KeyboardType.desktop.rawValue) ?? configured.count
        configured.insert(EmojiBoard.name, at: place)
        let shown = enabled[current]
        enabled.insert(EmojiBoard.name, at: min(place, enabled.count))
        current = enabled.firstIndex(of: shown)!
        if !options.showsGlobe {
            options.showsGlobe = true
            try? relayout()
        }
    }

    /// The emoji keyboard's layout as the board is now; the geometry of the layer on screen made again.
    mutating func emojiChanged(_ update: inout Update, whole: Bool = false) {
        guard let emoji, var layout = library[EmojiBoard.name] else { return }
        if whole { layout = emoji.layout() } else {
            emoji.setSearchRows(&layout)
            emoji.updatingRecent(&layout)
        }
        emojiRecentStale = false
        library.add(layout)
        dropCachedGeometry(of: EmojiBoard.name)
        if enabled[current] == EmojiBoard.name { try? relayout() }
        update.redrawAll = true
    }

    /// A popup's choice, picked by a finger or by scanning: an accent is typed; an emoji's tone is typed and
    /// kept as that emoji's choice.
    mutating func typeAlternate(_ text: String, at time: Double, _ update: inout Update) {
        if layout.type == .emoji { typeEmoji(text, at: time, &update) } else { typeText(text, at: time, &update) }
    }

    /// An emoji typed from the emoji keyboard: it ends the word, as a space would not, and goes first in the
    /// recent tab (never from a password field); a toned form becomes its emoji's tone.
    mutating func typeEmoji(_ text: String, at time: Double, _ update: inout Update) {
        update.actions += composer.type(text, at: time)
        restartWord(&update)
        afterKey(&update)
        guard !traits.secureEntry, let tones = emoji?.tones, emoji?.used(text) == true else { return }
        update.emojiMemoryChanged = true
        // The recent tab changes under no finger: it is made again when it is next shown.
        if emoji?.tones != tones { emojiChanged(&update, whole: true) } else { emojiRecentStale = true }
    }

    /// A key of the search layer: the query and its results change.
    mutating func editEmojiSearch(_ edit: EmojiSearchEdit, _ update: inout Update) {
        emoji?.editQuery(edit)
        emojiChanged(&update)
    }

    /// Before a layer of the emoji keyboard is shown: the recent tab made again if emoji were typed since.
    mutating func refreshEmojiIfStale() {
        guard emojiRecentStale, layout.type == .emoji else { return }
        var update = Update()
        emojiChanged(&update)
    }

    /// The ABC key: the language keyboard last shown.
    func languageKeyboardAction() -> KeyAction {
        .selectKeyboard(enabled.firstIndex(of: languageKeyboard) ?? 0)
    }

    /// The options `layout` is laid out with as the keyboard stands: the field's Return key, the Globe and
    /// pause keys as now; its own space bar (the language's name while the Globe key switches languages),
    /// its function keys' words (a keyboard of no language speaks the language keyboard's), and a bar
    /// where its language has a dictionary.
    func shownOptions(for layout: Layout) -> LayoutOptions {
        var shown = library.options(options, for: layout, among: enabled, languageKeyboard: languageKeyboard)
        shown.showsSuggestions = suggestionsEnabled && !traits.secureEntry && dictionaryLanguage(of: layout) != nil
            && !fieldIsTerminal
        shown.showsEditBar = fieldIsTerminal && !traits.secureEntry
        return shown
    }

    /// A layer of an enabled keyboard laid out as it would be shown now (nil: its first), without showing it.
    public func geometry(of name: String, layer: String?) -> KeyboardGeometry? {
        guard let layout = library[name] else { return nil }
        // As it would be shown: its own space label, words and bar, its capitals where shift is on.
        let options = shownOptions(for: layout)
        var layer = layer
        if layer == nil, state.shift != .off, layout.layers.first == "letters", layout.layers.contains("shifted") {
            layer = "shifted"
        }
        return try? KeyboardLayoutEngine.layout(layout, layer: layer, width: size.width, height: size.height, options: options)
    }
}
