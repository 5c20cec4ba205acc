public import KeyboardModel

/// Cut, copy and paste in the bar (TypingEngine's part), as the iPad offers them beside its suggestions:
/// after the trackpad selected text, or moved the caret after a cut or copy, until something is typed (the
/// field's text read again, as the caret moved, keeps them). Each is the shortcut applications know.
extension TypingEngine {
    static let editActions: [(title: String, key: String)] = [("Cut", "x"), ("Copy", "c"), ("Paste", "v")]

    /// The bar offers the edit actions: all three over a selection, else paste alone.
    mutating func offerEditActions(selection: Bool, _ update: inout Update) {
        word.editBar = true
        state.bar = Self.editActions.map { BarSlot(text: selection || $0.key == "v" ? $0.title : "") }
        update.changedKeys.formUnion(keys { $0.isSuggestion })
    }

    /// A slot of the edit bar tapped: its shortcut goes to the application. The bar stays, to paste
    /// what was cut or copied elsewhere.
    mutating func chooseEditAction(_ slot: Int, _ update: inout Update) {
        guard slot < Self.editActions.count, slot < state.bar.count, !state.bar[slot].text.isEmpty else { return }
        update.actions.append(.keysym(Self.editActions[slot].key, modifiers: ["Control_L"]))
        if Self.editActions[slot].key != "v" { clipboardFilled = true }
        // The text around the caret changed, or the caret moved: the record starts afresh.
        composer.reset()
    }
}
