public import KeyboardModel

/// Changes the settings panel makes while the keyboard runs: the keyboards of the Globe key's cycle, the
/// traits chosen over the keyboards' own, and the panel's own rows as their values change.
extension TypingEngine {
    /// The enabled keyboards, in Globe order, become `names` (those the library has); the keyboard shown
    /// stays, unless it was taken away, when the first takes its place.
    public mutating func setKeyboards(_ names: [String]) {
        let kept = names.filter { library[$0] != nil }
        guard !kept.isEmpty else { return }
        let shown = enabled[current]
        configured = kept
        enabled = kept
        options.showsGlobe = enabled.count > 1 || settingsInList
        select(keyboard: enabled.firstIndex(of: shown) ?? 0)
    }

    /// Traits chosen over every keyboard's own (autocapitalization, smart punctuation), at once.
    public mutating func setTraitOverrides(_ overrides: TextTraits.Overrides) {
        traitOverrides = overrides
        composer.traits = fieldTraits.applied(to: overrides.applied(to: .defaults(for: layout.type)))
        var update = Update()
        autoCapitalize(&update)
    }

    /// The settings panel made again (a row's value changed): the same page stays on screen.
    public mutating func replaceLayout(_ layout: Layout) {
        library.add(layout)
        dropCachedGeometry(of: layout.name)
        if !layout.layers.contains(baseLayer) { baseLayer = layout.defaultLayer }
        try? relayout()
    }

    /// Shows a layer of the keyboard on screen (a page of the settings panel).
    public mutating func showLayer(_ layer: String) {
        guard layout.layers.contains(layer) else { return }
        baseLayer = layer
        try? relayout()
    }
}
