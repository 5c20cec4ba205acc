public import KeyboardModel

/// Which keyboard the engine shows (TypingEngine's part): another of the enabled ones, or the one a field
/// asks for, in the language last shown.
extension TypingEngine {
    /// Shows another enabled keyboard, on its first layer.
    public mutating func select(keyboard index: Int) {
        guard enabled.indices.contains(index) else { return }
        current = index
        if layout.type == .default && layout.language != nil { languageKeyboard = enabled[index] }
        baseLayer = layout.defaultLayer
        state.shift = .off
        autoShift = false
        state.modifiers = []
        state.lockedModifiers = []
        composer.traits = fieldTraits.applied(to: traitOverrides.applied(to: .defaults(for: layout.type)))
        composer.quotes = Quotes(language: layout.language)
        refreshEmojiIfStale()
        try? relayout()
        var update = Update()
        restartWord(&update)
        autoCapitalize(&update)
    }

    /// The keyboard for a field of a type, in the language last shown: that language's own keyboard for
    /// text, the email or URL keyboard with its letters (`LayoutLibrary.rebased`); the type's layout where
    /// there is no such keyboard. Nil when the layouts lack the type.
    public mutating func keyboard(for type: KeyboardType) -> String? {
        if type == .default, library[languageKeyboard] != nil { return languageKeyboard }
        guard library[type.rawValue] != nil else { return nil }
        return library.rebased(type.rawValue, on: languageKeyboard) ?? type.rawValue
    }

    /// Shows the keyboard of a given layout name with a Return key and the traits of the field it is for.
    /// The Globe key offers the configured keyboards, and this one while it is shown for its field.
    public mutating func show(layout name: String, returnKey: ReturnKeyType, traits: TextTraits.Overrides = .init()) {
        guard library[name] != nil else { return }
        fieldTraits = traits
        composer.reset()
        enabled = configured.contains(name) ? configured : configured + [name]
        options = LayoutOptions(returnKey: returnKey, showsGlobe: enabled.count > 1, showsDwellPause: timing.dwell > 0)
        geometryCache = [:]
        select(keyboard: enabled.firstIndex(of: name)!)
    }
}
