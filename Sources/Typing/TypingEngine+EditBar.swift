public import KeyboardModel

/// The edit actions in the bar (TypingEngine's part), as the iPad offers them beside its suggestions: once
/// the trackpad has moved the caret, until something is typed (the field's text read again, as the caret
/// moved, keeps them). Over a selection, cut, copy and paste; else undo, redo and paste. Paste only while
/// the clipboard holds text (the display is asked; what the bar cut or copied counts at once). Each is the
/// shortcut applications know.
extension TypingEngine {
    /// An edit action: its title in the bar and the shortcut it sends.
    struct EditAction {
        var title: String
        var key: String
        var modifiers: [String]
    }

    static let selectionActions = [EditAction(title: "Cut", key: "x", modifiers: ["Control_L"]),
                                   EditAction(title: "Copy", key: "c", modifiers: ["Control_L"])]
    static let historyActions = [EditAction(title: "Undo", key: "z", modifiers: ["Control_L"]),
                                 EditAction(title: "Redo", key: "z", modifiers: ["Control_L", "Shift_L"])]
    static let paste = EditAction(title: "Paste", key: "v", modifiers: ["Control_L"])
    /// A terminal's: copy (its own selection, made by touch or mouse) and paste, with Ctrl+Shift as
    /// terminals take them; its first slot is empty.
    static let terminalActions = [EditAction(title: "", key: "", modifiers: []),
                                  EditAction(title: "Copy", key: "c", modifiers: ["Control_L", "Shift_L"]),
                                  EditAction(title: "Paste", key: "v", modifiers: ["Control_L", "Shift_L"])]

    /// The actions the edit bar's slots hold now.
    var editActions: [EditAction] {
        if fieldIsTerminal { return Self.terminalActions }
        return (editBarSelection ? Self.selectionActions : Self.historyActions) + [Self.paste]
    }

    /// A terminal's field shown: its bar offers copy, and paste while the clipboard holds text.
    public mutating func offerTerminalEditBar() -> Update {
        var update = Update()
        if fieldIsTerminal && showsBar { offerEditActions(selection: false, &update) }
        return update
    }

    /// The bar offers the edit actions for a selection, or for none; and the display is asked whether
    /// the clipboard holds text.
    mutating func offerEditActions(selection: Bool, _ update: inout Update) {
        word.editBar = true
        editBarSelection = selection
        showEditActions(&update)
        update.asksClipboard = true
    }

    private mutating func showEditActions(_ update: inout Update) {
        state.bar = editActions.map { BarSlot(text: $0.key == "v" && !clipboardHasText ? "" : $0.title) }
        update.changedKeys.formUnion(keys { $0.isSuggestion })
    }

    /// What the display says of the clipboard: Paste comes or goes in the edit bar.
    public mutating func clipboardChanged(hasText: Bool) -> Update {
        var update = Update()
        guard hasText != clipboardHasText else { return update }
        clipboardHasText = hasText
        if word.editBar && showsBar { showEditActions(&update) }
        return update
    }

    /// A slot of the edit bar tapped: its shortcut goes to the application. The bar stays, to paste
    /// what was cut or copied elsewhere, or undo again.
    mutating func chooseEditAction(_ slot: Int, _ update: inout Update) {
        let actions = editActions
        guard slot < actions.count, slot < state.bar.count, !state.bar[slot].text.isEmpty else { return }
        update.actions.append(.keysym(actions[slot].key, modifiers: actions[slot].modifiers))
        if !fieldIsTerminal && editBarSelection && actions[slot].key != "v" {
            // What was selected is on the clipboard now; cut, it is gone, and the bar offers undo and paste.
            clipboardHasText = true
            if actions[slot].key == "x" { editBarSelection = false }
            showEditActions(&update)
        }
        // The text around the caret changed, or the caret moved: the record starts afresh.
        composer.reset()
    }
}
